// compress / decompress by codec id (record batch attributes bits 0-2). Decompression is always bounded by
// maxOutputBytes and fails with ProtocolError 'too-large'; bad input fails with ProtocolError 'invalid'.

import { ProtocolError } from '../protocol-error.js';
import { Codec, isCodecId, type CodecId } from './codec.js';
import { gzipCompress, gzipDecompress } from './gzip.js';
import { lz4Compress, lz4Decompress } from './lz4.js';
import { snappyCompressXerial, snappyDecompress } from './snappy.js';
import { zstdCompress, zstdCompressAsync, zstdDecompress, zstdDecompressAsync } from './zstd.js';

export { Codec, CODEC_NAMES, isCodecId } from './codec.js';
export type { CodecId } from './codec.js';

export interface CompressOptions {
  /** Codec level (Kafka's compression.gzip.level / compression.zstd.level); ignored for snappy and lz4. */
  level?: number;
}

/** Compresses the way Kafka's Java client does for that codec (xerial-framed snappy, 64 KiB-block LZ4 frames). */
export function compress(codec: number, data: Uint8Array, options: CompressOptions = {}): Buffer {
  switch (checkCodec(codec)) {
    case Codec.NONE:
      return Buffer.from(data);
    case Codec.GZIP:
      return gzipCompress(data, options.level);
    case Codec.SNAPPY:
      return snappyCompressXerial(data);
    case Codec.LZ4:
      return lz4Compress(data);
    case Codec.ZSTD:
      return zstdCompress(data, options.level);
  }
}

export function decompress(codec: number, data: Uint8Array, maxOutputBytes: number): Buffer {
  switch (checkCodec(codec)) {
    case Codec.NONE:
      if (data.length > maxOutputBytes) throw new ProtocolError('too-large', `data exceeds ${maxOutputBytes} bytes`);
      return Buffer.from(data.buffer, data.byteOffset, data.length);
    case Codec.GZIP:
      return gzipDecompress(data, maxOutputBytes);
    case Codec.SNAPPY:
      return snappyDecompress(data, maxOutputBytes);
    case Codec.LZ4:
      return lz4Decompress(data, maxOutputBytes);
    case Codec.ZSTD:
      return zstdDecompress(data, maxOutputBytes);
  }
}

/** Async variants run zstd off the main thread; the other codecs are fast enough that they stay synchronous. */
export async function compressAsync(codec: number, data: Uint8Array, options: CompressOptions = {}): Promise<Buffer> {
  return codec === Codec.ZSTD ? zstdCompressAsync(data, options.level) : compress(codec, data, options);
}

export async function decompressAsync(codec: number, data: Uint8Array, maxOutputBytes: number): Promise<Buffer> {
  return codec === Codec.ZSTD ? zstdDecompressAsync(data, maxOutputBytes) : decompress(codec, data, maxOutputBytes);
}

function checkCodec(codec: number): CodecId {
  if (!isCodecId(codec)) throw new ProtocolError('invalid', `unknown compression codec ${codec}`);
  return codec;
}
