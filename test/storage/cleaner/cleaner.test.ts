import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { compressionOf, hasDeleteHorizon } from '../../../src/protocol/records/batch.js';
import { MemoryLogStore } from '../../../src/storage/memory/memory-store.js';
import { ManualScheduler } from '../../../src/storage/scheduler.js';
import { appendAll, batch, marker, readBatches, readRecords } from './helpers.js';

const COMPACT = { 'cleanup.policy': 'compact', 'internal.segment.bytes': '1000', 'min.cleanable.dirty.ratio': '0.01', 'delete.retention.ms': '1000' };

async function storeWith(configs: Record<string, string>, scheduler = new ManualScheduler(1_000_000)) {
  const store = new MemoryLogStore({ nodeId: 1, scheduler });
  await store.createTopic('t', 1, configs);
  store.startBackground({ cleaner: { backoffMs: 1e12, dedupeBufferSize: 1 << 20 } });
  return { store, log: store.log('t', 0)!, cleaner: store.logCleaner!, scheduler };
}

/** The value of each key a consumer ends with, reading from the start. */
function latest(records: { key: string | null; value: string | null }[]): Map<string, string | null> {
  const m = new Map<string, string | null>();
  for (const r of records) if (r.key !== null) m.set(r.key, r.value);
  return m;
}

test('overwritten keys: only the latest value per key survives below the active segment, at its original offset', async () => {
  const { log, cleaner } = await storeWith(COMPACT);
  const batches = [];
  for (let round = 0; round < 30; round++) for (let k = 0; k < 5; k++) batches.push(batch([{ key: `k${k}`, value: `v${round}-${k}` }]));
  await appendAll(log, batches);
  const before = await readRecords(log);
  const sizeBefore = log.sizeInBytes();
  assert.ok(log.segments.length > 3);

  await cleaner.kick();
  assert.equal(cleaner.history.length, 1);
  const after = await readRecords(log);
  assert.deepEqual(latest(after), latest(before), 'a consumer ends with the same value per key');
  assert.ok(log.sizeInBytes() < sizeBefore / 3, `shrank from ${sizeBefore} to ${log.sizeInBytes()}`);
  const activeBase = log.segments[log.segments.length - 1]!.baseOffset;
  const cleaned = after.filter((r) => r.offset < activeBase);
  const keys = cleaned.map((r) => r.key);
  assert.equal(new Set(keys).size, keys.length, 'one record per key in the cleaned part');
  for (const r of after) assert.equal(r.value, before.find((b) => b.offset === r.offset)!.value, 'offsets keep their records');
  assert.equal(log.logEndOffset, 150);
  assert.equal(await cleaner.checkpointOf('t', 0), activeBase);
});

test('tombstones stay until delete.retention.ms after their first clean, then go', async () => {
  const { log, cleaner, scheduler } = await storeWith(COMPACT);
  await appendAll(log, [batch([{ key: 'a', value: '1' }, { key: 'b', value: '1' }]), batch([{ key: 'a', value: null }])]);
  const filler = (n: number) => Array.from({ length: n }, (_, i) => batch([{ key: `f${i % 3}`, value: 'x'.repeat(200) }]));
  await appendAll(log, filler(12));
  await cleaner.kick();
  let records = await readRecords(log);
  const tomb = records.find((r) => r.key === 'a');
  assert.deepEqual(tomb && { value: tomb.value, offset: tomb.offset }, { value: null, offset: 2 }, 'the tombstone is kept on the first clean');
  const tombBatch = (await readBatches(log)).find((b) => b.records.some((r) => r.key?.toString() === 'a'))!;
  assert.ok(hasDeleteHorizon(tombBatch.header.attributes));
  assert.equal(tombBatch.header.baseTimestamp, scheduler.now() + 1000, 'delete horizon = clean time + delete.retention.ms');

  // Not yet past the horizon: a second clean keeps it.
  await appendAll(log, filler(12));
  await scheduler.advance(500);
  await cleaner.kick();
  assert.ok((await readRecords(log)).some((r) => r.key === 'a'));

  await appendAll(log, filler(12));
  await scheduler.advance(600);
  await cleaner.kick();
  records = await readRecords(log);
  assert.ok(!records.some((r) => r.key === 'a'), 'the tombstone is gone past its horizon');
  assert.deepEqual(records.find((r) => r.key === 'b')?.value, '1');
});

