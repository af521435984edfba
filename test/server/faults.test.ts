// Fault rules in-process (broker.faults): what they match, each action as a client sees it over a socket, their
// limits, and that no fault changes what the log holds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import kafkajs from 'kafkajs';
import { ErrorCode } from '../../src/protocol/error-codes.js';
import { createMetadataRequest, metadataApi } from '../../src/protocol/generated/metadata.js';
import { apiVersionsApi } from '../../src/protocol/generated/api-versions.js';
import { ManualScheduler } from '../../src/storage/scheduler.js';
import { silentLog } from '../../src/log.js';
import { FaultInjector } from '../../src/server/faults/fault-injector.js';
import { FaultRuleError } from '../../src/server/faults/fault-rule.js';
import { requestTargets } from '../../src/server/faults/request-targets.js';
import { batch, fetch, fetchRequest, produce, recordsOf, values, withDataBroker } from '../broker/data-harness.js';
import { encodeRequest, decodeResponse, roundTrip, startTestBroker } from './broker-harness.js';
import { RawClient } from './raw-client.js';
import { until } from '../coordinator/kafkajs-group-helpers.js';

const { Kafka, logLevel } = kafkajs;
process.env['KAFKAJS_NO_PARTITIONER_WARNING'] = '1';

const seen = (apiKey: number, extra: Partial<{ apiVersion: number; clientId: string; connectionId: number }> = {}) =>
  ({ apiKey, apiVersion: extra.apiVersion ?? 9, clientId: extra.clientId ?? 'c', connectionId: extra.connectionId ?? 0, remote: '127.0.0.1:1' });

