// Apache Kafka's own command-line tools (compat-tests/bin, the reference install's jars): the Java admin,
// producer and consumer clients as a person drives them from a shell.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describeFailure, runCommand } from '../../lib/command.js';
import { referenceDir } from '../../lib/paths.js';
import { tool } from '../../lib/tools.js';
import { clusterAdmin } from './cluster.js';
import { parseDescribe, topics } from './common.js';
import { eventually } from '../../runner/eventually.js';
import { errorInvalidConfig, errorInvalidTopic, errorMessageTooLarge, errorUnknownTopic } from './errors.js';
import { brokerRestart, commitResume, groupRebalance, idempotentProducer, offsetReset, offsetsForTimes, seekReplay, transactions, twoGroups } from './groups.js';
import { pass, type ClientSuite, type ScenarioContext } from '../../runner/types.js';
import { authFailure } from './security.js';

async function metadata(context: ScenarioContext) {
  const bootstrap = context.target.bootstrap;
  const versions = await tool('kafka-broker-api-versions', ['--bootstrap-server', bootstrap]);
  const [first] = versions.split('\n');
  assert.match(first ?? '', new RegExp(`^${bootstrap.replace(/\./g, '\\.')} \\(id: \\d+ rack: null`), 'one broker at the bootstrap address');
  for (const api of ['Produce(0)', 'Fetch(1)', 'Metadata(3)', 'ApiVersions(18)', 'CreateTopics(19)']) {
    assert.match(versions, new RegExp(`${api.replace(/[()]/g, '\\$&')}: \\d+ to \\d+ \\[usable: \\d+\\]`), `${api} is usable`);
  }

  const topic = context.name('topic');
  assert.match(await topics(context, '--create', '--topic', topic, '--partitions', '3'), new RegExp(`Created topic ${topic}\\.`));
  assert.ok((await topics(context, '--list')).split('\n').includes(topic), '--list shows the new topic');
  const described = parseDescribe(await topics(context, '--describe', '--topic', topic));
  assert.equal(described.summary['PartitionCount'], '3');
  assert.equal(described.summary['ReplicationFactor'], '1');
  assert.deepEqual(
    described.partitions.map((p) => [p['Partition'], p['Leader'], p['Replicas'], p['Isr']]),
    [0, 1, 2].map((id) => [String(id), '1', '1', '1']),
  );
  return pass;
}

async function produceConsume(context: ScenarioContext) {
  const bootstrap = context.target.bootstrap;
  const topic = context.name('topic');
  await topics(context, '--create', '--topic', topic, '--partitions', '1');
  // Lines are "headers<TAB>key<TAB>value"; NULL stands for a null key or value.
  const produce = (lines: string[], codec: string): Promise<string> =>
    tool(
      'kafka-console-producer',
      ['--bootstrap-server', bootstrap, '--topic', topic, '--compression-codec', codec,
        '--reader-property', 'parse.key=true', '--reader-property', 'parse.headers=true', '--reader-property', 'null.marker=NULL'],
      lines.map((line) => `${line}\n`).join(''),
    );
  const plain = ['h1:x,h2:y\tk1\tv1', 'h3:z\tnull-value\tNULL', 'h4:w\tempty-value\t', 'h5:q\tNULL\tnull-key'];
  await produce(plain, 'none');
  const codecs = ['gzip', 'snappy', 'lz4', 'zstd'];
  for (const codec of codecs) await produce([`codec:${codec}\t${codec}\tcompressed with ${codec}`], codec);

  const expected = [...plain, ...codecs.map((codec) => `codec:${codec}\t${codec}\tcompressed with ${codec}`)];
  const output = await tool('kafka-console-consumer', [
    '--bootstrap-server', bootstrap, '--topic', topic, '--from-beginning', '--max-messages', String(expected.length),
    '--timeout-ms', '60000', '--group', context.name('group'),
    '--formatter-property', 'print.offset=true', '--formatter-property', 'print.headers=true',
    '--formatter-property', 'print.key=true', '--formatter-property', 'null.literal=NULL',
  ]);
  assert.deepEqual(
    output.split('\n').filter((line) => line !== ''),
    expected.map((line, offset) => `Offset:${offset}\t${line}`),
  );
  return pass;
}

async function topicAdmin(context: ScenarioContext) {
  const topic = context.name('topic');
  const configs = (...args: string[]): Promise<string> =>
    tool('kafka-configs', ['--bootstrap-server', context.target.bootstrap, '--entity-type', 'topics', '--entity-name', topic, ...args]);
  await topics(context, '--create', '--topic', topic, '--partitions', '3', '--config', 'cleanup.policy=compact');
  let described = parseDescribe(await topics(context, '--describe', '--topic', topic));
  assert.equal(described.summary['PartitionCount'], '3');
  // "Configs" lists every non-default topic config; Kafka 4.x also shows the cluster-level min.insync.replicas
  // its controller records for eligible leader replicas, so only what this scenario set is required.
  assert.ok((described.summary['Configs'] ?? '').split(',').includes('cleanup.policy=compact'), `Configs: ${described.summary['Configs']}`);

  // kafka-configs alters incrementally: cleanup.policy stays.
  assert.match(await configs('--alter', '--add-config', 'retention.ms=3600000'), /Completed updating config for topic/);
  // The broker applies an altered config once the controller's record reaches it: read until it shows.
  await eventually('the altered configs', async () => {
    const dynamic = (await configs('--describe'))
      .split('\n')
      .map((line) => line.trim().split(' ')[0])
      .filter((entry): entry is string => entry !== undefined && entry.includes('='))
      .sort();
    assert.deepEqual(dynamic, ['cleanup.policy=compact', 'retention.ms=3600000']);
    return true;
  });

  await topics(context, '--alter', '--topic', topic, '--partitions', '5');
  described = parseDescribe(await topics(context, '--describe', '--topic', topic));
  assert.equal(described.summary['PartitionCount'], '5');
  assert.equal(described.partitions.length, 5);

  await topics(context, '--delete', '--topic', topic);
  await eventually('the deleted topic to leave --list', async () =>
    (await topics(context, '--list')).split('\n').includes(topic) ? undefined : true,
  );
  return pass;
}

export const javaTools: ClientSuite = {
  name: 'java-tools',
  install: async () => {
    const result = await runCommand(join(referenceDir, 'install.sh'), [], { timeoutMs: 600_000 });
    if (result.code !== 0) throw new Error(describeFailure('reference/install.sh', result));
  },
  scenarios: {
    metadata,
    'topic-admin': topicAdmin,
    'produce-consume': produceConsume,
    'group-rebalance': groupRebalance,
    'commit-resume': commitResume,
    'offset-reset': offsetReset,
    'two-groups': twoGroups,
    'seek-replay': seekReplay,
    'offsets-for-times': offsetsForTimes,
    'idempotent-producer': idempotentProducer,
    transactions,
    'broker-restart': brokerRestart,
    'error-unknown-topic': errorUnknownTopic,
    'error-message-too-large': errorMessageTooLarge,
    'error-invalid-topic': errorInvalidTopic,
    'error-invalid-config': errorInvalidConfig,
    'cluster-admin': clusterAdmin,
    'auth-failure': authFailure,
  },
};
