// What Kafka checks on a Produce (v3+) partition's records before appending, in Kafka's order, with Kafka's error codes:
//   1. ProduceRequest.validateRecords (KafkaApis): batch framing (length < 14 or magic outside 0..2: CORRUPT_MESSAGE),
//      at least one batch, magic 2, zstd only from Produce v7, exactly one batch (INVALID_RECORD otherwise).
//   2. UnifiedLog.analyzeAndValidateRecords: baseOffset 0 (INVALID_RECORD), size <= max.message.bytes
//      (MESSAGE_TOO_LARGE), CRC (CORRUPT_MESSAGE). Bytes after the last complete batch are trimmed, not rejected.
//   3. LogValidator.validateBatch: offset range / record count consistency, no control batches from clients, a
//      sequence when there is a producer id (INVALID_RECORD).
//   4. LogValidator per record (validateProducedRecords): structure (INVALID_RECORD), compacted topics need keys
//      (INVALID_RECORD + record error), CreateTime within the topic's bounds and no LogAppendTime from producers
//      (INVALID_TIMESTAMP + record errors).

import { ErrorCode } from '../error-codes.js';
import { ProtocolError } from '../protocol-error.js';
import {
  BATCH_HEADER_SIZE,
  CURRENT_MAGIC,
  NO_TIMESTAMP,
  TimestampType,
  compressionOf,
  isControl,
  readBatchHeader,
  splitBatches,
  timestampTypeOf,
  verifyBatchCrc,
  type BatchHeader,
} from './batch.js';
import { Codec, isCodecId } from '../compression/codec.js';
import { DEFAULT_MAX_UNCOMPRESSED_BYTES, batchRecordsData, forEachRecordMeta } from './record.js';

export interface RecordError {
  /** Index of the record in the batch (ProduceResponse's BatchIndex). */
  batchIndex: number;
  message: string;
}

export interface ValidationFailure {
  ok: false;
  errorCode: number;
  message: string;
  /** Per-record errors (ProduceResponse v8+ RecordErrors); empty for batch-level failures. */
  recordErrors: RecordError[];
  /**
   * A failure of the log's own validation (LogValidator), which Kafka answers with the log start offset; the
   * request's checks ("Produce requests with version ...", sizes, CRC, codecs) are answered without one.
   */
  byLog: boolean;
}

export interface ProducedBatch {
  ok: true;
  /** Position and size of the single batch inside the records payload. */
  pos: number;
  size: number;
  header: BatchHeader;
  /** Bytes after the batch, which Kafka trims without an error. */
  trailingBytes: number;
}

export interface ProduceFramingOptions {
  /** Produce request version (zstd is refused below 7). */
  apiVersion: number;
  /** The topic's max.message.bytes: the largest batch accepted. */
  maxMessageBytes: number;
}

/** Steps 1-3: the batch header checks, no record is read. */
export function validateProducedBatch(records: Buffer | null, options: ProduceFramingOptions): ProducedBatch | ValidationFailure {
  const empty = `Produce requests with version ${options.apiVersion} must have at least one record batch per partition`;
  if (records === null || records.length === 0) return fail(ErrorCode.INVALID_RECORD, empty);
  let split;
  try {
    split = splitBatches(records);
  } catch (e) {
    return fail(ErrorCode.CORRUPT_MESSAGE, e instanceof ProtocolError ? e.message : String(e));
  }
  const first = split.batches[0];
  if (!first) return fail(ErrorCode.INVALID_RECORD, empty);
  const magic = records.readInt8(first.pos + 16);
  if (magic !== CURRENT_MAGIC) {
    return fail(ErrorCode.INVALID_RECORD, `Produce requests with version ${options.apiVersion} are only allowed to contain record batches with magic version 2`);
  }
  if (first.size < BATCH_HEADER_SIZE) {
    return fail(ErrorCode.CORRUPT_MESSAGE, `Record batch is corrupt (the size ${first.size} is smaller than the minimum allowed overhead ${BATCH_HEADER_SIZE})`);
  }
  const header = readBatchHeader(records, first.pos);
  const codec = compressionOf(header.attributes);
  // Kafka fails the whole request on a codec id it does not know; a per-partition error says the same more kindly.
  if (!isCodecId(codec)) return fail(ErrorCode.UNSUPPORTED_COMPRESSION_TYPE, `Unknown compression type id ${codec}`);
  if (codec === Codec.ZSTD && options.apiVersion < 7) {
    return fail(ErrorCode.UNSUPPORTED_COMPRESSION_TYPE, `Produce requests with version ${options.apiVersion} are not allowed to use ZStandard compression`);
  }
  if (split.batches.length > 1) {
    return fail(ErrorCode.INVALID_RECORD, `Produce requests with version ${options.apiVersion} are only allowed to contain exactly one record batch per partition`);
  }
  if (header.baseOffset !== 0) {
    return fail(ErrorCode.INVALID_RECORD, `The baseOffset of the record batch in the append should be 0, but it is ${header.baseOffset}`, true);
  }
  if (first.size > options.maxMessageBytes) {
    return fail(ErrorCode.MESSAGE_TOO_LARGE, `The record batch size in the append is ${first.size} bytes which exceeds the maximum configured value of ${options.maxMessageBytes}.`);
  }
  if (!verifyBatchCrc(records, first.pos, first.size)) {
    return fail(ErrorCode.CORRUPT_MESSAGE, `Record is corrupt (stored crc = ${header.crc})`);
  }
  const lastOffset = header.baseOffset + header.lastOffsetDelta;
  const countFromOffsets = header.lastOffsetDelta + 1;
  if (countFromOffsets <= 0) {
    return fail(ErrorCode.INVALID_RECORD, `Batch has an invalid offset range: [${header.baseOffset}, ${lastOffset}]`, true);
  }
  if (header.recordCount <= 0) return fail(ErrorCode.INVALID_RECORD, `Invalid reported count for record batch: ${header.recordCount}`, true);
  if (countFromOffsets !== header.recordCount) {
    return fail(ErrorCode.INVALID_RECORD, `Inconsistent batch offset range [${header.baseOffset}, ${lastOffset}] and count of records ${header.recordCount}`, true);
  }
  if (isControl(header.attributes)) return fail(ErrorCode.INVALID_RECORD, 'Clients are not allowed to write control records', true);
  if (header.producerId >= 0 && header.baseSequence < 0) {
    return fail(ErrorCode.INVALID_RECORD, `Invalid sequence number ${header.baseSequence} in record batch with producerId ${header.producerId}`, true);
  }
  return { ok: true, pos: first.pos, size: first.size, header, trailingBytes: records.length - first.pos - first.size };
}

