// CRC-32C (Castagnoli), the checksum of record batch v2.
// @node-rs/crc32 is native SIMD/SSE4.2 (~3.4 GB/s measured here on large buffers); below a few hundred bytes its
// N-API call costs more than the pure-JS table version from crc-32, so short inputs take that path
// (crossover measured at ~256 bytes: see bench/records.ts).

// The addon is loaded on the first long input: an idle broker does not map it (BENCHMARKS.md "Idle RSS").
import { createRequire } from 'node:module';
import crc32cJs from 'crc-32/crc32c.js';

const require = createRequire(import.meta.url);
let nativeAddon: typeof import('@node-rs/crc32') | undefined;
function nativeCrc32c(buf: Uint8Array): number {
  nativeAddon ??= require('@node-rs/crc32') as typeof import('@node-rs/crc32');
  return nativeAddon.crc32c(buf);
}

const NATIVE_MIN_BYTES = 256;

/** CRC-32C of buf[start, end) as an unsigned 32-bit number. */
export function crc32c(buf: Uint8Array, start = 0, end = buf.length): number {
  const view = start === 0 && end === buf.length ? buf : buf.subarray(start, end);
  if (view.length >= NATIVE_MIN_BYTES) return nativeCrc32c(view) >>> 0;
  return crc32cJs.buf(view) >>> 0;
}

/** The pure-JS path alone (for benchmarks and cross-checks). */
export function crc32cPortable(buf: Uint8Array): number {
  return crc32cJs.buf(buf) >>> 0;
}

/** The native path alone (for benchmarks and cross-checks). */
export function crc32cNative(buf: Uint8Array): number {
  return nativeCrc32c(buf) >>> 0;
}
