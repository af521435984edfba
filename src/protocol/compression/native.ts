// The native compression addons, each loaded on its first use: an idle broker (or one that never sees a
// given codec) does not map their shared libraries (~16 MB of RSS for the four, BENCHMARKS.md "Idle RSS").
// require() is synchronous, so the codecs keep their synchronous API.

import { onFirstUse } from '../../lazy-modules.js';

export const lz4Addon = onFirstUse<typeof import('lz4-napi')>('lz4-napi');
export const xxhashAddon = onFirstUse<typeof import('@node-rs/xxhash')>('@node-rs/xxhash');
export const snappyAddon = onFirstUse<typeof import('snappy')>('snappy');
export const zstdAddon = onFirstUse<typeof import('@toondepauw/node-zstd')>('@toondepauw/node-zstd');
