// Snappy, in both forms Kafka clients write into record batches:
// - xerial framing (snappy-java's SnappyOutputStream, used by the Java producer and the broker when it recompresses):
//   magic 82 'SNAPPY' 00, int32 version 1, int32 min-compatible version 1, then chunks of
//   [int32 BE compressed length][raw snappy block of at most 32 KiB of input].
// - raw snappy (one block for the whole payload; librdkafka writes this).
// Kafka's reader (SnappyInputStream) takes the framed form when the magic is there and raw snappy otherwise; so does
// this module. We write the framed form so that every consumer, including old Java ones, can read it.

import { corrupt, errorMessage, tooLarge } from './codec.js';
import { snappyAddon } from './native.js';

const XERIAL_MAGIC = Buffer.from([0x82, 0x53, 0x4e, 0x41, 0x50, 0x50, 0x59, 0x00]);
const XERIAL_HEADER_SIZE = 16;
const XERIAL_VERSION = 1;
const XERIAL_MIN_COMPATIBLE_VERSION = 1;
/** snappy-java's default block size. */
const XERIAL_BLOCK_SIZE = 32 * 1024;

export function isXerialFramed(data: Uint8Array): boolean {
  if (data.length < XERIAL_HEADER_SIZE) return false;
  for (let i = 0; i < XERIAL_MAGIC.length; i++) if (data[i] !== XERIAL_MAGIC[i]) return false;
  return true;
}

/** Raw snappy: one block with its varint length preamble. */
export function snappyCompressRaw(data: Uint8Array): Buffer {
  return snappyAddon().compressSync(data);
}

/** The xerial-framed form Kafka's Java producer writes. */
export function snappyCompressXerial(data: Uint8Array): Buffer {
  const parts: Buffer[] = [];
  const header = Buffer.alloc(XERIAL_HEADER_SIZE);
  XERIAL_MAGIC.copy(header, 0);
  header.writeInt32BE(XERIAL_VERSION, 8);
  header.writeInt32BE(XERIAL_MIN_COMPATIBLE_VERSION, 12);
  parts.push(header);
  for (let pos = 0; pos < data.length; pos += XERIAL_BLOCK_SIZE) {
    const block = snappyAddon().compressSync(data.subarray(pos, Math.min(pos + XERIAL_BLOCK_SIZE, data.length)));
    const len = Buffer.alloc(4);
    len.writeInt32BE(block.length, 0);
    parts.push(len, block);
  }
  return Buffer.concat(parts);
}

/** Decompresses either form (detected by the xerial magic); output bounded by maxOutputBytes. */
export function snappyDecompress(data: Uint8Array, maxOutputBytes: number): Buffer {
  if (!isXerialFramed(data)) return rawBlock(data, maxOutputBytes);
  const chunks: Buffer[] = [];
  let total = 0;
  let pos = XERIAL_HEADER_SIZE;
  while (pos < data.length) {
    // snappy-java accepts concatenated framed streams: a header may appear again between chunks.
    if (isXerialFramed(data.subarray(pos))) {
      pos += XERIAL_HEADER_SIZE;
      continue;
    }
    if (data.length - pos < 4) throw corrupt('snappy', 'truncated xerial chunk length');
    const view = Buffer.from(data.buffer, data.byteOffset, data.length);
    const len = view.readInt32BE(pos);
    pos += 4;
    if (len < 0 || len > data.length - pos) throw corrupt('snappy', `xerial chunk length ${len} exceeds the ${data.length - pos} bytes left`);
    const chunk = rawBlock(data.subarray(pos, pos + len), maxOutputBytes - total);
    total += chunk.length;
    chunks.push(chunk);
    pos += len;
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total);
}

/** Length from a raw block's varint preamble, or -1 when the preamble is malformed. */
export function rawUncompressedLength(data: Uint8Array): number {
  let result = 0;
  for (let i = 0; i < 5 && i < data.length; i++) {
    const b = data[i]!;
    result += (b & 0x7f) * 2 ** (7 * i);
    if ((b & 0x80) === 0) return result <= 0xffffffff ? result : -1;
  }
  return -1;
}

function rawBlock(data: Uint8Array, maxOutputBytes: number): Buffer {
  const length = rawUncompressedLength(data);
  if (length < 0) throw corrupt('snappy', 'bad length preamble');
  if (length > maxOutputBytes) throw tooLarge('snappy', maxOutputBytes);
  let out: string | Buffer;
  try {
    out = snappyAddon().uncompressSync(data, { asBuffer: true });
  } catch (e) {
    throw corrupt('snappy', errorMessage(e));
  }
  if (typeof out === 'string' || out.length !== length) throw corrupt('snappy', 'length does not match the preamble');
  return out;
}
