// Kafka Streams with processing.guarantee=exactly_once_v2 (compat-tests/clients/streams/WordCount.java: lines →
// words → groupBy/count → output) against gregor on the file engine. Input arrives in three phases; between them
// the broker restarts under the running app, then the app itself is killed (SIGKILL, mid-transaction at worst)
// and started again on the same state dir. A read_committed reader of the output must then see, per word, counts
// that only ever increase and end at exactly the number of times the word was produced: an increment applied
// twice (a transaction replayed without being aborted) or lost would show.
// STREAMS_AGAINST_REFERENCE=1 runs the same scenario against the reference Apache Kafka broker instead
// (compat-tests/reference/start.sh on port 19192), to check the scenario itself.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import kafkajs, { type Consumer, type Kafka } from 'kafkajs';
import { resolveBrokerConfig } from '../../src/config/index.js';
import { startBroker, type Broker } from '../../src/server/broker.js';
import { until } from '../coordinator/kafkajs-group-helpers.js';

const { Kafka: KafkaClient, logLevel } = kafkajs;
process.env['KAFKAJS_NO_PARTITIONER_WARNING'] = '1';

const STREAMS_DIR = 'compat-tests/clients/streams';
const STREAMS_LIBS = 'compat-tests/.cache/streams-4.3.1/libs';
const INPUT = 'wc-input';
const OUTPUT = 'wc-output';
const REFERENCE_PORT = 19192;

/** A broker the scenario can restart on the same address with the same data. */
interface Cluster {
  readonly bootstrap: string;
  restart(): Promise<void>;
  close(): Promise<void>;
}

async function gregorCluster(dir: string): Promise<Cluster> {
  const start = (port: number): Promise<Broker> =>
    startBroker(resolveBrokerConfig({ listeners: `PLAINTEXT://127.0.0.1:${port}`, 'node.id': '1', 'log.dirs': dir }));
  let broker = await start(0);
  const port = broker.addresses[0]!.port;
  return {
    bootstrap: `127.0.0.1:${port}`,
    async restart() {
      await broker.close();
      broker = await start(port);
    },
    close: () => broker.close(),
  };
}

function referenceCluster(): Cluster {
  const run = (script: string, ...args: string[]): void => {
    const result = spawnSync(`compat-tests/reference/${script}`, args, { stdio: ['ignore', 'ignore', 'inherit'] });
    if (result.status !== 0) throw new Error(`${script} failed`);
  };
  run('start.sh', '--fresh', String(REFERENCE_PORT));
  return {
    bootstrap: `127.0.0.1:${REFERENCE_PORT}`,
    async restart() {
      run('stop.sh', String(REFERENCE_PORT));
      run('start.sh', String(REFERENCE_PORT));
    },
    close: async () => run('stop.sh', String(REFERENCE_PORT)),
  };
}

/** The running WordCount app: its state changes as they are printed. */
class StreamsApp {
  readonly states: string[] = [];
  readonly exited: Promise<number | null>;
  private readonly child: ChildProcess;

