// LZ4 in the frame format, as Kafka uses for record batch v2 (Lz4BlockOutputStream / Lz4BlockInputStream):
//   magic 04 22 4D 18 | FLG | BD | [content size u64 LE if flagged] | HC | blocks... | end mark u32 0 | [content checksum]
//   each block: u32 LE size (high bit set = stored uncompressed) + data [+ u32 xxh32 if block checksums are flagged].
// We write exactly what Kafka writes: FLG 0x60 (version 1, independent blocks, no checksums), BD 0x40 (64 KiB
// blocks), HC = second byte of xxh32(FLG BD). We read what Kafka reads: independent blocks only, optional content
// size, optional block checksums (verified), content checksum skipped (Kafka skips it too), header checksum verified.
// The LZ4 block codec itself is lz4-napi (lz4_flex); the frame is handled here because lz4-napi's frame functions
// neither bound their output nor let us pick Kafka's block size.

import { corrupt, errorMessage, tooLarge } from './codec.js';
import { lz4Addon, xxhashAddon } from './native.js';

const MAGIC = 0x184d2204;
const FLG_VERSION_MASK = 0xc0;
const FLG_VERSION_1 = 0x40;
const FLG_BLOCK_INDEPENDENCE = 0x20;
const FLG_BLOCK_CHECKSUM = 0x10;
const FLG_CONTENT_SIZE = 0x08;
const FLG_RESERVED = 0x02;
const FLG_DICT_ID = 0x01;
const BD_64KB = 4 << 4;
const BLOCK_SIZE_64KB = 64 * 1024;
const UNCOMPRESSED_BIT = 0x80000000;
/** An LZ4 block expands at most ~255x (each length-extension byte adds 255). */
const MAX_EXPANSION = 255;

const KAFKA_FLG = FLG_VERSION_1 | FLG_BLOCK_INDEPENDENCE;
let kafkaHeader: Buffer | undefined;
/** Built on first use: its checksum byte needs xxhash, which is loaded lazily. */
function kafkaHeaderBytes(): Buffer {
  if (kafkaHeader === undefined) {
    const h = Buffer.alloc(7);
    h.writeUInt32LE(MAGIC, 0);
    h[4] = KAFKA_FLG;
    h[5] = BD_64KB;
    h[6] = (xxh32(h.subarray(4, 6)) >>> 8) & 0xff;
    kafkaHeader = h;
  }
  return kafkaHeader;
}

function xxh32(data: Uint8Array): number {
  return xxhashAddon().xxh32(data, 0);
}

export function lz4Compress(data: Uint8Array): Buffer {
  const parts: Buffer[] = [kafkaHeaderBytes()];
  for (let pos = 0; pos < data.length; pos += BLOCK_SIZE_64KB) {
    const input = data.subarray(pos, Math.min(pos + BLOCK_SIZE_64KB, data.length));
    // lz4-napi prepends the uncompressed size (u32 LE) to the block; the frame has no use for it.
    const compressed = lz4Addon().compressSync(Buffer.from(input.buffer, input.byteOffset, input.length)).subarray(4);
    const size = Buffer.alloc(4);
    if (compressed.length < input.length) {
      size.writeUInt32LE(compressed.length, 0);
      parts.push(size, compressed);
    } else {
      size.writeUInt32LE((input.length | UNCOMPRESSED_BIT) >>> 0, 0);
      // A view: the final concat is the one copy.
      parts.push(size, Buffer.from(input.buffer, input.byteOffset, input.length));
    }
  }
  parts.push(Buffer.alloc(4)); // end mark
  return Buffer.concat(parts);
}

