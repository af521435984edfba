// Produced batches that wait for a partition's append in flight go to the log together: offsets, order, failures.
import { ZERO_UUID } from '../../src/protocol/uuid.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { produceApi } from '../../src/protocol/generated/produce.js';
import { TimestampType, decodeBatchRecords, splitBatches } from '../../src/protocol/records/index.js';
import { appendGrouped, type GroupedAppend } from '../../src/broker/produce-group-append.js';
import { MemoryLogStore } from '../../src/storage/memory/memory-store.js';
import type { PartitionLog } from '../../src/storage/log.js';
import { decodeResponse, encodeRequest } from '../server/broker-harness.js';
import { sizePrefixed } from '../server/raw-client.js';
import { batch, fetch, fetchRequest, recordsOf, values, withDataBroker } from './data-harness.js';

/** Counts the log's appends (the real ones run). */
function countAppends(log: PartitionLog): { count: number } {
  const calls = { count: 0 };
  const append = log.append.bind(log);
  log.append = (...args) => {
    calls.count += 1;
    return append(...args);
  };
  return calls;
}

test('pipelined Produce requests to one partition: fewer appends, each request its own offsets, in order', async () => {
  await withDataBroker(async ({ store, client }) => {
    await store.createTopic('pipe', 1);
    const appends = countAppends(store.log('pipe', 0)!);
    const sizes = Array.from({ length: 20 }, (_, i) => 1 + (i % 4));
    const requests = sizes.map((n, i) => {
      const texts = Array.from({ length: n }, (_, j) => `r${i}-${j}`);
      const body = encodeRequest(produceApi, 9, { transactionalId: null, acks: 1, timeoutMs: 30_000, topicData: [{ topicId: ZERO_UUID, name: 'pipe', partitionData: [{ index: 0, records: batch(values(...texts)) }] }] }, 500 + i);
      return sizePrefixed(body);
    });
    // One write: the broker takes all twenty while the first append is in flight.
    client.sendRaw(Buffer.concat(requests));
    let expected = 0;
    for (let i = 0; i < sizes.length; i++) {
      const { correlationId, response } = decodeResponse(produceApi, 9, await client.read());
      const p = response.responses[0]!.partitionResponses[0]!;
      assert.deepEqual([correlationId, p.errorCode, p.baseOffset], [500 + i, 0, BigInt(expected)]);
      expected += sizes[i]!;
    }
    assert.ok(appends.count < sizes.length, `${appends.count} appends for ${sizes.length} requests`);
    const fetched = recordsOf((await fetch(client, fetchRequest([{ topic: 'pipe' }]))).responses[0]!.partitions[0]!.records);
    const records = splitBatches(fetched).batches.flatMap((b) => decodeBatchRecords(fetched.subarray(b.pos, b.pos + b.size)));
    const want = sizes.flatMap((n, i) => Array.from({ length: n }, (_, j) => `r${i}-${j}`));
    assert.deepEqual(records.map((r) => r.value?.toString()), want);
    assert.deepEqual(records.map((r) => r.offset), want.map((_, k) => k));
  });
});

async function memoryLog(topic: string): Promise<PartitionLog> {
  const store = new MemoryLogStore({ nodeId: 1 });
  await store.createTopic(topic, 1);
  return store.log(topic, 0)!;
}

function grouped(b: Buffer, now = 1000): GroupedAppend {
  return { batch: b, timestampType: TimestampType.CREATE_TIME, segmentBytes: 1 << 30, now };
}

test('a failed grouped append fails every batch of its group; the batches after it still append', async () => {
  const log = await memoryLog('g');
  const appends = countAppends(log);
  const first = appendGrouped(log, grouped(batch(values('a', 'b'))));
  // These two wait for the first and go together; the garbage makes that append fail for both.
  const garbage = Buffer.alloc(70, 0xff);
  const bad = appendGrouped(log, grouped(garbage));
  const good = appendGrouped(log, grouped(batch(values('c'))));
  assert.equal((await first).baseOffset, 0);
  await assert.rejects(bad, { code: 'CORRUPT_MESSAGE' });
  await assert.rejects(good, { code: 'CORRUPT_MESSAGE' });
  const after = await appendGrouped(log, grouped(batch(values('d', 'e'))));
  assert.equal(after.baseOffset, 2);
  assert.equal(appends.count, 3);
  assert.equal(log.logEndOffset, 4);
});

test('a group stops at the size limit and at a change of timestamp type', async () => {
  const log = await memoryLog('h');
  const appends = countAppends(log);
  const one = batch(values('x'.repeat(1000)));
  const results = await Promise.all([
    appendGrouped(log, grouped(one)),
    // Three of these fit a limit of two batches' bytes: two go together, the third alone.
    ...[0, 1, 2].map(() => appendGrouped(log, { ...grouped(batch(values('y'.repeat(1000)))), segmentBytes: 2 * one.length })),
    appendGrouped(log, { ...grouped(batch(values('z'))), timestampType: TimestampType.LOG_APPEND_TIME, now: 5000 }),
  ]);
  assert.deepEqual(results.map((r) => r.baseOffset), [0, 1, 2, 3, 4]);
  assert.equal(results[4]!.logAppendTime, 5000);
  assert.equal(appends.count, 4);
});
