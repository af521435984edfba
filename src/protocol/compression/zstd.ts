// Zstandard via @toondepauw/node-zstd (libzstd through napi-rs; sync and async). Kafka's default level is 3.
// libzstd cannot bound its output here, so before decompressing we walk the frames (RFC 8878): a frame that declares
// its content size is bounded by it; otherwise we add up the most each block can produce (raw and RLE blocks state
// their size, a compressed block yields at most min(window, 128 KiB)). Streaming compressors (Kafka's Java client
// included) omit the content size and write full blocks, so that bound sits within one block (128 KiB) of the real
// size; a bomb of tiny blocks is refused before anything is allocated.

import type { Decoder, Encoder } from '@toondepauw/node-zstd';
import { corrupt, errorMessage, tooLarge } from './codec.js';
import { zstdAddon } from './native.js';

const FRAME_MAGIC = 0xfd2fb528;
const SKIPPABLE_MAGIC_MASK = 0xfffffff0;
const SKIPPABLE_MAGIC = 0x184d2a50;
const MAX_BLOCK_SIZE = 128 * 1024;
const BLOCK_TYPE_RAW = 0;
const BLOCK_TYPE_RLE = 1;
const BLOCK_TYPE_COMPRESSED = 2;

export const ZSTD_DEFAULT_LEVEL = 3;

let sharedDecoder: Decoder | undefined;
const decoder = (): Decoder => (sharedDecoder ??= new (zstdAddon().Decoder)());
const encoders = new Map<number, Encoder>();

function encoderFor(level: number): Encoder {
  let encoder = encoders.get(level);
  if (!encoder) {
    encoder = new (zstdAddon().Encoder)(level);
    encoders.set(level, encoder);
  }
  return encoder;
}

export function zstdCompress(data: Uint8Array, level = ZSTD_DEFAULT_LEVEL): Buffer {
  return encoderFor(level).encodeSync(asBuffer(data));
}

export function zstdCompressAsync(data: Uint8Array, level = ZSTD_DEFAULT_LEVEL): Promise<Buffer> {
  return encoderFor(level).encode(asBuffer(data));
}

export function zstdDecompress(data: Uint8Array, maxOutputBytes: number): Buffer {
  const buf = asBuffer(data);
  checkBound(buf, maxOutputBytes);
  let out: Buffer;
  try {
    out = decoder().decodeSync(buf);
  } catch (e) {
    throw corrupt('zstd', errorMessage(e));
  }
  if (out.length > maxOutputBytes) throw tooLarge('zstd', maxOutputBytes);
  return out;
}

export async function zstdDecompressAsync(data: Uint8Array, maxOutputBytes: number): Promise<Buffer> {
  const buf = asBuffer(data);
  checkBound(buf, maxOutputBytes);
  let out: Buffer;
  try {
    out = await decoder().decode(buf);
  } catch (e) {
    throw corrupt('zstd', errorMessage(e));
  }
  if (out.length > maxOutputBytes) throw tooLarge('zstd', maxOutputBytes);
  return out;
}

function checkBound(buf: Buffer, maxOutputBytes: number): void {
  if (zstdOutputBound(buf) > maxOutputBytes) throw tooLarge('zstd', maxOutputBytes);
}

