/**
 * The share coordinator (KIP-932), as Kafka 4.3.1's ShareCoordinatorService over its runtime: the durable delivery
 * state of every share partition in __share_group_state (created on first use with Kafka's configs:
 * cleanup.policy=delete, retention.ms=-1). A request is split per share partition; each runs on ShareStateShard,
 * its records are replayed at once and appended to the partition of __share_group_state that owns the key (appends
 * in order per partition), and the answer is given once they are in the log. Loaded at start-up like
 * __consumer_offsets. Two timers of the broker's clock, as Kafka's service: every
 * share.coordinator.cold.partition.snapshot.interval.ms a fresh snapshot of the share partitions nobody wrote to
 * (ShareStateShard.coldSnapshots), and every share.coordinator.state.topic.prune.interval.ms each partition's log
 * start moves up to the oldest latest snapshot it holds (redundant-offsets.ts), so the topic does not grow forever.
 * A deleted topic's share partitions get tombstones (onTopicsDeleted).
 */
import type { BrokerConfig } from '../../config/index.js';
import { autoCreateTopic } from '../../broker/auto-create.js';
import { PARTITION_LEADER_EPOCH } from '../../broker/leader-epoch.js';
import type { BrokerTopicStats } from '../../broker/broker-topic-stats.js';
import { ErrorCode } from '../../protocol/error-codes.js';
import { decodeBatchRecords, encodeRecordBatch, readBatchHeader, isControl } from '../../protocol/records/index.js';
import { SHARE_GROUP_STATE_TOPIC } from '../../protocol/topic-names.js';
import type { LogStore } from '../../storage/log-store.js';
import type { PartitionLog } from '../../storage/log.js';
import { replayBatches } from '../../storage/log-replay.js';
import { silentLog, type Log } from '../../log.js';
import { systemScheduler, type Scheduler } from '../../storage/scheduler.js';
import { kafkaAbs, javaStringHashCode } from '../runtime/java-hash.js';
import {
  coordinatorKey,
  decodeShareStateRecord,
  encodeShareStateKey,
  encodeShareStateValue,
  type SharePartitionKey,
  type ShareStateRecord,
} from './records.js';
import { RedundantOffsets } from './redundant-offsets.js';
import { ShareStateShard, type PartitionAnswer, type ReadAnswer, type ShardResult, type SummaryAnswer, type WriteData } from './share-state-shard.js';

export { SHARE_GROUP_STATE_TOPIC };

const NOT_AVAILABLE: PartitionAnswer = { errorCode: ErrorCode.COORDINATOR_NOT_AVAILABLE, errorMessage: 'Share coordinator is not available.' };

export interface ShareCoordinatorOptions {
  readonly store: LogStore;
  readonly config: () => BrokerConfig;
  /** Clock; tests pass a ManualScheduler. Default: real time. */
  readonly scheduler?: Scheduler;
  readonly log?: Log;
  /** Whether the periodic jobs run (Kafka's shouldRunPeriodicJob: share.version >= 1). Default: always. */
  readonly periodicJobs?: () => boolean;
  /** The broker's per-topic counts: writes to __share_group_state are counted there, as Kafka's BrokerTopicMetrics. */
  readonly topicStats?: BrokerTopicStats;
}

export class ShareCoordinator {
  readonly shard: ShareStateShard;
  private readonly tails = new Map<number, Promise<unknown>>();
  private readonly log: Log;
  private active = false;
  private readonly now: () => number;
  private readonly scheduler: Scheduler;
  /** Per __share_group_state partition: the offsets of its share partitions' latest snapshots. */
  private readonly redundant = new Map<number, RedundantOffsets>();
  /** Per partition: the offset it was last pruned to (Kafka's lastPrunedOffsets). */
  private readonly lastPruned = new Map<number, number>();
  /** The periodic jobs' pending timers, by their interval's key. */
  private readonly timers = new Map<string, () => void>();

  private constructor(private readonly options: ShareCoordinatorOptions) {
    this.log = options.log ?? silentLog();
    const scheduler = options.scheduler ?? systemScheduler;
    this.scheduler = scheduler;
    this.now = () => scheduler.now();
    this.shard = new ShareStateShard({
      updatesPerSnapshot: () => options.config()['share.coordinator.snapshot.update.records.per.snapshot'],
      now: this.now,
      partitionCount: (topicId) => options.store.topicById(topicId)?.partitions,
    });
  }

