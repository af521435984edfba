// Reads the partitions of one Fetch the way ReplicaManager.readFromLog does: in order, each at most its
// partition_max_bytes and what is left of the response's max_bytes; the first batch is returned whole even
// when larger, but only until some partition has returned data (KIP-74). Each log is looked up once per fetch
// (resolveFetchPartition), and each read takes the high watermark, last stable offset and log start offset once,
// before reading, as Kafka's Partition.fetchRecords reports them.
import { ErrorCode } from '../protocol/error-codes.js';
import { KafkaError } from '../protocol/kafka-error.js';
import { OffsetOutOfRangeError } from '../storage/errors.js';
import type { LogStore } from '../storage/log-store.js';
import type { FetchTarget } from './fetch-context.js';
import { leaderEpochError, logLeaderEpoch } from './leader-epoch.js';
import { lastOffsetAt, splitBatches } from '../protocol/records/index.js';
import type { PartitionLog } from '../storage/log.js';
import type { AbortedTxn } from './producer-states.js';
import { endOffsetForEpoch } from './partition-epochs.js';

export const READ_UNCOMMITTED = 0;
export const READ_COMMITTED = 1;

export interface PartitionRead {
  errorCode: number;
  /** Resolved topic name ('' when the id is unknown). */
  topic: string;
  highWatermark: number;
  lastStableOffset: number;
  logStartOffset: number;
  records: Buffer[];
  bytes: number;
  /** Set when the client's last fetched epoch ends before its fetch offset (the log diverged). */
  divergingEpoch: { epoch: number; endOffset: number } | null;
  /** Error found before the log was read (unknown topic or partition): Kafka answers these from KafkaApis. */
  beforeRead: boolean;
  /** read_committed: the aborted transactions overlapping the records returned (their data is to be skipped). */
  abortedTransactions: AbortedTxn[];
}

/** What a read needs to know of transactions: the last stable offset and the aborted-transaction index. */
export interface TransactionView {
  lastStableOffset(log: PartitionLog, highWatermark: number): number;
  abortedTransactions(log: PartitionLog, fetchOffset: number, upperBound: number): AbortedTxn[];
}

export interface ReadLimits {
  /** The response's byte budget: min(max_bytes, fetch.max.bytes). */
  readonly maxBytes: number;
  readonly isolationLevel: number;
  /** Open and aborted transactions (the broker's ProducerStates); none known without it. */
  readonly transactions?: TransactionView;
  /** A follower's fetch: read up to the log end (Kafka's FetchLogEnd), whatever the isolation level. */
  readonly fromFollower?: boolean;
}

/** A fetch target with its log, or the error Kafka answers before reading (unknown topic, id or partition). */
export type FetchPartition =
  | { readonly target: FetchTarget; readonly topic: string; readonly log: PartitionLog }
  | { readonly target: FetchTarget; readonly failed: PartitionRead };

export function resolveFetchPartition(store: LogStore, target: FetchTarget, usesTopicIds: boolean, readable?: (topic: string) => boolean): FetchPartition {
  const topic = usesTopicIds ? store.topicById(target.topicId) : store.topic(target.topic);
  if (topic === undefined && usesTopicIds) return { target, failed: errorRead(ErrorCode.UNKNOWN_TOPIC_ID, target.topic, true) };
  // As KafkaApis: READ on the topic is checked before its existence, so an unauthorized client learns nothing of it.
  const name = topic?.name ?? target.topic;
  if (readable !== undefined && !readable(name)) return { target, failed: errorRead(ErrorCode.TOPIC_AUTHORIZATION_FAILED, name, true) };
  if (topic === undefined) return { target, failed: errorRead(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, target.topic, true) };
  const log = store.log(topic.name, target.partition);
  if (log === undefined) return { target, failed: errorRead(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, topic.name, true) };
  return { target, topic: topic.name, log };
}

/** A partition answered with an error and no records. */
export function errorRead(errorCode: number, topic: string, beforeRead: boolean): PartitionRead {
  return { errorCode, topic, highWatermark: -1, lastStableOffset: -1, logStartOffset: -1, records: [], bytes: 0, divergingEpoch: null, beforeRead, abortedTransactions: [] };
}

export async function readPartitions(partitions: readonly FetchPartition[], limits: ReadLimits): Promise<PartitionRead[]> {
  const early = readAheadAll(partitions, limits);
  let remaining = limits.maxBytes;
  let minOneBatch = true;
  const results: PartitionRead[] = [];
  for (let i = 0; i < partitions.length; i++) {
    const partition = partitions[i]!;
    const requestedMax = partition.target.request.maxBytes;
    const maxBytes = Math.min(requestedMax, remaining);
    const guess = early === undefined ? undefined : await early[i]!;
    const result =
      guess !== undefined && sameAsInOrder(guess, requestedMax, maxBytes, minOneBatch)
        ? unwrap(guess)
        : await readPartition(partition, limits, maxBytes, minOneBatch);
    if (result.bytes > 0) minOneBatch = false;
    remaining = Math.max(0, remaining - result.bytes);
    results.push(result);
  }
  return results;
}

