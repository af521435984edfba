// gzip via node:zlib. Kafka's Java client writes one gzip member (GZIPOutputStream, default level); reading accepts
// concatenated members, as java.util.zip.GZIPInputStream does.

import { constants, gunzipSync, gzipSync } from 'node:zlib';
import { corrupt, errorMessage, tooLarge } from './codec.js';

export function gzipCompress(data: Uint8Array, level?: number): Buffer {
  return gzipSync(data, { level: level ?? constants.Z_DEFAULT_COMPRESSION });
}

export function gzipDecompress(data: Uint8Array, maxOutputBytes: number): Buffer {
  try {
    return gunzipSync(data, { maxOutputLength: Math.max(1, maxOutputBytes) });
  } catch (e) {
    if ((e as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge('gzip', maxOutputBytes);
    throw corrupt('gzip', errorMessage(e));
  }
}
