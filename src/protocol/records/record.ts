// Records inside a v2 batch, fully decoded and encoded (Kafka's DefaultRecord):
//   length varint | attributes int8 | timestampDelta varlong | offsetDelta varint |
//   keyLength varint, key | valueLength varint, value | headerCount varint, [keyLength varint, key utf8, valueLength varint, value]
// Lengths of -1 mean null. Keys, values and header values decode to views into the (decompressed) batch bytes.

import { compress, decompress } from '../compression/index.js';
import { ProtocolError } from '../protocol-error.js';
import {
  BATCH_HEADER_SIZE,
  CURRENT_MAGIC,
  NO_PARTITION_LEADER_EPOCH,
  NO_PRODUCER_EPOCH,
  NO_PRODUCER_ID,
  NO_SEQUENCE,
  NO_TIMESTAMP,
  RECORDS_OFFSET,
  TimestampType,
  compressionOf,
  computeBatchCrc,
  makeAttributes,
  readBatchHeader,
  timestampTypeOf,
  writeInt64,
  type BatchHeader,
} from './batch.js';
import { readVarint, readVarlong, sizeOfVarint, writeVarint, type Cursor } from './varint.js';

export interface RecordHeader {
  key: string;
  value: Buffer | null;
}

export interface KafkaRecord {
  /** Absolute offset: baseOffset + offsetDelta. */
  offset: number;
  offsetDelta: number;
  /** Absolute timestamp (the batch's max timestamp when the batch is LogAppendTime, as Kafka reports it). */
  timestamp: number;
  attributes: number;
  key: Buffer | null;
  value: Buffer | null;
  headers: RecordHeader[];
}

export interface DecodeOptions {
  /** Upper bound on the decompressed size of the records section (decompression-bomb guard). Default 64 MiB. */
  maxUncompressedBytes?: number;
}

export const DEFAULT_MAX_UNCOMPRESSED_BYTES = 64 * 1024 * 1024;

/**
 * The records section of a batch, decompressed when the batch is compressed (a view when it is not).
 * Throws ProtocolError: 'invalid' for bad compressed data, 'too-large' past maxUncompressedBytes.
 */
export function batchRecordsData(batch: Buffer, header: BatchHeader = readBatchHeader(batch), options: DecodeOptions = {}): Buffer {
  if (header.magic !== CURRENT_MAGIC) throw new ProtocolError('unsupported-version', `record batch magic ${header.magic} is not supported`);
  const end = 12 + header.batchLength;
  if (end > batch.length || end < BATCH_HEADER_SIZE) throw new ProtocolError('truncated', `record batch declares ${end} bytes, ${batch.length} present`);
  const body = batch.subarray(RECORDS_OFFSET, end);
  const codec = compressionOf(header.attributes);
  if (codec === 0) return body;
  return decompress(codec, body, options.maxUncompressedBytes ?? DEFAULT_MAX_UNCOMPRESSED_BYTES);
}

/** Every record of the batch at the start of `batch`, with headers. Validates structure as Kafka's record iterator does. */
export function decodeBatchRecords(batch: Buffer, options: DecodeOptions = {}): KafkaRecord[] {
  const header = readBatchHeader(batch);
  const data = batchRecordsData(batch, header, options);
  const logAppendTime = timestampTypeOf(header.attributes) === TimestampType.LOG_APPEND_TIME ? header.maxTimestamp : null;
  const count = checkedCount(header, data.length);
  const records: KafkaRecord[] = new Array(count);
  const c: Cursor = { pos: 0 };
  for (let i = 0; i < count; i++) {
    const length = readVarint(data, c, data.length);
    const start = c.pos;
    const end = start + length;
    if (length < 1 || end > data.length) throw invalid(`record ${i} declares ${length} bytes, ${data.length - start} remain`);
    const attributes = data.readInt8(c.pos++);
    const timestampDelta = readVarlong(data, c, end);
    const offsetDelta = readVarint(data, c, end);
    const key = readBytes(data, c, end);
    const value = readBytes(data, c, end);
    const headerCount = readVarint(data, c, end);
    if (headerCount < 0 || headerCount > end - c.pos) throw invalid(`record ${i} has an invalid header count ${headerCount}`);
    const headers: RecordHeader[] = new Array(headerCount);
    for (let h = 0; h < headerCount; h++) {
      const hk = readBytes(data, c, end);
      if (hk === null) throw invalid(`record ${i} has a null header key`);
      headers[h] = { key: hk.toString('utf8'), value: readBytes(data, c, end) };
    }
    if (c.pos !== end) throw invalid(`record ${i} declares ${length} bytes but its fields take ${c.pos - start}`);
    records[i] = {
      offset: header.baseOffset + offsetDelta,
      offsetDelta,
      timestamp: logAppendTime ?? header.baseTimestamp + timestampDelta,
      attributes,
      key,
      value,
      headers,
    };
  }
  if (c.pos !== data.length) throw invalid('incorrect declared batch size, records still remaining');
  return records;
}

