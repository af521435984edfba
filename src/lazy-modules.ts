// Modules loaded on their first use rather than at start-up, so that an idle broker does not pay for what it
// has not needed yet (BENCHMARKS.md, "Idle RSS"). require() is synchronous: callers keep synchronous APIs.
//   node:crypto  ~0.8 MB: random ids (topics, fetch sessions, members) and the cleaner's key hashes
//   node:zlib    ~1 MB: the gzip codec
// The compression addons are loaded the same way, in protocol/compression/native.ts.

import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** A getter that loads module `id` on its first call and returns the same module after. */
export function onFirstUse<T>(id: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= require(id) as T);
}

export const cryptoModule = onFirstUse<typeof import('node:crypto')>('node:crypto');
export const zlibModule = onFirstUse<typeof import('node:zlib')>('node:zlib');
