// Kafka Connect (Apache Kafka 4.3.1's distributed worker, from compat-tests) against gregor: a FileStreamSource
// copies an input file into a topic and a FileStreamSink copies the topic into an output file. The worker
// keeps its source offsets in a compacted topic (cleaned by gregor's log cleaner between runs) and its sink
// offsets in __consumer_offsets; stopped and restarted, it resumes from them: the output is every input line
// exactly once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveBrokerConfig } from '../../src/config/index.js';
import { startBroker } from '../../src/server/broker.js';
import { FileLogStore } from '../../src/storage/file/file-store.js';
import { freePort } from '../cli/gregor-process.js';

const BIN = 'compat-tests/bin';

async function until<T>(what: string, probe: () => Promise<T | undefined>, limitMs = 120_000): Promise<T> {
  const deadline = Date.now() + limitMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (err) {
      last = err;
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`gave up waiting for ${what}${last === undefined ? '' : `: ${String(last)}`}`);
}

function startWorker(propsFile: string): { proc: ChildProcess; log: () => string } {
  const proc = spawn(`${BIN}/connect-distributed`, [propsFile], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  proc.stdout!.on('data', (d: Buffer) => (out = (out + d.toString()).slice(-20_000)));
  proc.stderr!.on('data', (d: Buffer) => (out = (out + d.toString()).slice(-20_000)));
  return { proc, log: () => out };
}

function stopWorker(proc: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (proc.exitCode !== null) return resolve();
    proc.on('exit', () => resolve());
    proc.kill('SIGTERM');
  });
}

async function lines(path: string): Promise<string[]> {
  try {
    return (await readFile(path, 'utf8')).split('\n').filter((l) => l !== '');
  } catch {
    return [];
  }
}

test('a Connect worker (FileStreamSource → topic → FileStreamSink) restarted resumes from its stored offsets', { timeout: 600_000 }, async () => {
  const dir = await mkdtemp(join(tmpdir(), 'gregor-connect-'));
  const logDir = join(dir, 'data');
  const store = await FileLogStore.open({ logDir, nodeId: 1 });
  store.startBackground({ cleaner: { backoffMs: 60_000 } });
  // The source offsets topic, compacted, with segments small enough that the cleaner has work to do.
  await store.createTopic('connect-offsets', 1, { 'cleanup.policy': 'compact', 'internal.segment.bytes': '300', 'min.cleanable.dirty.ratio': '0.01' });
  const broker = await startBroker(resolveBrokerConfig({ listeners: 'PLAINTEXT://127.0.0.1:0', 'node.id': '1', 'log.dirs': logDir }), { store });
  const bootstrap = `127.0.0.1:${broker.addresses[0]!.port}`;
  const restPort = await freePort();
  const input = join(dir, 'input.txt');
  const output = join(dir, 'output.txt');
  const props = join(dir, 'worker.properties');
  await writeFile(props, [
    `bootstrap.servers=${bootstrap}`,
    'group.id=gregor-connect',
    'key.converter=org.apache.kafka.connect.storage.StringConverter',
    'value.converter=org.apache.kafka.connect.storage.StringConverter',
    'offset.storage.topic=connect-offsets',
    'offset.storage.replication.factor=1',
    'config.storage.topic=connect-configs',
    'config.storage.replication.factor=1',
    'status.storage.topic=connect-status',
    'status.storage.replication.factor=1',
    'offset.flush.interval.ms=500',
    `listeners=http://127.0.0.1:${restPort}`,
    'rest.advertised.host.name=127.0.0.1',
    `plugin.path=${dir}`,
    '',
  ].join('\n'));
  const first = Array.from({ length: 200 }, (_, i) => `line ${i}`);
  await writeFile(input, first.slice(0, 50).join('\n') + '\n');
  const rest = `http://127.0.0.1:${restPort}`;
  let worker = startWorker(props);
  try {
    await until('the worker REST API', async () => ((await fetch(`${rest}/connectors`)).ok ? true : undefined));
    const create = async (name: string, config: Record<string, string>) => {
      const res = await fetch(`${rest}/connectors/${name}/config`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(config) });
      assert.ok(res.ok, `${name}: ${res.status} ${await res.text()}`);
    };
    await create('source', { 'connector.class': 'org.apache.kafka.connect.file.FileStreamSourceConnector', 'tasks.max': '1', file: input, topic: 'lines' });
    await create('sink', { 'connector.class': 'org.apache.kafka.connect.file.FileStreamSinkConnector', 'tasks.max': '1', file: output, topics: 'lines' });
    // Written in steps, so the source commits several offsets (one key, overwritten: food for the cleaner).
    await until('the first 50 lines in the output', async () => ((await lines(output)).length >= 50 ? true : undefined));
    for (let step = 1; step < 4; step++) {
      await new Promise((resolve) => setTimeout(resolve, 1200));
      await appendFile(input, first.slice(step * 50, step * 50 + 50).join('\n') + '\n');
      await until(`the first ${step * 50 + 50} lines in the output`, async () => ((await lines(output)).length >= step * 50 + 50 ? true : undefined));
    }
    // Let a few offset flushes land before the stop.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await stopWorker(worker.proc);

    // While the worker is down: more input, and the cleaner compacts the offsets topic.
    const second = Array.from({ length: 200 }, (_, i) => `line ${200 + i}`);
    await appendFile(input, second.join('\n') + '\n');
    await store.logCleaner!.kick();
    assert.ok(store.logCleaner!.history.some((h) => h.topic === 'connect-offsets'), 'the offsets topic was compacted');

    worker = startWorker(props);
    await until('all 400 lines in the output', async () => ((await lines(output)).length >= 400 ? true : undefined));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    assert.deepEqual(await lines(output), [...first, ...second], 'every line once, in order');
  } catch (err) {
    process.stderr.write(worker.log());
    throw err;
  } finally {
    await stopWorker(worker.proc);
    await broker.close();
    await rm(dir, { recursive: true, force: true });
  }
});
