import assert from 'node:assert/strict';
import { test } from 'node:test';
import { selfTimes, type CpuProfile } from '../profile-summary.js';

// A three-node profile: root → gregor's crc32c and root → an lz4-napi function; samples weighted by timeDeltas (µs).
const profile: CpuProfile = {
  nodes: [
    { id: 1, callFrame: { functionName: '(root)', url: '', lineNumber: -1 }, children: [2, 3] },
    { id: 2, callFrame: { functionName: 'crc32c', url: 'file:///repo/dist/src/protocol/crc32c.js', lineNumber: 8 } },
    { id: 3, callFrame: { functionName: 'uncompressSync', url: 'file:///repo/node_modules/lz4-napi/index.js', lineNumber: 3 } },
  ],
  samples: [2, 3, 2, 2],
  timeDeltas: [1000, 5000, 1000, 1000],
  startTime: 0,
  endTime: 8000,
};

test('self time by function, file and package, highest first, with shares', () => {
  assert.deepEqual(selfTimes(profile, 'function'), [
    { key: 'uncompressSync lz4-napi/index.js:4', ms: 5, share: 0.625 },
    { key: 'crc32c protocol/crc32c.js:9', ms: 3, share: 0.375 },
  ]);
  assert.deepEqual(selfTimes(profile, 'package').map((r) => r.key), ['lz4-napi', 'gregor protocol']);
  assert.deepEqual(selfTimes(profile, 'file').map((r) => r.key), ['/repo/node_modules/lz4-napi/index.js', '/repo/dist/src/protocol/crc32c.js']);
});
