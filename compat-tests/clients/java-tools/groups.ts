// The stock tools' consumer-group and data scenarios: console consumers in a group (rebalance, commit, resume),
// kafka-consumer-groups (offset reset), kafka-get-offsets (offsets for timestamps), kafka-transactions.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { groupOffsets, resetGroupOffsets, startTool, tool } from '../../lib/tools.js';
import { eventually } from '../../runner/eventually.js';
import { pass, type Outcome, type ScenarioContext } from '../../runner/types.js';
import { topics } from './common.js';
import { consoleConsume, consoleProduce, numberedLines } from './common-io.js';

const group = (context: ScenarioContext, suffix = 'group'): string[] => ['--group', context.name(suffix)];

/** kafka-consumer-groups --describe --members: the partition count of each member, sorted (empty while rebalancing). */
async function members(context: ScenarioContext, groupId: string): Promise<{ sizes: number[] }> {
  const bootstrap = context.target.bootstrap;
  const output = await tool('kafka-consumer-groups', ['--bootstrap-server', bootstrap, '--describe', '--group', groupId, '--members']);
  const rows = output.split('\n').map((line) => line.trim().split(/\s+/)).filter((fields) => fields[0] === groupId);
  // Columns: GROUP CONSUMER-ID HOST CLIENT-ID #PARTITIONS
  const sizes = rows.map((fields) => Number(fields[fields.length - 1])).sort();
  return { sizes };
}

export async function groupRebalance(context: ScenarioContext): Promise<Outcome> {
  const topic = context.name('topic');
  const groupId = context.name('group');
  await topics(context, '--create', '--topic', topic, '--partitions', '6');
  const consumer = (): ChildProcess =>
    startTool('kafka-console-consumer', ['--bootstrap-server', context.target.bootstrap, '--topic', topic, '--group', groupId,
      '--command-property', 'session.timeout.ms=6000', '--command-property', 'heartbeat.interval.ms=500']);
  const running: ChildProcess[] = [];
  const steps: Record<string, unknown> = {};
  const settle = async (step: string, sizes: number[]): Promise<void> => {
    const seen = await eventually(`${step}: sizes ${JSON.stringify(sizes)}`, async () => {
      const now = await members(context, groupId);
      return JSON.stringify(now.sizes) === JSON.stringify(sizes) ? now : undefined;
    }, 90_000);
    steps[step] = seen;
  };
  const stop = (child: ChildProcess, signal: NodeJS.Signals): Promise<void> =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill(signal);
    });
  try {
    running.push(consumer());
    await settle('one', [6]);
    running.push(consumer());
    await settle('two', [3, 3]);
    const third = consumer();
    running.push(third);
    await settle('three', [2, 2, 2]);
    await stop(third, 'SIGTERM'); // the tool's shutdown hook closes the consumer: a clean LeaveGroup
    await settle('after-leave', [3, 3]);
    const crasher = consumer();
    running.push(crasher);
    await settle('rejoin', [2, 2, 2]);
    await stop(crasher, 'SIGKILL'); // a crash: the coordinator notices when the session times out
    await settle('after-crash', [3, 3]);
    context.observe('steps', steps);
    return pass;
  } finally {
    await Promise.all(running.map((child) => stop(child, 'SIGKILL')));
  }
}

export async function commitResume(context: ScenarioContext): Promise<Outcome> {
  const topic = context.name('topic');
  await topics(context, '--create', '--topic', topic, '--partitions', '1');
  await consoleProduce(context, topic, numberedLines(0, 10));
  const first = await consoleConsume(context, topic, 5, ['--from-beginning', ...group(context)]);
  assert.deepEqual(first, numberedLines(0, 5).map((v, i) => `0:${i}:${v}`));
  const committed = await groupOffsets(context.target.bootstrap, context.name('group'), topic);
  assert.deepEqual(committed, ['0:5']);
  const resumed = await consoleConsume(context, topic, 5, group(context));
  assert.deepEqual(resumed, numberedLines(5, 5).map((v, i) => `0:${i + 5}:${v}`));
  context.observe('committed', committed);
  context.observe('resumed', resumed);
  return pass;
}

export async function offsetReset(context: ScenarioContext): Promise<Outcome> {
  const topic = context.name('topic');
  const groupId = context.name('group');
  await topics(context, '--create', '--topic', topic, '--partitions', '1');
  await consoleProduce(context, topic, numberedLines(0, 10));
  await consoleConsume(context, topic, 10, ['--from-beginning', ...group(context)]);
  assert.deepEqual(await groupOffsets(context.target.bootstrap, groupId, topic), ['0:10']);
  const table = await resetGroupOffsets(context.target.bootstrap, groupId, topic, ['--to-offset', '3']);
  assert.deepEqual(table, ['0:3']);
  assert.deepEqual(await groupOffsets(context.target.bootstrap, groupId, topic), ['0:3']);
  const resumed = await consoleConsume(context, topic, 7, group(context));
  assert.deepEqual(resumed, numberedLines(3, 7).map((v, i) => `0:${i + 3}:${v}`));
  const earliest = await resetGroupOffsets(context.target.bootstrap, groupId, topic, ['--to-earliest']);
  const shifted = await resetGroupOffsets(context.target.bootstrap, groupId, topic, ['--shift-by', '4']);
  context.observe('tool', { toOffset: table, toEarliest: earliest, shiftBy4: shifted });
  return pass;
}

