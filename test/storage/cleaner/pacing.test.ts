// The cleaner lets the event loop turn every RECORDS_PER_TURN records, not only between read slices: a slice of
// small records is thousands of MD5s and map probes, which alone held the loop for tens of ms (bench/compaction).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RECORDS_PER_TURN } from '../../../src/storage/cleaner/cleaner.js';
import { MemoryLogStore } from '../../../src/storage/memory/memory-store.js';
import { ManualScheduler } from '../../../src/storage/scheduler.js';
import { appendAll, batch, readRecords } from './helpers.js';

test('a clean of small records yields to the event loop at least once per RECORDS_PER_TURN records', async () => {
  const store = new MemoryLogStore({ nodeId: 1, scheduler: new ManualScheduler(1_000_000) });
  await store.createTopic('t', 1, { 'cleanup.policy': 'compact', 'internal.segment.bytes': '200000', 'min.cleanable.dirty.ratio': '0.01' });
  // Each segment is smaller than one 512 KiB read slice, so slices alone would give one turn per segment.
  store.startBackground({ cleaner: { backoffMs: 1e12, dedupeBufferSize: 1 << 20 } });
  const log = store.log('t', 0)!;
  const batches = Array.from({ length: 300 }, (_, b) => batch(Array.from({ length: 100 }, (_, i) => ({ key: `k${(b * 100 + i) % 500}`, value: `${b}` }))));
  await appendAll(log, batches);
  assert.ok(log.segments.length >= 3);

  let turns = 0;
  let counting = true;
  const tick = (): void => {
    if (!counting) return;
    turns++;
    setImmediate(tick);
  };
  setImmediate(tick);
  await store.logCleaner!.kick();
  counting = false;

  const [clean] = store.logCleaner!.history;
  assert.ok(clean !== undefined);
  const { mapRecords, recordsRead } = clean.result.stats;
  assert.ok(recordsRead > 10 * RECORDS_PER_TURN, `${recordsRead} records read`);
  const least = Math.floor(mapRecords / RECORDS_PER_TURN) + Math.floor(recordsRead / RECORDS_PER_TURN);
  assert.ok(turns >= least, `${turns} event-loop turns for ${mapRecords} records mapped and ${recordsRead} filtered (at least ${least})`);
  // And the clean still did its job: one record per key below the active segment.
  const below = (await readRecords(log)).filter((r) => r.offset < log.segments[log.segments.length - 1]!.baseOffset);
  assert.equal(new Set(below.map((r) => r.key)).size, below.length);
  await store.close();
});