  constructor(bootstrap: string, appId: string, stateDir: string) {
    this.child = spawn('java', ['-cp', `${STREAMS_LIBS}/*`, `${STREAMS_DIR}/WordCount.java`, bootstrap, appId, INPUT, OUTPUT, stateDir], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    let pending = '';
    this.child.stdout!.on('data', (chunk: Buffer) => {
      pending += chunk.toString();
      const lines = pending.split('\n');
      pending = lines.pop()!;
      for (const line of lines) if (line.startsWith('STATE ') || line.startsWith('ERROR ')) this.states.push(line);
    });
    this.exited = new Promise((resolve) => this.child.on('close', resolve));
  }

  running(): boolean {
    return this.states.at(-1) === 'STATE RUNNING';
  }

  /** Closes stdin: the app closes Kafka Streams cleanly (its last transaction is committed). */
  async stop(): Promise<number | null> {
    this.child.stdin!.end();
    return this.exited;
  }

  kill(): Promise<number | null> {
    this.child.kill('SIGKILL');
    return this.exited;
  }
}

/** Line i of the input: one to four words from a vocabulary of twelve. */
function line(i: number): string {
  return Array.from({ length: (i % 4) + 1 }, (_, j) => `w${(i * 7 + j * 5) % 12}`).join(' ');
}

function expectedCounts(lines: number): Map<string, number> {
  const counts = new Map<string, number>();
  for (let i = 0; i < lines; i++) for (const word of line(i).split(' ')) counts.set(word, (counts.get(word) ?? 0) + 1);
  return counts;
}

function kafkaFor(bootstrap: string): Kafka {
  return new KafkaClient({ clientId: 'wc-test', brokers: [bootstrap], logLevel: logLevel.NOTHING, retry: { retries: 30, initialRetryTime: 100, maxRetryTime: 1000 } });
}

async function produceLines(bootstrap: string, from: number, to: number): Promise<void> {
  const producer = kafkaFor(bootstrap).producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  try {
    for (let i = from; i < to; i += 25) {
      const messages = Array.from({ length: Math.min(25, to - i) }, (_, k) => ({ key: `line-${i + k}`, value: line(i + k) }));
      await producer.send({ topic: INPUT, messages });
    }
  } finally {
    await producer.disconnect();
  }
}

async function outputEnd(bootstrap: string): Promise<number> {
  const admin = kafkaFor(bootstrap).admin();
  try {
    await admin.connect();
    const offsets = await admin.fetchTopicOffsets(OUTPUT);
    return offsets.reduce((sum, p) => sum + Number(p.high), 0);
  } catch {
    return 0;
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}

/** A read_committed kafkajs consumer keeping the latest count per word (to know when processing is done). */
async function watchCounts(bootstrap: string): Promise<{ consumer: Consumer; last: Map<string, number> }> {
  const consumer = kafkaFor(bootstrap).consumer({ groupId: 'wc-watcher', readUncommitted: false, maxWaitTimeInMs: 200 });
  const last = new Map<string, number>();
  await consumer.connect();
  await consumer.subscribe({ topic: OUTPUT, fromBeginning: true });
  await consumer.run({ eachMessage: async ({ message }) => void last.set(message.key!.toString(), Number(message.value!.readBigInt64BE())) });
  return { consumer, last };
}

/** Every committed output record (word, count) of one partition, read by Kafka's console consumer (no group). */
async function readCommitted(bootstrap: string, partition: number): Promise<Array<[string, number]>> {
  // Asynchronously: the broker under test runs in this process.
  const child = spawn('compat-tests/bin/kafka-console-consumer', [
    '--bootstrap-server', bootstrap, '--topic', OUTPUT, '--partition', String(partition), '--offset', 'earliest',
    '--isolation-level', 'read_committed', '--timeout-ms', '5000',
    '--formatter-property', 'print.key=true', '--formatter-property', 'key.separator=:',
    '--value-deserializer', 'org.apache.kafka.common.serialization.LongDeserializer',
  ]);
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  await new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  const rows: Array<[string, number]> = [];
  for (const text of out.split('\n')) {
    const match = /^(\w+):(\d+)$/.exec(text.trim());
    if (match !== null) rows.push([match[1]!, Number(match[2])]);
  }
  if (rows.length === 0) throw new Error(`the console consumer read nothing: ${out.slice(0, 500)} ${err.slice(0, 1000)}`);
  return rows;
}

test('Kafka Streams exactly_once_v2 word count survives a broker restart and an app crash with exact counts', { timeout: 300_000 }, async (t) => {
  const began = performance.now();
  const install = spawnSync(`${STREAMS_DIR}/install.sh`, [], { stdio: ['ignore', 'ignore', 'inherit'] });
  assert.equal(install.status, 0, 'Kafka Streams installs');
  const reference = process.env['STREAMS_AGAINST_REFERENCE'] === '1';
  const dir = await mkdtemp(join(tmpdir(), 'gregor-streams-'));
  const stateDir = join(dir, 'streams-state');
  const cluster = reference ? referenceCluster() : await gregorCluster(join(dir, 'log'));
  const apps: StreamsApp[] = [];
  try {
    const admin = kafkaFor(cluster.bootstrap).admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic: INPUT, numPartitions: 2 }, { topic: OUTPUT, numPartitions: 2 }] });
    await admin.disconnect();

    const first = new StreamsApp(cluster.bootstrap, 'wordcount', stateDir);
    apps.push(first);
    await until(() => first.running(), 'the Streams app runs', 60_000);
    t.diagnostic(`${Math.round(performance.now() - began)} ms: the app runs`);
    await produceLines(cluster.bootstrap, 0, 150);
    await until(async () => (await outputEnd(cluster.bootstrap)) > 0, 'the app commits its first counts', 60_000);
    t.diagnostic(`${Math.round(performance.now() - began)} ms: first counts committed`);

    // The broker goes away under the running app (open transactions included) and comes back with its data.
    await cluster.restart();
    t.diagnostic(`${Math.round(performance.now() - began)} ms: broker restarted`);
    await produceLines(cluster.bootstrap, 150, 300);

    // The app dies without closing; its successor (same state dir, so the same transactional id) fences it.
    await first.kill();
    const second = new StreamsApp(cluster.bootstrap, 'wordcount', stateDir);
    apps.push(second);
    await produceLines(cluster.bootstrap, 300, 400);
    await until(() => second.running(), 'the restarted Streams app runs', 60_000);
    t.diagnostic(`${Math.round(performance.now() - began)} ms: the restarted app runs`);
    const expected = expectedCounts(400);
    const total = [...expected.values()].reduce((a, b) => a + b, 0);
    const watcher = await watchCounts(cluster.bootstrap);
    try {
      await until(() => [...expected].every(([word, count]) => (watcher.last.get(word) ?? 0) >= count), 'every count is committed', 90_000);
    } finally {
      await watcher.consumer.disconnect();
    }
    assert.equal(await second.stop(), 0, 'the app closes cleanly');
    t.diagnostic(`${Math.round(performance.now() - began)} ms: every count committed; app stopped`);

    const rows = [...(await readCommitted(cluster.bootstrap, 0)), ...(await readCommitted(cluster.bootstrap, 1))];
    const last = new Map<string, number>();
    for (const [word, count] of rows) {
      const previous = last.get(word) ?? 0;
      assert.ok(count > previous, `${word}: count ${count} after ${previous} (an increment replayed or reordered)`);
      last.set(word, count);
    }
    assert.deepEqual(new Map([...last].sort()), new Map([...expected].sort()), `final counts of ${total} words`);
    assert.ok(second.states.every((s) => !s.startsWith('ERROR')), `the app hit no errors: ${second.states.join(', ')}`);
  } finally {
    for (const app of apps) await app.kill();
    await cluster.close();
    await rm(dir, { recursive: true, force: true });
  }
});
