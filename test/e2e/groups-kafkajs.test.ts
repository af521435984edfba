// kafkajs consumer groups against an in-process gregor: partitions split among members, a crashed
// member's partitions move after its session timeout, a leaving member's at once, and committed
// offsets plus group state survive a broker restart.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { resolveBrokerConfig } from '../../src/config/index.js';
import { startBroker, type Broker } from '../../src/server/broker.js';
import { coversExactly, kafkaFor, TrackedConsumer, until } from '../coordinator/kafkajs-group-helpers.js';

const CRASH_CONSUMER = fileURLToPath(new URL('../coordinator/crash-consumer.js', import.meta.url));

async function start(settings: Record<string, string> = {}): Promise<Broker & { port: number }> {
  const config = resolveBrokerConfig({
    listeners: 'PLAINTEXT://127.0.0.1:0',
    'gregor.log.engine': 'memory',
    'group.min.session.timeout.ms': '500',
    'offsets.topic.num.partitions': '5',
    ...settings,
  });
  const broker = await startBroker(config);
  return Object.assign(broker, { port: broker.addresses[0]!.port });
}

test('kafkajs: 3 consumers split 6 partitions; a crashed one is replaced after its session timeout; a leaving one at once', { timeout: 120_000 }, async () => {
  const broker = await start();
  const kafka = kafkaFor(broker.port);
  const admin = kafka.admin();
  const producer = kafka.producer();
  // Long sessions for the in-process members: their partitions can only move by an explicit leave.
  const c1 = new TrackedConsumer(kafka, { groupId: 'split', sessionTimeout: 60_000, heartbeatInterval: 200, maxWaitTimeInMs: 500 });
  const c2 = new TrackedConsumer(kafka, { groupId: 'split', sessionTimeout: 60_000, heartbeatInterval: 200, maxWaitTimeInMs: 500 });
  const child = spawn(process.execPath, [CRASH_CONSUMER, String(broker.port), 'split', 'events', '1500'], { stdio: ['ignore', 'pipe', 'inherit'] });
  let childAssignment: number[] = [];
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    for (const line of chunk.split('\n')) if (line.startsWith('assigned ')) childAssignment = JSON.parse(line.slice(9)) as number[];
  });
  try {
    await admin.connect();
    await admin.createTopics({ topics: [{ topic: 'events', numPartitions: 6 }] });
    await producer.connect();
    await c1.start('events');
    await c2.start('events');

    await until(() => coversExactly([c1.assignment, c2.assignment, childAssignment], 6) && c1.assignment.length === 2 && childAssignment.length === 2, 'three members with two partitions each');
    const described = (await admin.describeGroups(['split'])).groups[0]!;
    assert.equal(described.state, 'Stable');
    assert.equal(described.members.length, 3);

    await producer.send({ topic: 'events', messages: Array.from({ length: 60 }, (_, i) => ({ key: `k${i}`, value: `m${i}` })) });
    await until(() => c1.seen.length + c2.seen.length >= 40, 'the in-process members consume their share');

    child.kill('SIGKILL');
    await until(() => coversExactly([c1.assignment, c2.assignment], 6), "the crashed member's partitions move to the others");
    assert.equal(c1.assignment.length, 3);

    await c2.consumer.disconnect();
    await until(() => c1.assignment.length === 6, 'the leaving member is replaced by a rebalance (its 60 s session never expires)');
    const after = (await admin.describeGroups(['split'])).groups[0]!;
    assert.equal(after.members.length, 1);
  } finally {
    child.kill('SIGKILL');
    await c1.consumer.disconnect();
    await c2.consumer.disconnect();
    await producer.disconnect();
    await admin.disconnect();
    await broker.close();
  }
});

test('kafkajs: five consumers on 10 partitions lose no message through a rolling restart of the consumers and a broker restart', { timeout: 180_000 }, async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'gregor-groups-'));
  const settings = { 'gregor.log.engine': 'file', 'log.dirs': dataDir };
  let broker = await start(settings);
  const port = broker.port;
  const kafka = kafkaFor(port);
  const producer = kafka.producer();
  const processed = new Set<string>();
  const consumerConfig = { groupId: 'rolling', sessionTimeout: 6000, heartbeatInterval: 300, maxWaitTimeInMs: 500 };
  const consumers: TrackedConsumer[] = [];
  /** Every consumer ever started: what a stopped one processed still counts. */
  const everyone: TrackedConsumer[] = [];
  const startConsumer = async (): Promise<TrackedConsumer> => {
    const c = new TrackedConsumer(kafka, consumerConfig);
    everyone.push(c);
    await c.start('orders');
    return c;
  };
  let sent = 0;
  const sendBatch = async (n: number): Promise<void> => {
    await producer.send({ topic: 'orders', messages: Array.from({ length: n }, () => ({ value: `o${sent++}` })) });
  };
  const allProcessed = (): boolean => {
    for (const c of everyone) for (const v of c.seen) processed.add(v);
    return processed.size === sent;
  };
  try {
    const admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic: 'orders', numPartitions: 10 }] });
    await admin.disconnect();
    await producer.connect();
    for (let i = 0; i < 5; i++) consumers.push(await startConsumer());
    await sendBatch(200);
    await until(allProcessed, 'the first 200 messages are processed');

    // Rolling restart of the consumers, producing all along.
    for (let i = 0; i < 5; i++) {
      await consumers[i]!.consumer.disconnect();
      await sendBatch(50);
      consumers[i] = await startConsumer();
    }
    await until(allProcessed, 'every message is processed after the rolling restart');

    // Broker restart on the same port, same data directory.
    await broker.close();
    broker = await start({ ...settings, listeners: `PLAINTEXT://127.0.0.1:${port}` });
    const check = kafka.admin();
    await check.connect();
    const offsets = await check.fetchOffsets({ groupId: 'rolling', topics: ['orders'] });
    assert.equal(offsets[0]!.partitions.length, 10);
    assert.ok(offsets[0]!.partitions.every((p) => Number(p.offset) >= 0), 'committed offsets survived the restart');
    await check.disconnect();
    await sendBatch(100);
    await until(allProcessed, 'every message is processed after the broker restart');
    assert.equal(processed.size, sent);
  } finally {
    for (const c of consumers) await c.consumer.disconnect();
    await producer.disconnect();
    await broker.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
