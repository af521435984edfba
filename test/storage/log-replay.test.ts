// replayBatches: the start-up loads' walk over a partition. Each batch comes out once, in offset order, from the
// one holding `from` on, whether a read answers with one buffer per batch (memory) or one span of many (file).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { baseOffsetAt, lastOffsetAt } from '../../src/protocol/records/index.js';
import { FileLogStore } from '../../src/storage/file/file-store.js';
import { replayBatches } from '../../src/storage/log-replay.js';
import { MemoryLogStore } from '../../src/storage/memory/memory-store.js';
import { batchOf } from './batch-fixtures.js';

const root = mkdtempSync(join(tmpdir(), 'gregor-log-replay-'));
after(() => rmSync(root, { recursive: true, force: true }));

const engines: [string, () => Promise<MemoryLogStore | FileLogStore>][] = [
  ['memory', async () => new MemoryLogStore({ nodeId: 1 })],
  ['file', () => FileLogStore.open({ logDir: join(root, 'file'), nodeId: 1 })],
];

for (const [engine, open] of engines) {
  test(`${engine}: every batch once, in order, from the one holding the start offset, over segments`, async () => {
    const store = await open();
    // Small segments, so the walk crosses from one to the next.
    await store.createTopic('walk', 1, { 'internal.segment.bytes': '4096' });
    const log = store.log('walk', 0)!;
    const batches = 500;
    for (let i = 0; i < batches; i++) await log.append(await batchOf(2), { leaderEpoch: 0 });
    assert.ok(log.segments.length > 10);

    const walked = async (from: number, readBytes: number) => {
      const spans: [number, number][] = [];
      for await (const batch of replayBatches(log, from, readBytes)) spans.push([baseOffsetAt(batch, 0), lastOffsetAt(batch, 0)]);
      return spans;
    };
    const all = Array.from({ length: batches }, (_, i): [number, number] => [2 * i, 2 * i + 1]);
    assert.deepEqual(await walked(0, 1000), all);
    assert.deepEqual(await walked(0, 1), all, 'a read smaller than a batch still returns it whole');
    assert.deepEqual(await walked(301, 1 << 20), all.slice(150), 'starts with the batch holding offset 301');
    assert.deepEqual(await walked(2 * batches, 1000), []);
    await store.close();
  });
}
