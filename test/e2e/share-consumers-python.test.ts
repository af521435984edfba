// confluent-kafka's ShareConsumer (librdkafka 2.16's KIP-932 preview, from compat-tests' pinned Python venv) against
// gregor, one consumer per process (test/e2e/python/share_consumers.py). Every assertion holds the same against a
// Kafka 4.3.1 broker: SHARE_PY_REFERENCE=127.0.0.1:19092 runs the first three against the shared reference broker
// (compat-tests/reference/start.sh); the restart needs a Kafka of your own, which it stops and starts:
// SHARE_PY_RESTART_REFERENCE=127.0.0.1:<port> (compat-tests/reference/start.sh <port>, a port of your own: never the
// shared 19092 nor the reference cluster's 19501-19523; stop.sh <port> after).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, execFileSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { startTestBroker } from '../server/broker-harness.js';

const PYTHON = 'compat-tests/.cache/py/venv/bin/python';
const PROGRAM = 'test/e2e/python/share_consumers.py';
const reference = process.env['SHARE_PY_REFERENCE'];
const run = Date.now();
let broker: Awaited<ReturnType<typeof startTestBroker>> | undefined;
const bootstrap = () => reference ?? `127.0.0.1:${broker!.port}`;

before(async () => {
  await promisify(execFile)('compat-tests/clients/python/install.sh', [], { timeout: 600_000 });
  if (reference === undefined) broker = await startTestBroker({ 'node.id': '1' });
});
after(async () => {
  await broker?.close();
});

/** A one-partition topic holding `values` and the group's configs (share.auto.offset.reset=earliest and `configs`). */
async function setUp(server: string, topic: string, group: string, values: string[], ...configs: string[]): Promise<void> {
  await promisify(execFile)(PYTHON, [PROGRAM, 'setup', server, topic, group, values.join(','), ...configs], { timeout: 60_000 });
}

interface Delivery {
  readonly offset: number;
  readonly deliveryCount: number;
  readonly value: string;
}

class PythonShareConsumer {
  readonly got: Delivery[] = [];
  readonly acked: string[] = [];
  readonly refused: string[] = [];
  holding: string | undefined;
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly exited: Promise<number | null>;
  private stderr = '';

  constructor(server: string, topic: string, group: string, readonly clientId: string, options: string[] = []) {
    this.child = spawn(resolve(PYTHON), [resolve(PROGRAM), 'consume', server, topic, group, clientId, ...options]);
    let pending = '';
    this.child.stdout.on('data', (data: Buffer) => {
      pending += data.toString();
      const lines = pending.split('\n');
      pending = lines.pop()!;
      for (const line of lines) this.onLine(line);
    });
    this.child.stderr.on('data', (data: Buffer) => (this.stderr += data.toString()));
    this.exited = new Promise((resolveExit) => this.child.on('close', resolveExit));
  }

  private onLine(line: string): void {
    const [kind, a, b, c] = line.split(' ');
    if (kind === 'got') this.got.push({ offset: Number(a), deliveryCount: Number(b), value: c! });
    else if (kind === 'acked') this.acked.push(`${a} ${b} ${c}`);
    else if (kind === 'refused') this.refused.push(line);
    else if (kind === 'holding') this.holding = line.slice('holding '.length);
  }

  /** Resolves once `done()` holds; rejects after `timeoutMs` or if the process ends first. */
  async until(done: () => boolean, what: string, timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!done()) {
      if (this.child.exitCode !== null) throw new Error(`${this.clientId} exited ${this.child.exitCode} before ${what}: ${this.lastErrors()}`);
      if (Date.now() > deadline) throw new Error(`${this.clientId}: no ${what} after ${timeoutMs} ms: ${this.lastErrors()}`);
      await new Promise((wake) => setTimeout(wake, 100));
    }
  }

  private lastErrors(): string {
    return this.stderr.trim().split('\n').slice(-3).join(' | ');
  }

  /** SIGKILL: nothing is sent, the broker sees the connection drop. */
  async kill(): Promise<void> {
    this.child.kill('SIGKILL');
    await this.exited;
  }

  /** Closes its consumer (stdin "stop"), which acknowledges what is pending, and waits for the process to end. */
  async stop(): Promise<void> {
    if (this.child.exitCode === null) this.child.stdin.end('stop\n');
    const code = await this.exited;
    if (code !== 0) throw new Error(`${this.clientId} exited ${code}: ${this.lastErrors()}`);
  }
}

const quiet = (ms: number) => new Promise((r) => setTimeout(r, ms));
const names = (scenario: string) => [`share-py-${scenario}-${run}`, `share-py-${scenario}-g-${run}`] as const;

test('implicit acknowledgement: three share consumers on one partition share a run of 300 records, each received exactly once', async () => {
  const [topic, group] = names('three');
  await setUp(bootstrap(), topic, group, Array.from({ length: 300 }, (_, i) => `v${i}`));
  const consumers = ['c1', 'c2', 'c3'].map((id) => new PythonShareConsumer(bootstrap(), topic, group, id, ['maxPollRecords=10', 'workMs=200']));
  try {
    const all = () => consumers.flatMap((c) => c.got);
    await consumers[0]!.until(() => all().length >= 300, '300 records');
    // Nothing comes twice: a second's quiet, then each closes, accepting its last poll's records.
    await quiet(1000);
    await Promise.all(consumers.map((c) => c.stop()));
    const got = all().sort((x, y) => x.offset - y.offset);
    assert.deepEqual(got, Array.from({ length: 300 }, (_, i) => ({ offset: i, deliveryCount: 1, value: `v${i}` })));
    // Ten records a poll and 200 ms of work each: one consumer alone would take 6 s, so the others share the run
    // (against Kafka too, about a third each).
    assert.ok(consumers.filter((c) => c.got.length > 0).length >= 2, `split ${consumers.map((c) => c.got.length).join('/')}`);
  } finally {
    for (const c of consumers) await c.kill();
  }
});