export interface RecordCheckOptions {
  /** Broker clock, for CreateTime bounds. */
  now: number;
  /** The topic's message.timestamp.type. */
  timestampType: number;
  /** message.timestamp.before.max.ms / message.timestamp.after.max.ms. */
  timestampBeforeMaxMs: number;
  timestampAfterMaxMs: number;
  /** cleanup.policy includes compact: every record needs a key. */
  compacted: boolean;
  /** Decompression-bomb guard for the records section. */
  maxUncompressedBytes?: number;
}

export interface CheckedRecords {
  ok: true;
  /** Largest record timestamp (NO_TIMESTAMP when none); Kafka writes it as the batch's max timestamp for CreateTime. */
  maxTimestamp: number;
  /** False when offset deltas are not 0, 1, 2...: Kafka then rebuilds a compressed batch rather than patching it. */
  offsetsSequential: boolean;
  uncompressedBytes: number;
}

/** Step 4: reads every record's offset/timestamp deltas and key presence (decompressing if needed), as LogValidator does. */
export function validateProducedRecords(batch: Buffer, header: BatchHeader, options: RecordCheckOptions): CheckedRecords | ValidationFailure {
  let data: Buffer;
  try {
    data = batchRecordsData(batch, header, { maxUncompressedBytes: options.maxUncompressedBytes ?? DEFAULT_MAX_UNCOMPRESSED_BYTES });
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    if (e instanceof ProtocolError && e.kind === 'too-large') return fail(ErrorCode.MESSAGE_TOO_LARGE, message);
    // Kafka surfaces a failed decompression as a KafkaException, which reaches the client as UNKNOWN_SERVER_ERROR.
    return fail(ErrorCode.UNKNOWN_SERVER_ERROR, `Failed to decompress record stream: ${message}`);
  }
  const batchLogAppendTime = timestampTypeOf(header.attributes) === TimestampType.LOG_APPEND_TIME;
  const errors: RecordError[] = [];
  let timestampError = false;
  let maxTimestamp = NO_TIMESTAMP;
  let offsetsSequential = true;
  try {
    forEachRecordMeta(data, header.recordCount, (m) => {
      const timestamp = batchLogAppendTime ? header.maxTimestamp : header.baseTimestamp + m.timestampDelta;
      if (m.offsetDelta !== m.index) offsetsSequential = false;
      if (timestamp > maxTimestamp) maxTimestamp = timestamp;
      if (options.compacted && !m.hasKey) {
        errors.push({ batchIndex: m.index, message: 'Compacted topic cannot accept message without key' });
        return;
      }
      if (options.timestampType === TimestampType.CREATE_TIME && timestamp !== NO_TIMESTAMP) {
        const diff = options.now - timestamp;
        if (diff > options.timestampBeforeMaxMs || -diff > options.timestampAfterMaxMs) {
          timestampError = true;
          errors.push({
            batchIndex: m.index,
            message: `Timestamp ${timestamp} of message with offset ${header.baseOffset + m.offsetDelta} is out of range. The timestamp should be within [${options.now - options.timestampBeforeMaxMs}, ${options.now + options.timestampAfterMaxMs}]`,
          });
        }
      } else if (batchLogAppendTime) {
        timestampError = true;
        errors.push({ batchIndex: m.index, message: 'Invalid timestamp type in message. Producer should not set timestamp type to LogAppendTime.' });
      }
    });
  } catch (e) {
    return fail(ErrorCode.INVALID_RECORD, e instanceof Error ? e.message : String(e), true);
  }
  if (errors.length > 0) {
    if (timestampError) return { ...fail(ErrorCode.INVALID_TIMESTAMP, 'One or more records have been rejected due to invalid timestamp', true), recordErrors: errors };
    const shown = errors.slice(0, 3).map((e) => `RecordError(batchIndex=${e.batchIndex}, message='${e.message}')`).join(', ');
    return {
      ...fail(ErrorCode.INVALID_RECORD, `One or more records have been rejected due to ${errors.length} record errors in total, and only showing the first three errors at most: [${shown}]`, true),
      recordErrors: errors,
    };
  }
  return { ok: true, maxTimestamp, offsetsSequential, uncompressedBytes: data.length };
}

function fail(errorCode: number, message: string, byLog = false): ValidationFailure {
  return { ok: false, errorCode, message, recordErrors: [], byLog };
}
