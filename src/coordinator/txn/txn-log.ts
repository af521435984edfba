// __transaction_state as the transaction coordinator's log: created on first use with Kafka's settings
// (transaction.state.log.num.partitions, compact), one record per state change appended in order per
// partition, and read back at start-up (last record per transactional id wins).
import type { BrokerConfig } from '../../config/index.js';
import { autoCreateTopic, TRANSACTION_STATE_TOPIC } from '../../broker/auto-create.js';
import { ErrorCode, errorName } from '../../protocol/error-codes.js';
import { KafkaError } from '../../protocol/kafka-error.js';
import { decodeBatchRecords, encodeRecordBatch, isControl, readBatchHeader } from '../../protocol/records/index.js';
import type { LogStore } from '../../storage/log-store.js';
import { replayBatches } from '../../storage/log-replay.js';
import { partitionForGroup } from '../runtime/java-hash.js';
import { decodeTxnRecord, encodeTxnKey, encodeTxnValue, txnValueVersion, type TxnRecord } from './txn-records.js';

export { TRANSACTION_STATE_TOPIC };

/** Appends one batch to a partition of an internal topic; resolves with Kafka's error code. */
export type BatchAppender = (topic: string, partition: number, batch: Buffer) => Promise<number>;

/** A failed append to __transaction_state, carrying the append's code. */
export class TxnLogError extends KafkaError {
  constructor(errorCode: number) {
    super(KafkaError.fromCode(errorCode).code, `writing to ${TRANSACTION_STATE_TOPIC} failed: ${errorName(errorCode)}`);
  }
}

export class TxnLog {
  private readonly tails = new Map<number, Promise<unknown>>();

  constructor(
    private readonly store: LogStore,
    private readonly config: BrokerConfig,
    private readonly appendBatch: BatchAppender,
    private readonly now: () => number,
  ) {}

  get partitions(): number {
    return this.store.topic(TRANSACTION_STATE_TOPIC)?.partitions ?? this.config['transaction.state.log.num.partitions'];
  }

  /** Kafka's TransactionStateManager.partitionFor: Utils.abs(transactionalId.hashCode) % partitions. */
  partitionFor(transactionalId: string): number {
    return partitionForGroup(transactionalId, this.partitions);
  }

  async ensureTopic(): Promise<void> {
    if (this.store.topic(TRANSACTION_STATE_TOPIC) === undefined) await autoCreateTopic(this.store, this.config, TRANSACTION_STATE_TOPIC);
  }

  /**
   * Appends the record after every earlier append to its partition; rejects with TxnLogError.
   * `transactionVersionLevel`: the finalized transaction.version, which picks the value version.
   */
  append(record: TxnRecord, transactionVersionLevel: number): Promise<void> {
    const partition = this.partitionFor(record.transactionalId);
    const run = async (): Promise<void> => {
      await this.ensureTopic();
      const batch = encodeRecordBatch({
        records: [{ timestamp: this.now(), key: encodeTxnKey(record.transactionalId), value: encodeTxnValue(record.value, txnValueVersion(transactionVersionLevel)) }],
      });
      const errorCode = await this.appendBatch(TRANSACTION_STATE_TOPIC, partition, batch);
      if (errorCode !== ErrorCode.NONE) throw new TxnLogError(errorCode);
    };
    const tail = (this.tails.get(partition) ?? Promise.resolve()).then(run, run);
    this.tails.set(partition, tail.catch(() => undefined));
    return tail;
  }

  async settledAll(): Promise<void> {
    await Promise.all(this.tails.values());
  }

  /** Reads every partition in log order; returns the records read and those skipped as unreadable. */
  async load(replay: (record: TxnRecord) => void, onBadRecord: (message: string) => void): Promise<{ records: number; skipped: number }> {
    let records = 0;
    let skipped = 0;
    if (this.store.topic(TRANSACTION_STATE_TOPIC) === undefined) return { records, skipped };
    const maxBytes = this.config['transaction.state.log.load.buffer.size'];
    for (let partition = 0; partition < this.partitions; partition++) {
      const log = this.store.log(TRANSACTION_STATE_TOPIC, partition);
      if (log === undefined) continue;
      for await (const batch of replayBatches(log, log.logStartOffset, maxBytes)) {
        if (isControl(readBatchHeader(batch).attributes)) continue;
        for (const r of decodeBatchRecords(batch)) {
          try {
            if (r.key === null) throw new Error('record without a key');
            replay(decodeTxnRecord(r.key, r.value));
            records++;
          } catch (error) {
            skipped++;
            onBadRecord(`${TRANSACTION_STATE_TOPIC}-${partition} offset ${r.offset}: ${(error as Error).message}`);
          }
        }
      }
    }
    return { records, skipped };
  }
}
