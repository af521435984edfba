// A Java 4.3.1 consumer group with group.protocol=consumer (KIP-848) against gregor: the same program prints the
// same lines against Apache Kafka 4.3.1 (compat-tests/reference): every partition to the first consumer, half to a
// second once the first revoked them, all back when the second leaves, committed offsets resumed by a new consumer;
// kafka-consumer-groups lists and describes the group as a Consumer group.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { resolveBrokerConfig } from '../../src/config/index.js';
import { startBroker } from '../../src/server/broker.js';
import { installJavaTools, runJavaToolOk } from './java-tools.js';

const KAFKA_LIBS = resolve('compat-tests/.cache/kafka-4.3.1/libs');

/** The program's stdout lines (log lines left out); a non-zero exit fails with its output's end. */
function runJava(args: readonly string[]): Promise<string[]> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn('java', ['-cp', `${KAFKA_LIBS}/*`, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const lines = stdout.split('\n').filter((l) => l !== '' && !/^\[|SLF4J/.test(l));
      if (code !== 0) reject(new Error(`java exited ${code}: ${[...lines, ...stderr.trim().split('\n').slice(-3)].join(' | ')}`));
      else resolvePromise(lines);
    });
  });
}

test('group.protocol=consumer: join, revoke before reassign, leave, commit and resume, as against Kafka 4.3.1', { timeout: 300_000 }, async () => {
  installJavaTools();
  const broker = await startBroker(resolveBrokerConfig({ listeners: 'PLAINTEXT://127.0.0.1:0', 'gregor.log.engine': 'memory' }));
  try {
    const bootstrap = `127.0.0.1:${broker.addresses[0]!.port}`;
    await runJavaToolOk('kafka-topics', ['--bootstrap-server', bootstrap, '--create', '--topic', 't', '--partitions', '4']);
    const printed = await runJava([resolve('test/e2e/java/ConsumerProtocolGroup.java'), bootstrap, 't', 'g']);
    assert.deepEqual(printed, [
      'c1 alone: [0, 1, 2, 3]',
      'c1 then: [0, 1] c2: [2, 3]',
      'revoked before assigned: true',
      'committed at the end of every partition',
      'c1 after c2 left: [0, 1, 2, 3]',
      'c3 resumed with 8',
    ]);
    const listed = await runJavaToolOk('kafka-consumer-groups', ['--bootstrap-server', bootstrap, '--list', '--type']);
    assert.match(listed, /^g +Consumer +$/m);
    const state = await runJavaToolOk('kafka-consumer-groups', ['--bootstrap-server', bootstrap, '--describe', '--group', 'g', '--state']);
    assert.match(state, new RegExp(`^g +${bootstrap.replace(/\./g, '\\.')} +\\(1\\) +uniform +Empty +0 *$`, 'm'));
  } finally {
    await broker.close();
  }
});

/**
 * Runs the mixed-protocol program held while its group is mixed: `whileMixed` runs then (a tool describing the group),
 * and the program goes on once it returns. Resolves with the program's lines and what `whileMixed` returned.
 */
function runMixedGroup<T>(bootstrap: string, whileMixed: () => Promise<T>): Promise<{ printed: string[]; described: T }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn('java', ['-cp', `${KAFKA_LIBS}/*`, resolve('test/e2e/java/MixedProtocolGroup.java'), bootstrap, 't', 'g', 'hold'], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let described: Promise<T> | undefined;
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (described === undefined && stdout.includes('read by the mixed group')) {
        described = whileMixed().finally(() => child.stdin.end('\n'));
        described.catch(() => child.kill());
      }
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const printed = stdout.split('\n').filter((l) => l !== '' && !/^\[|SLF4J/.test(l));
      if (code !== 0 || described === undefined) {
        reject(new Error(`java exited ${code}: ${[...printed, ...stderr.trim().split('\n').slice(-3)].join(' | ')}`));
        return;
      }
      described.then((value) => resolvePromise({ printed, described: value }), reject);
    });
  });
}

