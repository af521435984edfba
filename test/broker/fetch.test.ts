// Fetch over a real socket: byte limits, long polling woken by appends, sessions, errors, answering at close.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ErrorCode } from '../../src/protocol/error-codes.js';
import { splitBatches } from '../../src/protocol/records/index.js';
import { RawClient } from '../server/raw-client.js';
import { batch, fetch, fetchRequest, produce, recordsOf, withDataBroker } from './data-harness.js';

const KiB = 1024;

test('the first batch comes whole past partition_max_bytes, but only until a partition has returned data', async () => {
  await withDataBroker(async ({ store, client }) => {
    await store.createTopic('big', 2);
    for (const p of [0, 1]) await produce(client, 'big', p, batch([{ value: Buffer.alloc(4 * KiB, 1) }]));
    const response = await fetch(client, fetchRequest([{ topic: 'big', partition: 0, maxBytes: 100 }, { topic: 'big', partition: 1, maxBytes: 100 }]));
    const [p0, p1] = response.responses[0]!.partitions;
    assert.ok(recordsOf(p0!.records).length > 4 * KiB, 'first partition: the whole oversized batch');
    assert.equal(recordsOf(p1!.records).length, 0, 'second partition: nothing past its limit');
    assert.equal(p1!.highWatermark, 1n);
    // max_bytes caps the whole response the same way.
    const capped = await fetch(client, fetchRequest([{ topic: 'big', partition: 0 }, { topic: 'big', partition: 1 }], { maxBytes: 10 }));
    assert.deepEqual(capped.responses[0]!.partitions.map((p) => recordsOf(p.records).length > 0), [true, false]);
    // A partition with nothing to return does not use up the exception: the next one still gets its whole batch.
    await store.createTopic('gap', 3);
    for (const p of [1, 2]) await produce(client, 'gap', p, batch([{ value: Buffer.alloc(4 * KiB, 2) }]));
    const skipped = await fetch(client, fetchRequest([0, 1, 2].map((partition) => ({ topic: 'gap', partition, maxBytes: 100 }))));
    assert.deepEqual(skipped.responses[0]!.partitions.map((p) => recordsOf(p.records).length > 4 * KiB), [false, true, false]);
  });
});

test('past the first batch, max_bytes cuts the last batch mid-way, byte for byte as Kafka 4.3.1 answered', async () => {
  // Kafka's LogSegment.read sends the log's bytes up to the budget; the client drops the cut batch and asks for it
  // again. Kafka 4.3.1 answered these three fetches of five 1 KiB-record batches (1094 bytes each) with 2560 bytes
  // (2 whole batches and 372 bytes), 2560 bytes, and 2000 bytes (1 whole batch and 906 bytes).
  await withDataBroker(async ({ store, client }) => {
    await store.createTopic('many', 1);
    for (let i = 0; i < 5; i++) await produce(client, 'many', 0, batch([{ value: Buffer.alloc(KiB, i) }]));
    const all = recordsOf((await fetch(client, fetchRequest([{ topic: 'many' }]))).responses[0]!.partitions[0]!.records);
    const sizes = splitBatches(all).batches.map((b) => b.size);
    assert.deepEqual(sizes, [1094, 1094, 1094, 1094, 1094]);
    const cases = [
      { request: fetchRequest([{ topic: 'many', maxBytes: 2560 }]), from: 0, bytes: 2560, whole: 2, trailing: 372 },
      { request: fetchRequest([{ topic: 'many', maxBytes: 1 << 20 }], { maxBytes: 2560 }), from: 0, bytes: 2560, whole: 2, trailing: 372 },
      { request: fetchRequest([{ topic: 'many', offset: 1, maxBytes: 2000 }]), from: 1094, bytes: 2000, whole: 1, trailing: 906 },
    ];
    for (const c of cases) {
      const records = recordsOf((await fetch(client, c.request)).responses[0]!.partitions[0]!.records);
      const split = splitBatches(records);
      assert.deepEqual([records.length, split.batches.length, split.trailingBytes], [c.bytes, c.whole, c.trailing]);
      assert.deepEqual(records, all.subarray(c.from, c.from + c.bytes), 'the log\'s bytes as stored, the last batch cut');
    }
  });
});