  /** Loads __share_group_state (when it exists) and starts serving. */
  static async open(options: ShareCoordinatorOptions): Promise<ShareCoordinator> {
    const coordinator = new ShareCoordinator(options);
    let records = 0;
    if (options.store.topic(SHARE_GROUP_STATE_TOPIC) !== undefined) {
      const maxBytes = options.config()['share.coordinator.load.buffer.size'];
      for (let partition = 0; partition < coordinator.partitions; partition++) {
        const log = coordinator.partitionLog(partition);
        for await (const batch of replayBatches(log, log.logStartOffset, maxBytes)) {
          if (isControl(readBatchHeader(batch).attributes)) continue;
          for (const r of decodeBatchRecords(batch)) {
            try {
              const record = r.key === null ? null : decodeShareStateRecord(r.key, r.value);
              if (record !== null) {
                coordinator.shard.replay(record);
                coordinator.track(partition, record, r.offset);
                records++;
              }
            } catch (error) {
              coordinator.log.warn(`skipping unreadable share state record: ${SHARE_GROUP_STATE_TOPIC}-${partition} offset ${r.offset}: ${(error as Error).message}`);
            }
          }
        }
      }
    }
    coordinator.active = true;
    if (records > 0) coordinator.log.info({ records }, 'share coordinator loaded');
    coordinator.every('share.coordinator.state.topic.prune.interval.ms', () => coordinator.prune());
    coordinator.every('share.coordinator.cold.partition.snapshot.interval.ms', () => coordinator.snapshotColdPartitions());
    return coordinator;
  }

  get isActive(): boolean {
    return this.active;
  }

  /** The partition count: the topic's when it exists, else share.coordinator.state.topic.num.partitions. */
  get partitions(): number {
    return this.options.store.topic(SHARE_GROUP_STATE_TOPIC)?.partitions ?? this.options.config()['share.coordinator.state.topic.num.partitions'];
  }

  /** Kafka's ShareCoordinatorService.partitionFor: abs(hash of "group:topicId:partition") % partitions. */
  partitionFor(key: SharePartitionKey): number {
    return kafkaAbs(javaStringHashCode(coordinatorKey(key))) % this.partitions;
  }

  /** Whether __share_group_state exists (its partitions are loaded; before, the APIs answer NOT_COORDINATOR). */
  get hasStateTopic(): boolean {
    return this.options.store.topic(SHARE_GROUP_STATE_TOPIC) !== undefined;
  }

  /** Creates __share_group_state as Kafka's FindCoordinator (key type SHARE) does. */
  async ensureTopic(): Promise<void> {
    await autoCreateTopic(this.options.store, this.options.config(), SHARE_GROUP_STATE_TOPIC);
  }

  initialize(key: SharePartitionKey, stateEpoch: number, startOffset: number): Promise<PartitionAnswer> {
    if (!this.active) return Promise.resolve(NOT_AVAILABLE);
    return this.run(key, this.shard.initialize(key, stateEpoch, startOffset), NOT_AVAILABLE);
  }

  write(key: SharePartitionKey, data: WriteData): Promise<PartitionAnswer> {
    if (!this.active) return Promise.resolve(NOT_AVAILABLE);
    return this.run(key, this.shard.write(key, data), NOT_AVAILABLE);
  }

  read(key: SharePartitionKey, leaderEpoch: number): Promise<ReadAnswer> {
    const unavailable: ReadAnswer = { ...NOT_AVAILABLE, stateEpoch: 0, startOffset: 0, stateBatches: [] };
    if (!this.active) return Promise.resolve(unavailable);
    return this.run(key, this.shard.read(key, leaderEpoch), unavailable);
  }

  summary(key: SharePartitionKey): SummaryAnswer {
    if (!this.active) return { ...NOT_AVAILABLE, stateEpoch: 0, leaderEpoch: 0, startOffset: 0, deliveryCompleteCount: 0 };
    return this.shard.summary(key);
  }

  delete(key: SharePartitionKey): Promise<PartitionAnswer> {
    if (!this.active) return Promise.resolve(NOT_AVAILABLE);
    return this.run(key, this.shard.delete(key), NOT_AVAILABLE);
  }

  /**
   * Kafka's snapshotColdPartitions on every partition of __share_group_state: the cold share partitions' fresh
   * snapshots, appended to the partition that holds them. Resolves once written.
   */
  async snapshotColdPartitions(): Promise<void> {
    if (!this.active || !this.hasStateTopic) return;
    const interval = this.options.config()['share.coordinator.cold.partition.snapshot.interval.ms'];
    const writes: Promise<unknown>[] = [];
    for (let partition = 0; partition < this.partitions; partition++) {
      const records = this.shard.coldSnapshots(interval, (key) => this.partitionFor(key) === partition);
      if (records.length === 0) continue;
      for (const record of records) this.shard.replay(record);
      writes.push(this.append(partition, records).catch((error: unknown) => this.log.error({ err: error }, `writing cold share partition snapshots to ${SHARE_GROUP_STATE_TOPIC}-${partition} failed`)));
    }
    await Promise.all(writes);
  }

