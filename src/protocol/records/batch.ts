// Record batch v2 (magic 2) header: a view over the bytes, read and patched in place, records never decoded.
//
// Layout (big-endian), as Kafka's DefaultRecordBatch documents it:
//   baseOffset int64 | batchLength int32 | partitionLeaderEpoch int32 | magic int8 | crc uint32 |
//   attributes int16 | lastOffsetDelta int32 | baseTimestamp int64 | maxTimestamp int64 |
//   producerId int64 | producerEpoch int16 | baseSequence int32 | recordCount int32 | records...
// batchLength counts every byte after itself; the CRC-32C covers attributes .. end of batch, so baseOffset,
// partitionLeaderEpoch (and the length) can be patched without recomputing it.
// int64 fields are plain numbers here: offsets, timestamps and producer ids stay below 2^53.

import { crc32c } from '../crc32c.js';
import { ProtocolError } from '../protocol-error.js';

export const BASE_OFFSET_OFFSET = 0;
export const BATCH_LENGTH_OFFSET = 8;
export const PARTITION_LEADER_EPOCH_OFFSET = 12;
export const MAGIC_OFFSET = 16;
export const CRC_OFFSET = 17;
export const ATTRIBUTES_OFFSET = 21;
export const LAST_OFFSET_DELTA_OFFSET = 23;
export const BASE_TIMESTAMP_OFFSET = 27;
export const MAX_TIMESTAMP_OFFSET = 35;
export const PRODUCER_ID_OFFSET = 43;
export const PRODUCER_EPOCH_OFFSET = 51;
export const BASE_SEQUENCE_OFFSET = 53;
export const RECORD_COUNT_OFFSET = 57;
export const RECORDS_OFFSET = 61;
/** Bytes before the first record; also the smallest valid v2 batch. */
export const BATCH_HEADER_SIZE = 61;
/** baseOffset + batchLength: the prefix that tells how long a batch is. */
export const LOG_OVERHEAD = 12;
/** Kafka's smallest legal batchLength of any magic (a v0 record's overhead); smaller is corrupt. */
export const MIN_BATCH_LENGTH_ANY_MAGIC = 14;

export const CURRENT_MAGIC = 2;

export const NO_PRODUCER_ID = -1;
export const NO_PRODUCER_EPOCH = -1;
export const NO_SEQUENCE = -1;
export const NO_PARTITION_LEADER_EPOCH = -1;
export const NO_TIMESTAMP = -1;

const COMPRESSION_MASK = 0x07;
const TIMESTAMP_TYPE_MASK = 0x08;
const TRANSACTIONAL_MASK = 0x10;
const CONTROL_MASK = 0x20;
const DELETE_HORIZON_MASK = 0x40;

/** Codec ids as stored in attributes (same values as compression/codec.ts's Codec). */
export { Codec as Compression } from '../compression/codec.js';
export type { CodecId as CompressionCodec } from '../compression/codec.js';

export const TimestampType = { CREATE_TIME: 0, LOG_APPEND_TIME: 1 } as const;
export type TimestampTypeValue = (typeof TimestampType)[keyof typeof TimestampType];

export interface BatchHeader {
  baseOffset: number;
  batchLength: number;
  partitionLeaderEpoch: number;
  magic: number;
  crc: number;
  attributes: number;
  lastOffsetDelta: number;
  baseTimestamp: number;
  maxTimestamp: number;
  producerId: number;
  producerEpoch: number;
  baseSequence: number;
  recordCount: number;
}

const TWO_32 = 0x1_0000_0000;

/** Reads a big-endian int64 as a number (exact below 2^53, sign kept). */
export function readInt64(buf: Buffer, pos: number): number {
  return buf.readInt32BE(pos) * TWO_32 + buf.readUInt32BE(pos + 4);
}

/** Writes a number as a big-endian int64 (two's complement for negatives). */
export function writeInt64(buf: Buffer, pos: number, value: number): void {
  const hi = Math.floor(value / TWO_32);
  buf.writeInt32BE(hi, pos);
  buf.writeUInt32BE(value - hi * TWO_32, pos + 4);
}