test('a long poll is answered when a produce arrives', async () => {
  await withDataBroker(async ({ broker, store, client }) => {
    await store.createTopic('wait', 1);
    const waiting = fetch(client, fetchRequest([{ topic: 'wait' }], { maxWaitMs: 120_000, minBytes: 1 }));
    const producer = await RawClient.connect(broker.port);
    try {
      await produce(producer, 'wait', 0, batch([{ value: Buffer.from('wake up') }]));
    } finally {
      await producer.close();
    }
    const part = (await waiting).responses[0]!.partitions[0]!;
    assert.equal(part.highWatermark, 1n);
    assert.ok(recordsOf(part.records).length > 0);
  });
});

test('min_bytes keeps waiting through small appends (until max_wait_ms)', async () => {
  await withDataBroker(async ({ broker, store, client }) => {
    await store.createTopic('slow', 1);
    const waiting = fetch(client, fetchRequest([{ topic: 'slow' }], { maxWaitMs: 120_000, minBytes: 3 * KiB }));
    const producer = await RawClient.connect(broker.port);
    try {
      for (let i = 0; i < 4; i++) await produce(producer, 'slow', 0, batch([{ value: Buffer.alloc(KiB, i) }]));
    } finally {
      await producer.close();
    }
    const records = recordsOf((await waiting).responses[0]!.partitions[0]!.records);
    assert.ok(records.length >= 3 * KiB, `answered with ${records.length} bytes`);
  });
});

test('a pending long poll is answered when the broker closes', async () => {
  await withDataBroker(async ({ broker, store, client }) => {
    await store.createTopic('idle', 1);
    const waiting = fetch(client, fetchRequest([{ topic: 'idle' }], { maxWaitMs: 600_000, minBytes: 1 }));
    // Let the request reach the broker before closing it.
    await fetch(await RawClient.connect(broker.port), fetchRequest([{ topic: 'idle' }]));
    await broker.close();
    const part = (await waiting).responses[0]!.partitions[0]!;
    assert.deepEqual([part.errorCode, recordsOf(part.records).length], [ErrorCode.NONE, 0]);
  });
});