export function lz4Decompress(data: Uint8Array, maxOutputBytes: number): Buffer {
  const buf = Buffer.from(data.buffer, data.byteOffset, data.length);
  if (buf.length < 7) throw corrupt('lz4', 'frame shorter than its header');
  if (buf.readUInt32LE(0) !== MAGIC) throw corrupt('lz4', 'not an LZ4 frame (bad magic)');
  const flg = buf[4]!;
  const bd = buf[5]!;
  if ((flg & FLG_VERSION_MASK) !== FLG_VERSION_1) throw corrupt('lz4', 'unsupported frame version');
  if (flg & (FLG_RESERVED | FLG_DICT_ID)) throw corrupt('lz4', 'reserved bit or dictionary id set');
  if (!(flg & FLG_BLOCK_INDEPENDENCE)) throw corrupt('lz4', 'dependent blocks are not supported (as in Kafka)');
  const sizeCode = (bd >> 4) & 0x07;
  if ((bd & 0x8f) !== 0 || sizeCode < 4) throw corrupt('lz4', 'bad block descriptor');
  const maxBlockSize = 1 << (2 * sizeCode + 8);
  let pos = 6;
  if (flg & FLG_CONTENT_SIZE) {
    if (buf.length < pos + 9) throw corrupt('lz4', 'truncated content size');
    const contentSize = buf.readUInt32LE(pos) + buf.readUInt32LE(pos + 4) * 0x1_0000_0000;
    if (contentSize > maxOutputBytes) throw tooLarge('lz4', maxOutputBytes);
    pos += 8;
  }
  if (buf[pos] !== ((xxh32(buf.subarray(4, pos)) >>> 8) & 0xff)) throw corrupt('lz4', 'frame descriptor checksum mismatch');
  pos += 1;

  const blockChecksums = (flg & FLG_BLOCK_CHECKSUM) !== 0;
  const blocks: Buffer[] = [];
  let total = 0;
  for (;;) {
    if (buf.length - pos < 4) throw corrupt('lz4', 'truncated block size');
    const word = buf.readUInt32LE(pos);
    pos += 4;
    if (word === 0) break; // end mark; a content checksum may follow, which Kafka does not verify either
    const stored = (word & UNCOMPRESSED_BIT) !== 0;
    const size = word & ~UNCOMPRESSED_BIT;
    if (size > maxBlockSize) throw corrupt('lz4', `block size ${size} exceeds the frame's maximum ${maxBlockSize}`);
    if (buf.length - pos < size + (blockChecksums ? 4 : 0)) throw corrupt('lz4', 'truncated block');
    const blockStart = pos;
    const body = buf.subarray(pos, pos + size);
    pos += size;
    if (blockChecksums) {
      if (buf.readUInt32LE(pos) !== xxh32(body) >>> 0) throw corrupt('lz4', 'block checksum mismatch');
      pos += 4;
    }
    const budget = maxOutputBytes - total;
    let block: Buffer;
    if (stored) {
      if (size > budget) throw tooLarge('lz4', maxOutputBytes);
      block = body;
    } else {
      block = decompressBlock(buf, blockStart, size, Math.min(maxBlockSize, MAX_EXPANSION * size + 16), budget, maxOutputBytes);
    }
    total += block.length;
    blocks.push(block);
  }
  // Most batches are one block (64 KiB): the addon's output is returned as it is, not copied again.
  if (blocks.length === 1 && blocks[0]!.buffer !== buf.buffer) return blocks[0]!;
  return Buffer.concat(blocks, total);
}

/**
 * lz4-napi wants the block prefixed with a u32 LE capacity (it fails rather than write past it). The block's
 * own size word sits right before it in the frame: it is overwritten with the capacity for the synchronous
 * call and put back, so the block is not copied.
 */
function decompressBlock(frame: Buffer, start: number, size: number, bound: number, budget: number, maxOutputBytes: number): Buffer {
  const capacity = Math.min(bound, budget);
  const word = frame.readUInt32LE(start - 4);
  frame.writeUInt32LE(Math.max(0, capacity), start - 4);
  try {
    return lz4Addon().uncompressSync(frame.subarray(start - 4, start + size));
  } catch (e) {
    // The addon's error does not say whether the budget or the data was at fault: a block that decompresses
    // within its own bound (one block, at most 4 MiB) was only too large; one that does not is corrupt.
    if (capacity < bound && decompressesWithin(frame, start, size, bound)) throw tooLarge('lz4', maxOutputBytes);
    throw corrupt('lz4', errorMessage(e));
  } finally {
    frame.writeUInt32LE(word, start - 4);
  }
}

function decompressesWithin(frame: Buffer, start: number, size: number, bound: number): boolean {
  frame.writeUInt32LE(bound, start - 4);
  try {
    lz4Addon().uncompressSync(frame.subarray(start - 4, start + size));
    return true;
  } catch {
    return false;
  }
}
