// Kafka 4.3.1's LogDirsCommand (kafka-log-dirs --describe, DescribeLogDirs v5 through the Admin client) and its
// Admin.alterReplicaLogDirs (AlterReplicaLogDirs v2; java/AlterReplicaLogDirs.java) against an in-process gregor:
// what they print against the reference broker (compat-tests/reference) for a topic of two partitions, one holding a
// batch; only the log dir's path differs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { runJavaProgramOk, runJavaToolOk, sharedToolsBroker } from './java-tools.js';

const tools = sharedToolsBroker();

test('kafka-log-dirs --describe prints what it prints against Kafka 4.3.1', { timeout: 300_000 }, async () => {
  {
    await runJavaToolOk('kafka-topics', ['--bootstrap-server', tools.bootstrap, '--create', '--topic', 'ld', '--partitions', '2']);
    await runJavaToolOk('kafka-console-producer', ['--bootstrap-server', tools.bootstrap, '--topic', 'ld', '--command-property', 'partitioner.class=org.apache.kafka.clients.producer.RoundRobinPartitioner'], 'a\n');
    const out = await runJavaToolOk('kafka-run-class', ['org.apache.kafka.tools.LogDirsCommand', '--bootstrap-server', tools.bootstrap, '--describe', '--topic-list', 'ld']);
    const lines = out.trim().split('\n');
    assert.deepEqual(lines.slice(0, 2), ['Querying brokers for log directories information', 'Received log directory information from brokers 1']);
    const described = JSON.parse(lines[2]!) as { brokers: { logDirs: { partitions: { partition: string }[] }[] }[] };
    // The partitions come in the tool's hash order: compare them sorted.
    for (const dir of described.brokers[0]!.logDirs) dir.partitions.sort((a, b) => a.partition.localeCompare(b.partition));
    assert.deepEqual(described, {
      brokers: [{
        broker: 1,
        logDirs: [{
          partitions: [
            { partition: 'ld-0', size: 0, offsetLag: 0, isFuture: false },
            { partition: 'ld-1', size: 69, offsetLag: 0, isFuture: false },
          ],
          error: null,
          logDir: resolve('data'),
        }],
      }],
      version: 1,
    });
  }
});

test('Admin.alterReplicaLogDirs: each replica\'s outcome as against Kafka 4.3.1 (its one log dir: no move to make)', { timeout: 300_000 }, async () => {
  const dir = resolve('data');
  const stdout = await runJavaProgramOk('test/e2e/java/AlterReplicaLogDirs.java', [
    tools.bootstrap, '1', `ld:0=${dir}`, `ld:1=${dir}/`, `ld:7=${dir}`, `nope:0=${dir}`, 'nope:1=/no/such/dir',
  ]);
  assert.deepEqual(stdout.trim().split('\n'), [
    'ld-0 ok',
    'ld-1 LogDirNotFoundException: The user-specified log directory is not found in the broker config.',
    'ld-7 UnknownTopicOrPartitionException: This server does not host this topic-partition.',
    'nope-0 UnknownTopicOrPartitionException: This server does not host this topic-partition.',
    'nope-1 LogDirNotFoundException: The user-specified log directory is not found in the broker config.',
  ]);
});
