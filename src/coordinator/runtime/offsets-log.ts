/**
 * __consumer_offsets as the coordinator's log: created on first use with Kafka's settings
 * (offsets.topic.num.partitions, cleanup.policy=compact), appended to in order per partition, read back at
 * load. The log cleaner bounds its growth, as in Kafka: it keeps the latest record per key, tombstones until
 * delete.retention.ms, and transactional offsets with their markers, so a load replays to the same state.
 */
import type { BrokerConfig } from '../../config/index.js';
import { autoCreateTopic, CONSUMER_OFFSETS_TOPIC } from '../../broker/auto-create.js';
import { PARTITION_LEADER_EPOCH } from '../../broker/leader-epoch.js';
import type { BrokerTopicStats } from '../../broker/broker-topic-stats.js';
import {
  ControlRecordType,
  decodeBatchRecords,
  encodeRecordBatch,
  isControl,
  isTransactional,
  readBatchHeader,
  readTransactionMarker,
  type RecordInput,
} from '../../protocol/records/index.js';
import type { LogStore } from '../../storage/log-store.js';
import type { PartitionLog } from '../../storage/log.js';
import { replayBatches } from '../../storage/log-replay.js';
import { decodeRecord, encodeRecordKey, encodeRecordValue } from '../group/record-serde.js';
import type { GroupRecord, OffsetCommitRecord } from '../group/records.js';
import { partitionForGroup } from './java-hash.js';

export { CONSUMER_OFFSETS_TOPIC };

/** Records per batch when many are written at once (a DeleteGroups of a big group). */
const RECORDS_PER_BATCH = 1000;

export interface LoadStats {
  readonly records: number;
  readonly skipped: number;
}

/** The producer of a transactional offset commit (TxnOffsetCommit): its records are written as its batch. */
export interface TxnProducer {
  readonly producerId: number;
  readonly producerEpoch: number;
}

/** Where load holds transactional offset commits until their marker (the coordinator's PendingTxnOffsets). */
export interface TxnOffsetHold {
  add(producerId: number, partition: number, records: readonly OffsetCommitRecord[]): void;
  take(producerId: number, partition: number): OffsetCommitRecord[];
}

export class OffsetsLog {
  /** Per partition: the tail of its append chain (appends run one after another, in call order). */
  private readonly tails = new Map<number, Promise<unknown>>();

  constructor(
    private readonly store: LogStore,
    private readonly config: BrokerConfig,
    private readonly now: () => number,
    /** Where the appends are counted (Kafka's BrokerTopicMetrics count coordinator writes). */
    private readonly stats?: BrokerTopicStats,
  ) {}

  /** The partition count: the topic's when it exists (fixed at creation), else the configured one. */
  get partitions(): number {
    return this.store.topic(CONSUMER_OFFSETS_TOPIC)?.partitions ?? this.config['offsets.topic.num.partitions'];
  }

  partitionFor(groupId: string): number {
    return partitionForGroup(groupId, this.partitions);
  }

  exists(): boolean {
    return this.store.topic(CONSUMER_OFFSETS_TOPIC) !== undefined;
  }

  /** Creates the topic as Kafka does on the first FindCoordinator. */
  async ensureTopic(): Promise<void> {
    if (!this.exists()) await autoCreateTopic(this.store, this.config, CONSUMER_OFFSETS_TOPIC);
  }

  /**
   * Appends the records of one partition after every earlier append to it; resolves once they are in
   * the OS. `onAppended` runs in the chain right after the write, before the next append starts.
   */
  append(partition: number, records: readonly GroupRecord[], onAppended?: () => void, producer?: TxnProducer): Promise<void> {
    const run = async (): Promise<void> => {
      await this.ensureTopic();
      const log = this.log(partition);
      const bytes = await appendRecords(log, records, this.now(), producer);
      this.stats?.countAppend(CONSUMER_OFFSETS_TOPIC, records.length, bytes);
      onAppended?.();
    };
    const tail = (this.tails.get(partition) ?? Promise.resolve()).then(run, run);
    this.tails.set(partition, tail.catch(() => undefined));
    return tail;
  }

  /** Resolves once every append queued so far on the partition has finished. */
  async settled(partition: number): Promise<void> {
    await this.tails.get(partition);
  }

  async settledAll(): Promise<void> {
    await Promise.all(this.tails.values());
  }

  /** Reads every partition (or those `only` names) from its start, handing each record to `replay` in log order. */
  async load(replay: (record: GroupRecord) => void, onBadRecord: (message: string) => void, pending: TxnOffsetHold, only?: ReadonlySet<number>): Promise<LoadStats> {
    let records = 0;
    let skipped = 0;
    if (!this.exists()) return { records, skipped };
    const maxBytes = this.config['offsets.load.buffer.size'];
    for (let partition = 0; partition < this.partitions; partition++) {
      if (only !== undefined && !only.has(partition)) continue;
      const log = this.log(partition);
      for await (const batch of replayBatches(log, log.logStartOffset, maxBytes)) {
        const header = readBatchHeader(batch);
        // Transactional offset commits wait for their marker: COMMIT replays them, ABORT drops them.
        if (isControl(header.attributes)) {
          const held = pending.take(header.producerId, partition);
          try {
            if (held.length > 0 && readTransactionMarker(batch).type === ControlRecordType.COMMIT) held.forEach(replay);
          } catch (error) {
            onBadRecord(`${CONSUMER_OFFSETS_TOPIC}-${partition} offset ${header.baseOffset}: ${(error as Error).message}`);
          }
          continue;
        }
        const transactional = isTransactional(header.attributes);
        for (const r of decodeBatchRecords(batch)) {
          try {
            if (r.key === null) throw new Error('record without a key');
            const record = decodeRecord(r.key, r.value);
            if (record === null) skipped++;
            else if (transactional) {
              if (record.type === 'offset') pending.add(header.producerId, partition, [record]);
              records++;
            } else {
              replay(record);
              records++;
            }
          } catch (error) {
            skipped++;
            onBadRecord(`${CONSUMER_OFFSETS_TOPIC}-${partition} offset ${r.offset}: ${(error as Error).message}`);
          }
        }
      }
    }
    return { records, skipped };
  }

  private log(partition: number): PartitionLog {
    const log = this.store.log(CONSUMER_OFFSETS_TOPIC, partition);
    if (log === undefined) throw new Error(`${CONSUMER_OFFSETS_TOPIC}-${partition} does not exist`);
    return log;
  }
}

/** Appends the records as batches of at most RECORDS_PER_BATCH, in one append. */
/** Returns the bytes appended. */
async function appendRecords(log: PartitionLog, records: readonly GroupRecord[], now: number, producer?: TxnProducer): Promise<number> {
  if (records.length === 0) return 0;
  const batches: Buffer[] = [];
  for (let i = 0; i < records.length; i += RECORDS_PER_BATCH) {
    const inputs: RecordInput[] = records.slice(i, i + RECORDS_PER_BATCH).map((record) => ({
      timestamp: now,
      key: encodeRecordKey(record),
      value: encodeRecordValue(record),
    }));
    const txn = producer === undefined ? {} : { producerId: producer.producerId, producerEpoch: producer.producerEpoch, isTransactional: true };
    batches.push(encodeRecordBatch({ ...txn, records: inputs }));
  }
  const bytes = batches.length === 1 ? batches[0]! : Buffer.concat(batches);
  await log.append(bytes, { leaderEpoch: PARTITION_LEADER_EPOCH, now });
  return bytes.length;
}
