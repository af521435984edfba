// Apache Kafka's own console producer and consumer (the Java client) against gregor: keys, values, and a
// consumer without a group reading partition 0 from the earliest offset. The same commands print the same on
// Kafka 4.3.1 (compat-tests/reference).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { resolveBrokerConfig } from '../../src/config/index.js';
import { startBroker } from '../../src/server/broker.js';

const BIN = 'compat-tests/bin';

function runTool(tool: string, args: string[], input?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(`${BIN}/${tool}`, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(stdout);
      else reject(new Error(`${tool} exited ${code}: ${stderr.trim().split('\n').slice(-3).join(' | ')}`));
    });
    child.stdin.end(input ?? '');
  });
}

test('kafka-console-producer writes and kafka-console-consumer --partition 0 --offset earliest reads back', async () => {
  const broker = await startBroker(resolveBrokerConfig({ listeners: 'PLAINTEXT://127.0.0.1:0', 'node.id': '1', 'gregor.log.engine': 'memory' }));
  const bootstrap = `127.0.0.1:${broker.addresses[0]!.port}`;
  try {
    await runTool(
      'kafka-console-producer',
      ['--bootstrap-server', bootstrap, '--topic', 'java-tools', '--command-property', 'enable.idempotence=false', '--command-property', 'compression.type=lz4',
        '--reader-property', 'parse.key=true', '--reader-property', 'key.separator=:'],
      'k1:first\nk2:second\nk3:third\n',
    );
    const out = await runTool('kafka-console-consumer', [
      '--bootstrap-server', bootstrap, '--topic', 'java-tools', '--partition', '0', '--offset', 'earliest', '--max-messages', '3',
      '--formatter-property', 'print.key=true', '--formatter-property', 'print.offset=true',
    ]);
    const lines = out.trim().split('\n').filter((l) => l.includes('\t'));
    assert.deepEqual(lines, ['Offset:0\tk1\tfirst', 'Offset:1\tk2\tsecond', 'Offset:2\tk3\tthird']);
  } finally {
    await broker.close();
  }
});