type EarlyRead = { ok: true; read: PartitionRead } | { ok: false; error: unknown };

/**
 * The partitions' file reads run at once on libuv's threads when their partition_max_bytes add up to no more than
 * the response's budget: each is read as if first (its whole max, the first batch even when larger), and the in-order
 * pass above keeps a read only where the in-order rules would have produced the same one. Memory stays bounded by
 * the response's budget, as in order.
 */
function readAheadAll(partitions: readonly FetchPartition[], limits: ReadLimits): Promise<EarlyRead>[] | undefined {
  if (partitions.length < 2) return undefined;
  let sum = 0;
  for (const partition of partitions) sum += partition.target.request.maxBytes;
  if (sum > limits.maxBytes) return undefined;
  return partitions.map((partition) =>
    readPartition(partition, limits, partition.target.request.maxBytes, true).then(
      (read): EarlyRead => ({ ok: true, read }),
      (error: unknown): EarlyRead => ({ ok: false, error }),
    ),
  );
}

/** A read made with (max, minOneBatch=true) equals the in-order one when the budget left did not cut its max and
 * the first-batch exception either applied in order too or was not needed (everything returned fits the max). */
function sameAsInOrder(early: EarlyRead, readMax: number, inOrderMax: number, inOrderMinOneBatch: boolean): boolean {
  if (inOrderMax !== readMax) return false;
  if (inOrderMinOneBatch) return true;
  return early.ok && early.read.bytes <= readMax;
}

function unwrap(early: EarlyRead): PartitionRead {
  if (early.ok) return early.read;
  throw early.error;
}

async function readPartition(partition: FetchPartition, limits: ReadLimits, maxBytes: number, minOneBatch: boolean): Promise<PartitionRead> {
  if ('failed' in partition) return partition.failed;
  const { target, topic, log } = partition;
  const epochError = leaderEpochError(target.request.currentLeaderEpoch, logLeaderEpoch(log));
  if (epochError !== ErrorCode.NONE) return errorRead(epochError, topic, false);

  const { fetchOffset, lastFetchedEpoch } = target.request;
  const highWatermark = log.highWatermark;
  const lastStableOffset = limits.transactions?.lastStableOffset(log, highWatermark) ?? highWatermark;
  const base = {
    errorCode: ErrorCode.NONE,
    topic,
    highWatermark,
    lastStableOffset,
    logStartOffset: log.logStartOffset,
    beforeRead: false,
    abortedTransactions: [] as AbortedTxn[],
  };
  if (lastFetchedEpoch >= 0) {
    const end = endOffsetForEpoch(log, lastFetchedEpoch);
    if (end.epoch < 0 || end.startOffset < 0) return errorRead(ErrorCode.OFFSET_OUT_OF_RANGE, topic, false);
    if (end.epoch < lastFetchedEpoch || end.startOffset < fetchOffset) {
      return { ...base, records: [], bytes: 0, divergingEpoch: { epoch: end.epoch, endOffset: end.startOffset } };
    }
  }
  try {
    const committed = limits.isolationLevel === READ_COMMITTED && limits.fromFollower !== true;
    const maxOffset = limits.fromFollower === true ? log.logEndOffset : committed ? lastStableOffset : highWatermark;
    // Clients and followers get Kafka's byte-exact span: the last batch may be cut at the budget (they drop it).
    const read = await log.read(fetchOffset, maxBytes, { maxOffset, minOneBatch, partialLastBatch: true });
    const abortedTransactions =
      committed && limits.transactions !== undefined && read.records.length > 0
        ? limits.transactions.abortedTransactions(log, fetchOffset, endOfRecords(read.records))
        : [];
    return { ...base, records: read.records, bytes: read.bytes, divergingEpoch: null, abortedTransactions };
  } catch (error) {
    if (error instanceof OffsetOutOfRangeError) return errorRead(ErrorCode.OFFSET_OUT_OF_RANGE, topic, false);
    if (error instanceof KafkaError) return errorRead(error.errorCode, topic, false);
    throw error;
  }
}

/** The offset after the last whole batch of the records read (a cut last batch, alone in its buffer or not, is not one). */
function endOfRecords(records: readonly Buffer[]): number {
  for (let i = records.length - 1; i >= 0; i--) {
    const spans = splitBatches(records[i]!).batches;
    const span = spans[spans.length - 1];
    if (span !== undefined) return lastOffsetAt(records[i]!, span.pos) + 1;
  }
  return 0;
}
