// The message browser over partition logs (memory engine): compressed batches, control batches left out, a cursor
// that starts inside a batch, and the bound on what one request reads, whatever the filter.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryLogStore } from '../../../src/storage/memory/memory-store.js';
import { encodeControlBatch, encodeRecordBatch } from '../../../src/protocol/records/index.js';
import { browse, SCAN_BYTES, type BrowseResult } from '../../../src/http/console/messages.js';
import type { PartitionLog } from '../../../src/storage/log.js';

const GZIP = 1;

async function logOf(store: MemoryLogStore, topic: string, partitions = 1): Promise<Map<number, PartitionLog>> {
  await store.createTopic(topic, partitions);
  return new Map(Array.from({ length: partitions }, (_, p) => [p, store.log(topic, p)!]));
}

function batchOf(first: number, count: number, valueBytes = 8, compression = 0): Buffer {
  return encodeRecordBatch({
    compression,
    records: Array.from({ length: count }, (_, i) => ({
      timestamp: 1_000 + first + i, key: Buffer.from(`k${first + i}`), value: Buffer.alloc(valueBytes, 'v'),
    })),
  });
}

const keysOf = (result: BrowseResult): string[] => result.records.map((r) => Buffer.from(r.key.b64!, 'base64').toString());

test('gzip batches of 100: the newest 10, then pages from a cursor inside a batch, every record once', async () => {
  const logs = await logOf(new MemoryLogStore({ nodeId: 1 }), 'gz');
  for (let b = 0; b < 5; b++) await logs.get(0)!.append(batchOf(b * 100, 100, 8, GZIP), { leaderEpoch: 0 });
  const first = await browse(logs, { partitions: [0], from: { kind: 'newest' }, limit: 10, filter: {} });
  assert.deepEqual(keysOf(first), Array.from({ length: 10 }, (_, i) => `k${499 - i}`));
  assert.deepEqual(first.next, { 0: 490 });
  const seen = keysOf(first);
  let next: Record<number, number> = first.next;
  for (;;) {
    const page = await browse(logs, { partitions: [0], from: { kind: 'newest', before: next }, limit: 33, filter: {} });
    seen.push(...keysOf(page));
    next = page.next;
    if (page.done) break;
  }
  assert.deepEqual(seen, Array.from({ length: 500 }, (_, i) => `k${499 - i}`));
});

test('transaction markers (control batches) are not shown', async () => {
  const logs = await logOf(new MemoryLogStore({ nodeId: 1 }), 'txn');
  const log = logs.get(0)!;
  await log.append(batchOf(0, 2), { leaderEpoch: 0 });
  await log.append(encodeControlBatch({ baseOffset: 0, producerId: 7, producerEpoch: 0, type: 1, coordinatorEpoch: 0, timestamp: 2_000 }), { leaderEpoch: 0 });
  await log.append(batchOf(3, 1), { leaderEpoch: 0 });
  const newest = await browse(logs, { partitions: [0], from: { kind: 'newest' }, limit: 10, filter: {} });
  assert.deepEqual(newest.records.map((r) => [r.offset, Buffer.from(r.key.b64!, 'base64').toString()]), [[3, 'k3'], [1, 'k1'], [0, 'k0']]);
  const forward = await browse(logs, { partitions: [0], from: { kind: 'offset', offset: 0 }, limit: 10, filter: {} });
  assert.deepEqual(forward.records.map((r) => r.offset), [0, 1, 3]);
  assert.deepEqual([forward.next, forward.done], [{ 0: 4 }, true]);
});

test('a filter that matches nothing reads at most SCAN_BYTES (and a batch per partition) a request, and goes on to the end', async () => {
  const logs = await logOf(new MemoryLogStore({ nodeId: 1 }), 'big', 2);
  // 2 partitions × 60 batches of 10 records of 10 KiB: about 12 MiB in all, so a search takes two requests or more.
  for (let b = 0; b < 60; b++) for (const log of logs.values()) await log.append(batchOf(b * 10, 10, 10 * 1024), { leaderEpoch: 0 });
  const batchBytes = batchOf(590, 10, 10 * 1024).length;
  let requests = 0;
  let total = 0;
  let before: Record<number, number> | undefined;
  for (;;) {
    const page = await browse(logs, { partitions: [0, 1], from: before === undefined ? { kind: 'newest' } : { kind: 'newest', before }, limit: 50, filter: { key: 'absent' } });
    requests++;
    assert.deepEqual(page.records, []);
    assert.ok(page.scannedBytes <= SCAN_BYTES + 2 * batchBytes, `read ${page.scannedBytes} bytes`);
    total += page.scannedBytes;
    if (page.done) break;
    before = page.next;
  }
  assert.ok(requests >= 2, `${requests} requests`);
  // Every batch read once over the requests: no window is read again.
  assert.equal(total, [...logs.values()].reduce((sum, log) => sum + log.sizeInBytes(), 0));
});