test('explicit acknowledgement: RELEASE redelivers with a higher delivery count, REJECT ends a record, a poison record is archived at share.delivery.count.limit', async () => {
  const [topic, group] = names('explicit');
  await setUp(bootstrap(), topic, group, ['a', 'again', 'reject', 'release-poison', 'ok'], 'share.delivery.count.limit=2');
  const consumer = new PythonShareConsumer(bootstrap(), topic, group, 'explicit', ['mode=explicit']);
  try {
    await consumer.until(() => consumer.acked.length >= 7, 'seven acknowledgements');
    // The poison record released at its second delivery is archived, not delivered a third time.
    await quiet(1500);
    await consumer.stop();
    assert.deepEqual(consumer.got.map((d) => `${d.offset} ${d.deliveryCount} ${d.value}`), [
      '0 1 a', '1 1 again', '2 1 reject', '3 1 release-poison', '4 1 ok', '1 2 again', '3 2 release-poison',
    ]);
    assert.deepEqual(consumer.acked, ['0 1 ACCEPT', '1 1 RELEASE', '2 1 REJECT', '3 1 RELEASE', '4 1 ACCEPT', '1 2 ACCEPT', '3 2 RELEASE']);
    assert.deepEqual(consumer.refused, []);
  } finally {
    await consumer.kill();
  }
});

test("a share consumer killed with acquired, unacknowledged records: another consumer gets them, delivered a second time", async () => {
  const [topic, group] = names('killed');
  // The lock (15 s) is not what frees them: as Kafka does, the broker releases a share session's records when its
  // connection closes.
  await setUp(bootstrap(), topic, group, ['h0', 'h1', 'h2', 'h3', 'h4'], 'share.record.lock.duration.ms=15000');
  const holder = new PythonShareConsumer(bootstrap(), topic, group, 'holder', ['hold=1']);
  const consumers = [holder];
  try {
    await holder.until(() => holder.holding !== undefined, 'held records');
    assert.equal(holder.holding, '0 4');
    // The second consumer joins while they are held: it gets nothing until the holder's connection drops.
    const drain = new PythonShareConsumer(bootstrap(), topic, group, 'drain', ['mode=explicit']);
    consumers.push(drain);
    await quiet(2000);
    assert.equal(drain.got.length, 0);
    await holder.kill();
    const started = Date.now();
    await drain.until(() => drain.acked.length >= 5, 'the killed consumer\'s records');
    assert.ok(Date.now() - started < 12_000, 'released when the connection dropped, before the lock expired');
    await quiet(1000);
    await drain.stop();
    assert.deepEqual(drain.got.map((d) => `${d.offset} ${d.deliveryCount} ${d.value}`), ['0 2 h0', '1 2 h1', '2 2 h2', '3 2 h3', '4 2 h4']);
  } finally {
    for (const c of consumers) await c.kill();
  }
});

test('across a broker restart (file engine): acknowledged records never come again, unacknowledged ones do, as never delivered', async () => {
  // As Kafka does: an acquisition is not written to __share_group_state and a clean shutdown releases nothing
  // durably, so the held records come again with delivery count 1 (test/e2e/share-restart-java.test.ts).
  const restartReference = process.env['SHARE_PY_RESTART_REFERENCE'];
  const dir = mkdtempSync(join(tmpdir(), 'gregor-share-py-restart-'));
  const settings = { 'node.id': '1', 'gregor.log.engine': 'file', 'log.dirs': dir };
  let own = restartReference === undefined ? await startTestBroker(settings) : undefined;
  const server = () => restartReference ?? `127.0.0.1:${own!.port}`;
  const [topic, group] = names('restart');
  const consumers: PythonShareConsumer[] = [];
  try {
    await setUp(server(), topic, group, Array.from({ length: 10 }, (_, i) => `v${i}`));
    const holder = new PythonShareConsumer(server(), topic, group, 'holder', ['hold=1', 'ackFirst=4']);
    consumers.push(holder);
    await holder.until(() => holder.holding !== undefined, 'held records');
    assert.deepEqual([holder.got.length, holder.acked, holder.holding], [10, ['0 1 ACCEPT', '1 1 ACCEPT', '2 1 ACCEPT', '3 1 ACCEPT'], '4 9']);

    if (restartReference === undefined) await own!.close();
    else execFileSync(resolve('compat-tests/reference/stop.sh'), [restartReference.split(':')[1]!], { stdio: 'ignore' });
    await holder.kill();
    if (restartReference === undefined) own = await startTestBroker(settings);
    else execFileSync(resolve('compat-tests/reference/start.sh'), [restartReference.split(':')[1]!], { stdio: 'ignore' });

    const drain = new PythonShareConsumer(server(), topic, group, 'drain', ['mode=explicit']);
    consumers.push(drain);
    await drain.until(() => drain.acked.length >= 6, 'the held records again');
    await quiet(1000);
    await drain.stop();
    assert.deepEqual(drain.got.map((d) => `${d.offset} ${d.deliveryCount}`), ['4 1', '5 1', '6 1', '7 1', '8 1', '9 1']);
    assert.deepEqual(drain.refused, []);
  } finally {
    for (const c of consumers) await c.kill();
    await own?.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