export async function twoGroups(context: ScenarioContext): Promise<Outcome> {
  const topic = context.name('topic');
  await topics(context, '--create', '--topic', topic, '--partitions', '2');
  await consoleProduce(context, topic, Array.from({ length: 10 }, (_, i) => `key-${i}\tm${i}`));
  const first = (await consoleConsume(context, topic, 10, ['--from-beginning', ...group(context, 'first')])).sort();
  const second = (await consoleConsume(context, topic, 10, ['--from-beginning', ...group(context, 'second')])).sort();
  assert.deepEqual(first, second);
  assert.deepEqual(first.map((line) => line.split(':')[2]).sort(), numberedLines(0, 10).sort());
  context.observe('placement', first);
  return pass;
}

export async function seekReplay(context: ScenarioContext): Promise<Outcome> {
  const topic = context.name('topic');
  await topics(context, '--create', '--topic', topic, '--partitions', '1');
  await consoleProduce(context, topic, numberedLines(0, 10));
  const all = await consoleConsume(context, topic, 10, ['--partition', '0', '--offset', 'earliest']);
  const replay = await consoleConsume(context, topic, 7, ['--partition', '0', '--offset', '3']);
  assert.deepEqual(all, numberedLines(0, 10).map((v, i) => `0:${i}:${v}`));
  assert.deepEqual(replay, all.slice(3));
  context.observe('replay', replay);
  return pass;
}

export async function offsetsForTimes(context: ScenarioContext): Promise<Outcome> {
  const topic = context.name('topic');
  await topics(context, '--create', '--topic', topic, '--partitions', '1');
  await consoleProduce(context, topic, numberedLines(0, 5));
  const at = async (time: string): Promise<string> =>
    (await tool('kafka-get-offsets', ['--bootstrap-server', context.target.bootstrap, '--topic', topic, '--time', time])).trim().replace(`${topic}:`, '');
  // The console producer stamps records with the time it sends them: ask for times around every record.
  const answers = {
    earliest: await at('earliest'),
    latest: await at('latest'),
    farPast: await at('1000'),
    farFuture: await at(String(Date.now() + 24 * 3600_000)),
  };
  // (max-timestamp is left out: the producer may stamp several records in the same millisecond.)
  assert.deepEqual(answers, { earliest: '0:0', latest: '0:5', farPast: '0:0', farFuture: '' });
  context.observe('offsets', answers);
  return pass;
}

export async function idempotentProducer(context: ScenarioContext): Promise<Outcome> {
  const topic = context.name('topic');
  await topics(context, '--create', '--topic', topic, '--partitions', '1');
  await consoleProduce(context, topic, numberedLines(0, 9), ['--command-property', 'enable.idempotence=true']);
  const read = await consoleConsume(context, topic, 9, ['--from-beginning', ...group(context)]);
  assert.deepEqual(read, numberedLines(0, 9).map((v, i) => `0:${i}:${v}`));
  return pass;
}

export async function transactions(context: ScenarioContext): Promise<Outcome> {
  const topic = context.name('topic');
  const transactionalId = context.name('txn');
  await topics(context, '--create', '--topic', topic, '--partitions', '1');
  // kafka-producer-perf-test is the stock tool that writes in transactions (committed every 100 ms).
  await tool('kafka-producer-perf-test', ['--bootstrap-server', context.target.bootstrap, '--topic', topic, '--num-records', '20',
    '--record-size', '10', '--throughput', '-1', '--transactional-id', transactionalId, '--transaction-duration-ms', '100']);
  const committed = await consoleConsume(context, topic, 20, ['--from-beginning', '--isolation-level', 'read_committed', ...group(context)]);
  assert.equal(committed.length, 20);
  const listed = await tool('kafka-transactions', ['--bootstrap-server', context.target.bootstrap, 'describe', '--transactional-id', transactionalId]);
  // Columns: CoordinatorId TransactionalId ProducerId ProducerEpoch TransactionState ...
  const row = listed.split('\n').map((line) => line.trim().split(/\s+/)).find((fields) => fields.includes(transactionalId));
  const state = row?.find((field) => /^(Empty|Ongoing|PrepareCommit|PrepareAbort|CompleteCommit|CompleteAbort|Dead|PrepareEpochFence)$/.test(field));
  assert.equal(state, 'CompleteCommit', listed);
  context.observe('state', state);
  return pass;
}

export async function brokerRestart(context: ScenarioContext): Promise<Outcome> {
  const topic = context.name('topic');
  await topics(context, '--create', '--topic', topic, '--partitions', '1');
  await consoleProduce(context, topic, numberedLines(0, 5));
  await consoleConsume(context, topic, 5, ['--from-beginning', ...group(context)]);
  await context.target.restart();
  // The coordinator answers COORDINATOR_LOAD_IN_PROGRESS until it has loaded its offsets again.
  const committed = await eventually('the committed offset', async () => {
    const found = await groupOffsets(context.target.bootstrap, context.name('group'), topic);
    return found.length > 0 ? found : undefined;
  });
  assert.deepEqual(committed, ['0:5']);
  await consoleProduce(context, topic, numberedLines(5, 5));
  const resumed = await consoleConsume(context, topic, 5, group(context));
  assert.deepEqual(resumed, numberedLines(5, 5).map((v, i) => `0:${i + 5}:${v}`));
  const all = await consoleConsume(context, topic, 10, ['--partition', '0', '--offset', 'earliest']);
  assert.equal(all.length, 10);
  context.observe('resumed', resumed);
  return pass;
}
