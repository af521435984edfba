// The Kafka Streams word count's pieces shared by the e2e tests that run it (txn-streams, streams-group):
// compat-tests/clients/streams/WordCount.java as a child process, its input lines and expected counts, a broker the
// scenario can restart (gregor on the file engine, or the reference Apache Kafka broker), and readers of its output.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import kafkajs, { type Consumer, type Kafka } from 'kafkajs';
import { resolveBrokerConfig } from '../../src/config/index.js';
import { startBroker, type Broker } from '../../src/server/broker.js';

const { Kafka: KafkaClient, logLevel } = kafkajs;
process.env['KAFKAJS_NO_PARTITIONER_WARNING'] = '1';

export const STREAMS_DIR = 'compat-tests/clients/streams';
const STREAMS_LIBS = 'compat-tests/.cache/streams-4.3.1/libs';
export const INPUT = 'wc-input';
export const OUTPUT = 'wc-output';

/** A broker the scenario can restart on the same address with the same data. */
export interface Cluster {
  readonly bootstrap: string;
  restart(): Promise<void>;
  close(): Promise<void>;
}

export async function gregorCluster(dir: string, settings: Record<string, string> = {}): Promise<Cluster> {
  const start = (port: number): Promise<Broker> =>
    startBroker(resolveBrokerConfig({ listeners: `PLAINTEXT://127.0.0.1:${port}`, 'node.id': '1', 'log.dirs': dir, ...settings }));
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

export function referenceCluster(port: number, settings: Record<string, string> = {}): Cluster {
  const sets = Object.entries(settings).flatMap(([k, v]) => ['--set', `${k}=${v}`]);
  const run = (script: string, ...args: string[]): void => {
    const result = spawnSync(`compat-tests/reference/${script}`, args, { stdio: ['ignore', 'ignore', 'inherit'] });
    if (result.status !== 0) throw new Error(`${script} failed`);
  };
  run('start.sh', '--fresh', ...sets, String(port));
  return {
    bootstrap: `127.0.0.1:${port}`,
    async restart() {
      run('stop.sh', String(port));
      run('start.sh', ...sets, String(port));
    },
    close: async () => run('stop.sh', String(port)),
  };
}

/** The running WordCount app: its state changes as they are printed. */
export class StreamsApp {
  readonly states: string[] = [];
  readonly exited: Promise<number | null>;
  private readonly child: ChildProcess;

  /** `protocol`: the rebalance protocol (WordCount's last argument). */
  constructor(bootstrap: string, appId: string, stateDir: string, protocol: 'classic' | 'streams' = 'classic') {
    this.child = spawn('java', ['-cp', `${STREAMS_LIBS}/*`, `${STREAMS_DIR}/WordCount.java`, bootstrap, appId, INPUT, OUTPUT, stateDir, protocol], {
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
export function line(i: number): string {
  return Array.from({ length: (i % 4) + 1 }, (_, j) => `w${(i * 7 + j * 5) % 12}`).join(' ');
}

export function expectedCounts(lines: number): Map<string, number> {
  const counts = new Map<string, number>();
  for (let i = 0; i < lines; i++) for (const word of line(i).split(' ')) counts.set(word, (counts.get(word) ?? 0) + 1);
  return counts;
}

export function kafkaFor(bootstrap: string): Kafka {
  return new KafkaClient({ clientId: 'wc-test', brokers: [bootstrap], logLevel: logLevel.NOTHING, retry: { retries: 30, initialRetryTime: 100, maxRetryTime: 1000 } });
}

export async function produceLines(bootstrap: string, from: number, to: number): Promise<void> {
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

export async function outputEnd(bootstrap: string): Promise<number> {
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
export async function watchCounts(bootstrap: string): Promise<{ consumer: Consumer; last: Map<string, number> }> {
  const consumer = kafkaFor(bootstrap).consumer({ groupId: 'wc-watcher', readUncommitted: false, maxWaitTimeInMs: 200 });
  const last = new Map<string, number>();
  await consumer.connect();
  await consumer.subscribe({ topic: OUTPUT, fromBeginning: true });
  await consumer.run({ eachMessage: async ({ message }) => void last.set(message.key!.toString(), Number(message.value!.readBigInt64BE())) });
  return { consumer, last };
}

/** Every committed output record (word, count) of one partition, read by Kafka's console consumer (no group). */
export async function readCommitted(bootstrap: string, partition: number): Promise<Array<[string, number]>> {
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

/** Installs Kafka Streams (once) for WordCount.java; false when it cannot. */
export function installStreams(): boolean {
  return spawnSync(`${STREAMS_DIR}/install.sh`, [], { stdio: ['ignore', 'ignore', 'inherit'] }).status === 0;
}
