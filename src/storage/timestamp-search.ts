// ListOffsets by timestamp inside one batch (Kafka's FileRecords.searchForTimestamp): the first record at or
// after startingOffset whose timestamp is >= the target. LogAppendTime batches give every record the
// batch's max timestamp; otherwise the records (decompressed when needed) are walked.

import { TimestampType, readBatchHeader, timestampTypeOf } from '../protocol/records/batch.js';
import { batchRecordsData, forEachRecordMeta } from '../protocol/records/record.js';

export interface RecordTimestamp {
  offset: number;
  timestamp: number;
}

export function firstRecordAtOrAfter(buf: Buffer, pos: number, timestamp: number, startingOffset: number): RecordTimestamp | null {
  const header = readBatchHeader(buf, pos);
  const lastOffset = header.baseOffset + header.lastOffsetDelta;
  if (header.maxTimestamp < timestamp || lastOffset < startingOffset) return null;
  if (timestampTypeOf(header.attributes) === TimestampType.LOG_APPEND_TIME) {
    return { offset: Math.max(header.baseOffset, startingOffset), timestamp: header.maxTimestamp };
  }
  const batch = buf.subarray(pos, pos + 12 + header.batchLength);
  let found: RecordTimestamp | null = null;
  try {
    forEachRecordMeta(batchRecordsData(batch, header), header.recordCount, (meta) => {
      if (found !== null) return;
      const ts = header.baseTimestamp + meta.timestampDelta;
      const offset = header.baseOffset + meta.offsetDelta;
      if (ts >= timestamp && offset >= startingOffset) found = { offset, timestamp: ts };
    });
  } catch {
    // Records the log cannot decode (it stores batches as received): answer at batch granularity.
    return { offset: Math.max(header.baseOffset, startingOffset), timestamp: header.maxTimestamp };
  }
  return found;
}