// Kafka 4.3.1 answers the same program and tools with these lines (compat-tests/reference, group "g" on a fresh topic).
test('both protocols in one group: a classic consumer, a consumer-protocol one joining and leaving, as against Kafka 4.3.1', { timeout: 300_000 }, async () => {
  installJavaTools();
  const broker = await startBroker(resolveBrokerConfig({ listeners: 'PLAINTEXT://127.0.0.1:0', 'gregor.log.engine': 'memory' }));
  try {
    const bootstrap = `127.0.0.1:${broker.addresses[0]!.port}`;
    await runJavaToolOk('kafka-topics', ['--bootstrap-server', bootstrap, '--create', '--topic', 't', '--partitions', '4']);
    const describe = (...args: string[]) => runJavaToolOk('kafka-consumer-groups', ['--bootstrap-server', bootstrap, '--describe', '--group', 'g', ...args]);
    const { printed, described } = await runMixedGroup(bootstrap, async () => [await describe('--members', '--verbose'), await describe('--state')]);
    assert.deepEqual(printed, [
      'classic alone: [0, 1, 2, 3]',
      'mixed: 2 and 2, exclusive: true',
      'read by the mixed group: 80',
      'classic after the consumer left: [0, 1, 2, 3]',
      'read in all: 88',
    ]);
    const [members, state] = described;
    const rows = members!.split('\n').filter((l) => l.startsWith('g ')).map((l) => l.trim().split(/ +/));
    // GROUP CONSUMER-ID HOST CLIENT-ID #PARTITIONS CURRENT-EPOCH CURRENT-ASSIGNMENT TARGET-EPOCH TARGET-ASSIGNMENT UPGRADED
    const byClient = new Map(rows.map((r) => [r[3], r] as const));
    assert.match(byClient.get('classic')![1]!, /^classic-[0-9a-f-]{36}$/);
    assert.match(byClient.get('modern')![1]!, /^[A-Za-z0-9_-]{22}$/);
    assert.deepEqual(byClient.get('classic')!.slice(2, 6).concat(byClient.get('classic')!.slice(7, 8), byClient.get('classic')!.slice(9)), ['/127.0.0.1', 'classic', '2', '2', '2', 'false']);
    assert.deepEqual(byClient.get('modern')!.slice(2, 6).concat(byClient.get('modern')!.slice(7, 8), byClient.get('modern')!.slice(9)), ['/127.0.0.1', 'modern', '2', '2', '2', 'true']);
    const assignments = [byClient.get('classic')![6], byClient.get('modern')![6]].sort();
    assert.deepEqual(assignments, ['t:0,1', 't:2,3']);
    assert.match(state!, new RegExp(`^g +${bootstrap.replace(/\./g, '\\.')} +\\(1\\) +uniform +Stable +2 *$`, 'm'));
    // Downgraded once the consumer-protocol member left: a Classic group again.
    const listed = await runJavaToolOk('kafka-consumer-groups', ['--bootstrap-server', bootstrap, '--list', '--type']);
    assert.match(listed, /^g +Classic +$/m);
  } finally {
    await broker.close();
  }
});

test('three classic consumers upgraded one by one to group.protocol=consumer and back: no record lost, partitions exclusive, as against Kafka 4.3.1', { timeout: 300_000 }, async () => {
  installJavaTools();
  const broker = await startBroker(resolveBrokerConfig({ listeners: 'PLAINTEXT://127.0.0.1:0', 'gregor.log.engine': 'memory' }));
  try {
    const bootstrap = `127.0.0.1:${broker.addresses[0]!.port}`;
    await runJavaToolOk('kafka-topics', ['--bootstrap-server', bootstrap, '--create', '--topic', 'r', '--partitions', '6']);
    const printed = await runJava([resolve('test/e2e/java/RollingProtocolUpgrade.java'), bootstrap, 'r', 'rg']);
    assert.deepEqual(printed, [
      'classic: 6 partitions, exclusive; read 30 of 30',
      'm0 now consumer: 6 partitions, exclusive; read 90 of 90',
      'm1 now consumer: 6 partitions, exclusive; read 150 of 150',
      'm2 now consumer: 6 partitions, exclusive; read 210 of 210',
      'm0 now classic: 6 partitions, exclusive; read 270 of 270',
      'm1 now classic: 6 partitions, exclusive; read 330 of 330',
      'm2 now classic: 6 partitions, exclusive; read 390 of 390',
    ]);
    const listed = await runJavaToolOk('kafka-consumer-groups', ['--bootstrap-server', bootstrap, '--list', '--type']);
    assert.match(listed, /^rg +Classic +$/m);
  } finally {
    await broker.close();
  }
});