/** Reads the 61-byte header at pos. Throws ProtocolError 'truncated' if fewer bytes remain. */
export function readBatchHeader(buf: Buffer, pos = 0): BatchHeader {
  if (pos < 0 || buf.length - pos < BATCH_HEADER_SIZE) {
    throw new ProtocolError('truncated', `record batch header needs ${BATCH_HEADER_SIZE} bytes, ${Math.max(0, buf.length - pos)} remain`);
  }
  return {
    baseOffset: readInt64(buf, pos + BASE_OFFSET_OFFSET),
    batchLength: buf.readInt32BE(pos + BATCH_LENGTH_OFFSET),
    partitionLeaderEpoch: buf.readInt32BE(pos + PARTITION_LEADER_EPOCH_OFFSET),
    magic: buf.readInt8(pos + MAGIC_OFFSET),
    crc: buf.readUInt32BE(pos + CRC_OFFSET),
    attributes: buf.readInt16BE(pos + ATTRIBUTES_OFFSET),
    lastOffsetDelta: buf.readInt32BE(pos + LAST_OFFSET_DELTA_OFFSET),
    baseTimestamp: readInt64(buf, pos + BASE_TIMESTAMP_OFFSET),
    maxTimestamp: readInt64(buf, pos + MAX_TIMESTAMP_OFFSET),
    producerId: readInt64(buf, pos + PRODUCER_ID_OFFSET),
    producerEpoch: buf.readInt16BE(pos + PRODUCER_EPOCH_OFFSET),
    baseSequence: buf.readInt32BE(pos + BASE_SEQUENCE_OFFSET),
    recordCount: buf.readInt32BE(pos + RECORD_COUNT_OFFSET),
  };
}

// ---- attributes ----

/** 0 none, 1 gzip, 2 snappy, 3 lz4, 4 zstd (5..7 are not codecs; callers reject them). */
export function compressionOf(attributes: number): number {
  return attributes & COMPRESSION_MASK;
}

export function timestampTypeOf(attributes: number): TimestampTypeValue {
  return attributes & TIMESTAMP_TYPE_MASK ? TimestampType.LOG_APPEND_TIME : TimestampType.CREATE_TIME;
}

export function isTransactional(attributes: number): boolean {
  return (attributes & TRANSACTIONAL_MASK) !== 0;
}

export function isControl(attributes: number): boolean {
  return (attributes & CONTROL_MASK) !== 0;
}

/** Set by the log cleaner: baseTimestamp then holds the delete horizon instead of the first record's time. */
export function hasDeleteHorizon(attributes: number): boolean {
  return (attributes & DELETE_HORIZON_MASK) !== 0;
}

export function makeAttributes(opts: {
  compression: number;
  timestampType?: number;
  isTransactional?: boolean;
  isControl?: boolean;
  hasDeleteHorizon?: boolean;
}): number {
  let attributes = opts.compression & COMPRESSION_MASK;
  if (opts.timestampType === TimestampType.LOG_APPEND_TIME) attributes |= TIMESTAMP_TYPE_MASK;
  if (opts.isTransactional) attributes |= TRANSACTIONAL_MASK;
  if (opts.isControl) attributes |= CONTROL_MASK;
  if (opts.hasDeleteHorizon) attributes |= DELETE_HORIZON_MASK;
  return attributes;
}

// ---- sizes and field access without building a header object ----

/** Total bytes of the batch at pos (12 + batchLength), or -1 when the 12-byte prefix is not all there. */
export function batchSizeAt(buf: Buffer, pos: number): number {
  if (buf.length - pos < LOG_OVERHEAD) return -1;
  return LOG_OVERHEAD + buf.readInt32BE(pos + BATCH_LENGTH_OFFSET);
}

export function baseOffsetAt(buf: Buffer, pos: number): number {
  return readInt64(buf, pos + BASE_OFFSET_OFFSET);
}

/** Offset of the batch's last record: baseOffset + lastOffsetDelta. */
export function lastOffsetAt(buf: Buffer, pos: number): number {
  return readInt64(buf, pos + BASE_OFFSET_OFFSET) + buf.readInt32BE(pos + LAST_OFFSET_DELTA_OFFSET);
}

export function maxTimestampAt(buf: Buffer, pos: number): number {
  return readInt64(buf, pos + MAX_TIMESTAMP_OFFSET);
}

export function attributesAt(buf: Buffer, pos: number): number {
  return buf.readInt16BE(pos + ATTRIBUTES_OFFSET);
}

// ---- in-place patches ----

/** Not covered by the CRC: no recomputation. */
export function setBaseOffset(buf: Buffer, pos: number, offset: number): void {
  writeInt64(buf, pos + BASE_OFFSET_OFFSET, offset);
}

/** Not covered by the CRC: no recomputation. */
export function setPartitionLeaderEpoch(buf: Buffer, pos: number, epoch: number): void {
  buf.writeInt32BE(epoch, pos + PARTITION_LEADER_EPOCH_OFFSET);
}

