/**
 * The share coordinator's state, as Kafka 4.3.1's ShareCoordinatorShard: per share partition (group, topic id,
 * partition) its ShareGroupOffset, the highest leader and state epochs seen, and how many ShareUpdates followed the
 * last ShareSnapshot. Pure and replay-driven: each operation returns the records to write and the answer; the
 * runtime (share-coordinator.ts) appends the records to __share_group_state and replays them. One operation covers
 * one share partition, as Kafka's service splits a request per key.
 */
import { ErrorCode, errorInfo } from '../../protocol/error-codes.js';
import { ZERO_UUID } from '../../protocol/uuid.js';
import { coordinatorKey, type ShareGroupOffset, type SharePartitionKey, type ShareStateRecord, type StateBatch } from './records.js';
import { combineStateBatches } from './state-batches.js';

export const NULL_TOPIC_ID = 'The topic id cannot be null.';
export const NEGATIVE_PARTITION_ID = 'The partition id cannot be a negative number.';
export const WRITE_UNINITIALIZED_SHARE_PARTITION = 'Write operation on uninitialized share partition not allowed.';
export const READ_UNINITIALIZED_SHARE_PARTITION = 'Read operation on uninitialized share partition not allowed.';

/** One partition's answer: an error (code and message) or success. */
export interface PartitionAnswer {
  readonly errorCode: number;
  readonly errorMessage: string | null;
}

export interface ReadAnswer extends PartitionAnswer {
  readonly stateEpoch: number;
  readonly startOffset: number;
  readonly stateBatches: readonly StateBatch[];
}

export interface SummaryAnswer extends PartitionAnswer {
  readonly stateEpoch: number;
  readonly leaderEpoch: number;
  readonly startOffset: number;
  readonly deliveryCompleteCount: number;
}

export interface WriteData {
  readonly stateEpoch: number;
  readonly leaderEpoch: number;
  readonly startOffset: number;
  readonly deliveryCompleteCount: number;
  readonly stateBatches: readonly StateBatch[];
}

export interface ShardResult<R> {
  readonly records: ShareStateRecord[];
  readonly response: R;
}

export interface ShareStateShardOptions {
  /** share.coordinator.snapshot.update.records.per.snapshot. */
  readonly updatesPerSnapshot: () => number;
  readonly now: () => number;
  /** The partition count of a topic id, undefined when the topic does not exist (Kafka's metadata image). */
  readonly partitionCount: (topicId: string) => number | undefined;
}

const error = (code: number, message?: string | null): PartitionAnswer => ({ errorCode: code, errorMessage: message === undefined ? errorInfo(code).message : message });
const OK: PartitionAnswer = { errorCode: ErrorCode.NONE, errorMessage: null };
const none = <R>(response: R): ShardResult<R> => ({ records: [], response });

export class ShareStateShard {
  private readonly state = new Map<string, { key: SharePartitionKey; offset: ShareGroupOffset }>();
  private readonly leaderEpochs = new Map<string, number>();
  private readonly stateEpochs = new Map<string, number>();
  private readonly updateCounts = new Map<string, number>();

  constructor(private readonly options: ShareStateShardOptions) {}

  /** The state of one share partition (tests, DescribeShareGroupOffsets), if initialized. */
  get(key: SharePartitionKey): ShareGroupOffset | undefined {
    return this.state.get(coordinatorKey(key))?.offset;
  }

  /** Every share partition with state (the offsets admin). */
  keys(): SharePartitionKey[] {
    return [...this.state.values()].map((s) => s.key);
  }

  replay(record: ShareStateRecord): void {
    const id = coordinatorKey(record.key);
    if (record.type === 'snapshot') {
      if (record.value === null) {
        this.state.delete(id);
        this.leaderEpochs.delete(id);
        this.stateEpochs.delete(id);
        this.updateCounts.delete(id);
        return;
      }
      raise(this.leaderEpochs, id, record.value.leaderEpoch);
      raise(this.stateEpochs, id, record.value.stateEpoch);
      this.state.set(id, { key: record.key, offset: record.value });
      const count = this.updateCounts.get(id);
      if (count !== undefined && count >= this.options.updatesPerSnapshot()) this.updateCounts.set(id, 0);
      return;
    }
    raise(this.leaderEpochs, id, record.value.leaderEpoch);
    const current = this.state.get(id);
    this.state.set(id, { key: record.key, offset: current === undefined ? record.value : merge(current.offset, record.value) });
    const count = this.updateCounts.get(id);
    this.updateCounts.set(id, count === undefined ? 0 : count + 1);
  }

