// ListOffsets by timestamp inside one batch (Kafka's FileRecords.searchForTimestamp): the first record at or
// after startingOffset whose timestamp is >= the target. LogAppendTime batches give every record the
// batch's max timestamp; otherwise the records' timestamp and offset deltas are walked.

import {
  ATTRIBUTES_OFFSET,
  BASE_TIMESTAMP_OFFSET,
  RECORDS_OFFSET,
  RECORD_COUNT_OFFSET,
  TimestampType,
  baseOffsetAt,
  batchSizeAt,
  compressionOf,
  lastOffsetAt,
  maxTimestampAt,
  readInt64,
  timestampTypeOf,
} from '../protocol/records/batch.js';

export interface RecordTimestamp {
  offset: number;
  timestamp: number;
}

/** Decompresses a batch's records section; installed by whoever owns the codecs. */
export type RecordsDecompressor = (codec: number, data: Buffer) => Buffer;

let decompressor: RecordsDecompressor | undefined;

export function setRecordsDecompressor(fn: RecordsDecompressor): void {
  decompressor = fn;
}

export function firstRecordAtOrAfter(buf: Buffer, pos: number, timestamp: number, startingOffset: number): RecordTimestamp | null {
  const baseOffset = baseOffsetAt(buf, pos);
  const lastOffset = lastOffsetAt(buf, pos);
  const maxTimestamp = maxTimestampAt(buf, pos);
  if (maxTimestamp < timestamp || lastOffset < startingOffset) return null;
  const attributes = buf.readInt16BE(pos + ATTRIBUTES_OFFSET);
  if (timestampTypeOf(attributes) === TimestampType.LOG_APPEND_TIME) {
    return { offset: Math.max(baseOffset, startingOffset), timestamp: maxTimestamp };
  }
  const end = pos + batchSizeAt(buf, pos);
  let records = buf.subarray(pos + RECORDS_OFFSET, end);
  const codec = compressionOf(attributes);
  if (codec !== 0) {
    if (decompressor === undefined) {
      // Without codecs, answer at batch granularity: the batch's first usable offset and its max timestamp.
      return { offset: Math.max(baseOffset, startingOffset), timestamp: maxTimestamp };
    }
    records = decompressor(codec, records);
  }
  const baseTimestamp = readInt64(buf, pos + BASE_TIMESTAMP_OFFSET);
  const count = buf.readInt32BE(pos + RECORD_COUNT_OFFSET);
  const reader = new VarintReader(records);
  for (let i = 0; i < count && reader.pos < records.length; i++) {
    const length = reader.varint();
    const recordEnd = reader.pos + length;
    reader.pos += 1; // attributes
    const ts = baseTimestamp + reader.varint();
    const offset = baseOffset + reader.varint();
    if (ts >= timestamp && offset >= startingOffset) return { offset, timestamp: ts };
    reader.pos = recordEnd;
  }
  return null;
}

/** Zig-zag varints as records use them (values stay within a double's exact range). */
class VarintReader {
  pos = 0;
  constructor(private readonly buf: Buffer) {}

  varint(): number {
    let raw = 0;
    let scale = 1;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.buf.length) throw new RangeError('truncated varint in record');
      const byte = this.buf[this.pos++]!;
      raw += (byte & 0x7f) * scale;
      if ((byte & 0x80) === 0) break;
      scale *= 128;
    }
    // zig-zag: even → n/2, odd → -(n+1)/2
    return raw % 2 === 0 ? raw / 2 : -(raw + 1) / 2;
  }
}
