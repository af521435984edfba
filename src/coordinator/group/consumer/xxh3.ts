/**
 * XXH3-64 (seed 0), the hash Kafka 4.3.1's metadata hash uses (hash4j), from hash-wasm: a WebAssembly hasher loaded
 * once (loadXxh3, before the first use; the coordinator awaits it where it first needs consumer groups), then used
 * synchronously.
 */
import { createXXHash3, type IHasher } from 'hash-wasm';

let hasher: IHasher | undefined;

export async function loadXxh3(): Promise<void> {
  hasher ??= await createXXHash3();
}

/** The unsigned 64-bit hash of the bytes. */
export function xxh3(input: Uint8Array): bigint {
  if (hasher === undefined) throw new Error('xxh3 used before loadXxh3()');
  hasher.init();
  hasher.update(input);
  return Buffer.from(hasher.digest('binary')).readBigUInt64BE(0);
}