/**
 * Sets the batch's timestamp type and max timestamp, then the CRC, as Kafka's setMaxTimestamp does:
 * nothing is written when both already match. The upper attribute byte is cleared like Kafka's.
 */
export function setMaxTimestamp(buf: Buffer, pos: number, timestampType: number, maxTimestamp: number): void {
  const attributes = buf.readInt16BE(pos + ATTRIBUTES_OFFSET);
  if (timestampTypeOf(attributes) === timestampType && maxTimestampAt(buf, pos) === maxTimestamp) return;
  const size = batchSizeAt(buf, pos);
  let low = attributes & 0xff & ~TIMESTAMP_TYPE_MASK;
  if (timestampType === TimestampType.LOG_APPEND_TIME) low |= TIMESTAMP_TYPE_MASK;
  buf.writeInt16BE(low, pos + ATTRIBUTES_OFFSET);
  writeInt64(buf, pos + MAX_TIMESTAMP_OFFSET, maxTimestamp);
  buf.writeUInt32BE(computeBatchCrc(buf, pos, size), pos + CRC_OFFSET);
}

/** LogAppendTime topics: the broker stamps the batch (type bit + max timestamp = now); records keep their deltas. */
export function setLogAppendTime(buf: Buffer, pos: number, timestampMs: number): void {
  setMaxTimestamp(buf, pos, TimestampType.LOG_APPEND_TIME, timestampMs);
}

// ---- CRC ----

/** CRC-32C over attributes .. end of the batch of `size` bytes at pos. */
export function computeBatchCrc(buf: Buffer, pos: number, size: number): number {
  return crc32c(buf, pos + ATTRIBUTES_OFFSET, pos + size);
}

/** True when the batch is at least a header long and its stored CRC matches. */
export function verifyBatchCrc(buf: Buffer, pos: number, size: number): boolean {
  if (size < BATCH_HEADER_SIZE || buf.length - pos < size) return false;
  return buf.readUInt32BE(pos + CRC_OFFSET) === computeBatchCrc(buf, pos, size);
}

// ---- splitting a records payload ----

export interface BatchSpan {
  pos: number;
  size: number;
}

export interface SplitBatches {
  batches: BatchSpan[];
  /** Bytes after the last complete batch (0 when none). Fetch responses may end this way; Kafka's log trims them on append. */
  trailingBytes: number;
}

/**
 * Whether any v2 batch header in a Produce payload has the transactional flag (Kafka's
 * ProduceRequest.hasTransactionalRecords): headers only, stopping at the first malformed or incomplete batch
 * (validation answers that one).
 */
export function hasTransactionalBatch(records: Buffer): boolean {
  let pos = 0;
  while (records.length - pos >= ATTRIBUTES_OFFSET + 2) {
    const size = batchSizeAt(records, pos);
    if (size - LOG_OVERHEAD < MIN_BATCH_LENGTH_ANY_MAGIC) return false;
    if (records.readInt8(pos + MAGIC_OFFSET) === CURRENT_MAGIC && isTransactional(records.readInt16BE(pos + ATTRIBUTES_OFFSET))) return true;
    pos += size;
  }
  return false;
}

/**
 * The batches in a Produce/Fetch `records` payload. Mirrors Kafka's ByteBufferLogInputStream: a batch length below
 * 14 or a magic outside 0..2 is corrupt (ProtocolError 'invalid'); an incomplete tail is reported, not thrown.
 * Older magics (0, 1) are split too (their size prefix is the same); callers decide whether to accept them.
 */
export function splitBatches(records: Buffer): SplitBatches {
  const batches: BatchSpan[] = [];
  let pos = 0;
  while (pos < records.length) {
    const size = batchSizeAt(records, pos);
    if (size < 0) break;
    if (size - LOG_OVERHEAD < MIN_BATCH_LENGTH_ANY_MAGIC) {
      throw new ProtocolError('invalid', `record batch at byte ${pos} has length ${size - LOG_OVERHEAD}, below the minimum ${MIN_BATCH_LENGTH_ANY_MAGIC}`);
    }
    if (records.length - pos <= MAGIC_OFFSET) break;
    const magic = records.readInt8(pos + MAGIC_OFFSET);
    if (magic < 0 || magic > CURRENT_MAGIC) {
      throw new ProtocolError('invalid', `record batch at byte ${pos} has invalid magic ${magic}`);
    }
    if (records.length - pos < size) break;
    batches.push({ pos, size });
    pos += size;
  }
  return { batches, trailingBytes: records.length - pos };
}
