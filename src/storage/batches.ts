// Batch-level work shared by the engines: assigning offsets to an append by patching headers in place,
// and walking the batches of a buffer (an append, or bytes read back from a segment).

import {
  BATCH_HEADER_SIZE,
  LAST_OFFSET_DELTA_OFFSET,
  MAGIC_OFFSET,
  PARTITION_LEADER_EPOCH_OFFSET,
  baseOffsetAt,
  batchSizeAt,
  maxTimestampAt,
  setBaseOffset,
  setLogAppendTime,
  setPartitionLeaderEpoch,
  verifyBatchCrc,
} from '../protocol/records/batch.js';
import { StorageError } from './errors.js';

/** One batch inside a buffer. */
export interface BatchInfo {
  position: number;
  size: number;
  baseOffset: number;
  lastOffset: number;
  maxTimestamp: number;
  leaderEpoch: number;
}

export interface AssignedAppend {
  batches: BatchInfo[];
  baseOffset: number;
  lastOffset: number;
  maxTimestamp: number;
  /** Last offset of the batch holding the max timestamp (Kafka's shallow offset of max timestamp). */
  offsetOfMaxTimestamp: number;
}

const MAGIC_V2 = 2;

interface HeaderFields {
  size: number;
  magic: number;
  baseOffset: number;
  lastOffsetDelta: number;
  maxTimestamp: number;
  leaderEpoch: number;
}

/** The header fields the log needs, or undefined when the bytes at `pos` are not a whole batch. */
function headerAt(buf: Buffer, pos: number, end: number): HeaderFields | undefined {
  if (end - pos < BATCH_HEADER_SIZE) return undefined;
  const size = batchSizeAt(buf, pos);
  if (size < BATCH_HEADER_SIZE || pos + size > end) return undefined;
  return {
    size,
    magic: buf.readInt8(pos + MAGIC_OFFSET),
    baseOffset: baseOffsetAt(buf, pos),
    lastOffsetDelta: buf.readInt32BE(pos + LAST_OFFSET_DELTA_OFFSET),
    maxTimestamp: maxTimestampAt(buf, pos),
    leaderEpoch: buf.readInt32BE(pos + PARTITION_LEADER_EPOCH_OFFSET),
  };
}

/**
 * Give the batches of `parts` (whole batches each, written back to back in this order) consecutive offsets from
 * `nextOffset`, stamp the leader epoch, and stamp the append time when the topic uses LogAppendTime (the records
 * themselves are never touched). Positions count from the start of the first part, as the bytes land in the file.
 */
export function assignOffsets(parts: readonly Buffer[], nextOffset: number, leaderEpoch: number, logAppendTime?: number): AssignedAppend {
  const batches: BatchInfo[] = [];
  let offset = nextOffset;
  let maxTimestamp = -1;
  let offsetOfMaxTimestamp = -1;
  let partStart = 0;
  for (const buf of parts) {
    for (let pos = 0; pos < buf.length; ) {
      const at = headerAt(buf, pos, buf.length);
      if (at === undefined || at.magic !== MAGIC_V2 || at.lastOffsetDelta < 0) {
        throw new StorageError('CORRUPT_MESSAGE', `malformed record batch at byte ${partStart + pos} of an append`);
      }
      const { size } = at;
      setBaseOffset(buf, pos, offset);
      setPartitionLeaderEpoch(buf, pos, leaderEpoch);
      let batchMax = at.maxTimestamp;
      if (logAppendTime !== undefined) {
        setLogAppendTime(buf, pos, logAppendTime);
        batchMax = logAppendTime;
      }
      const lastOffset = offset + at.lastOffsetDelta;
      if (batchMax > maxTimestamp) {
        maxTimestamp = batchMax;
        offsetOfMaxTimestamp = lastOffset;
      }
      batches.push({ position: partStart + pos, size, baseOffset: offset, lastOffset, maxTimestamp: batchMax, leaderEpoch });
      offset = lastOffset + 1;
      pos += size;
    }
    partStart += buf.length;
  }
  if (batches.length === 0) throw new StorageError('CORRUPT_MESSAGE', 'an append must hold at least one record batch');
  return { batches, baseOffset: nextOffset, lastOffset: offset - 1, maxTimestamp, offsetOfMaxTimestamp };
}

/**
 * Walk the whole batches in buf[start, end). With `verify`, a batch must also be magic 2, pass its CRC and
 * follow the previous one's offsets. Stops at the first incomplete or (when verifying) invalid batch;
 * `validEnd` is where the good bytes end.
 */
export function scanBatches(
  buf: Buffer,
  start: number,
  end: number,
  options: { verify?: boolean; afterOffset?: number } = {},
): { batches: BatchInfo[]; validEnd: number } {
  const batches: BatchInfo[] = [];
  let previousLast = options.afterOffset ?? -1;
  let pos = start;
  while (pos < end) {
    const at = headerAt(buf, pos, end);
    if (at === undefined) break;
    const { size } = at;
    const lastOffset = at.baseOffset + at.lastOffsetDelta;
    if (options.verify) {
      const sane =
        at.magic === MAGIC_V2 &&
        at.lastOffsetDelta >= 0 &&
        at.baseOffset > previousLast &&
        verifyBatchCrc(buf, pos, size);
      if (!sane) break;
    }
    batches.push({
      position: pos,
      size,
      baseOffset: at.baseOffset,
      lastOffset,
      maxTimestamp: at.maxTimestamp,
      leaderEpoch: at.leaderEpoch,
    });
    previousLast = lastOffset;
    pos += size;
  }
  return { batches, validEnd: pos };
}
