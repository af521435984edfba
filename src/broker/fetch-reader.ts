// Reads the partitions of one Fetch the way ReplicaManager.readFromLog does: in order, each at most its
// partition_max_bytes and what is left of the response's max_bytes; the first batch is returned whole even
// when larger, but only until some partition has returned data (KIP-74).
import { ErrorCode } from '../protocol/error-codes.js';
import { KafkaError } from '../protocol/kafka-error.js';
import { OffsetOutOfRangeError } from '../storage/errors.js';
import type { LogStore } from '../storage/log-store.js';
import type { FetchTarget } from './fetch-context.js';
import { leaderEpochError } from './leader-epoch.js';
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
  readonly usesTopicIds: boolean;
  /** Open and aborted transactions (the broker's ProducerStates); none known without it. */
  readonly transactions?: TransactionView;
}

function errorRead(errorCode: number, topic: string, beforeRead: boolean): PartitionRead {
  return { errorCode, topic, highWatermark: -1, lastStableOffset: -1, logStartOffset: -1, records: [], bytes: 0, divergingEpoch: null, beforeRead, abortedTransactions: [] };
}

export async function readPartitions(store: LogStore, targets: readonly FetchTarget[], limits: ReadLimits): Promise<PartitionRead[]> {
  const early = readAheadAll(store, targets, limits);
  let remaining = limits.maxBytes;
  let minOneBatch = true;
  const results: PartitionRead[] = [];
  for (let i = 0; i < targets.length; i++) {
    const target = targets[i]!;
    const maxBytes = Math.min(target.request.maxBytes, remaining);
    const guess = early === undefined ? undefined : await early[i]!;
    const result =
      guess !== undefined && sameAsInOrder(guess, target.request.maxBytes, maxBytes, minOneBatch)
        ? unwrap(guess)
        : await readPartition(store, target, limits, maxBytes, minOneBatch);
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
function readAheadAll(store: LogStore, targets: readonly FetchTarget[], limits: ReadLimits): Promise<EarlyRead>[] | undefined {
  if (targets.length < 2) return undefined;
  let sum = 0;
  for (const target of targets) sum += target.request.maxBytes;
  if (sum > limits.maxBytes) return undefined;
  return targets.map((target) =>
    readPartition(store, target, limits, target.request.maxBytes, true).then(
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

async function readPartition(store: LogStore, target: FetchTarget, limits: ReadLimits, maxBytes: number, minOneBatch: boolean): Promise<PartitionRead> {
  const topic = limits.usesTopicIds ? store.topicById(target.topicId) : store.topic(target.topic);
  if (topic === undefined) {
    return errorRead(limits.usesTopicIds ? ErrorCode.UNKNOWN_TOPIC_ID : ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, target.topic, true);
  }
  const log = store.log(topic.name, target.partition);
  if (log === undefined) return errorRead(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, topic.name, true);
  const epochError = leaderEpochError(target.request.currentLeaderEpoch);
  if (epochError !== ErrorCode.NONE) return errorRead(epochError, topic.name, false);

  const { fetchOffset, lastFetchedEpoch } = target.request;
  const highWatermark = log.highWatermark;
  const stableAt = (hw: number): number => limits.transactions?.lastStableOffset(log, hw) ?? hw;
  const lastStableOffset = stableAt(highWatermark);
  const base = {
    errorCode: ErrorCode.NONE,
    topic: topic.name,
    highWatermark,
    lastStableOffset,
    logStartOffset: log.logStartOffset,
    beforeRead: false,
    abortedTransactions: [] as AbortedTxn[],
  };
  if (lastFetchedEpoch >= 0) {
    const end = endOffsetForEpoch(log, lastFetchedEpoch);
    if (end.epoch < 0 || end.startOffset < 0) return errorRead(ErrorCode.OFFSET_OUT_OF_RANGE, topic.name, false);
    if (end.epoch < lastFetchedEpoch || end.startOffset < fetchOffset) {
      return { ...base, records: [], bytes: 0, divergingEpoch: { epoch: end.epoch, endOffset: end.startOffset } };
    }
  }
  try {
    const maxOffset = limits.isolationLevel === READ_COMMITTED ? lastStableOffset : highWatermark;
    const read = await log.read(fetchOffset, maxBytes, { maxOffset, minOneBatch });
    const committed = limits.isolationLevel === READ_COMMITTED;
    const abortedTransactions =
      committed && limits.transactions !== undefined && read.records.length > 0
        ? limits.transactions.abortedTransactions(log, fetchOffset, endOfRecords(read.records))
        : [];
    return {
      ...base,
      highWatermark: read.highWatermark,
      lastStableOffset: stableAt(read.highWatermark),
      logStartOffset: read.logStartOffset,
      records: read.records,
      bytes: read.bytes,
      divergingEpoch: null,
      abortedTransactions,
    };
  } catch (error) {
    if (error instanceof OffsetOutOfRangeError) return errorRead(ErrorCode.OFFSET_OUT_OF_RANGE, topic.name, false);
    if (error instanceof KafkaError) return errorRead(error.errorCode, topic.name, false);
    throw error;
  }
}

/** The offset after the last batch of the records read. */
function endOfRecords(records: readonly Buffer[]): number {
  const last = records[records.length - 1]!;
  const spans = splitBatches(last).batches;
  const span = spans[spans.length - 1];
  return span === undefined ? 0 : lastOffsetAt(last, span.pos) + 1;
}
