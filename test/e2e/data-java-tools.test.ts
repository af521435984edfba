// Apache Kafka's own console producer and consumer (the Java client) against gregor: keys, values, and a
// consumer without a group reading partition 0 from the earliest offset. The same commands print the same on
// Kafka 4.3.1 (compat-tests/reference).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveBrokerConfig } from '../../src/config/index.js';
import { startBroker } from '../../src/server/broker.js';
import { installJavaTools, runJavaToolOk } from './java-tools.js';

test('kafka-console-producer writes and kafka-console-consumer --partition 0 --offset earliest reads back', async () => {
  installJavaTools();
  const broker = await startBroker(resolveBrokerConfig({ listeners: 'PLAINTEXT://127.0.0.1:0', 'node.id': '1', 'gregor.log.engine': 'memory' }));
  const bootstrap = `127.0.0.1:${broker.addresses[0]!.port}`;
  try {
    await runJavaToolOk(
      'kafka-console-producer',
      ['--bootstrap-server', bootstrap, '--topic', 'java-tools', '--command-property', 'enable.idempotence=false', '--command-property', 'compression.type=lz4',
        '--reader-property', 'parse.key=true', '--reader-property', 'key.separator=:'],
      'k1:first\nk2:second\nk3:third\n',
    );
    const out = await runJavaToolOk('kafka-console-consumer', [
      '--bootstrap-server', bootstrap, '--topic', 'java-tools', '--partition', '0', '--offset', 'earliest', '--max-messages', '3',
      '--formatter-property', 'print.key=true', '--formatter-property', 'print.offset=true',
    ]);
    const lines = out.trim().split('\n').filter((l) => l.includes('\t'));
    assert.deepEqual(lines, ['Offset:0\tk1\tfirst', 'Offset:1\tk2\tsecond', 'Offset:2\tk3\tthird']);
  } finally {
    await broker.close();
  }
});

test('kafka-console-consumer with fetch sizes that end mid-batch reads every record once, in order (Kafka\'s cut last batch)', async () => {
  installJavaTools();
  const dir = mkdtempSync(join(tmpdir(), 'gregor-cut-batches-'));
  const broker = await startBroker(resolveBrokerConfig({ listeners: 'PLAINTEXT://127.0.0.1:0', 'node.id': '1', 'gregor.log.engine': 'file', 'log.dirs': dir }));
  const bootstrap = `127.0.0.1:${broker.addresses[0]!.port}`;
  const lines = Array.from({ length: 300 }, (_, i) => `v${i}-${'x'.repeat(600)}`);
  try {
    await runJavaToolOk(
      'kafka-console-producer',
      ['--bootstrap-server', bootstrap, '--topic', 'cut-batches', '--command-property', 'enable.idempotence=false',
        '--command-property', 'batch.size=4096', '--command-property', 'linger.ms=20'],
      `${lines.join('\n')}\n`,
    );
    // 5000 bytes a fetch: most responses end inside a batch of ~4 KiB, which the consumer drops and fetches again.
    const out = await runJavaToolOk('kafka-console-consumer', [
      '--bootstrap-server', bootstrap, '--topic', 'cut-batches', '--partition', '0', '--offset', 'earliest', '--max-messages', String(lines.length),
      '--consumer-property', 'max.partition.fetch.bytes=5000', '--consumer-property', 'fetch.max.bytes=5000',
    ]);
    assert.deepEqual(out.trim().split('\n').filter((l) => l.startsWith('v')), lines);
  } finally {
    await broker.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