  initialize(key: SharePartitionKey, stateEpoch: number, startOffset: number): ShardResult<PartitionAnswer> {
    const invalid = this.checkKey(key);
    if (invalid !== undefined) return none(invalid);
    const id = coordinatorKey(key);
    const known = this.stateEpochs.get(id);
    if (stateEpoch !== -1 && known !== undefined && known > stateEpoch) return none(error(ErrorCode.FENCED_STATE_EPOCH));
    const missing = this.checkTopic(key);
    if (missing !== undefined) return none(missing);
    const current = this.state.get(id)?.offset;
    const now = this.options.now();
    const value: ShareGroupOffset = {
      snapshotEpoch: current === undefined ? 0 : current.snapshotEpoch + 1,
      stateEpoch,
      leaderEpoch: 0,
      startOffset,
      deliveryCompleteCount: startOffset === -1 ? -1 : 0,
      createTimestamp: now,
      writeTimestamp: now,
      stateBatches: [],
    };
    return { records: [{ type: 'snapshot', key, value }], response: OK };
  }

  write(key: SharePartitionKey, data: WriteData): ShardResult<PartitionAnswer> {
    const invalid = this.checkKey(key);
    if (invalid !== undefined) return none(invalid);
    const id = coordinatorKey(key);
    if (!this.state.has(id)) return none(error(ErrorCode.INVALID_REQUEST, WRITE_UNINITIALIZED_SHARE_PARTITION));
    const leader = this.leaderEpochs.get(id);
    if (data.leaderEpoch !== -1 && leader !== undefined && leader > data.leaderEpoch) return none(error(ErrorCode.FENCED_LEADER_EPOCH));
    const known = this.stateEpochs.get(id);
    if (data.stateEpoch !== -1 && known !== undefined && known > data.stateEpoch) return none(error(ErrorCode.FENCED_STATE_EPOCH));
    const missing = this.checkTopic(key);
    if (missing !== undefined) return none(missing);
    return { records: [this.stateRecord(key, data, false)], response: OK };
  }

  /** ReadShareGroupState: the state; a read from a newer leader epoch records that epoch (a snapshot), as Kafka's readStateAndMaybeUpdateLeaderEpoch. */
  read(key: SharePartitionKey, leaderEpoch: number): ShardResult<ReadAnswer> {
    const failed = (answer: PartitionAnswer): ShardResult<ReadAnswer> => none({ ...answer, stateEpoch: 0, startOffset: 0, stateBatches: [] });
    const invalid = this.checkKey(key);
    if (invalid !== undefined) return failed(invalid);
    const id = coordinatorKey(key);
    const current = this.state.get(id)?.offset;
    if (current === undefined) return failed(error(ErrorCode.INVALID_REQUEST, READ_UNINITIALIZED_SHARE_PARTITION));
    const leader = this.leaderEpochs.get(id);
    if (leaderEpoch !== -1 && leader !== undefined && leader > leaderEpoch) return failed(error(ErrorCode.FENCED_LEADER_EPOCH));
    const missing = this.checkTopic(key);
    if (missing !== undefined) return failed(missing);
    const response: ReadAnswer = { ...OK, stateEpoch: current.stateEpoch, startOffset: current.startOffset, stateBatches: current.stateBatches };
    if (leaderEpoch === -1 || leader === leaderEpoch) return none(response);
    const data: WriteData = { stateEpoch: current.stateEpoch, leaderEpoch, startOffset: current.startOffset, deliveryCompleteCount: current.deliveryCompleteCount, stateBatches: [] };
    return { records: [this.stateRecord(key, data, true)], response };
  }

  /** ReadShareGroupStateSummary: an uninitialized partition answers start offset -1 (no error), as Kafka's readStateSummary. */
  summary(key: SharePartitionKey): SummaryAnswer {
    const failed = (answer: PartitionAnswer): SummaryAnswer => ({ ...answer, stateEpoch: 0, leaderEpoch: 0, startOffset: 0, deliveryCompleteCount: 0 });
    const invalid = this.checkKey(key);
    if (invalid !== undefined) return failed(invalid);
    const missing = this.checkTopic(key);
    if (missing !== undefined) return failed(missing);
    const current = this.state.get(coordinatorKey(key))?.offset;
    if (current === undefined) return { ...OK, stateEpoch: 0, leaderEpoch: 0, startOffset: -1, deliveryCompleteCount: -1 };
    return { ...OK, stateEpoch: current.stateEpoch, leaderEpoch: current.leaderEpoch, startOffset: current.startOffset, deliveryCompleteCount: current.deliveryCompleteCount };
  }

