// Apache Kafka's console producer (the Java client with default settings: idempotent, acks=all) keeps running
// while gregor restarts on the same port with the file engine: it reconnects and goes on with its producer id
// and sequences, and a read_committed consumer then reads every line exactly once, in order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import kafkajs from 'kafkajs';
import { resolveBrokerConfig } from '../../src/config/index.js';
import { startBroker, type Broker } from '../../src/server/broker.js';
import { until } from '../coordinator/kafkajs-group-helpers.js';

const BIN = 'compat-tests/bin';
const { Kafka, logLevel } = kafkajs;

function start(dir: string, port: number): Promise<Broker> {
  return startBroker(resolveBrokerConfig({ listeners: `PLAINTEXT://127.0.0.1:${port}`, 'node.id': '1', 'log.dirs': dir }));
}

async function endOffset(bootstrap: string, topic: string): Promise<number> {
  const admin = new Kafka({ clientId: 'probe', brokers: [bootstrap], logLevel: logLevel.NOTHING, retry: { retries: 2 } }).admin();
  try {
    await admin.connect();
    const offsets = await admin.fetchTopicOffsets(topic);
    return Number(offsets[0]?.high ?? 0);
  } catch {
    return 0;
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}

function consume(bootstrap: string, topic: string, count: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(`${BIN}/kafka-console-consumer`, [
      '--bootstrap-server', bootstrap, '--topic', topic, '--from-beginning', '--isolation-level', 'read_committed',
      '--max-messages', String(count), '--timeout-ms', '30000',
    ]);
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('close', () => resolve(out.split('\n').filter((l) => l !== '')));
  });
}

test('the Java idempotent producer keeps going across a broker restart: no duplicates, no gaps', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'gregor-java-restart-'));
  let broker = await start(dir, 0);
  const port = broker.addresses[0]!.port;
  const bootstrap = `127.0.0.1:${port}`;
  const producer = spawn(`${BIN}/kafka-console-producer`, [
    '--bootstrap-server', bootstrap, '--topic', 'restart-idem',
    '--command-property', 'linger.ms=0', '--command-property', 'retry.backoff.ms=50', '--command-property', 'reconnect.backoff.max.ms=200',
    '--command-property', 'delivery.timeout.ms=120000',
  ], { stdio: ['pipe', 'ignore', 'ignore'] });
  const exited = new Promise<number | null>((resolve) => producer.on('close', resolve));
  try {
    const lines = (from: number, to: number): string => Array.from({ length: to - from }, (_, i) => `line-${from + i}`).join('\n') + '\n';
    producer.stdin.write(lines(0, 50));
    await until(async () => (await endOffset(bootstrap, 'restart-idem')) >= 50, 'the first 50 lines are in the log', 90_000);

    await broker.close();
    // Written while the broker is down: the producer holds and retries them.
    producer.stdin.write(lines(50, 100));
    broker = await start(dir, port);
    producer.stdin.write(lines(100, 150));
    producer.stdin.end();
    assert.equal(await exited, 0);

    const read = await consume(bootstrap, 'restart-idem', 150);
    assert.deepEqual(read, Array.from({ length: 150 }, (_, i) => `line-${i}`));
    assert.equal(await endOffset(bootstrap, 'restart-idem'), 150, 'nothing appended twice');
  } finally {
    producer.kill('SIGKILL');
    await broker.close();
    await rm(dir, { recursive: true, force: true });
  }
});