  /**
   * Kafka's maybeCleanupShareState (on its metadata's deleted topics): a tombstone for every share partition of the
   * deleted topics, so their state neither comes back at a load nor holds pruning back. Resolves once written.
   */
  async onTopicsDeleted(topicIds: readonly string[]): Promise<void> {
    if (!this.active) return;
    const deleted = new Set(topicIds);
    const byPartition = new Map<number, ShareStateRecord[]>();
    for (const key of this.shard.keys()) {
      if (!deleted.has(key.topicId)) continue;
      const partition = this.partitionFor(key);
      byPartition.set(partition, [...(byPartition.get(partition) ?? []), { type: 'snapshot', key, value: null }]);
    }
    await Promise.all([...byPartition].map(([partition, records]) => {
      for (const record of records) this.shard.replay(record);
      return this.append(partition, records).catch((error: unknown) => this.log.error({ err: error }, `writing deleted topics' share state tombstones to ${SHARE_GROUP_STATE_TOPIC}-${partition} failed`));
    }));
  }

  /**
   * Kafka's performRecordPruning on every partition: DeleteRecords up to the last redundant offset, unless the
   * partition was already pruned there. Resolves once done; a failure is logged and tried again next time.
   */
  async prune(): Promise<void> {
    if (!this.active || !this.hasStateTopic) return;
    for (const [partition, offsets] of this.redundant) {
      const offset = offsets.lastRedundantOffset();
      if (offset === undefined || this.lastPruned.get(partition) === offset) continue;
      try {
        await this.partitionLog(partition).deleteRecordsBefore(offset);
        this.lastPruned.set(partition, offset);
        this.log.debug(`pruned ${SHARE_GROUP_STATE_TOPIC}-${partition} up to offset ${offset}`);
      } catch (error) {
        this.log.error({ err: error }, `pruning ${SHARE_GROUP_STATE_TOPIC}-${partition} up to offset ${offset} failed`);
      }
    }
  }

  /** Stops serving and the timers; resolves once every queued write is in the log. */
  async close(): Promise<void> {
    this.active = false;
    for (const cancel of this.timers.values()) cancel();
    this.timers.clear();
    await Promise.all(this.tails.values());
  }

  /** Runs `job` every `intervalKey` ms of the clock, the next run timed from the end of the last (Kafka's timer tasks). */
  private every(intervalKey: 'share.coordinator.state.topic.prune.interval.ms' | 'share.coordinator.cold.partition.snapshot.interval.ms', job: () => Promise<void>): void {
    const schedule = (): void => {
      this.timers.set(intervalKey, this.scheduler.after(this.options.config()[intervalKey], () => {
        if (!this.active) return;
        const run = this.options.periodicJobs?.() === false ? Promise.resolve() : job();
        void run.catch((error: unknown) => this.log.error({ err: error }, `${intervalKey} job failed`)).finally(() => {
          if (this.active) schedule();
        });
      }));
    };
    schedule();
  }

  /** A snapshot (or its tombstone) at `offset` of `partition` is now the latest of its share partition. */
  private track(partition: number, record: ShareStateRecord, offset: number): void {
    if (record.type !== 'snapshot') return;
    let offsets = this.redundant.get(partition);
    if (offsets === undefined) this.redundant.set(partition, (offsets = new RedundantOffsets()));
    offsets.update(record.key, offset, record.value === null);
  }

  /** Replays the result's records, appends them, and answers once they are written (the failure answer otherwise). */
  private async run<R>(key: SharePartitionKey, result: ShardResult<R>, failure: R): Promise<R> {
    if (result.records.length === 0) return result.response;
    for (const record of result.records) this.shard.replay(record);
    try {
      await this.append(this.partitionFor(key), result.records);
      return result.response;
    } catch (error) {
      this.log.error({ err: error }, `writing to ${SHARE_GROUP_STATE_TOPIC} failed`);
      return failure;
    }
  }

  /** Appends in order per partition; once written, the snapshots' offsets are tracked for pruning. */
  private append(partition: number, records: readonly ShareStateRecord[]): Promise<void> {
    const run = async (): Promise<void> => {
      await autoCreateTopic(this.options.store, this.options.config(), SHARE_GROUP_STATE_TOPIC);
      const now = this.now();
      const batch = encodeRecordBatch({ records: records.map((r) => ({ timestamp: now, key: encodeShareStateKey(r), value: encodeShareStateValue(r) })) });
      const { baseOffset } = await this.partitionLog(partition).append(batch, { leaderEpoch: PARTITION_LEADER_EPOCH, now });
      records.forEach((record, i) => this.track(partition, record, baseOffset + i));
      this.options.topicStats?.countAppend(SHARE_GROUP_STATE_TOPIC, records.length, batch.length);
    };
    const tail = (this.tails.get(partition) ?? Promise.resolve()).then(run, run);
    this.tails.set(partition, tail.catch(() => undefined));
    return tail;
  }

  private partitionLog(partition: number): PartitionLog {
    const log = this.options.store.log(SHARE_GROUP_STATE_TOPIC, partition);
    if (log === undefined) throw new Error(`${SHARE_GROUP_STATE_TOPIC}-${partition} does not exist`);
    return log;
  }
}