for (const [name, codec] of [['gzip', 1], ['snappy', 2], ['lz4', 3], ['zstd', 4]] as const) {
  test(`${name} batches are decompressed, filtered and recompressed with ${name}`, async () => {
    const { log, cleaner } = await storeWith(COMPACT);
    const batches = [];
    for (let round = 0; round < 8; round++) {
      batches.push(batch(Array.from({ length: 10 }, (_, k) => ({ key: `k${k}`, value: `r${round}-${randomBytes(60).toString('hex')}` })).filter((_, k) => round < 7 || k % 2 === 0), { compression: codec }));
    }
    // A last batch big enough to roll: round 7 is then below the active segment.
    batches.push(batch(Array.from({ length: 10 }, () => ({ key: 'tail', value: randomBytes(60).toString('hex') })), { compression: codec }));
    await appendAll(log, batches);
    const before = await readRecords(log);
    await cleaner.kick();
    const after = await readBatches(log);
    for (const b of after) if (b.records.length > 0) assert.equal(compressionOf(b.header.attributes), codec);
    assert.deepEqual(latest((await readRecords(log))), latest(before));
    const activeBase = log.segments[log.segments.length - 1]!.baseOffset;
    // A batch with some records dropped keeps its base and last offset.
    const partial = after.find((b) => b.records.length > 0 && b.records.length < 10 && b.header.baseOffset < activeBase);
    assert.ok(partial !== undefined);
    assert.equal(partial.header.lastOffsetDelta, 9);
  });
}

test('small segments are merged up to segment.bytes, never across the active segment', async () => {
  const { log, cleaner } = await storeWith(COMPACT);
  const batches = [];
  for (let round = 0; round < 40; round++) batches.push(batch([{ key: `k${round % 4}`, value: 'z'.repeat(300) }]));
  await appendAll(log, batches);
  await cleaner.kick();
  // Kafka groups by the segments' sizes before cleaning: the now small segments merge on the next clean.
  await appendAll(log, [batch([{ key: 'k0', value: 'z'.repeat(300) }]), batch([{ key: 'k1', value: 'z'.repeat(300) }])]);
  const segmentsBefore = log.segments.length;
  const active = log.segments[log.segments.length - 1]!;
  await cleaner.kick();
  assert.equal(cleaner.history.length, 2);
  assert.ok(log.segments.length < segmentsBefore / 3, `${segmentsBefore} → ${log.segments.length} segments`);
  assert.equal(log.segments[log.segments.length - 1], active, 'the active segment is untouched');
  for (const s of log.segments) assert.ok(s.size <= 1000);
});

test('keyless records are removed from a compacted log (Kafka counts them invalid)', async () => {
  const { log, cleaner } = await storeWith(COMPACT);
  await appendAll(log, [batch([{ key: null, value: 'nokey' }, { key: 'a', value: '1' }])]);
  await appendAll(log, Array.from({ length: 8 }, () => batch([{ key: 'f', value: 'x'.repeat(200) }])));
  await cleaner.kick();
  const records = await readRecords(log);
  assert.ok(!records.some((r) => r.value === 'nokey'));
  assert.ok(records.some((r) => r.key === 'a'));
});

