// One partition of a Produce request, validated and appended as Kafka's ReplicaManager.appendToLocalLog,
// UnifiedLog.appendAsLeader and LogValidator do it: framing checks, size and CRC, per-record checks, broker-side
// compression, the producer-state seam, then the append (grouped with the partition's other waiting batches,
// produce-group-append.ts). Errors come back as Kafka's codes, never thrown.
import type { TopicConfig } from '../config/index.js';
import { ErrorCode } from '../protocol/error-codes.js';
import { recordsToBuffer, type RecordsValue } from '../protocol/io/writer.js';
import { Codec } from '../protocol/compression/codec.js';
import {
  TimestampType,
  compressionOf,
  setMaxTimestamp,
  validateProducedBatch,
  validateProducedRecords,
  validateProducedRecordsAsync,
  type BatchHeader,
  type CheckedRecords,
  type RecordCheckOptions,
  type RecordError,
  type ValidationFailure,
} from '../protocol/records/index.js';
import { StorageError } from '../storage/errors.js';
import type { PartitionLog } from '../storage/log.js';
import { appendGrouped } from './produce-group-append.js';
import type { ProducerStateCheck } from './producer-state.js';
import { codecLevel, needsRebuild, rebuildBatch, targetCodec } from './recompress.js';

/** What ProduceResponse reports for one partition (offsets as numbers; -1 where Kafka reports none). */
export interface PartitionAppendOutcome {
  errorCode: number;
  baseOffset: number;
  logAppendTime: number;
  logStartOffset: number;
  recordErrors: RecordError[];
  /** Set only for per-record failures, as Kafka sets it only for a RecordValidationException. */
  errorMessage: string | null;
}

export interface AppendTarget {
  readonly topic: string;
  readonly partition: number;
  readonly log: PartitionLog;
  readonly config: TopicConfig;
}

export function failed(errorCode: number, logStartOffset = -1): PartitionAppendOutcome {
  return { errorCode, baseOffset: -1, logAppendTime: -1, logStartOffset, recordErrors: [], errorMessage: null };
}

/**
 * Validates and appends one partition's records. The checks that need no decompression run at once; lz4 and zstd
 * batches of 16 KiB or more are then decompressed on libuv's thread pool while the event loop takes the next requests. Whatever
 * finishes first, each log sees its batches' producer-state checks and appends in arrival order.
 */
export function appendProduced(
  target: AppendTarget,
  records: RecordsValue | null,
  apiVersion: number,
  producerState: ProducerStateCheck,
  now: number,
): Promise<PartitionAppendOutcome> {
  const { log, config } = target;
  const payload = records === null ? null : Buffer.isBuffer(records) ? records : recordsToBuffer(records);
  const framing = validateProducedBatch(payload, { apiVersion, maxMessageBytes: config['max.message.bytes'] });
  if (!framing.ok) return Promise.resolve(rejected(framing, log));
  const batch = payload!.subarray(framing.pos, framing.pos + framing.size);
  const header = framing.header;
  const options: RecordCheckOptions = {
    now,
    timestampType: config['message.timestamp.type'] === 'LogAppendTime' ? TimestampType.LOG_APPEND_TIME : TimestampType.CREATE_TIME,
    timestampBeforeMaxMs: config['message.timestamp.before.max.ms'],
    timestampAfterMaxMs: config['message.timestamp.after.max.ms'],
    compacted: config['cleanup.policy'].includes('compact'),
  };
  const finish = (checked: CheckedRecords | ValidationFailure) => () => appendChecked(target, batch, header, checked, producerState, now);
  if (batch.length >= OFF_THREAD_MIN_BYTES && OFF_THREAD_CODECS.has(compressionOf(header.attributes))) {
    return inArrivalOrder(log, validateProducedRecordsAsync(batch, header, options).then(finish));
  }
  return inArrivalOrder(log, finish(validateProducedRecords(batch, header, options)));
}

/** Codecs whose decompression runs on the thread pool (their addons have asynchronous calls). */
const OFF_THREAD_CODECS: ReadonlySet<number> = new Set([Codec.LZ4, Codec.ZSTD]);
/** Smaller batches decompress faster than a round trip to the thread pool takes. */
export const OFF_THREAD_MIN_BYTES = 16 * 1024;

type AppendStep = () => Promise<PartitionAppendOutcome>;

