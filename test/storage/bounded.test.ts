import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachBounded } from '../../src/storage/bounded.js';

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

test('forEachBounded runs every item with at most `limit` at once', async () => {
  let running = 0;
  let peak = 0;
  const seen: number[] = [];
  await forEachBounded([...Array(50).keys()], 4, async (item, index) => {
    assert.equal(item, index);
    running++;
    peak = Math.max(peak, running);
    await tick();
    seen.push(item);
    running--;
  });
  assert.equal(peak, 4);
  assert.deepEqual([...seen].sort((a, b) => a - b), [...Array(50).keys()]);
  await forEachBounded([], 4, async () => assert.fail('no item, no job'));
});

test('forEachBounded finishes every job before throwing the first failure', async () => {
  const done: number[] = [];
  await assert.rejects(
    forEachBounded([0, 1, 2, 3, 4, 5], 2, async (item) => {
      await tick();
      if (item === 1 || item === 4) throw new Error(`job ${item} failed`);
      done.push(item);
    }),
    /job 1 failed/,
  );
  assert.deepEqual(done.sort(), [0, 2, 3, 5]);
});
