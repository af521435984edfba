// One partition of a Produce request, validated and appended as Kafka's ReplicaManager.appendToLocalLog,
// UnifiedLog.appendAsLeader and LogValidator do it: framing checks, size and CRC, per-record checks, broker-side
// compression, the producer-state seam, then the append (grouped with the partition's other waiting batches,
// produce-group-append.ts). Errors come back as Kafka's codes, never thrown.
import type { TopicConfig } from '../config/index.js';
import { ErrorCode } from '../protocol/error-codes.js';
import { recordsToBuffer, type RecordsValue } from '../protocol/io/writer.js';
import {
  TimestampType,
  compressionOf,
  setMaxTimestamp,
  validateProducedBatch,
  validateProducedRecords,
  type RecordError,
  type ValidationFailure,
} from '../protocol/records/index.js';
import { KafkaError } from '../protocol/kafka-error.js';
import type { PartitionLog } from '../storage/log.js';
import { topicTimestampType } from '../storage/log-config.js';
import { appendGrouped } from './produce-group-append.js';
import type { ProducerStateCheck } from './producer-state.js';
import type { TopicStats } from './broker-topic-stats.js';
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
  /** The last offset appended (not on the wire): what acks=all waits for the ISR to hold. */
  lastOffset?: number;
}

export interface AppendTarget {
  readonly topic: string;
  readonly partition: number;
  readonly log: PartitionLog;
  readonly config: TopicConfig;
  /** Counts the records and bytes appended (Kafka's MessagesInPerSec and BytesInPerSec). */
  readonly stats?: TopicStats;
}

export function failed(errorCode: number, logStartOffset = -1): PartitionAppendOutcome {
  return { errorCode, baseOffset: -1, logAppendTime: -1, logStartOffset, recordErrors: [], errorMessage: null };
}

export async function appendProduced(
  target: AppendTarget,
  records: RecordsValue | null,
  apiVersion: number,
  producerState: ProducerStateCheck,
  now: number,
): Promise<PartitionAppendOutcome> {
  const { log, config } = target;
  const payload = records === null ? null : Buffer.isBuffer(records) ? records : recordsToBuffer(records);
  const framing = validateProducedBatch(payload, { apiVersion, maxMessageBytes: config['max.message.bytes'] });
  if (!framing.ok) return rejected(framing, log);
  let batch = payload!.subarray(framing.pos, framing.pos + framing.size);
  const header = framing.header;
  const timestampType = topicTimestampType(config);
  const appendTimeTopic = timestampType === TimestampType.LOG_APPEND_TIME;
  const checked = validateProducedRecords(batch, header, {
    now,
    timestampType,
    timestampBeforeMaxMs: config['message.timestamp.before.max.ms'],
    timestampAfterMaxMs: config['message.timestamp.after.max.ms'],
    compacted: config['cleanup.policy'].includes('compact'),
  });
  if (!checked.ok) return rejected(checked, log);

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

  const verdict = producerState.beforeAppend(log, header, apiVersion);
  if (verdict.kind === 'reject') return { ...failed(verdict.errorCode, verdict.unverified ? -1 : log.logStartOffset), errorMessage: verdict.message };
  if (verdict.kind === 'duplicate') {
    return { ...failed(ErrorCode.NONE, log.logStartOffset), baseOffset: verdict.baseOffset, logAppendTime: verdict.logAppendTime };
  }
  try {
    const result = await appendGrouped(log, {
      batch,
      timestampType,
      segmentBytes: config['segment.bytes'],
      now,
      // Recorded inside the log's append, so a snapshot taken at the next roll includes the batch.
      onAppended: (baseOffset) => producerState.afterAppend(log, header, baseOffset),
    });
    if (target.stats !== undefined) {
      // As Kafka's appendToLocalLog: the records appended, and the bytes as the producer sent them.
      target.stats.messagesIn += header.lastOffsetDelta + 1;
      target.stats.bytesIn += framing.size;
    }
    return {
      errorCode: ErrorCode.NONE,
      baseOffset: result.baseOffset,
      logAppendTime: result.logAppendTime,
      logStartOffset: result.logStartOffset,
      recordErrors: [],
      errorMessage: null,
      lastOffset: result.baseOffset + header.lastOffsetDelta,
    };
  } catch (error) {
    producerState.appendFailed?.(log, header);
    if (error instanceof KafkaError) return failed(error.errorCode);
    throw error;
  }
}

/** The log's own validation failures carry the log start offset (ValidationFailure.byLog), per-record ones their message. */
function rejected(failure: ValidationFailure, log: PartitionLog): PartitionAppendOutcome {
  if (failure.recordErrors.length > 0) {
    return { ...failed(failure.errorCode, log.logStartOffset), recordErrors: failure.recordErrors, errorMessage: failure.message };
  }
  return failed(failure.errorCode, failure.byLog ? log.logStartOffset : -1);
}
