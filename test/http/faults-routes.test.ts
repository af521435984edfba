// /v1/faults and /v1/clock over HTTP: rules added, listed, removed; bad bodies refused with one line; scenarios;
// the clock advanced (manual) or refused (system); injected faults counted in /metrics.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import kafkajs from 'kafkajs';
import { startTestBroker } from '../server/broker-harness.js';
import { parseExposition, valueOf } from './prometheus-text.js';
import { until } from '../coordinator/kafkajs-group-helpers.js';

const { Kafka, logLevel } = kafkajs;

async function call(base: string, method: string, path: string, body?: unknown): Promise<{ status: number; json: unknown }> {
  const response = await fetch(`${base}${path}`, {
    method,
    ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
  });
  const text = await response.text();
  return { status: response.status, json: text === '' ? null : JSON.parse(text) };
}

test('fault rules over HTTP: add, list, fire, count, remove; scenarios; refusals', async () => {
  const broker = await startTestBroker({ 'gregor.http.listeners': 'http://127.0.0.1:0' });
  const base = `http://127.0.0.1:${broker.httpAddresses[0]!.port}`;
  const kafka = new Kafka({ brokers: [`127.0.0.1:${broker.port}`], clientId: 'http-faults', logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  try {
    assert.deepEqual(await call(base, 'POST', '/v1/faults', { api: 'Nope', action: 'drop' }),
      { status: 400, json: { error: '"api" must be a Kafka API name (Produce, Fetch, JoinGroup...) or key, not "Nope"' } });
    assert.deepEqual(await call(base, 'POST', '/v1/faults', { api: 'CreateTopics', action: 'error', error: 'POLICY_VIOLATION', message: 'injected', count: 1 }),
      { status: 201, json: { id: 1, api: 'CreateTopics', action: 'error', message: 'injected', error: 'POLICY_VIOLATION', count: 1, fired: 0 } });
    await admin.connect();
    await assert.rejects(admin.createTopics({ topics: [{ topic: 'refused' }] }), (err: Error & { errors?: { type: string; message: string }[] }) => {
      assert.deepEqual(err.errors?.map((e) => e.type), ['POLICY_VIOLATION']);
      return true;
    });
    assert.deepEqual(await call(base, 'GET', '/v1/faults'), { status: 200, json: { rules: [] } });
    assert.equal(await admin.createTopics({ topics: [{ topic: 'accepted' }] }), true);

    const scenario = await call(base, 'POST', '/v1/faults/scenarios/leader-moved', { topic: 'accepted', count: 2 });
    assert.equal(scenario.status, 201);
    assert.deepEqual((scenario.json as { rules: { api: string; error: string; count: number }[] }).rules.map((r) => [r.api, r.error, r.count]),
      [['Produce', 'NOT_LEADER_OR_FOLLOWER', 2], ['Fetch', 'NOT_LEADER_OR_FOLLOWER', 2]]);
    assert.deepEqual(await call(base, 'POST', '/v1/faults/scenarios/meteor', {}),
      { status: 400, json: { error: 'no scenario "meteor" (scenarios: broker-unavailable, coordinator-moved, leader-moved, producer-fenced, disk-full)' } });
    assert.deepEqual(await call(base, 'POST', '/v1/faults/scenarios/leader-moved', {}),
      { status: 400, json: { error: '"topic" must be a non-empty string, not undefined' } });
    assert.deepEqual(await call(base, 'POST', '/v1/faults/scenarios/coordinator-moved', { all: true, groupId: 'g' }),
      { status: 400, json: { error: 'give "groupId" or "all": true, not both' } });
    assert.deepEqual(await call(base, 'POST', '/v1/faults/scenarios/coordinator-moved', { all: 'yes' }),
      { status: 400, json: { error: '"all" must be true or false, not "yes"' } });
    assert.deepEqual(await call(base, 'POST', '/v1/faults/scenarios/coordinator-moved', { groupId: 'g', ms: -1 }),
      { status: 400, json: { error: '"ms" must be a whole number >= 0, not -1' } });
    assert.equal((await call(base, 'DELETE', '/v1/faults/2')).status, 204);
    assert.deepEqual(await call(base, 'DELETE', '/v1/faults/2'), { status: 404, json: { error: 'no fault rule 2' } });
    assert.deepEqual(await call(base, 'DELETE', '/v1/faults'), { status: 200, json: { removed: 1 } });

    const metrics = parseExposition(await (await fetch(`${base}/metrics`)).text());
    assert.equal(valueOf(metrics, 'gregor_faults_injected_total', { api: 'CreateTopics', action: 'error' }), 1);

    const clock = await call(base, 'GET', '/v1/clock');
    assert.equal((clock.json as { clock: string }).clock, 'system');
    assert.deepEqual(await call(base, 'POST', '/v1/clock/advance', { ms: 5 }),
      { status: 409, json: { error: 'the broker runs on the system clock: start it with gregor.clock=manual to advance it' } });
  } finally {
    await admin.disconnect();
    await broker.close();
  }
});

test('the manual clock over HTTP: GET /v1/clock, POST /v1/clock/advance, bad bodies refused', async () => {
  const broker = await startTestBroker({ 'gregor.http.listeners': 'http://127.0.0.1:0', 'gregor.clock': 'manual' });
  const base = `http://127.0.0.1:${broker.httpAddresses[0]!.port}`;
  try {
    const start = broker.clock.now();
    assert.deepEqual(await call(base, 'GET', '/v1/clock'), { status: 200, json: { clock: 'manual', now: start } });
    assert.deepEqual(await call(base, 'POST', '/v1/clock/advance', { ms: 60_000 }), { status: 200, json: { clock: 'manual', now: start + 60_000 } });
    assert.equal(broker.clock.now(), start + 60_000);
    assert.deepEqual(await call(base, 'POST', '/v1/clock/advance', { ms: -1 }),
      { status: 400, json: { error: 'the body must be {"ms": N}, N a whole number of milliseconds >= 0, not {"ms":-1}' } });
    assert.equal((await call(base, 'POST', '/v1/clock/advance')).status, 400);
  } finally {
    await broker.close();
  }
});

test('kafkajs through scenarios added over HTTP: coordinator moved, leader moved (Fetch), then every record read and committed', async () => {
  const broker = await startTestBroker({ 'gregor.http.listeners': 'http://127.0.0.1:0' });
  const base = `http://127.0.0.1:${broker.httpAddresses[0]!.port}`;
  const kafka = new Kafka({ brokers: [`127.0.0.1:${broker.port}`], clientId: 'scenarios', logLevel: logLevel.NOTHING,
    retry: { retries: 10, initialRetryTime: 20, maxRetryTime: 200 } });
  const admin = kafka.admin();
  const producer = kafka.producer({ idempotent: true });
  const consumer = kafka.consumer({ groupId: 'moved', maxWaitTimeInMs: 100, heartbeatInterval: 100 });
  const seen: string[] = [];
  try {
    await admin.connect();
    await admin.createTopics({ topics: [{ topic: 'moves' }] });
    await producer.connect();
    await producer.send({ topic: 'moves', messages: Array.from({ length: 10 }, (_, i) => ({ value: `a${i}` })) });
    assert.equal((await call(base, 'POST', '/v1/faults/scenarios/coordinator-moved', { groupId: 'moved', ms: 200 })).status, 201);
    assert.equal((await call(base, 'POST', '/v1/faults/scenarios/leader-moved', { topic: 'moves', count: 2 })).status, 201);
    await consumer.connect();
    await consumer.subscribe({ topic: 'moves', fromBeginning: true });
    await consumer.run({ eachMessage: async ({ message }) => void seen.push(message.value!.toString()) });
    await until(() => new Set(seen).size >= 10, 'the first ten records are read');
    await producer.send({ topic: 'moves', messages: Array.from({ length: 10 }, (_, i) => ({ value: `b${i}` })) });
    await until(() => new Set(seen).size >= 20, 'all twenty records are read');
    const expected = [...Array.from({ length: 10 }, (_, i) => `a${i}`), ...Array.from({ length: 10 }, (_, i) => `b${i}`)];
    assert.deepEqual([...new Set(seen)], expected);
    const committed = async () => (await admin.fetchOffsets({ groupId: 'moved', topics: ['moves'] }))[0]!.partitions.map((p) => p.offset);
    await until(async () => (await committed())[0] === '20', 'the group commits every record');
    await consumer.stop();
    const fired = (await call(base, 'GET', '/v1/faults')).json as { rules: { api: string; fired: number }[] };
    // The group's Heartbeat/OffsetCommit/JoinGroup and Fetch rules fired (a rule still listed may not have been reached).
    assert.ok(fired.rules.every((r) => r.fired < 2));
    const metrics = parseExposition(await (await fetch(`${base}/metrics`)).text());
    assert.equal(valueOf(metrics, 'gregor_faults_injected_total', { api: 'Fetch', action: 'error' }), 2);
  } finally {
    await consumer.disconnect();
    await producer.disconnect();
    await admin.disconnect();
    await broker.close();
  }
});
