// Produce v12+ (KIP-890 part 2, Kafka's AddPartitionsToTxnManager with the addPartition operation): a
// transactional producer's first batch on a partition in a transaction adds the partition to the transaction
// before it is appended; the client no longer sends AddPartitionsToTxn. The transaction coordinator (a layer
// above) passes itself in as the TransactionPartitionAdder; this file holds what the produce path decides, and
// how a failed add or verification (KIP-890 part 1, Produce ≤ v11) reaches the producer.
import { ErrorCode, errorName } from '../protocol/error-codes.js';
import { BATCH_HEADER_SIZE, isTransactional, readBatchHeader, type BatchHeader } from '../protocol/records/index.js';
import type { RecordsValue } from '../protocol/io/writer.js';

/** Adds partitions (topic → partitions) to the producer's transaction (transaction version 2); resolves with the coordinator's one code. */
export type TransactionPartitionAdder = (transactionalId: string, producerId: number, producerEpoch: number, partitions: ReadonlyMap<string, readonly number[]>) => Promise<number>;

interface PendingAdd {
  readonly partitions: Map<string, number[]>;
  readonly result: Promise<number>;
}

/**
 * Gathers the adds one Produce request makes (its partitions are appended in one synchronous pass) into one call
 * to the coordinator per producer, as Kafka's ReplicaManager sends all of a request's partitions in one
 * AddPartitionsToTxn: added one by one, the second would find the first's write in progress.
 */
export class PartitionAddBatcher {
  private readonly pending = new Map<string, PendingAdd>();

  constructor(private readonly adder: TransactionPartitionAdder) {}

  add(transactionalId: string, producerId: number, producerEpoch: number, topic: string, partition: number): Promise<number> {
    const key = `${producerId}:${producerEpoch}:${transactionalId}`;
    let batch = this.pending.get(key);
    if (batch === undefined) {
      const partitions = new Map<string, number[]>();
      const result = new Promise<void>((resolve) => queueMicrotask(resolve)).then(() => {
        this.pending.delete(key);
        return this.adder(transactionalId, producerId, producerEpoch, partitions);
      });
      this.pending.set(key, (batch = { partitions, result }));
    }
    const list = batch.partitions.get(topic);
    if (list === undefined) batch.partitions.set(topic, [partition]);
    else list.push(partition);
    return batch.result;
  }
}

/**
 * Kafka's produceRequestVersionToTransactionSupportedOperation: Produce v12+ adds the partition (addPartition),
 * v11 takes the coordinator's errors as they are (genericErrorSupported), older versions get them converted.
 */
export function produceAddsPartitionToTxn(apiVersion: number): boolean {
  return apiVersion >= 12;
}
const GENERIC_ERRORS_FROM_VERSION = 11;

const MAGIC_V2 = 2;
const MAGIC_OFFSET = 16;

/** The header of the records' first batch when it is a transactional v2 batch (else undefined: nothing to add). */
export function transactionalBatchHeader(records: RecordsValue | null): BatchHeader | undefined {
  const first = records === null ? undefined : Buffer.isBuffer(records) ? records : records[0];
  if (first === undefined || first.length < BATCH_HEADER_SIZE || first.readInt8(MAGIC_OFFSET) !== MAGIC_V2) return undefined;
  const header = readBatchHeader(first);
  return header.producerId >= 0 && isTransactional(header.attributes) ? header : undefined;
}

/**
 * What the producer sees when the coordinator did not add or verify its partition (Kafka's
 * AddPartitionsToTxnManager, then ReplicaManager's postVerificationCallback): TRANSACTION_ABORTABLE as
 * INVALID_TXN_STATE before Produce v11 (older clients do not know it), a fenced epoch as INVALID_PRODUCER_EPOCH,
 * the coordinator's retriable answers as NOT_ENOUGH_REPLICAS (which every client retries without a metadata
 * refresh); INVALID_TXN_STATE and NOT_ENOUGH_REPLICAS carry Kafka's message.
 */
export function produceVerificationFailure(errorCode: number, apiVersion: number): { errorCode: number; message: string | null } {
  if (errorCode === ErrorCode.TRANSACTION_ABORTABLE && apiVersion < GENERIC_ERRORS_FROM_VERSION) errorCode = ErrorCode.INVALID_TXN_STATE;
  switch (errorCode) {
    case ErrorCode.PRODUCER_FENCED:
      return { errorCode: ErrorCode.INVALID_PRODUCER_EPOCH, message: null };
    case ErrorCode.INVALID_TXN_STATE:
      return { errorCode, message: 'Partition was not added to the transaction' };
    case ErrorCode.CONCURRENT_TRANSACTIONS:
    case ErrorCode.NETWORK_EXCEPTION:
    case ErrorCode.COORDINATOR_LOAD_IN_PROGRESS:
    case ErrorCode.COORDINATOR_NOT_AVAILABLE:
    case ErrorCode.NOT_COORDINATOR:
      return {
        errorCode: ErrorCode.NOT_ENOUGH_REPLICAS,
        message: `Unable to verify the partition has been added to the transaction. Underlying error: ${errorName(errorCode)}`,
      };
    default:
      return { errorCode, message: null };
  }
}