export interface RecordMeta {
  index: number;
  offsetDelta: number;
  timestampDelta: number;
  hasKey: boolean;
  /** Encoded size of the record, length prefix included. */
  sizeInBytes: number;
}

/**
 * Walks an uncompressed records section (see batchRecordsData) reading only offsetDelta, timestampDelta and
 * whether a key is present; nothing is allocated per record (the meta object is reused: copy what you keep).
 * Checks the same structure decodeBatchRecords does. Returns the number of records walked.
 */
export function forEachRecordMeta(data: Buffer, recordCount: number, cb: (meta: RecordMeta) => void): number {
  if (recordCount < 0) throw invalid(`invalid record count ${recordCount}`);
  const c: Cursor = { pos: 0 };
  const meta: RecordMeta = { index: 0, offsetDelta: 0, timestampDelta: 0, hasKey: false, sizeInBytes: 0 };
  for (let i = 0; i < recordCount; i++) {
    const first = c.pos;
    const length = readVarint(data, c, data.length);
    const start = c.pos;
    const end = start + length;
    if (length < 1 || end > data.length) throw invalid(`record ${i} declares ${length} bytes, ${data.length - start} remain`);
    c.pos++; // attributes
    meta.timestampDelta = readVarlong(data, c, end);
    meta.offsetDelta = readVarint(data, c, end);
    const keyLength = skipBytes(data, c, end);
    skipBytes(data, c, end);
    const headerCount = readVarint(data, c, end);
    if (headerCount < 0 || headerCount > end - c.pos) throw invalid(`record ${i} has an invalid header count ${headerCount}`);
    for (let h = 0; h < headerCount; h++) {
      if (skipBytes(data, c, end) < 0) throw invalid(`record ${i} has a null header key`);
      skipBytes(data, c, end);
    }
    if (c.pos !== end) throw invalid(`record ${i} declares ${length} bytes but its fields take ${c.pos - start}`);
    meta.index = i;
    meta.hasKey = keyLength >= 0;
    meta.sizeInBytes = end - first;
    cb(meta);
  }
  if (c.pos !== data.length) throw invalid('incorrect declared batch size, records still remaining');
  return recordCount;
}

/** forEachRecordMeta over the batch at the start of `batch`, decompressing its records first if needed. */
export function forEachBatchRecordMeta(batch: Buffer, cb: (meta: RecordMeta) => void, options: DecodeOptions = {}): number {
  const header = readBatchHeader(batch);
  return forEachRecordMeta(batchRecordsData(batch, header, options), header.recordCount, cb);
}

// ---- encoding ----

export interface RecordInput {
  /** Defaults to the record's index in the batch. */
  offsetDelta?: number;
  timestamp: number;
  key: Buffer | null;
  value: Buffer | null;
  headers?: readonly RecordHeader[];
}

export interface EncodeBatchInput {
  baseOffset?: number;
  partitionLeaderEpoch?: number;
  producerId?: number;
  producerEpoch?: number;
  baseSequence?: number;
  isTransactional?: boolean;
  isControl?: boolean;
  /** Codec id (0 none .. 4 zstd). */
  compression?: number;
  compressionLevel?: number;
  /** LOG_APPEND_TIME needs logAppendTime: it becomes the max timestamp, as Kafka's builder does. */
  timestampType?: number;
  logAppendTime?: number;
  /** Needed only for a batch without records (what compaction can leave); otherwise the last record's delta. */
  lastOffsetDelta?: number;
  /** Set by the log cleaner: stored as baseTimestamp (with the delete-horizon attribute), record deltas relative to it. */
  deleteHorizonMs?: number;
  records: readonly RecordInput[];
}