/** The most bytes the frames in buf can decompress to; throws ProtocolError 'invalid' on a malformed frame. */
export function zstdOutputBound(buf: Buffer): number {
  let pos = 0;
  let bound = 0;
  if (buf.length === 0) throw corrupt('zstd', 'empty input');
  while (pos < buf.length) {
    if (buf.length - pos < 4) throw corrupt('zstd', 'truncated frame magic');
    const magic = buf.readUInt32LE(pos);
    if (((magic & SKIPPABLE_MAGIC_MASK) >>> 0) === SKIPPABLE_MAGIC) {
      if (buf.length - pos < 8) throw corrupt('zstd', 'truncated skippable frame');
      pos += 8 + buf.readUInt32LE(pos + 4);
      if (pos > buf.length) throw corrupt('zstd', 'truncated skippable frame');
      continue;
    }
    if (magic !== FRAME_MAGIC) throw corrupt('zstd', 'bad frame magic');
    pos += 4;
    const frame = readFrameHeader(buf, pos);
    pos = frame.end;
    const blockLimit = Math.min(frame.windowSize, MAX_BLOCK_SIZE);
    let frameBound = 0;
    for (let last = false; !last; ) {
      if (buf.length - pos < 3) throw corrupt('zstd', 'truncated block header');
      const header = buf[pos]! | (buf[pos + 1]! << 8) | (buf[pos + 2]! << 16);
      pos += 3;
      last = (header & 1) === 1;
      const type = (header >> 1) & 3;
      const size = header >>> 3;
      if (type === BLOCK_TYPE_RAW) {
        frameBound += size;
        pos += size;
      } else if (type === BLOCK_TYPE_RLE) {
        frameBound += size;
        pos += 1;
      } else if (type === BLOCK_TYPE_COMPRESSED) {
        if (size > blockLimit) throw corrupt('zstd', 'compressed block larger than allowed');
        frameBound += blockLimit;
        pos += size;
      } else {
        throw corrupt('zstd', 'reserved block type');
      }
      if (pos > buf.length) throw corrupt('zstd', 'truncated block');
    }
    // libzstd holds a frame to its declared content size (it may allocate that much up front, and fails on a
    // mismatch), so a declared size is the frame's bound; otherwise the sum over its blocks is.
    bound += frame.contentSize >= 0 ? frame.contentSize : frameBound;
    if (frame.hasChecksum) pos += 4;
    if (pos > buf.length) throw corrupt('zstd', 'truncated checksum');
  }
  return bound;
}

interface FrameHeader {
  end: number;
  windowSize: number;
  /** Declared decompressed size, -1 when absent. */
  contentSize: number;
  hasChecksum: boolean;
}

function readFrameHeader(buf: Buffer, pos: number): FrameHeader {
  if (pos >= buf.length) throw corrupt('zstd', 'truncated frame header');
  const descriptor = buf[pos]!;
  pos += 1;
  const contentSizeFlag = descriptor >> 6;
  const singleSegment = (descriptor & 0x20) !== 0;
  if (descriptor & 0x08) throw corrupt('zstd', 'reserved bit set');
  const hasChecksum = (descriptor & 0x04) !== 0;
  const dictIdBytes = [0, 1, 2, 4][descriptor & 3]!;
  const contentSizeBytes = [singleSegment ? 1 : 0, 2, 4, 8][contentSizeFlag]!;
  const headerBytes = (singleSegment ? 0 : 1) + dictIdBytes + contentSizeBytes;
  if (buf.length - pos < headerBytes) throw corrupt('zstd', 'truncated frame header');
  let windowSize = Infinity;
  if (!singleSegment) {
    const wd = buf[pos]!;
    const exponent = wd >> 3;
    const base = 2 ** (10 + exponent);
    windowSize = base + (base / 8) * (wd & 7);
    pos += 1;
  }
  if (dictIdBytes > 0) throw corrupt('zstd', 'frames that need a dictionary are not supported');
  let contentSize = -1;
  if (contentSizeBytes > 0) {
    if (contentSizeBytes === 1) contentSize = buf[pos]!;
    else if (contentSizeBytes === 2) contentSize = buf.readUInt16LE(pos) + 256;
    else if (contentSizeBytes === 4) contentSize = buf.readUInt32LE(pos);
    else contentSize = buf.readUInt32LE(pos) + buf.readUInt32LE(pos + 4) * 0x1_0000_0000;
    if (singleSegment) windowSize = contentSize;
    pos += contentSizeBytes;
  }
  return { end: pos, windowSize, contentSize, hasChecksum };
}

function asBuffer(data: Uint8Array): Buffer {
  return Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.length);
}
