// kafkajs data scenarios: produce and read back, seek, offsets for timestamps, idempotence, transactions.
import assert from 'node:assert/strict';
import type { Message } from 'kafkajs';
import { eventually } from '../../runner/eventually.js';
import { pass, type Outcome, type ScenarioContext } from '../../runner/types.js';
import { CompressionTypes, consumeUntil, createTopic, kafkaFor, numbered, positions, produce, withAdmin } from './common.js';

// Near the broker's default limit (max.message.bytes 1048588 for the whole batch) yet under it.
const NEAR_LIMIT = 1_000_000;

export async function produceConsume(context: ScenarioContext): Promise<Outcome> {
  const topic = context.name('topic');
  await createTopic(context, topic, 1);
  const big = Buffer.alloc(NEAR_LIMIT, 'x');
  // kafkajs ships gzip only; snappy, lz4 and zstd need plugins (FINDINGS.md).
  const batches: { compression: (typeof CompressionTypes)[keyof typeof CompressionTypes]; messages: Message[] }[] = [
    {
      compression: CompressionTypes.None,
      messages: [
        { key: 'k1', value: Buffer.from('v1'), headers: { h1: 'x', h2: 'y' } },
        { key: null, value: Buffer.from('no key') },
        { key: 'empty', value: Buffer.alloc(0) },
        { key: 'null', value: null },
      ],
    },
    { compression: CompressionTypes.None, messages: [{ key: 'big', value: big }] },
    {
      compression: CompressionTypes.GZIP,
      messages: [
        { key: 'gzip-1', value: Buffer.from('compressed one'), headers: { codec: 'gzip' } },
        { key: 'gzip-2', value: Buffer.from('compressed two') },
      ],
    },
  ];
  const producer = kafkaFor(context).producer();
  await producer.connect();
  const baseOffsets: string[] = [];
  try {
    for (const batch of batches) {
      const [written] = await producer.send({ topic, compression: batch.compression, messages: batch.messages });
      baseOffsets.push(written?.baseOffset ?? '?');
    }
  } finally {
    await producer.disconnect();
  }
  context.observe('base-offsets', baseOffsets);
  const sent = batches.flatMap((batch) => batch.messages);
  const consumer = kafkaFor(context).consumer({ groupId: context.name('group'), maxWaitTimeInMs: 500 });
  const received: { offset: string; key: string | null; value: string | null; headers: Record<string, string> }[] = [];
  await consumer.connect();
  try {
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ message }) => {
        received.push({
          offset: message.offset,
          key: message.key === null ? null : message.key.toString(),
          value: message.value === null ? null : message.value.toString('hex'),
          headers: Object.fromEntries(Object.entries(message.headers ?? {}).map(([k, v]) => [k, String(v)])),
        });
      },
    });
    await eventually(`${sent.length} messages (have ${received.length})`, async () => (received.length >= sent.length ? true : undefined), 60_000);
  } finally {
    await consumer.disconnect();
  }
  assert.deepEqual(
    received,
    sent.map((message, index) => ({
      offset: String(index),
      key: message.key === null || message.key === undefined ? null : String(message.key),
      value: message.value === null || message.value === undefined ? null : Buffer.from(message.value).toString('hex'),
      headers: (message.headers ?? {}) as Record<string, string>,
    })),
  );
  context.observe('offsets', received.map((r) => r.offset));
  return pass;
}

export async function seekReplay(context: ScenarioContext): Promise<Outcome> {
  const topic = context.name('topic');
  await createTopic(context, topic, 1);
  await produce(context, topic, numbered(10));
  let sought = false;
  const received = await consumeUntil(context, { groupId: context.name('group') }, topic, (r) => r.length >= 17, {
    onMessage: (consumer, message) => {
      // After the last message, go back to offset 3 once: 3..9 arrive again.
      if (!sought && message.offset === 9) {
        sought = true;
        consumer.seek({ topic, partition: 0, offset: '3' });
      }
    },
  });
  const offsets = received.map((r) => r.offset);
  assert.deepEqual(offsets, [...Array(10).keys(), 3, 4, 5, 6, 7, 8, 9]);
  assert.deepEqual(received.slice(10).map((r) => r.value), ['m3', 'm4', 'm5', 'm6', 'm7', 'm8', 'm9']);
  context.observe('offsets', offsets);
  return pass;
}

