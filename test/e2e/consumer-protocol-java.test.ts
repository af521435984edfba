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