test('partition errors: out of range, unknown topic, unknown topic id, fenced and unknown leader epochs', async () => {
  await withDataBroker(async ({ store, client }) => {
    const topic = await store.createTopic('e', 1);
    await produce(client, 'e', 0, batch([{ value: Buffer.from('1') }]));
    const one = async (part: Parameters<typeof fetchRequest>[0][0], version = 12) => (await fetch(client, fetchRequest([part]), version)).responses[0]!.partitions[0]!;
    const oor = await one({ topic: 'e', offset: 5 });
    assert.deepEqual([oor.errorCode, oor.highWatermark, oor.logStartOffset, oor.abortedTransactions], [ErrorCode.OFFSET_OUT_OF_RANGE, -1n, -1n, null]);
    assert.equal((await one({ topic: 'e', offset: 1 })).errorCode, ErrorCode.NONE, 'the log end offset itself is in range');
    const unknown = await one({ topic: 'nope' });
    assert.deepEqual([unknown.errorCode, unknown.abortedTransactions], [ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, []]);
    assert.equal((await one({ topic: 'e', partition: 4 })).errorCode, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
    assert.equal((await one({ topic: '', topicId: 'b2-lGxk1Sr2W9nZ3Xb7y8g' }, 13)).errorCode, ErrorCode.UNKNOWN_TOPIC_ID);
    const byId = await fetch(client, fetchRequest([{ topic: '', topicId: topic.topicId }]), 13);
    assert.equal(byId.responses[0]!.topicId, topic.topicId);
    assert.equal(byId.responses[0]!.partitions[0]!.highWatermark, 1n);
    assert.equal((await one({ topic: 'e', currentLeaderEpoch: 1 })).errorCode, ErrorCode.UNKNOWN_LEADER_EPOCH);
    assert.equal((await one({ topic: 'e', currentLeaderEpoch: 0 })).errorCode, ErrorCode.NONE);
  });
});

test('read_committed answers an empty aborted-transaction list, read_uncommitted null', async () => {
  await withDataBroker(async ({ store, client }) => {
    await store.createTopic('iso', 1);
    await produce(client, 'iso', 0, batch([{ value: Buffer.from('1') }]));
    const committed = (await fetch(client, fetchRequest([{ topic: 'iso' }], { isolationLevel: 1 }))).responses[0]!.partitions[0]!;
    assert.deepEqual([committed.abortedTransactions, committed.lastStableOffset], [[], 1n]);
    const uncommitted = (await fetch(client, fetchRequest([{ topic: 'iso' }]))).responses[0]!.partitions[0]!;
    assert.equal(uncommitted.abortedTransactions, null);
  });
});

test('incremental fetch sessions: only partitions with news, forgotten partitions, epoch and id errors', async () => {
  await withDataBroker(async ({ store, client }) => {
    await store.createTopic('s', 2);
    await produce(client, 's', 0, batch([{ value: Buffer.from('a') }]));
    const full = await fetch(client, fetchRequest([{ topic: 's', partition: 0, offset: 1 }, { topic: 's', partition: 1 }], { sessionEpoch: 0 }));
    assert.notEqual(full.sessionId, 0);
    assert.equal(full.responses[0]!.partitions.length, 2);
    const quiet = await fetch(client, fetchRequest([], { sessionId: full.sessionId, sessionEpoch: 1 }));
    assert.deepEqual([quiet.errorCode, quiet.sessionId, quiet.responses.length], [0, full.sessionId, 0]);
    await produce(client, 's', 1, batch([{ value: Buffer.from('b') }]));
    const news = await fetch(client, fetchRequest([], { sessionId: full.sessionId, sessionEpoch: 2 }));
    assert.deepEqual(news.responses.flatMap((t) => t.partitions.map((p) => [p.partitionIndex, p.highWatermark])), [[1, 1n]]);
    const repeated = await fetch(client, fetchRequest([], { sessionId: full.sessionId, sessionEpoch: 2 }));
    assert.equal(repeated.errorCode, ErrorCode.INVALID_FETCH_SESSION_EPOCH);
    // Forget partition 1, move partition 0's offset back: only partition 0 answers, with its record.
    const moved = await fetch(client, {
      ...fetchRequest([{ topic: 's', partition: 0, offset: 0 }], { sessionId: full.sessionId, sessionEpoch: 3 }),
      forgottenTopicsData: [{ topic: 's', topicId: 'AAAAAAAAAAAAAAAAAAAAAA', partitions: [1] }],
    });
    assert.deepEqual(moved.responses.flatMap((t) => t.partitions.map((p) => p.partitionIndex)), [0]);
    assert.ok(recordsOf(moved.responses[0]!.partitions[0]!.records).length > 0);
    await produce(client, 's', 1, batch([{ value: Buffer.from('c') }]));
    const afterForget = await fetch(client, fetchRequest([], { sessionId: full.sessionId, sessionEpoch: 4 }));
    assert.ok(afterForget.responses.every((t) => t.partitions.every((p) => p.partitionIndex === 0)), 'forgotten partition 1 is not reported');
    assert.equal((await fetch(client, fetchRequest([], { sessionId: full.sessionId, sessionEpoch: 5 }), 13)).errorCode, ErrorCode.FETCH_SESSION_TOPIC_ID_ERROR);
    const closed = await fetch(client, fetchRequest([{ topic: 's', partition: 1 }], { sessionId: full.sessionId, sessionEpoch: -1 }));
    assert.deepEqual([closed.sessionId, closed.responses[0]!.partitions.length], [0, 1]);
    assert.equal((await fetch(client, fetchRequest([], { sessionId: full.sessionId, sessionEpoch: 5 }))).errorCode, ErrorCode.FETCH_SESSION_ID_NOT_FOUND);
  });
});

test('max.incremental.fetch.session.cache.slots=0 creates no sessions', async () => {
  await withDataBroker(
    async ({ store, client }) => {
      await store.createTopic('n', 1);
      const full = await fetch(client, fetchRequest([{ topic: 'n' }], { sessionEpoch: 0 }));
      assert.equal(full.sessionId, 0);
    },
    { 'max.incremental.fetch.session.cache.slots': '0' },
  );
});