const BASE_TIME = 1_700_000_000_000;

export async function offsetsForTimes(context: ScenarioContext): Promise<Outcome> {
  const topic = context.name('topic');
  await createTopic(context, topic, 1);
  // Five records stamped BASE_TIME, +1 s, ... (CreateTime, the default message.timestamp.type).
  await produce(context, topic, Array.from({ length: 5 }, (_, i) => ({ value: `t${i}`, timestamp: String(BASE_TIME + i * 1000) })));
  await withAdmin(context, async (admin) => {
    const at = async (timestamp: number): Promise<string> =>
      (await admin.fetchTopicOffsetsByTimestamp(topic, timestamp))[0]?.offset ?? 'none';
    const answers = {
      before: await at(BASE_TIME - 1000),
      exact: await at(BASE_TIME + 2000),
      between: await at(BASE_TIME + 2500),
      // Later than every record: Kafka answers -1, which kafkajs replaces with the end offset.
      after: await at(BASE_TIME + 60_000),
    };
    assert.deepEqual(answers, { before: '0', exact: '2', between: '3', after: '5' });
    context.observe('offsets', answers);
    const [bounds] = await admin.fetchTopicOffsets(topic);
    context.observe('bounds', { low: bounds?.low, high: bounds?.high });
  });
  const received = await consumeUntil(context, { groupId: context.name('group') }, topic, (r) => r.length >= 5);
  assert.deepEqual(received.map((r) => r.value), ['t0', 't1', 't2', 't3', 't4']);
  return pass;
}

export async function idempotentProducer(context: ScenarioContext): Promise<Outcome> {
  const topic = context.name('topic');
  await createTopic(context, topic, 1);
  const producer = kafkaFor(context).producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  const baseOffsets: (string | undefined)[] = [];
  try {
    for (let batch = 0; batch < 3; batch += 1) {
      const [written] = await producer.send({ topic, acks: -1, messages: numbered(3, batch * 3) });
      baseOffsets.push(written?.baseOffset);
    }
  } finally {
    await producer.disconnect();
  }
  assert.deepEqual(baseOffsets, ['0', '3', '6']);
  context.observe('base-offsets', baseOffsets);
  const received = await consumeUntil(context, { groupId: context.name('group') }, topic, (r) => r.length >= 9);
  assert.deepEqual(received.map((r) => r.value), numbered(9).map((m) => m.value));
  return pass;
}

export async function transactions(context: ScenarioContext): Promise<Outcome> {
  const topic = context.name('topic');
  await createTopic(context, topic, 1);
  const producer = kafkaFor(context).producer({ transactionalId: context.name('txn'), idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  try {
    // Committed (offsets 0-2, marker 3), aborted (4-5, marker 6), committed (7, marker 8).
    const steps: [string[], 'commit' | 'abort'][] = [[['c0', 'c1', 'c2'], 'commit'], [['a0', 'a1'], 'abort'], [['c3'], 'commit']];
    for (const [values, end] of steps) {
      const transaction = await producer.transaction();
      await transaction.send({ topic, messages: values.map((value) => ({ value })) });
      await (end === 'commit' ? transaction.commit() : transaction.abort());
    }
  } finally {
    await producer.disconnect();
  }
  const committed = await consumeUntil(context, { groupId: context.name('committed'), readUncommitted: false }, topic, (r) => r.length >= 4);
  assert.deepEqual(committed.map((r) => r.value), ['c0', 'c1', 'c2', 'c3']);
  const everything = await consumeUntil(context, { groupId: context.name('uncommitted'), readUncommitted: true }, topic, (r) => r.length >= 6);
  assert.deepEqual(everything.map((r) => r.value), ['c0', 'c1', 'c2', 'a0', 'a1', 'c3']);
  context.observe('read-committed', positions(committed));
  context.observe('read-uncommitted', positions(everything));
  await withAdmin(context, async (admin) => {
    const [bounds] = await admin.fetchTopicOffsets(topic);
    context.observe('end-offset', bounds?.high);
  });
  return pass;
}
