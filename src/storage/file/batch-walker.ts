// Walks the batches stored in a .log file in chunks, without loading the file: recovery (CRC-checked),
// finding the end of a segment after a clean start, and timestamp searches; and walks headers alone up to
// the recovery point.
import type { FileHandle } from 'node:fs/promises';
import {
  BATCH_HEADER_SIZE,
  MAGIC_OFFSET,
  PARTITION_LEADER_EPOCH_OFFSET,
  baseOffsetAt,
  batchSizeAt,
  lastOffsetAt,
  maxTimestampAt,
} from '../../protocol/records/batch.js';
import { scanBatches, type BatchInfo } from '../batches.js';

const CHUNK = 1 << 20;
const MAX_CHUNK = 16 * CHUNK;

export interface WalkedChunk {
  /** The chunk's bytes; batch positions are relative to it. */
  bytes: Buffer;
  /** File position of bytes[0]. */
  filePosition: number;
  batches: BatchInfo[];
}

export interface WalkEnd {
  /** File position where the last whole (and, when verifying, valid) batch ends. */
  validEnd: number;
}

/** Fill `len` bytes from `position` (a short read means the file is shorter), into `into` when given. */
export async function readAt(file: FileHandle, position: number, len: number, into?: Buffer): Promise<Buffer> {
  const buf = into ?? Buffer.allocUnsafe(len);
  let got = 0;
  while (got < len) {
    const { bytesRead } = await file.read(buf, got, len - got, position + got);
    if (bytesRead === 0) break;
    got += bytesRead;
  }
  return got === buf.length ? buf : buf.subarray(0, got);
}

/**
 * Yields chunks of whole batches from `start` to `end`. With `verify`, stops at the first batch that fails
 * its CRC, is not magic 2 or does not follow the previous offsets; without, only at an incomplete batch.
 * The generator's return value tells where the good bytes end. The next chunk is read (on libuv's threads)
 * while this one is checked and consumed: a recovery walk costs about the larger of read and CRC time rather
 * than their sum. Two buffers serve in turn, so a chunk's bytes are valid only until the walk is resumed.
 */
export async function* walkBatches(
  file: FileHandle,
  start: number,
  end: number,
  options: { verify?: boolean; afterOffset?: number } = {},
): AsyncGenerator<WalkedChunk, WalkEnd> {
  let position = start;
  let afterOffset = options.afterOffset ?? -1;
  let chunkSize = CHUNK;
  let ahead: { position: number; bytes: Promise<Buffer> } | undefined;
  const buffers: Buffer[] = [];
  let turn = 0;
  // The buffer not holding the chunk being consumed (fresh memory costs page faults and GC: reuse two).
  const readChunk = (at: number): Promise<Buffer> => {
    turn ^= 1;
    const len = Math.min(chunkSize, end - at);
    if ((buffers[turn]?.length ?? 0) < chunkSize) buffers[turn] = Buffer.allocUnsafe(chunkSize);
    return readAt(file, at, len, buffers[turn]!.subarray(0, len));
  };
  try {
    while (position < end) {
      let bytes: Buffer;
      if (ahead?.position === position) bytes = await ahead.bytes;
      else {
        // A read ahead of a position the walk did not reach still writes into its buffer: let it finish first.
        if (ahead !== undefined) await ahead.bytes.catch(() => undefined);
        bytes = await readChunk(position);
      }
      ahead = undefined;
      // Where this chunk's whole batches end, from their headers alone: the next read starts there.
      const wholeEnd = scanBatches(bytes, 0, bytes.length).validEnd;
      if (wholeEnd > 0 && position + wholeEnd < end) {
        const next = position + wholeEnd;
        const read = readChunk(next);
        // A prefetch that is never used (a bad batch ended the walk) must not fail unobserved.
        read.catch(() => undefined);
        ahead = { position: next, bytes: read };
      }
      const { batches, validEnd } = options.verify ? scanBatches(bytes, 0, bytes.length, { verify: true, afterOffset }) : scanBatches(bytes, 0, wholeEnd);
      if (batches.length > 0) {
        yield { bytes, filePosition: position, batches };
        afterOffset = batches[batches.length - 1]!.lastOffset;
        position += validEnd;
        continue;
      }
      // Nothing whole here: either a batch larger than the chunk, or the end of the good bytes. Chunks then grow
      // to hold a few such batches (batches tend to be alike; each chunk re-reads at most its last, partial one).
      const size = batchSizeAt(bytes, 0);
      if (size >= BATCH_HEADER_SIZE && size > bytes.length && position + size <= end && size > chunkSize) {
        chunkSize = Math.max(size + CHUNK, Math.min(4 * size, MAX_CHUNK));
        continue;
      }
      break;
    }
  } finally {
    if (ahead !== undefined) await ahead.bytes.catch(() => undefined);
  }
  return { validEnd: position };
}

const HEADER_CHUNK = 64 * 1024;

export interface HeaderWalk {
  /** The batches walked, each wholly in the file and holding only offsets below the target. */
  batches: BatchInfo[];
  /** File position after the last of them: the first batch holding an offset >= the target, or the file's end. */
  position: number;
}

/**
 * Walks batch headers only (no CRC, the records are not read) from `start`, which must be a batch boundary, while
 * the batches hold offsets below `target`; stops once the previous batch ends at target - 1, or at the first one
 * holding `target`. Undefined when a header on the way is not magic 2, does not follow the previous batch's
 * offsets, or says the batch runs past `end`: then `start` was not the boundary it was believed to be.
 */
export async function walkHeadersBelow(
  file: FileHandle,
  start: number,
  end: number,
  target: number,
  afterOffset: number,
): Promise<HeaderWalk | undefined> {
  const batches: BatchInfo[] = [];
  let previousLast = afterOffset;
  let position = start;
  let chunk: Buffer = Buffer.alloc(0);
  let chunkStart = start;
  while (previousLast < target - 1 && end - position >= BATCH_HEADER_SIZE) {
    if (position + BATCH_HEADER_SIZE > chunkStart + chunk.length) {
      chunkStart = position;
      chunk = await readAt(file, position, Math.min(HEADER_CHUNK, end - position));
    }
    const at = position - chunkStart;
    const lastOffset = lastOffsetAt(chunk, at);
    const size = batchSizeAt(chunk, at);
    const base = baseOffsetAt(chunk, at);
    if (chunk.readInt8(at + MAGIC_OFFSET) !== 2 || size < BATCH_HEADER_SIZE || position + size > end || base > lastOffset || base <= previousLast) {
      return undefined;
    }
    if (lastOffset >= target) break;
    batches.push({
      position,
      size,
      baseOffset: base,
      lastOffset,
      maxTimestamp: maxTimestampAt(chunk, at),
      leaderEpoch: chunk.readInt32BE(at + PARTITION_LEADER_EPOCH_OFFSET),
    });
    previousLast = lastOffset;
    position += size;
  }
  return { batches, position };
}
