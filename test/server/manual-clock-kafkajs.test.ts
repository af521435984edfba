// gregor.clock=manual with a real client (kafkajs): advancing the broker's clock expires a consumer's session (the
// member is removed and rejoins under a new member id) and times a transaction out (the coordinator aborts it; the
// producer's commit fails; a read_committed reader sees only what came after), each well within the timeout's own span of wall time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import kafkajs from 'kafkajs';
import { startTestBroker } from './broker-harness.js';
import { until } from '../coordinator/kafkajs-group-helpers.js';

const { Kafka, logLevel } = kafkajs;
process.env['KAFKAJS_NO_PARTITIONER_WARNING'] = '1';

const kafkaFor = (port: number) => new Kafka({ clientId: 'manual-clock', brokers: [`127.0.0.1:${port}`], logLevel: logLevel.NOTHING,
  retry: { retries: 10, initialRetryTime: 20, maxRetryTime: 200 } });

/** Runs `step` while moving the clock along, so the client's long polls (on the manual clock) end. */
async function advancing<T>(broker: { clock: { advance(ms: number): Promise<void> } }, step: Promise<T>): Promise<T> {
  let done = false;
  const result = step.finally(() => (done = true));
  while (!done) {
    await broker.clock.advance(100);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return result;
}

test('manual clock: a consumer\'s session expires when the clock passes session.timeout.ms, and it rejoins', async () => {
  const broker = await startTestBroker({ 'gregor.clock': 'manual' });
  const kafka = kafkaFor(broker.port);
  const admin = kafka.admin();
  const consumer = kafka.consumer({ groupId: 'sessions', sessionTimeout: 10_000, heartbeatInterval: 100, maxWaitTimeInMs: 100 });
  const joins: string[] = [];
  consumer.on(consumer.events.GROUP_JOIN, (e) => void joins.push(e.payload.memberId));
  try {
    await admin.connect();
    await admin.createTopics({ topics: [{ topic: 'sessions-t' }] });
    await consumer.connect();
    await consumer.subscribe({ topic: 'sessions-t', fromBeginning: true });
    await consumer.run({ eachMessage: async () => {} });
    await until(() => joins.length === 1, 'the consumer joins');
    const [before] = (await admin.describeGroups(['sessions'])).groups;
    assert.deepEqual(before!.members.map((m) => m.memberId), joins);
    // The session expires at once in wall time (the member is out of the group), where a real clock takes 10 s. A
    // heartbeat kafkajs sends while the advance runs the timers (its long poll ended at +100 ms) can start the session
    // again before it expires: then the next advance expires it. The bound is the session timeout itself, so a loaded
    // machine cannot fail it, and a real clock could not pass it.
    const started = performance.now();
    const stillMember = async () => (await admin.describeGroups(['sessions'])).groups[0]!.members.some((m) => m.memberId === joins[0]);
    for (let advances = 0; await stillMember(); advances++) {
      assert.ok(advances < 5, 'the session expires after an advance past session.timeout.ms');
      await broker.clock.advance(10_001);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.ok(performance.now() - started < 10_000, `the session expired ${Math.round(performance.now() - started)} ms after the first advance`);
    // kafkajs heartbeats between its fetches, whose long polls end on the manual clock: move it along a little.
    await until(async () => {
      await broker.clock.advance(20);
      return joins.length === 2;
    }, 'the expired member rejoins');
    assert.notEqual(joins[1], joins[0]);
    const [after] = (await admin.describeGroups(['sessions'])).groups;
    assert.deepEqual(after!.members.map((m) => m.memberId), [joins[1]]);
  } finally {
    await advancing(broker, consumer.disconnect());
    await admin.disconnect();
    await broker.close();
  }
});

test('manual clock: an open transaction past transaction.timeout.ms is aborted by the coordinator', async () => {
  const broker = await startTestBroker({ 'gregor.clock': 'manual' });
  const kafka = kafkaFor(broker.port);
  const admin = kafka.admin();
  const producer = kafka.producer({ transactionalId: 'slow', transactionTimeout: 5_000, maxInFlightRequests: 1, idempotent: true,
    retry: { retries: 1 } });
  const plain = kafka.producer();
  const reader = kafka.consumer({ groupId: 'reader', readUncommitted: false, maxWaitTimeInMs: 100 });
  const seen: string[] = [];
  try {
    await admin.connect();
    await admin.createTopics({ topics: [{ topic: 'txn-t' }] });
    await producer.connect();
    await plain.connect();
    const txn = await producer.transaction();
    await txn.send({ topic: 'txn-t', messages: [{ value: 'never' }] });
    // transaction.timeout.ms passes, then the coordinator's abort check (every 10 s by default) finds it.
    // It times out within a second of wall time, where a real clock takes 15 s.
    const started = performance.now();
    await broker.clock.advance(5_001 + 10_000);
    await assert.rejects(txn.commit(), (err: Error & { type?: string }) => ['PRODUCER_FENCED', 'INVALID_PRODUCER_EPOCH'].includes(err.type ?? ''));
    // Bounded by the transaction timeout itself (a real clock could not pass it; a loaded machine cannot fail it).
    assert.ok(performance.now() - started < 5_000, `the transaction was aborted ${Math.round(performance.now() - started)} ms after the advance`);
    await plain.send({ topic: 'txn-t', messages: [{ value: 'after' }] });
    await reader.connect();
    await reader.subscribe({ topic: 'txn-t', fromBeginning: true });
    await reader.run({ eachMessage: async ({ message }) => void seen.push(message.value!.toString()) });
    // The reader's long polls end on the manual clock: move it along until it has read.
    await until(async () => {
      await broker.clock.advance(100);
      return seen.length > 0;
    }, 'the read_committed reader reads past the aborted transaction');
    assert.deepEqual(seen, ['after']);
  } finally {
    await advancing(broker, reader.disconnect());
    await plain.disconnect();
    await producer.disconnect();
    await admin.disconnect();
    await broker.close();
  }
});