test('min.compaction.lag.ms: segments younger than the lag are not cleaned', async () => {
  const { log, cleaner, scheduler } = await storeWith({ ...COMPACT, 'min.compaction.lag.ms': '10000' });
  const now = scheduler.now();
  await appendAll(log, Array.from({ length: 20 }, (_, i) => batch([{ key: 'k', value: `${i}${'x'.repeat(200)}`, timestamp: now }])));
  await cleaner.kick();
  assert.equal(cleaner.history.length, 0);
  assert.equal((await readRecords(log)).length, 20);
  await scheduler.advance(10_001);
  await cleaner.kick();
  assert.equal(cleaner.history.length, 1);
  assert.ok((await readRecords(log)).length < 20);
});

test('max.compaction.lag.ms cleans a log below min.cleanable.dirty.ratio', async () => {
  const { log, cleaner, scheduler } = await storeWith({ ...COMPACT, 'min.cleanable.dirty.ratio': '1', 'max.compaction.lag.ms': '5000' });
  const now = scheduler.now();
  await appendAll(log, Array.from({ length: 20 }, (_, i) => batch([{ key: 'k', value: `${i}${'x'.repeat(200)}`, timestamp: now }])));
  await cleaner.kick();
  assert.equal(cleaner.history.length, 0, 'not dirty enough and not overdue');
  await scheduler.advance(6_000);
  await cleaner.kick();
  assert.equal(cleaner.history.length, 1);
});

test('transactions: aborted data goes, committed data is compacted, markers stay while their transaction has batches', async () => {
  const { log, cleaner } = await storeWith(COMPACT);
  await appendAll(log, [
    batch([{ key: 'a', value: 'committed' }], { producerId: 7, transactional: true }),
    marker(7, true),
    batch([{ key: 'a', value: 'aborted' }, { key: 'b', value: 'aborted' }], { producerId: 8, transactional: true }),
    marker(8, false),
  ]);
  await appendAll(log, Array.from({ length: 8 }, () => batch([{ key: 'f', value: 'x'.repeat(200) }])));
  await cleaner.kick();
  const batches = await readBatches(log);
  const values = batches.flatMap((b) => b.records.filter((r) => (b.header.attributes & 0x20) === 0).map((r) => r.value?.toString()));
  assert.ok(values.includes('committed'));
  assert.ok(!values.includes('aborted'), 'aborted records are removed');
  // Producer 8's batch stays as an empty batch: it is that producer's last data.
  const p8 = batches.find((b) => b.header.producerId === 8 && (b.header.attributes & 0x20) === 0)!;
  assert.equal(p8.records.length, 0);
  assert.equal(p8.header.lastOffsetDelta, 1);
  assert.ok(batches.some((b) => b.header.producerId === 7 && (b.header.attributes & 0x20) !== 0), 'the COMMIT marker stays while its data does');
});

test('merged segments keep the transaction index entry of each ABORT marker the clean keeps', async () => {
  // Record time steps past segment.ms at every data batch: one small segment each, all merged by one clean.
  const { log, cleaner } = await storeWith({ ...COMPACT, 'segment.ms': '100' });
  await appendAll(log, Array.from({ length: 10 }, (_, i) => batch([{ key: `k${i % 3}`, value: `${i}`, timestamp: 1_000 * (i + 1) }])));
  await appendAll(log, [batch([{ key: 'k0', value: 'aborted', timestamp: 20_000 }], { producerId: 8, transactional: true }), marker(8, false, 20_000)]);
  const aborted = { producerId: 8, firstOffset: 10, lastOffset: 11, lastStableOffset: 12 };
  log.appendAbortedTxn(aborted);
  await appendAll(log, Array.from({ length: 3 }, (_, i) => batch([{ key: 'k1', value: 'later', timestamp: 30_000 + 1_000 * i }])));
  const segmentsBefore = log.segments.length;
  await cleaner.kick();
  assert.equal(cleaner.history.length, 1);
  assert.ok(log.segments.length < segmentsBefore / 2, `${segmentsBefore} → ${log.segments.length} segments`);
  assert.deepEqual(log.abortedTransactions(0, log.logEndOffset), [aborted]);
  assert.deepEqual(log.segments[0]!.abortedTxns, [aborted], 'in the cleaned segment that now holds the marker');
});
