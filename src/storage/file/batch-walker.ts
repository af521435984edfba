// Walks the batches stored in a .log file in chunks, without loading the file: recovery (CRC-checked),
// finding the end of a segment after a clean start, and timestamp searches.
import type { FileHandle } from 'node:fs/promises';
import { BATCH_HEADER_SIZE, batchSizeAt } from '../../protocol/records/batch.js';
import { scanBatches, type BatchInfo } from '../batches.js';

const CHUNK = 1 << 20;

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

/** Fill `len` bytes from `position` (a short read means the file is shorter). */
export async function readAt(file: FileHandle, position: number, len: number): Promise<Buffer> {
  const buf = Buffer.allocUnsafe(len);
  let got = 0;
  while (got < len) {
    const { bytesRead } = await file.read(buf, got, len - got, position + got);
    if (bytesRead === 0) break;
    got += bytesRead;
  }
  return got === len ? buf : buf.subarray(0, got);
}

/**
 * Yields chunks of whole batches from `start` to `end`. With `verify`, stops at the first batch that fails
 * its CRC, is not magic 2 or does not follow the previous offsets; without, only at an incomplete batch.
 * The generator's return value tells where the good bytes end.
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
  while (position < end) {
    const bytes = await readAt(file, position, Math.min(chunkSize, end - position));
    const { batches, validEnd } = scanBatches(bytes, 0, bytes.length, { verify: options.verify ?? false, afterOffset });
    if (batches.length > 0) {
      yield { bytes, filePosition: position, batches };
      afterOffset = batches[batches.length - 1]!.lastOffset;
      position += validEnd;
      chunkSize = CHUNK;
      continue;
    }
    // Nothing whole here: either a batch larger than the chunk, or the end of the good bytes.
    const size = batchSizeAt(bytes, 0);
    if (size >= BATCH_HEADER_SIZE && size > bytes.length && position + size <= end && size > chunkSize) {
      chunkSize = size;
      continue;
    }
    break;
  }
  return { validEnd: position };
}