test('rules are checked with one line naming the field', () => {
  const faults = new FaultInjector(new ManualScheduler(0), silentLog(), () => undefined);
  const refusal = (body: unknown) => {
    try {
      faults.add(body);
    } catch (err) {
      assert.ok(err instanceof FaultRuleError);
      return err.message;
    }
    assert.fail('accepted');
  };
  assert.equal(refusal([]), 'a fault rule is a JSON object');
  assert.equal(refusal({ action: 'explode' }), '"action" must be one of error, delay, throttle, drop, swallow, corrupt-crc, not "explode"');
  assert.equal(refusal({ action: 'error', error: 'NOPE' }), '"error" must be a Kafka error name (NOT_LEADER_OR_FOLLOWER...) or code other than NONE, not "NOPE"');
  assert.equal(refusal({ action: 'delay' }), 'action "delay" needs "ms"');
  assert.equal(refusal({ action: 'swallow', ms: 3 }), '"ms" does not go with action "swallow"');
  assert.equal(refusal({ action: 'corrupt-crc', api: 'Produce' }), 'action "corrupt-crc" needs "api": "Fetch"');
  assert.equal(refusal({ action: 'drop', api: 'Nope' }), '"api" must be a Kafka API name (Produce, Fetch, JoinGroup...) or key, not "Nope"');
  assert.equal(refusal({ action: 'drop', probability: 2 }), '"probability" must be a number from 0 to 1, not 2');
  assert.equal(refusal({ action: 'drop', minVersion: 5, maxVersion: 3 }), 'minVersion 5 is above maxVersion 3');
  assert.match(refusal({ action: 'drop', topics: 'x' }), /^unknown field "topics" \(fields: api, /);
  assert.equal(faults.active, false);
  assert.deepEqual(faults.add({ api: 'produce', action: 'error', error: 6, count: 2 }),
    { id: 1, api: 'Produce', action: 'error', message: 'For requests intended only for the leader, this error indicates that the broker is not the current leader. For requests intended for any replica, this error indicates that the broker is not a replica of the topic partition.', error: 'NOT_LEADER_OR_FOLLOWER', count: 2, fired: 0 });
  assert.equal(faults.active, true);
});

test('matching: api and versions, client and connection, topic and partition, group and transactional id', () => {
  const faults = new FaultInjector(new ManualScheduler(0), silentLog(), (id) => (id === 'T1' ? 'by-id' : undefined));
  faults.add({ api: 'Fetch', minVersion: 12, topic: 'by-id', partition: 2, action: 'swallow' });
  faults.add({ api: 'JoinGroup', groupId: 'g', clientId: 'only', action: 'swallow' });
  faults.add({ api: 'FindCoordinator', transactionalId: 'tx', connectionId: 7, action: 'swallow' });
  const fetchOf = (partition: number) => ({ topics: [{ topic: '', topicId: 'T1', partitions: [{ partition }] }] });
  assert.equal(faults.check(seen(1, { apiVersion: 13 }), fetchOf(1)), null);
  assert.equal(faults.check(seen(1, { apiVersion: 11 }), fetchOf(2)), null);
  assert.deepEqual(faults.check(seen(1, { apiVersion: 13 }), fetchOf(2)), { type: 'swallow' });
  assert.equal(faults.check(seen(11, { clientId: 'other' }), { groupId: 'g' }), null);
  assert.deepEqual(faults.check(seen(11, { clientId: 'only' }), { groupId: 'g' }), { type: 'swallow' });
  assert.equal(faults.check(seen(10, { connectionId: 7 }), { keyType: 0, coordinatorKeys: ['tx'] }), null);
  assert.deepEqual(faults.check(seen(10, { connectionId: 7 }), { keyType: 1, coordinatorKeys: ['tx'] }), { type: 'swallow' });
  assert.deepEqual(faults.list().map((r) => r['fired']), [1, 1, 1]);

  const targets = requestTargets({ topicData: [{ name: 'a', partitionData: [{ index: 0 }, { index: 3 }] }], transactionalId: 't', groups: ['x', 'y'] }, () => undefined);
  assert.deepEqual([...targets.topics].map(([t, p]) => [t, [...p]]), [['a', [0, 3]]]);
  assert.deepEqual([...targets.groups], ['x', 'y']);
  assert.deepEqual([...targets.transactionalIds], ['t']);
});

test('limits: count, a seeded probability draws the same requests, durationMs on the broker clock', async () => {
  const clock = new ManualScheduler(1000);
  const pattern = (seed: number) => {
    const faults = new FaultInjector(clock, silentLog(), () => undefined);
    faults.add({ action: 'swallow', probability: 0.5, seed });
    return Array.from({ length: 32 }, () => (faults.check(seen(3), {}) === null ? 0 : 1)).join('');
  };
  assert.equal(pattern(42), pattern(42));
  assert.notEqual(pattern(42), pattern(43));
  assert.ok(pattern(42).includes('1') && pattern(42).includes('0'));

  const faults = new FaultInjector(clock, silentLog(), () => undefined);
  faults.add({ action: 'swallow', count: 2 });
  assert.deepEqual([faults.check(seen(3), {}), faults.check(seen(3), {}), faults.check(seen(3), {})], [{ type: 'swallow' }, { type: 'swallow' }, null]);
  assert.equal(faults.active, false);
  faults.add({ action: 'swallow', durationMs: 5000 });
  await clock.advance(4999);
  assert.notEqual(faults.check(seen(3), {}), null);
  await clock.advance(1);
  assert.equal(faults.check(seen(3), {}), null);
  assert.deepEqual(faults.list(), []);
  faults.add({ action: 'swallow' });
  faults.add({ action: 'delay', ms: 1 });
  assert.equal(faults.remove(3), true);
  assert.equal(faults.remove(3), false);
  assert.equal(faults.clear(), 1);
  assert.equal(faults.active, false);
});

test('actions over a socket: error per partition, throttle, swallow, drop; corrupt-crc copies, the log keeps its bytes', async () => {
  await withDataBroker(async ({ broker, store, client }) => {
    await store.createTopic('t', 1);
    const injected: string[] = [];
    broker.faults.onInjected((rule, api) => injected.push(`${rule.id} ${api}`));

    broker.faults.add({ api: 'Produce', topic: 't', action: 'error', error: 'KAFKA_STORAGE_ERROR', count: 1 });
    const refused = await produce(client, 't', 0, batch(values('x')));
    assert.equal(refused.responses[0]!.partitionResponses[0]!.errorCode, ErrorCode.KAFKA_STORAGE_ERROR);
    const stored = await produce(client, 't', 0, batch(values('a', 'b')));
    assert.equal(stored.responses[0]!.partitionResponses[0]!.baseOffset, 0n);

    broker.faults.add({ api: 'Fetch', action: 'error', error: 'NOT_LEADER_OR_FOLLOWER', count: 1 });
    const moved = await fetch(client, fetchRequest([{ topic: 't' }]));
    assert.equal(moved.errorCode, ErrorCode.NONE);
    assert.deepEqual(moved.responses[0]!.partitions.map((p) => [p.errorCode, p.highWatermark, p.lastStableOffset, p.logStartOffset, recordsOf(p.records).length]),
      [[ErrorCode.NOT_LEADER_OR_FOLLOWER, -1n, -1n, -1n, 0]]);

    const good = recordsOf((await fetch(client, fetchRequest([{ topic: 't' }]))).responses[0]!.partitions[0]!.records);
    const kept = Buffer.from(good);
    broker.faults.add({ api: 'Fetch', action: 'corrupt-crc', count: 1 });
    const bad = recordsOf((await fetch(client, fetchRequest([{ topic: 't' }]))).responses[0]!.partitions[0]!.records);
    assert.equal(bad.readUInt32BE(17), ~good.readUInt32BE(17) >>> 0);
    assert.deepEqual(bad.subarray(21), good.subarray(21));
    assert.deepEqual(recordsOf((await fetch(client, fetchRequest([{ topic: 't' }]))).responses[0]!.partitions[0]!.records), kept);

    broker.faults.add({ api: 'Metadata', action: 'throttle', ms: 250, count: 1 });
    const throttled = await roundTrip(client, metadataApi, 12, { ...createMetadataRequest(), topics: null });
    assert.equal(throttled.throttleTimeMs, 250);

    broker.faults.add({ api: 'ApiVersions', action: 'swallow', count: 1 });
    const request = (id: number) => encodeRequest(apiVersionsApi, 3, { clientSoftwareName: 'x', clientSoftwareVersion: '1' }, id);
    client.send(request(9001));
    client.send(request(9002));
    assert.equal(decodeResponse(apiVersionsApi, 3, await client.read()).correlationId, 9002);

    assert.deepEqual(injected, ['1 Produce', '2 Fetch', '3 Fetch', '4 Metadata', '5 ApiVersions']);
    assert.deepEqual(broker.faults.list(), []);
  });
  for (const when of ['before', 'after'] as const) {
    await withDataBroker(async ({ broker, store, client }) => {
      await store.createTopic('t', 1);
      broker.faults.add({ api: 'Produce', action: 'drop', when, count: 1 });
      client.send(encodeRequest(metadataApi, 12, { ...createMetadataRequest(), topics: null }, 1));
      await client.read();
      await assert.rejects(produce(client, 't', 0, batch(values('a'))));
      const other = await RawClient.connect(broker.port);
      const read = await fetch(other, fetchRequest([{ topic: 't' }]));
      // Dropped before: nothing appended; after: appended, the answer lost.
      assert.equal(read.responses[0]!.partitions[0]!.highWatermark, when === 'before' ? 0n : 1n);
      await other.close();
    });
  }
});

test('kafkajs idempotent producer through NOT_LEADER_OR_FOLLOWER and dropped connections: every record once, in order', async () => {
  const broker = await startTestBroker();
  const kafka = new Kafka({ clientId: 'faults', brokers: [`127.0.0.1:${broker.port}`], logLevel: logLevel.NOTHING, retry: { retries: 10, initialRetryTime: 20, maxRetryTime: 200 } });
  const admin = kafka.admin();
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  try {
    await admin.connect();
    await admin.createTopics({ topics: [{ topic: 'orders', numPartitions: 1 }] });
    await producer.connect();
    broker.faults.add({ api: 'Produce', topic: 'orders', action: 'error', error: 'NOT_LEADER_OR_FOLLOWER', count: 3 });
    broker.faults.add({ api: 'Produce', action: 'drop', when: 'after', count: 1 });
    const sent: string[] = [];
    for (let i = 0; i < 20; i++) {
      sent.push(`m${i}`);
      await producer.send({ topic: 'orders', messages: [{ value: `m${i}` }] });
    }
    assert.deepEqual(broker.faults.list(), []);
    const offsets = await admin.fetchTopicOffsets('orders');
    assert.equal(offsets[0]!.high, '20');
  } finally {
    await producer.disconnect();
    await admin.disconnect();
    await broker.close();
  }
});

test('faults never corrupt stored data: after a seeded mix of every action on Produce, a fetch returns exactly what was acknowledged', async () => {
  const broker = await startTestBroker();
  const kafka = new Kafka({ clientId: 'faults-mix', brokers: [`127.0.0.1:${broker.port}`], logLevel: logLevel.NOTHING, requestTimeout: 1500,
    retry: { retries: 30, initialRetryTime: 20, maxRetryTime: 200 } });
  const admin = kafka.admin();
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  const consumer = kafka.consumer({ groupId: 'faults-mix-reader', maxWaitTimeInMs: 100 });
  const acked = new Map<number, string[]>([[0, []], [1, []]]);
  const read = new Map<number, string[]>([[0, []], [1, []]]);
  try {
    await admin.connect();
    await admin.createTopics({ topics: [{ topic: 'mix', numPartitions: 2 }] });
    await producer.connect();
    const rules = [
      { api: 'Produce', topic: 'mix', partition: 1, action: 'error', error: 'NOT_LEADER_OR_FOLLOWER', probability: 0.25, seed: 1 },
      { api: 'Produce', action: 'drop', when: 'after', probability: 0.1, seed: 2 },
      { api: 'Produce', action: 'drop', when: 'before', probability: 0.1, seed: 3 },
      { api: 'Produce', action: 'swallow', probability: 0.05, seed: 4 },
      { api: 'Produce', action: 'throttle', ms: 30, probability: 0.2, seed: 5 },
      { api: 'Produce', action: 'delay', ms: 30, probability: 0.2, seed: 6 },
    ];
    for (const rule of rules) broker.faults.add(rule);
    for (let i = 0; i < 30; i++) {
      await producer.send({ topic: 'mix', messages: [{ value: `m${i}`, partition: 0 }, { value: `m${i}`, partition: 1 }] });
      for (const p of [0, 1]) acked.get(p)!.push(`m${i}`);
    }
    const fired = broker.faults.list().map((r) => r['fired'] as number);
    assert.ok(fired.filter((n) => n > 0).length >= 4, `most actions fired: ${fired}`);
    broker.faults.clear();
    await consumer.connect();
    await consumer.subscribe({ topic: 'mix', fromBeginning: true });
    await consumer.run({ eachMessage: async ({ partition, message }) => void read.get(partition)!.push(message.value!.toString()) });
    await until(() => read.get(0)!.length >= 30 && read.get(1)!.length >= 30, 'both partitions are read back');
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.deepEqual([read.get(0), read.get(1)], [acked.get(0), acked.get(1)]);
    const offsets = await admin.fetchTopicOffsets('mix');
    assert.deepEqual(offsets.map((o) => o.high).sort(), ['30', '30']);
  } finally {
    await consumer.disconnect();
    await producer.disconnect();
    await admin.disconnect();
    await broker.close();
  }
});
