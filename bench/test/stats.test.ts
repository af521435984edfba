import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pairedRatios, percentile, spread } from '../compare/stats.js';

test('percentile by nearest rank', () => {
  const samples = Array.from({ length: 1000 }, (_, i) => 1000 - i); // 1000 … 1, unsorted order on purpose
  assert.equal(percentile(samples, 50), 500);
  assert.equal(percentile(samples, 99), 990);
  assert.equal(percentile(samples, 99.9), 999);
  assert.equal(percentile(samples, 100), 1000);
  assert.equal(percentile([7], 0), 7);
  assert.ok(Number.isNaN(percentile([], 50)));
});

test('spread: min, median (middle pair averaged), max; non-finite values left out', () => {
  assert.deepEqual(spread([3, 1, 2]), { min: 1, median: 2, max: 3, n: 3 });
  assert.deepEqual(spread([4, 1, 3, 2]), { min: 1, median: 2.5, max: 4, n: 4 });
  assert.deepEqual(spread([5, NaN, Infinity]), { min: 5, median: 5, max: 5, n: 1 });
  assert.equal(spread([]).n, 0);
});

test('ratios pair the same run of both brokers and skip runs where either is missing', () => {
  assert.deepEqual(pairedRatios([10, undefined, 30, 8], [5, 4, undefined, 0]), [2]);
  assert.deepEqual(pairedRatios([1, 2], [4, 4, 4]), [0.25, 0.5]);
});
