// Kafka's own admin tools (kafka-topics, kafka-configs, kafka-delete-records from Apache Kafka 4.3.1, run
// through compat-tests/bin) against an in-process gregor: every command's output must read exactly as it
// did against the reference Apache Kafka 4.3.1 broker (compat-tests/reference) for the same sequence,
// captured below. Only the bootstrap address and topic ids are normalised.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestBroker } from '../server/broker-harness.js';
import { installJavaTools, runJavaTool } from './java-tools.js';

interface Step {
  readonly tool: string;
  readonly args: readonly string[];
  /** What the tool printed against Kafka 4.3.1 (stack frames and log-line prefixes dropped). */
  readonly output: readonly string[];
}

/** The scenario and Kafka 4.3.1's answers, in order; each step depends on the ones before it. */
const STEPS: readonly Step[] = [
  {
    tool: 'kafka-topics',
    args: ['--create', '--topic', 'adm1', '--partitions', '3', '--config', 'retention.ms=1000'],
    output: [
      "Created topic adm1.",
    ],
  },
  {
    tool: 'kafka-topics',
    args: ['--create', '--topic', 'adm1', '--partitions', '3'],
    output: [
      "Error while executing topic command : Topic 'adm1' already exists.",
      " (org.apache.kafka.tools.TopicCommand)",
    ],
  },
  {
    tool: 'kafka-topics',
    args: ['--create', '--topic', 'bad!name'],
    output: [
      "Error while executing topic command : Topic name is invalid: 'bad!name' contains one or more characters other than ASCII alphanumerics, '.', '_' and '-'",
      " (org.apache.kafka.tools.TopicCommand)",
    ],
  },
  {
    tool: 'kafka-topics',
    args: ['--create', '--topic', 'adm2', '--replication-factor', '3'],
    output: [
      "Error while executing topic command : Unable to replicate the partition 3 time(s): The target replication factor of 3 cannot be reached because only 1 broker(s) are registered or some brokers have all their log directories cordoned.",
      " (org.apache.kafka.tools.TopicCommand)",
    ],
  },
  {
    tool: 'kafka-topics',
    args: ['--create', '--topic', 'adm3', '--config', 'foo.bar=1'],
    output: [
      "Error while executing topic command : Unknown topic config name: foo.bar",
      " (org.apache.kafka.tools.TopicCommand)",
    ],
  },
  {
    tool: 'kafka-topics',
    args: ['--describe', '--topic', 'adm1'],
    output: [
      "Topic: adm1\tTopicId: ID\tPartitionCount: 3\tReplicationFactor: 1\tConfigs: min.insync.replicas=1,retention.ms=1000",
      "\tTopic: adm1\tPartition: 0\tLeader: 1\tReplicas: 1\tIsr: 1\tElr: \tLastKnownElr: ",
      "\tTopic: adm1\tPartition: 1\tLeader: 1\tReplicas: 1\tIsr: 1\tElr: \tLastKnownElr: ",
      "\tTopic: adm1\tPartition: 2\tLeader: 1\tReplicas: 1\tIsr: 1\tElr: \tLastKnownElr: ",
    ],
  },
  {
    tool: 'kafka-topics',
    args: ['--alter', '--topic', 'adm1', '--partitions', '5'],
    output: [],
  },
  {
    tool: 'kafka-topics',
    args: ['--alter', '--topic', 'adm1', '--partitions', '2'],
    output: [
      "Error while executing topic command : The topic adm1 currently has 5 partition(s); 2 would not be an increase.",
      " (org.apache.kafka.tools.TopicCommand)",
    ],
  },
  {
    tool: 'kafka-configs',
    args: ['--describe', '--entity-type', 'topics', '--entity-name', 'adm1'],
    output: [
      "Dynamic configs for topic adm1 are:",
      "  retention.ms=1000 sensitive=false synonyms={DYNAMIC_TOPIC_CONFIG:retention.ms=1000}",
    ],
  },
  {
    tool: 'kafka-configs',
    args: ['--alter', '--entity-type', 'topics', '--entity-name', 'adm1', '--add-config', 'retention.ms=5000,cleanup.policy=[compact,delete]'],
    output: [
      "Completed updating config for topic adm1.",
    ],
  },
  {
    tool: 'kafka-configs',
    args: ['--alter', '--entity-type', 'topics', '--entity-name', 'adm1', '--add-config', 'segment.bytes=10'],
    output: [
      "Error while executing config command with args '--bootstrap-server BOOTSTRAP --alter --entity-type topics --entity-name adm1 --add-config segment.bytes=10'",
      "java.util.concurrent.ExecutionException: org.apache.kafka.common.errors.InvalidConfigurationException: Invalid value 10 for configuration segment.bytes: Value must be at least 1048576",
      "Caused by: org.apache.kafka.common.errors.InvalidConfigurationException: Invalid value 10 for configuration segment.bytes: Value must be at least 1048576",
    ],
  },
  {
    tool: 'kafka-configs',
    args: ['--describe', '--entity-type', 'topics', '--entity-name', 'adm1'],
    output: [
      "Dynamic configs for topic adm1 are:",
      "  cleanup.policy=compact,delete sensitive=false synonyms={DYNAMIC_TOPIC_CONFIG:cleanup.policy=compact,delete, DEFAULT_CONFIG:log.cleanup.policy=delete}",
      "  retention.ms=5000 sensitive=false synonyms={DYNAMIC_TOPIC_CONFIG:retention.ms=5000}",
    ],
  },
  {
    tool: 'kafka-configs',
    args: ['--alter', '--entity-type', 'topics', '--entity-name', 'adm1', '--delete-config', 'retention.ms'],
    output: [
      "Completed updating config for topic adm1.",
    ],
  },
  {
    tool: 'kafka-configs',
    args: ['--describe', '--entity-type', 'topics', '--entity-name', 'adm1', '--all'],
    output: [
      "All configs for topic adm1 are:",
      "  cleanup.policy=compact,delete sensitive=false synonyms={DYNAMIC_TOPIC_CONFIG:cleanup.policy=compact,delete, DEFAULT_CONFIG:log.cleanup.policy=delete}",
      "  compression.gzip.level=-1 sensitive=false synonyms={DEFAULT_CONFIG:compression.gzip.level=-1}",
      "  compression.lz4.level=9 sensitive=false synonyms={DEFAULT_CONFIG:compression.lz4.level=9}",
      "  compression.type=producer sensitive=false synonyms={DEFAULT_CONFIG:compression.type=producer}",
      "  compression.zstd.level=3 sensitive=false synonyms={DEFAULT_CONFIG:compression.zstd.level=3}",
      "  delete.retention.ms=86400000 sensitive=false synonyms={DEFAULT_CONFIG:log.cleaner.delete.retention.ms=86400000}",
      "  file.delete.delay.ms=60000 sensitive=false synonyms={DEFAULT_CONFIG:log.segment.delete.delay.ms=60000}",
      "  flush.messages=9223372036854775807 sensitive=false synonyms={DEFAULT_CONFIG:log.flush.interval.messages=9223372036854775807}",
      "  flush.ms=9223372036854775807 sensitive=false synonyms={}",
      "  follower.replication.throttled.replicas= sensitive=false synonyms={}",
      "  index.interval.bytes=4096 sensitive=false synonyms={DEFAULT_CONFIG:log.index.interval.bytes=4096}",
      "  leader.replication.throttled.replicas= sensitive=false synonyms={}",
      "  local.retention.bytes=-2 sensitive=false synonyms={DEFAULT_CONFIG:log.local.retention.bytes=-2}",
      "  local.retention.ms=-2 sensitive=false synonyms={DEFAULT_CONFIG:log.local.retention.ms=-2}",
      "  max.compaction.lag.ms=9223372036854775807 sensitive=false synonyms={DEFAULT_CONFIG:log.cleaner.max.compaction.lag.ms=9223372036854775807}",
      "  max.message.bytes=1048588 sensitive=false synonyms={DEFAULT_CONFIG:message.max.bytes=1048588}",
      "  message.timestamp.after.max.ms=3600000 sensitive=false synonyms={DEFAULT_CONFIG:log.message.timestamp.after.max.ms=3600000}",
      "  message.timestamp.before.max.ms=9223372036854775807 sensitive=false synonyms={DEFAULT_CONFIG:log.message.timestamp.before.max.ms=9223372036854775807}",
      "  message.timestamp.type=CreateTime sensitive=false synonyms={DEFAULT_CONFIG:log.message.timestamp.type=CreateTime}",
      "  min.cleanable.dirty.ratio=0.5 sensitive=false synonyms={DEFAULT_CONFIG:log.cleaner.min.cleanable.ratio=0.5}",
      "  min.compaction.lag.ms=0 sensitive=false synonyms={DEFAULT_CONFIG:log.cleaner.min.compaction.lag.ms=0}",
      "  min.insync.replicas=1 sensitive=false synonyms={DYNAMIC_DEFAULT_BROKER_CONFIG:min.insync.replicas=1, DEFAULT_CONFIG:min.insync.replicas=1}",
      "  preallocate=false sensitive=false synonyms={DEFAULT_CONFIG:log.preallocate=false}",
      "  remote.log.copy.disable=false sensitive=false synonyms={}",
      "  remote.log.delete.on.disable=false sensitive=false synonyms={}",
      "  remote.storage.enable=false sensitive=false synonyms={}",
      "  retention.bytes=-1 sensitive=false synonyms={DEFAULT_CONFIG:log.retention.bytes=-1}",
      "  retention.ms=604800000 sensitive=false synonyms={}",
      "  segment.bytes=1073741824 sensitive=false synonyms={DEFAULT_CONFIG:log.segment.bytes=1073741824}",
      "  segment.index.bytes=10485760 sensitive=false synonyms={DEFAULT_CONFIG:log.index.size.max.bytes=10485760}",
      "  segment.jitter.ms=0 sensitive=false synonyms={}",
      "  segment.ms=604800000 sensitive=false synonyms={}",
      "  unclean.leader.election.enable=false sensitive=false synonyms={DEFAULT_CONFIG:unclean.leader.election.enable=false}",
    ],
  },
  {
    tool: 'kafka-configs',
    args: ['--describe', '--entity-type', 'brokers', '--entity-default'],
    output: [
      "Default configs for brokers in the cluster are:",
      "  min.insync.replicas=1 sensitive=false synonyms={DYNAMIC_DEFAULT_BROKER_CONFIG:min.insync.replicas=1}",
    ],
  },
  {
    tool: 'kafka-topics',
    args: ['--delete', '--topic', 'adm1'],
    output: [],
  },
  {
    tool: 'kafka-topics',
    args: ['--delete', '--topic', 'adm1'],
    output: [
      "Error while executing topic command : Topic 'adm1' does not exist as expected",
      " (org.apache.kafka.tools.TopicCommand)",
    ],
  },
  {
    tool: 'kafka-topics',
    args: ['--create', '--topic', 'dr1', '--partitions', '2'],
    output: [
      "Created topic dr1.",
    ],
  },
  {
    tool: 'kafka-delete-records',
    args: ['--offset-json-file', 'OFFSETS_FILE'],
    output: [
      "Executing records delete operation",
      "Records delete operation completed:",
      "partition: dr1-0\tlow_watermark: 0",
    ],
  },
  {
    tool: 'kafka-topics',
    args: ['--list', '--exclude-internal', '--topic', 'dr.*'],
    output: [
      "dr1",
    ],
  },
  {
    tool: 'kafka-configs',
    args: ['--alter', '--entity-type', 'brokers', '--entity-default', '--add-config', 'log.cleaner.threads=2'],
    output: [
      "Completed updating default config for brokers in the cluster.",
    ],
  },
  {
    tool: 'kafka-configs',
    args: ['--alter', '--entity-type', 'brokers', '--entity-name', '1', '--add-config', 'num.partitions=4'],
    output: [
      "Error while executing config command with args '--bootstrap-server BOOTSTRAP --alter --entity-type brokers --entity-name 1 --add-config num.partitions=4'",
      "java.util.concurrent.ExecutionException: org.apache.kafka.common.errors.InvalidRequestException: Cannot update these configs dynamically: [num.partitions]",
      "Caused by: org.apache.kafka.common.errors.InvalidRequestException: Cannot update these configs dynamically: [num.partitions]",
    ],
  },
  {
    tool: 'kafka-topics',
    args: ['--delete', '--topic', 'dr1'],
    output: [],
  },];

