// kcat (librdkafka) from Debian: metadata (-L -J), produce (-P) and consume (-C -J). kcat has no admin commands.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describeFailure, runCommand } from '../../lib/command.js';
import { compatDir } from '../../lib/paths.js';
import { brokerRestart, commitResume, errorInvalidTopic, errorMessageTooLarge, groupRebalance, idempotentProducer,
  newestVersionsWork, offsetReset, offsetsForTimes, seekReplay, twoGroups } from './groups.js';
import { newestVersionsOf } from '../newest-versions.js';
import { pass, type ClientSuite, type ScenarioContext } from '../../runner/types.js';
import { newestVersions } from '../../runner/versions.js';
import { authFailure } from './security.js';

// message.timeout.ms: a broker that never answers makes kcat fail with librdkafka's own reason, not hang.
async function kcatRun(args: string[], input?: string): Promise<string> {
  const result = await runCommand('kcat', ['-X', 'message.timeout.ms=30000', ...args], input === undefined ? {} : { input });
  if (result.code !== 0) throw new Error(describeFailure(`kcat ${args.join(' ')}`, result));
  return result.stdout;
}

interface KcatMetadata {
  brokers: { id: number; name: string }[];
  topics: { topic: string; error?: string; partitions: { partition: number; leader: number; replicas: { id: number }[]; isrs: { id: number }[] }[] }[];
}

async function metadata(context: ScenarioContext) {
  const bootstrap = context.target.bootstrap;
  const topic = context.name('topic');
  // Producing to a topic that does not exist creates it (auto.create.topics.enable, one partition by default).
  await kcatRun(['-P', '-b', bootstrap, '-t', topic], 'hello\n');
  const described = JSON.parse(await kcatRun(['-L', '-J', '-b', bootstrap, '-t', topic])) as KcatMetadata;
  assert.equal(described.brokers.length, 1, 'one broker');
  const broker = described.brokers[0]!;
  assert.equal(broker.name, bootstrap, 'the broker advertises the bootstrap address');
  assert.deepEqual(described.topics, [
    { topic, partitions: [{ partition: 0, leader: broker.id, replicas: [{ id: broker.id }], isrs: [{ id: broker.id }] }] },
  ]);
  return pass;
}

interface KcatMessage {
  offset: number;
  key: string | null;
  payload: string | null;
  headers?: string[];
}

async function produceConsume(context: ScenarioContext) {
  const bootstrap = context.target.bootstrap;
  const topic = context.name('topic');
  const produce = (extra: string[], input: string): Promise<string> =>
    kcatRun(['-P', '-b', bootstrap, '-t', topic, '-K', ':', ...extra], input);
  await produce(['-H', 'h1=x', '-H', 'h2=y'], 'k1:v1\nempty:\n');
  await produce(['-Z'], 'null:\n'); // -Z sends an empty line as a NULL value
  // Near the broker's default limit (max.message.bytes 1048588 for the whole batch); librdkafka's own limit raised.
  const big = 'x'.repeat(1_000_000);
  await produce(['-X', 'message.max.bytes=2000000'], `big:${big}\n`);
  const codecs = ['gzip', 'snappy', 'lz4', 'zstd'];
  for (const codec of codecs) await produce(['-z', codec], `${codec}:compressed with ${codec}\n`);

  const output = await kcatRun(['-C', '-b', bootstrap, '-t', topic, '-o', 'beginning', '-e', '-J', '-q', '-X', 'fetch.message.max.bytes=2000000']);
  const received = output
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as KcatMessage)
    .map((m) => ({ offset: m.offset, key: m.key, payload: m.payload, headers: m.headers ?? [] }));
  const expected = [
    { key: 'k1', payload: 'v1', headers: ['h1', 'x', 'h2', 'y'] },
    { key: 'empty', payload: '', headers: ['h1', 'x', 'h2', 'y'] },
    { key: 'null', payload: null, headers: [] },
    { key: 'big', payload: big, headers: [] },
    ...codecs.map((codec) => ({ key: codec, payload: `compressed with ${codec}`, headers: [] })),
  ].map((message, offset) => ({ offset, ...message }));
  assert.deepEqual(received, expected);
  return pass;
}

export const kcat: ClientSuite = {
  name: 'kcat',
  install: async () => {
    const result = await runCommand(join(compatDir, 'clients', 'kcat', 'install.sh'), [], { timeoutMs: 600_000 });
    if (result.code !== 0) throw new Error(describeFailure('clients/kcat/install.sh', result));
  },
  scenarios: {
    metadata,
    'produce-consume': produceConsume,
    'group-rebalance': groupRebalance,
    'commit-resume': commitResume,
    'offset-reset': offsetReset,
    'two-groups': twoGroups,
    'seek-replay': seekReplay,
    'offsets-for-times': offsetsForTimes,
    'idempotent-producer': idempotentProducer,
    'broker-restart': brokerRestart,
    'error-message-too-large': errorMessageTooLarge,
    'error-invalid-topic': errorInvalidTopic,
    'newest-versions': (context) => newestVersions(context, newestVersionsOf('kcat'), (bootstrap) => newestVersionsWork(bootstrap, context)),
    'auth-failure': authFailure,
  },
  cannot: {
    'topic-admin': 'kcat has no topic administration commands',
    transactions: 'kcat cannot produce in a transaction (it can only read with isolation.level)',
    'error-invalid-config': 'kcat cannot create topics or alter configs',
    'error-unknown-topic': 'kcat cannot ask for metadata without auto-creation (librdkafka sends allow_auto_topic_creation=true), so a missing topic is created; what it prints then depends on whether creation finished before its retry',
  },
};