interface ArrivalOrder {
  /** Steps handed in and not yet run. */
  waiting: number;
  tail: Promise<void>;
}

const orderByLog = new WeakMap<PartitionLog, ArrivalOrder>();

/**
 * Runs each partition's append steps (producer-state check, then handing the batch to the log) in the order they
 * were handed in. A ready step with nothing ahead of it runs at once; the rest wait for the steps ahead to run
 * (not for their appends to finish: those are grouped by produce-group-append.ts).
 */
function inArrivalOrder(log: PartitionLog, step: AppendStep | Promise<AppendStep>): Promise<PartitionAppendOutcome> {
  let order = orderByLog.get(log);
  if (order === undefined) {
    order = { waiting: 0, tail: Promise.resolve() };
    orderByLog.set(log, order);
  }
  if (typeof step === 'function' && order.waiting === 0) return step();
  const state = order;
  state.waiting += 1;
  let outcome!: Promise<PartitionAppendOutcome>;
  const ran = state.tail
    .then(() => step)
    .then(
      (run) => {
        outcome = run();
      },
      (error: unknown) => {
        outcome = Promise.reject(error);
      },
    );
  state.tail = ran.then(() => {
    state.waiting -= 1;
  });
  return ran.then(() => outcome);
}

/** The producer-state check and the append of a batch whose records were checked (in arrival order). */
async function appendChecked(
  target: AppendTarget,
  received: Buffer,
  header: BatchHeader,
  checked: CheckedRecords | ValidationFailure,
  producerState: ProducerStateCheck,
  now: number,
): Promise<PartitionAppendOutcome> {
  const { log, config } = target;
  if (!checked.ok) return rejected(checked, log);
  let batch = received;
  const appendTimeTopic = config['message.timestamp.type'] === 'LogAppendTime';
  const codec = targetCodec(config, compressionOf(header.attributes));
  if (needsRebuild(header, codec, checked.offsetsSequential)) {
    batch = rebuildBatch(batch, header, codec, codecLevel(config, codec));
    // Re-checked after compression changed the size, as UnifiedLog does.
    if (batch.length > config['max.message.bytes']) return failed(ErrorCode.MESSAGE_TOO_LARGE);
  } else if (!appendTimeTopic) {
    // LogValidator writes the max timestamp it computed from the records (CRC redone only if it changed).
    setMaxTimestamp(batch, 0, TimestampType.CREATE_TIME, checked.maxTimestamp);
  }
  if (batch.length > config['segment.bytes']) return failed(ErrorCode.RECORD_LIST_TOO_LARGE);

  const verdict = producerState.beforeAppend(log, header);
  if (verdict.kind === 'reject') return { ...failed(verdict.errorCode, log.logStartOffset), errorMessage: verdict.message };
  if (verdict.kind === 'duplicate') {
    return { ...failed(ErrorCode.NONE, log.logStartOffset), baseOffset: verdict.baseOffset, logAppendTime: verdict.logAppendTime };
  }
  try {
    const result = await appendGrouped(log, {
      batch,
      timestampType: appendTimeTopic ? 'LogAppendTime' : 'CreateTime',
      segmentBytes: config['segment.bytes'],
      now,
    });
    producerState.afterAppend(log, header, result.baseOffset);
    return {
      errorCode: ErrorCode.NONE,
      baseOffset: result.baseOffset,
      logAppendTime: result.logAppendTime,
      logStartOffset: result.logStartOffset,
      recordErrors: [],
      errorMessage: null,
    };
  } catch (error) {
    producerState.appendFailed?.(log, header);
    if (error instanceof StorageError) return failed(ErrorCode[error.code]);
    throw error;
  }
}

/**
 * Kafka answers checks made before the log (request framing: "Produce requests with version ...", sizes, CRC)
 * without a log start offset; the log's own validation failures carry it, and per-record ones their message.
 */
function rejected(failure: ValidationFailure, log: PartitionLog): PartitionAppendOutcome {
  if (failure.recordErrors.length > 0) {
    return { ...failed(failure.errorCode, log.logStartOffset), recordErrors: failure.recordErrors, errorMessage: failure.message };
  }
  const fromLog =
    (failure.errorCode === ErrorCode.INVALID_RECORD && !failure.message.startsWith('Produce requests with version')) ||
    failure.errorCode === ErrorCode.INVALID_TIMESTAMP;
  return failed(failure.errorCode, fromLog ? log.logStartOffset : -1);
}
