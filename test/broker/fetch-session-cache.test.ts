// The session cache's eviction rules, with an injected clock.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FetchSessionCache, nextEpoch, partitionKey, type CachedPartition } from '../../src/broker/fetch-session-cache.js';

function partitions(count: number): Map<string, CachedPartition> {
  const map = new Map<string, CachedPartition>();
  for (let p = 0; p < count; p++) {
    const key = partitionKey('t', p);
    map.set(key, { key, topic: 't', topicId: 'AAAAAAAAAAAAAAAAAAAAAA', partition: p, request: { fetchOffset: 0, maxBytes: 1, currentLeaderEpoch: -1, lastFetchedEpoch: -1 }, highWatermark: -1, logStartOffset: -1 });
  }
  return map;
}

test('a full cache evicts an idle session, else a smaller old one, else creates nothing', () => {
  let now = 0;
  const cache = new FetchSessionCache(2, 1000, () => now);
  const a = cache.create(partitions(1), false)!;
  const b = cache.create(partitions(3), false)!;
  assert.equal(cache.create(partitions(5), false), undefined, 'young sessions are not evicted');
  now = 500;
  cache.touch(b);
  now = 1200; // a idle for 1200 ms > 1000: evicted first
  const c = cache.create(partitions(1), false)!;
  assert.deepEqual([cache.get(a.id), cache.get(b.id)?.id, cache.get(c.id)?.id], [undefined, b.id, c.id]);
  now = 1400; // nothing idle long enough; b is older than 1000 ms and smaller than the newcomer
  cache.touch(b);
  cache.touch(c);
  assert.equal(cache.create(partitions(2), false), undefined, 'c is too young, b is larger');
  const d = cache.create(partitions(4), false)!;
  assert.equal(cache.get(b.id), undefined);
  assert.ok(cache.get(d.id));
});

test('epochs count from 1 and wrap to 1', () => {
  assert.equal(nextEpoch(0), 1);
  assert.equal(nextEpoch(0x7fffffff), 1);
  assert.equal(nextEpoch(-1), -1);
});
