// The registry's log: the compacted `_schemas` topic (one partition, as Confluent's kafkastore.topic), written
// through the broker's produce path (ReplicaManager.appendRecords) and read back as Confluent's KafkaStore reader
// does: every record in offset order, from the start at start-up, then from where the last read ended (so a
// record another writer appended, such as a Confluent registry pointed at gregor, is seen too).
import type { ReplicaManager } from '../broker/replica-manager.js';
import { ErrorCode, errorName } from '../protocol/error-codes.js';
import { decodeBatchRecords, encodeRecordBatch, isControl, readBatchHeader } from '../protocol/records/index.js';
import { StorageError } from '../storage/errors.js';
import { replayBatches } from '../storage/log-replay.js';
import { storeError } from './errors.js';

export const SCHEMAS_TOPIC = '_schemas';

/** Bytes per read when replaying the topic. */
const READ_BYTES = 1024 * 1024;
/** The Produce version whose framing the registry's own batches follow (v2 record batches). */
const PRODUCE_VERSION = 9;

export interface SchemasRecord {
  readonly key: Buffer;
  readonly value: Buffer | null;
}

export class SchemasTopic {
  /** The next offset to read, in the topic of this id (a deleted and re-created topic starts over). */
  private next = 0;
  private topicId: string | undefined;

  constructor(
    private readonly replicaManager: ReplicaManager,
    private readonly now: () => number,
  ) {}

  /** Reads run one after another: each record is handed out once. */
  private reading: Promise<void> = Promise.resolve();

  /**
   * Hands every record not yet read to `apply`, in offset order; `restart` first when the topic was deleted (or
   * deleted and created again) since the last read: what was read from it no longer stands.
   */
  catchUp(apply: (record: SchemasRecord, offset: number) => void, restart: () => void): Promise<void> {
    const next = this.reading.then(() => this.read(apply, restart));
    this.reading = next.catch(() => undefined);
    return next;
  }

  private async read(apply: (record: SchemasRecord, offset: number) => void, restart: () => void): Promise<void> {
    const topicId = this.replicaManager.store.topic(SCHEMAS_TOPIC)?.topicId;
    if (this.topicId !== undefined && topicId !== this.topicId) {
      restart();
      this.next = 0;
    }
    this.topicId = topicId;
    const log = this.replicaManager.store.log(SCHEMAS_TOPIC, 0);
    if (log === undefined) return;
    if (this.next < log.logStartOffset) this.next = log.logStartOffset;
    if (this.next >= log.logEndOffset) return;
    for await (const batch of replayBatches(log, this.next, READ_BYTES)) {
      const header = readBatchHeader(batch);
      if (!isControl(header.attributes)) {
        for (const record of decodeBatchRecords(batch)) {
          if (record.offset < this.next || record.key === null) continue;
          apply({ key: record.key, value: record.value }, record.offset);
        }
      }
      this.next = Math.max(this.next, header.baseOffset + header.lastOffsetDelta + 1);
    }
  }

  /** Appends the records as one batch (created with cleanup.policy=compact on the first write). */
  async append(records: readonly SchemasRecord[]): Promise<void> {
    const store = this.replicaManager.store;
    if (store.topic(SCHEMAS_TOPIC) === undefined) {
      try {
        await store.createTopic(SCHEMAS_TOPIC, 1, { 'cleanup.policy': 'compact' });
      } catch (error) {
        // Created meanwhile (by a client): it is used as it is.
        if (!(error instanceof StorageError && error.code === 'TOPIC_ALREADY_EXISTS')) throw error;
      }
    }
    const now = this.now();
    const batch = encodeRecordBatch({ records: records.map((r) => ({ timestamp: now, key: r.key, value: r.value })) });
    const outcome = await this.replicaManager.appendRecords(SCHEMAS_TOPIC, 0, batch, { apiVersion: PRODUCE_VERSION, internalTopicsAllowed: true });
    if (outcome.errorCode !== ErrorCode.NONE) throw storeError(`Error while writing to the Kafka store: ${errorName(outcome.errorCode)}`);
  }
}