  /** DeleteShareGroupState: a tombstone; a partition without state answers success and writes nothing. */
  delete(key: SharePartitionKey): ShardResult<PartitionAnswer> {
    const invalid = this.checkKey(key);
    if (invalid !== undefined) return none(invalid);
    const missing = this.checkTopic(key);
    if (missing !== undefined) return none(missing);
    if (!this.state.has(coordinatorKey(key))) return none(OK);
    return { records: [{ type: 'snapshot', key, value: null }], response: OK };
  }

  /**
   * Kafka's snapshotColdPartitions, over the share partitions `holds` picks (one __share_group_state partition's): a
   * fresh ShareSnapshot (snapshot epoch + 1, write timestamp now, the rest as it is) of each whose last snapshot was
   * written `intervalMs` or more ago, so pruning is not held back by a share partition nobody writes to. Nothing when
   * every one of them already had such a snapshot (its write timestamp differs from its create timestamp): an idle
   * partition is snapshotted once, not every interval.
   */
  coldSnapshots(intervalMs: number, holds: (key: SharePartitionKey) => boolean): ShareStateRecord[] {
    const held = [...this.state.values()].filter((s) => holds(s.key));
    if (held.every((s) => s.offset.createTimestamp !== s.offset.writeTimestamp)) return [];
    const now = this.options.now();
    return held
      .filter((s) => now - s.offset.writeTimestamp >= intervalMs)
      .map((s) => ({ type: 'snapshot', key: s.key, value: { ...s.offset, snapshotEpoch: s.offset.snapshotEpoch + 1, writeTimestamp: now } }));
  }

  /**
   * Kafka's generateShareStateRecord: a ShareSnapshot (the whole state, snapshot epoch + 1) when asked or after
   * updates.per.snapshot ShareUpdates, else a ShareUpdate holding only the write's batches.
   */
  private stateRecord(key: SharePartitionKey, data: WriteData, snapshot: boolean): ShareStateRecord {
    const id = coordinatorKey(key);
    const current = this.state.get(id)!.offset;
    const leaderEpoch = data.leaderEpoch === -1 ? current.leaderEpoch : data.leaderEpoch;
    if (snapshot || (this.updateCounts.get(id) ?? 0) >= this.options.updatesPerSnapshot()) {
      const startOffset = data.startOffset === -1 ? current.startOffset : data.startOffset;
      const now = this.options.now();
      return {
        type: 'snapshot',
        key,
        value: {
          snapshotEpoch: current.snapshotEpoch + 1,
          stateEpoch: current.stateEpoch,
          leaderEpoch,
          startOffset,
          deliveryCompleteCount: data.deliveryCompleteCount,
          createTimestamp: now,
          writeTimestamp: now,
          stateBatches: combineStateBatches(current.stateBatches, data.stateBatches, startOffset),
        },
      };
    }
    return {
      type: 'update',
      key,
      value: {
        snapshotEpoch: current.snapshotEpoch,
        stateEpoch: -1,
        leaderEpoch,
        startOffset: data.startOffset,
        deliveryCompleteCount: data.deliveryCompleteCount,
        createTimestamp: 0,
        writeTimestamp: 0,
        stateBatches: combineStateBatches([], data.stateBatches, data.startOffset),
      },
    };
  }

  private checkKey(key: SharePartitionKey): PartitionAnswer | undefined {
    if (key.topicId === ZERO_UUID) return error(ErrorCode.INVALID_REQUEST, NULL_TOPIC_ID);
    if (key.partition < 0) return error(ErrorCode.INVALID_REQUEST, NEGATIVE_PARTITION_ID);
    return undefined;
  }

  private checkTopic(key: SharePartitionKey): PartitionAnswer | undefined {
    const count = this.options.partitionCount(key.topicId);
    if (count === undefined || key.partition >= count) return error(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
    return undefined;
  }
}

function raise(map: Map<string, number>, id: string, epoch: number): void {
  const current = map.get(id);
  if (current === undefined || current < epoch) map.set(id, epoch);
}

/** Kafka's merge of a ShareUpdate into the current state: its batches over the current ones, -1 keeps a field. */
function merge(current: ShareGroupOffset, update: ShareGroupOffset): ShareGroupOffset {
  const startOffset = update.startOffset === -1 ? current.startOffset : update.startOffset;
  return {
    snapshotEpoch: current.snapshotEpoch,
    stateEpoch: current.stateEpoch,
    leaderEpoch: update.leaderEpoch === -1 ? current.leaderEpoch : update.leaderEpoch,
    startOffset,
    deliveryCompleteCount: update.deliveryCompleteCount,
    createTimestamp: current.createTimestamp,
    writeTimestamp: current.writeTimestamp,
    stateBatches: combineStateBatches(current.stateBatches, update.stateBatches, startOffset),
  };
}
