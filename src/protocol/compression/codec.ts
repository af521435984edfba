// Compression codec ids as they appear in a record batch's attributes (bits 0-2), and the errors codecs throw.

import { ProtocolError } from '../protocol-error.js';

export const Codec = { NONE: 0, GZIP: 1, SNAPPY: 2, LZ4: 3, ZSTD: 4 } as const;
export type CodecId = (typeof Codec)[keyof typeof Codec];

export const CODEC_NAMES: Readonly<Record<CodecId, string>> = { 0: 'none', 1: 'gzip', 2: 'snappy', 3: 'lz4', 4: 'zstd' };

export function isCodecId(id: number): id is CodecId {
  return Number.isInteger(id) && id >= 0 && id <= 4;
}

export function corrupt(codec: string, detail: string): ProtocolError {
  return new ProtocolError('invalid', `${codec}: corrupt compressed data (${detail})`);
}

export function tooLarge(codec: string, maxOutputBytes: number): ProtocolError {
  return new ProtocolError('too-large', `${codec}: decompressed data would exceed ${maxOutputBytes} bytes`);
}

export function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