/** A complete v2 batch, CRC included. baseTimestamp is the first record's timestamp (or the delete horizon), as Kafka's builder writes. */
export function encodeRecordBatch(input: EncodeBatchInput): Buffer {
  const records = input.records;
  const baseTimestamp = input.deleteHorizonMs ?? (records.length > 0 ? records[0]!.timestamp : NO_TIMESTAMP);
  let maxTimestamp = NO_TIMESTAMP;
  for (const r of records) if (r.timestamp > maxTimestamp) maxTimestamp = r.timestamp;
  const timestampType = input.timestampType ?? TimestampType.CREATE_TIME;
  if (timestampType === TimestampType.LOG_APPEND_TIME) {
    if (input.logAppendTime === undefined) throw new Error('encodeRecordBatch: LOG_APPEND_TIME needs logAppendTime');
    maxTimestamp = input.logAppendTime;
  }
  const lastOffsetDelta = records.length > 0 ? (records[records.length - 1]!.offsetDelta ?? records.length - 1) : (input.lastOffsetDelta ?? 0);

  let body = encodeRecords(records, baseTimestamp);
  const compression = input.compression ?? 0;
  if (compression !== 0) body = compress(compression, body, input.compressionLevel === undefined ? {} : { level: input.compressionLevel });

  const batch = Buffer.allocUnsafe(RECORDS_OFFSET + body.length);
  writeInt64(batch, 0, input.baseOffset ?? 0);
  batch.writeInt32BE(batch.length - 12, 8);
  batch.writeInt32BE(input.partitionLeaderEpoch ?? NO_PARTITION_LEADER_EPOCH, 12);
  batch.writeInt8(CURRENT_MAGIC, 16);
  const attributes = makeAttributes({
    compression,
    timestampType,
    isTransactional: input.isTransactional ?? false,
    isControl: input.isControl ?? false,
    hasDeleteHorizon: input.deleteHorizonMs !== undefined,
  });
  batch.writeInt16BE(attributes, 21);
  batch.writeInt32BE(lastOffsetDelta, 23);
  writeInt64(batch, 27, baseTimestamp);
  writeInt64(batch, 35, maxTimestamp);
  writeInt64(batch, 43, input.producerId ?? NO_PRODUCER_ID);
  batch.writeInt16BE(input.producerEpoch ?? NO_PRODUCER_EPOCH, 51);
  batch.writeInt32BE(input.baseSequence ?? NO_SEQUENCE, 53);
  batch.writeInt32BE(records.length, 57);
  body.copy(batch, RECORDS_OFFSET);
  batch.writeUInt32BE(computeBatchCrc(batch, 0, batch.length), 17);
  return batch;
}

/** The uncompressed records section for these records. */
export function encodeRecords(records: readonly RecordInput[], baseTimestamp: number): Buffer {
  const headerKeys: Buffer[][] = [];
  let total = 0;
  const bodySizes: number[] = new Array(records.length);
  for (let i = 0; i < records.length; i++) {
    const r = records[i]!;
    const keys = (r.headers ?? []).map((h) => Buffer.from(h.key, 'utf8'));
    headerKeys.push(keys);
    let size = 1 + sizeOfVarint(r.timestamp - baseTimestamp) + sizeOfVarint(r.offsetDelta ?? i) + sizeOfBytes(r.key) + sizeOfBytes(r.value);
    size += sizeOfVarint(keys.length);
    (r.headers ?? []).forEach((h, j) => (size += sizeOfBytes(keys[j]!) + sizeOfBytes(h.value)));
    bodySizes[i] = size;
    total += sizeOfVarint(size) + size;
  }
  const out = Buffer.allocUnsafe(total);
  let pos = 0;
  for (let i = 0; i < records.length; i++) {
    const r = records[i]!;
    pos = writeVarint(out, pos, bodySizes[i]!);
    out[pos++] = 0; // record attributes: unused in v2
    pos = writeVarint(out, pos, r.timestamp - baseTimestamp);
    pos = writeVarint(out, pos, r.offsetDelta ?? i);
    pos = writeBytes(out, pos, r.key);
    pos = writeBytes(out, pos, r.value);
    const keys = headerKeys[i]!;
    pos = writeVarint(out, pos, keys.length);
    (r.headers ?? []).forEach((h, j) => {
      pos = writeBytes(out, pos, keys[j]!);
      pos = writeBytes(out, pos, h.value);
    });
  }
  return out;
}

// ---- helpers ----

function checkedCount(header: BatchHeader, dataLength: number): number {
  const count = header.recordCount;
  if (count < 0) throw invalid(`invalid record count ${count}`);
  // Every record takes at least 7 bytes: refuse a count the data cannot hold before allocating for it.
  if (count > dataLength) throw invalid(`record count ${count} exceeds what ${dataLength} bytes can hold`);
  return count;
}

function readBytes(buf: Buffer, c: Cursor, end: number): Buffer | null {
  const length = readVarint(buf, c, end);
  if (length < 0) return null;
  if (length > end - c.pos) throw invalid(`field of ${length} bytes runs past the end of its record`);
  const out = buf.subarray(c.pos, c.pos + length);
  c.pos += length;
  return out;
}

/** Skips a length-prefixed field; returns its length (-1 for null). */
function skipBytes(buf: Buffer, c: Cursor, end: number): number {
  const length = readVarint(buf, c, end);
  if (length < 0) return -1;
  if (length > end - c.pos) throw invalid(`field of ${length} bytes runs past the end of its record`);
  c.pos += length;
  return length;
}

function sizeOfBytes(b: Buffer | null): number {
  return b === null ? 1 : sizeOfVarint(b.length) + b.length;
}

function writeBytes(out: Buffer, pos: number, b: Buffer | null): number {
  if (b === null) return writeVarint(out, pos, -1);
  pos = writeVarint(out, pos, b.length);
  b.copy(out, pos);
  return pos + b.length;
}

function invalid(message: string): ProtocolError {
  return new ProtocolError('invalid', message);
}
