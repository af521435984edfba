import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OffsetMap } from '../../../src/storage/cleaner/offset-map.js';
import { Throttler } from '../../../src/storage/cleaner/throttler.js';

test('the throttler sleeps long enough to bring the observed rate down to the limit', async () => {
  let now = 0;
  const sleeps: number[] = [];
  const throttler = new Throttler({ bytesPerSecond: 1000, now: () => now, sleep: async (ms) => void sleeps.push(ms), checkIntervalMs: 100 });
  await throttler.maybeThrottle(500);
  assert.deepEqual(sleeps, [], 'no check before the interval');
  now = 100;
  await throttler.maybeThrottle(500);
  // 1000 bytes in 100 ms at 1000 B/s should have taken 1000 ms: sleep the other 900.
  assert.deepEqual(sleeps, [900]);
  now = 1_200;
  await throttler.maybeThrottle(50);
  assert.deepEqual(sleeps, [900], 'under the limit: no sleep');
});

test('an unlimited throttler never sleeps', async () => {
  const throttler = new Throttler({ bytesPerSecond: Infinity, now: () => 1e9, sleep: async () => assert.fail('slept') });
  await throttler.maybeThrottle(1 << 30);
});

test('the offset map keeps the latest offset per key and its latest offset overall', () => {
  const map = new OffsetMap(24 * 64);
  assert.equal(map.slots, 64);
  for (let i = 0; i < 200; i++) map.put(Buffer.from(`k${i % 20}`), i);
  assert.equal(map.size, 20);
  assert.equal(map.get(Buffer.from('k3')), 183);
  assert.equal(map.get(Buffer.from('absent')), -1);
  assert.equal(map.latestOffset, 199);
  map.clear();
  assert.equal(map.get(Buffer.from('k3')), -1);
  assert.equal(map.latestOffset, -1);
});
