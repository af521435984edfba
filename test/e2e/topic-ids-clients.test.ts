// Real clients that name topics by id where the broker serves it (KIP-516, KIP-848), through gregor, whose registry is
// wrapped to note each (API, version) handled. Kafka 4.3.1's Java producer sends Produce v13; its consumer of
// group.protocol=consumer commits and reads offsets with OffsetCommit/OffsetFetch v10, its classic consumer stays at
// v9 (by name). franz-go sends v13 and v10 for a classic group too. (librdkafka 2.16 stays at Produce v10 and
// OffsetCommit/OffsetFetch v9.) The printed facts are what the same programs print against Apache Kafka 4.3.1.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { resolveBrokerConfig } from '../../src/config/index.js';
import { startBroker } from '../../src/server/broker.js';
import { handlers } from '../../src/server/handlers/index.js';
import { isLazy, type Handler, type RegisteredApi } from '../../src/server/handler.js';
import { installJavaTools, runJavaTool, runJavaToolOk } from './java-tools.js';

const KAFKA_LIBS = resolve('compat-tests/.cache/kafka-4.3.1/libs');
const FRANZ_GO = resolve('compat-tests/.cache/go/bin/franz-go-compat');

/** The registry, each handler noting `<API> v<version>` in `seen` before it answers. */
function recording(seen: Set<string>): RegisteredApi[] {
  const wrap = (h: Handler): Handler => ({
    ...h,
    handle: (ctx, request, version) => {
      seen.add(`${h.api.name} v${version}`);
      return h.handle(ctx, request, version);
    },
  });
  return handlers.map((api) => (isLazy(api) ? { ...api, load: async () => wrap(await api.load()) } : wrap(api)));
}

/** Runs a program to its end; its stdout lines without log lines (a non-zero exit is an error with its stderr's end). */
function runProgram(command: string, args: readonly string[], env: Record<string, string> = {}): Promise<string[]> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code !== 0) reject(new Error(`${command} exited ${code}: ${stderr.trim().split('\n').slice(-3).join(' | ')}`));
      else resolvePromise(stdout.split('\n').filter((l) => l !== '' && !/^\[|SLF4J/.test(l)));
    });
  });
}

async function withRecordingBroker(run: (bootstrap: string, seen: Set<string>) => Promise<void>): Promise<void> {
  installJavaTools();
  const seen = new Set<string>();
  const broker = await startBroker(resolveBrokerConfig({ listeners: 'PLAINTEXT://127.0.0.1:0', 'gregor.log.engine': 'memory' }), { handlers: recording(seen) });
  try {
    await run(`127.0.0.1:${broker.addresses[0]!.port}`, seen);
  } finally {
    await broker.close();
  }
}

test('a Java 4.3.1 producer sends Produce v13 and a group.protocol=consumer consumer commits and reads offsets by topic id (v10)', { timeout: 300_000 }, async () => {
  await withRecordingBroker(async (bootstrap, seen) => {
    await runJavaToolOk('kafka-topics', ['--bootstrap-server', bootstrap, '--create', '--topic', 'ids', '--partitions', '2']);
    const printed = await runProgram('java', ['-cp', `${KAFKA_LIBS}/*`, resolve('test/e2e/java/TopicIdOffsets.java'), bootstrap, 'ids', 'gi']);
    assert.deepEqual(printed, [
      'consumed [a, b, c, d]',
      'committed ids-0 2 two',
      'committed ids-1 1 ',
      'position ids-0 2',
      'position ids-1 1',
      'admin ids-0 2',
      'admin ids-1 1',
    ]);
    for (const used of ['Produce v13', 'OffsetCommit v10', 'OffsetFetch v10']) assert.ok(seen.has(used), `${used} not in ${[...seen].join(', ')}`);
  });
});

test('the console producer (v13) and a classic consumer group (OffsetCommit/OffsetFetch v9, by name) share the same offsets', { timeout: 300_000 }, async () => {
  await withRecordingBroker(async (bootstrap, seen) => {
    const consume = (max: number, timeoutMs: number) =>
      runJavaTool('kafka-console-consumer', ['--bootstrap-server', bootstrap, '--topic', 'ids', '--group', 'gc', '--from-beginning', '--max-messages', String(max), '--timeout-ms', String(timeoutMs)]);
    await runJavaToolOk('kafka-topics', ['--bootstrap-server', bootstrap, '--create', '--topic', 'ids', '--partitions', '2']);
    await runJavaToolOk('kafka-console-producer', ['--bootstrap-server', bootstrap, '--topic', 'ids'], 'a\nb\nc\nd\n');
    const first = await consume(4, 60_000);
    assert.deepEqual(first.stdout.split('\n').filter(Boolean).sort(), ['a', 'b', 'c', 'd']);
    // A new member of the group starts from the committed offsets: nothing is left to read.
    const again = await consume(1, 5_000);
    assert.equal(again.stdout, '');
    assert.match(again.stderr, /Processed a total of 0 messages/);
    for (const used of ['Produce v13', 'OffsetCommit v9', 'OffsetFetch v9']) assert.ok(seen.has(used), `${used} not in ${[...seen].join(', ')}`);
  });
});

test('franz-go produces with v13, and commits and reads a classic group\'s offsets by topic id (v10)', { timeout: 300_000 }, async () => {
  const install = spawnSync('bash', ['compat-tests/clients/franz-go/install.sh'], { encoding: 'utf8' });
  assert.equal(install.status, 0, install.stderr);
  await withRecordingBroker(async (bootstrap, seen) => {
    // The compat scenario: 10 records, a group reads to offset 4 and commits 5, the admin reads 5, the group resumes at 5.
    const printed = await runProgram(FRANZ_GO, ['commit-resume', bootstrap, 'ids-'], { COMPAT_BIN_DIR: resolve('compat-tests/bin') });
    assert.deepEqual(printed, ['OBSERVE committed 5', 'OBSERVE resumed ["0:5","0:6","0:7","0:8","0:9"]']);
    for (const used of ['Produce v13', 'OffsetCommit v10', 'OffsetFetch v10']) assert.ok(seen.has(used), `${used} not in ${[...seen].join(', ')}`);
  });
});