/** Drops what legitimately differs or is noise: stack frames, log timestamps, ids, the address. */
function normalise(text: string, bootstrap: string): string[] {
  const lines = text.split('\n')
    .filter((line) => !/^\s*at /.test(line) && !line.startsWith('[20'))
    .map((line) => line.replaceAll(bootstrap, 'BOOTSTRAP').replace(/TopicId: [A-Za-z0-9_-]{22}/g, 'TopicId: ID'));
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

let broker: Awaited<ReturnType<typeof startTestBroker>>;
let workDir: string;

before(async () => {
  installJavaTools();
  broker = await startTestBroker({ 'node.id': '1', 'num.partitions': '1' });
  workDir = mkdtempSync(join(tmpdir(), 'gregor-admin-tools-'));
});

after(async () => {
  await broker?.close();
  if (workDir !== undefined) rmSync(workDir, { recursive: true, force: true });
});

test('kafka-topics, kafka-configs and kafka-delete-records print what they print against Kafka 4.3.1', { timeout: 600_000 }, async () => {
  const bootstrap = `127.0.0.1:${broker.port}`;
  const offsetsFile = join(workDir, 'offsets.json');
  writeFileSync(offsetsFile, JSON.stringify({ partitions: [{ topic: 'dr1', partition: 0, offset: -1 }], version: 1 }));
  for (const step of STEPS) {
    const args = ['--bootstrap-server', bootstrap, ...step.args.map((arg) => (arg === 'OFFSETS_FILE' ? offsetsFile : arg))];
    const { stdout, stderr } = await runJavaTool(step.tool, args);
    assert.deepEqual(normalise(stdout + stderr, bootstrap), step.output, `${step.tool} ${step.args.join(' ')}`);
  }
});
