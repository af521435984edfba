// A leader's view of its replicas (Kafka's Partition/Replica rules) with time given by the test: the high watermark
// over the maximal ISR, catching up, falling out of sync after replica.lag.time.max.ms, joining again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LeaderReplicas } from '../../src/broker/leader-replicas.js';

const LAG = 30_000;

test('the high watermark is the smallest log end over the ISR, the leader\'s included', () => {
  const r = new LeaderReplicas(1, 0, [1, 2, 3], [1, 2, 3], 0, 1000);
  // Nobody fetched yet: nothing is known held by the followers.
  assert.equal(r.highWatermark(10, 1000, LAG), 0);
  r.updateFollower(2, 10, 10, 1100);
  assert.equal(r.highWatermark(10, 1100, LAG), 0, 'follower 3 has not fetched');
  r.updateFollower(3, 7, 10, 1100);
  assert.equal(r.highWatermark(10, 1100, LAG), 7);
  r.updateFollower(3, 10, 10, 1200);
  assert.equal(r.highWatermark(12, 1200, LAG), 10, 'the leader appended since');
});

test('a follower not caught up for replica.lag.time.max.ms leaves the ISR; the leader alone then sets the high watermark', () => {
  const r = new LeaderReplicas(1, 0, [1, 2, 3], [1, 2, 3], 0, 0);
  r.updateFollower(2, 5, 5, 100);
  r.updateFollower(3, 5, 5, 100);
  // The leader appends; follower 2 keeps fetching and catching up, follower 3 stops.
  r.updateFollower(2, 8, 8, LAG);
  assert.equal(r.shrink(8, LAG + 100, LAG), undefined, 'follower 3 was caught up at 100: not yet out');
  const change = r.shrink(8, LAG + 101, LAG);
  assert.deepEqual(change, { isr: [1, 2], kind: 'shrink' });
  assert.equal(r.changePending, true);
  assert.equal(r.shrink(8, LAG + 200, LAG), undefined, 'one change at a time');
  assert.deepEqual(r.maximalIsr, [1, 2, 3], 'a pending shrink still counts the leaving replica');
  r.setIsr(change!.isr);
  assert.equal(r.highWatermark(8, LAG + 200, LAG), 8);
});

test('a follower that fetched at the leader\'s previous log end counts as caught up at that fetch (Replica.updateFetchState)', () => {
  const r = new LeaderReplicas(1, 0, [1, 2], [1, 2], 0, 0);
  r.updateFollower(2, 0, 10, 1000); // behind: lastCaughtUp stays 0 (the ISR's start)
  r.updateFollower(2, 10, 20, 2000); // reached the log end of its previous fetch: caught up as of 1000
  assert.equal(r.shrink(20, 1000 + LAG, LAG), undefined);
  assert.deepEqual(r.shrink(20, 1001 + LAG, LAG)?.isr, [1]);
});

test('a follower outside the ISR joins (last) once it reached the high watermark and the start of the leader\'s epoch', () => {
  const r = new LeaderReplicas(2, 3, [2, 3, 1], [2, 1], 50, 0);
  r.updateFollower(1, 60, 60, 10);
  assert.equal(r.highWatermark(60, 10, LAG), 60);
  r.updateFollower(3, 40, 60, 20);
  assert.equal(r.expansion(3, 60), undefined, 'below the high watermark');
  r.updateFollower(3, 60, 60, 30);
  const change = r.expansion(3, 60);
  assert.deepEqual(change, { isr: [2, 1, 3], kind: 'expand' });
  assert.deepEqual(r.maximalIsr, [2, 1, 3], 'a pending expansion counts the joining replica for the high watermark');
  r.abandon(change!);
  assert.deepEqual(r.maximalIsr, [2, 1]);
  const late = new LeaderReplicas(2, 3, [2, 3], [2], 50, 0);
  late.updateFollower(3, 40, 40, 10);
  assert.equal(late.expansion(3, 40), undefined, 'short of where the leader\'s epoch starts');
  assert.equal(r.expansion(9, 60), undefined, 'not a replica');
});
