// gzip via node:zlib. Kafka's Java client writes one gzip member (GZIPOutputStream, default level); reading accepts
// concatenated members, as java.util.zip.GZIPInputStream does.

import { constants as bufferConstants } from 'node:buffer';
import { ProtocolError } from '../protocol-error.js';
import { corrupt, errorMessage, tooLarge } from './codec.js';
import { zlibModule } from '../../lazy-modules.js';

export function gzipCompress(data: Uint8Array, level?: number): Buffer {
  const zlib = zlibModule();
  return zlib.gzipSync(data, { level: level ?? zlib.constants.Z_DEFAULT_COMPRESSION });
}

export function gzipDecompress(data: Uint8Array, maxOutputBytes: number): Buffer {
  try {
    // zlib takes 1 .. the largest Buffer; a larger limit is no limit at all.
    const maxOutputLength = Math.max(1, Math.min(maxOutputBytes, bufferConstants.MAX_LENGTH));
    const out = zlibModule().gunzipSync(data, { maxOutputLength });
    if (out.length > maxOutputBytes) throw tooLarge('gzip', maxOutputBytes); // maxOutputBytes 0, non-empty output
    return out;
  } catch (e) {
    if (e instanceof ProtocolError) throw e;
    if ((e as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge('gzip', maxOutputBytes);
    throw corrupt('gzip', errorMessage(e));
  }
}
