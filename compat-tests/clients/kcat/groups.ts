// kcat scenarios beyond metadata and produce-consume: the balanced consumer (-G) in a group, seeking with -o,
// offsets for timestamps with -Q, librdkafka's idempotent producer, and the errors kcat can meet.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { groupOffsets, resetGroupOffsets, tool } from '../../lib/tools.js';
import { describeFailure, runCommand } from '../../lib/command.js';
import { eventually } from '../../runner/eventually.js';
import { pass, type Outcome, type ScenarioContext } from '../../runner/types.js';

// message.timeout.ms: a broker that never answers makes kcat fail with librdkafka's own reason, not hang.
const COMMON = ['-X', 'message.timeout.ms=30000'];

export async function kcatRun(args: string[], input?: string): Promise<string> {
  const result = await runCommand('kcat', [...COMMON, ...args], { timeoutMs: 120_000, ...(input === undefined ? {} : { input }) });
  if (result.code !== 0) throw new Error(describeFailure(`kcat ${args.join(' ')}`, result));
  return result.stdout;
}

async function kcatFails(args: string[], input?: string): Promise<string> {
  const result = await runCommand('kcat', [...COMMON, ...args], { timeoutMs: 120_000, ...(input === undefined ? {} : { input }) });
  const errors = `${result.stderr}\n${result.stdout}`;
  const reason = /(Broker: [^\n(]+|Local: [^\n(]+)/.exec(errors)?.[1]?.trim();
  if (reason === undefined) throw new Error(`kcat ${args.join(' ')} reported no Kafka error: ${errors.trim().slice(0, 300)}`);
  return reason;
}

const numbered = (from: number, count: number): string[] => Array.from({ length: count }, (_, i) => `m${from + i}`);
const lines = (output: string): string[] => output.split('\n').filter((line) => line !== '');

/** Creates a one-partition topic by producing to it (kcat has no admin commands; Kafka auto-creates it). */
async function produceLines(bootstrap: string, topic: string, values: string[], extra: string[] = []): Promise<void> {
  await kcatRun(['-P', '-b', bootstrap, '-t', topic, '-p', '0', ...extra], values.map((v) => `${v}\n`).join(''));
}

/** The balanced consumer: reads `count` records in the group, prints "partition:offset:value", commits on exit. */
async function groupRead(bootstrap: string, group: string, topic: string, count: number): Promise<string[]> {
  return lines(await kcatRun(['-b', bootstrap, '-G', group, '-X', 'auto.offset.reset=earliest', '-c', String(count),
    '-f', '%p:%o:%s\\n', '-q', topic]));
}

export async function commitResume(context: ScenarioContext): Promise<Outcome> {
  const topic = context.name('topic');
  const group = context.name('group');
  await produceLines(context.target.bootstrap, topic, numbered(0, 10));
  assert.deepEqual(await groupRead(context.target.bootstrap, group, topic, 5), numbered(0, 5).map((v, i) => `0:${i}:${v}`));
  const committed = await groupOffsets(context.target.bootstrap, group, topic);
  assert.deepEqual(committed, ['0:5']);
  const resumed = await groupRead(context.target.bootstrap, group, topic, 5);
  assert.deepEqual(resumed, numbered(5, 5).map((v, i) => `0:${i + 5}:${v}`));
  context.observe('committed', committed);
  context.observe('resumed', resumed);
  return pass;
}

export async function offsetReset(context: ScenarioContext): Promise<Outcome> {
  const topic = context.name('topic');
  const group = context.name('group');
  await produceLines(context.target.bootstrap, topic, numbered(0, 10));
  await groupRead(context.target.bootstrap, group, topic, 10);
  assert.deepEqual(await groupOffsets(context.target.bootstrap, group, topic), ['0:10']);
  const table = await resetGroupOffsets(context.target.bootstrap, group, topic, ['--to-offset', '3']);
  assert.deepEqual(table, ['0:3']);
  const resumed = await groupRead(context.target.bootstrap, group, topic, 7);
  assert.deepEqual(resumed, numbered(3, 7).map((v, i) => `0:${i + 3}:${v}`));
  context.observe('tool', { toOffset: table });
  return pass;
}

export async function twoGroups(context: ScenarioContext): Promise<Outcome> {
  const topic = context.name('topic');
  await produceLines(context.target.bootstrap, topic, numbered(0, 10));
  const first = await groupRead(context.target.bootstrap, context.name('first'), topic, 10);
  const second = await groupRead(context.target.bootstrap, context.name('second'), topic, 10);
  assert.deepEqual(first, numbered(0, 10).map((v, i) => `0:${i}:${v}`));
  assert.deepEqual(second, first);
  return pass;
}

export async function seekReplay(context: ScenarioContext): Promise<Outcome> {
  const topic = context.name('topic');
  const bootstrap = context.target.bootstrap;
  await produceLines(bootstrap, topic, numbered(0, 10));
  const read = async (from: string): Promise<string[]> =>
    lines(await kcatRun(['-C', '-b', bootstrap, '-t', topic, '-p', '0', '-o', from, '-e', '-f', '%p:%o:%s\\n', '-q']));
  const all = await read('beginning');
  const replay = await read('3');
  assert.deepEqual(all, numbered(0, 10).map((v, i) => `0:${i}:${v}`));
  assert.deepEqual(replay, all.slice(3));
  const lastTwo = await read('-2'); // relative to the end
  assert.deepEqual(lastTwo, all.slice(8));
  context.observe('replay', replay);
  return pass;
}

export async function offsetsForTimes(context: ScenarioContext): Promise<Outcome> {
  const topic = context.name('topic');
  const bootstrap = context.target.bootstrap;
  await produceLines(bootstrap, topic, numbered(0, 5));
  // kcat stamps records with the time it sends them: ask for a time before all of them and one after.
  const query = async (timestamp: number): Promise<string> =>
    (await kcatRun(['-Q', '-b', bootstrap, '-t', `${topic}:0:${timestamp}`])).trim().replace(topic, '<topic>');
  const answers = { farPast: await query(1000), farFuture: await query(Date.now() + 24 * 3600_000) };
  assert.deepEqual(answers, { farPast: '<topic> [0] offset 0', farFuture: '<topic> [0] offset -1' });
  context.observe('offsets', answers);
  return pass;
}

export async function idempotentProducer(context: ScenarioContext): Promise<Outcome> {
  const topic = context.name('topic');
  const bootstrap = context.target.bootstrap;
  await produceLines(bootstrap, topic, numbered(0, 9), ['-X', 'enable.idempotence=true']);
  const read = lines(await kcatRun(['-C', '-b', bootstrap, '-t', topic, '-o', 'beginning', '-e', '-f', '%o:%s\\n', '-q']));
  assert.deepEqual(read, numbered(0, 9).map((v, i) => `${i}:${v}`));
  return pass;
}

export async function brokerRestart(context: ScenarioContext): Promise<Outcome> {
  const topic = context.name('topic');
  const group = context.name('group');
  const bootstrap = context.target.bootstrap;
  await produceLines(bootstrap, topic, numbered(0, 5));
  await groupRead(bootstrap, group, topic, 5);
  await context.target.restart();
  // The coordinator answers COORDINATOR_LOAD_IN_PROGRESS until it has loaded its offsets again.
  const committed = await eventually('the committed offset', async () => {
    const found = await groupOffsets(bootstrap, group, topic);
    return found.length > 0 ? found : undefined;
  });
  assert.deepEqual(committed, ['0:5']);
  await produceLines(bootstrap, topic, numbered(5, 5));
  const resumed = await groupRead(bootstrap, group, topic, 5);
  assert.deepEqual(resumed, numbered(5, 5).map((v, i) => `0:${i + 5}:${v}`));
  context.observe('resumed', resumed);
  return pass;
}

/** kafka-consumer-groups --describe --members: each member's partition count, sorted. */
async function memberSizes(bootstrap: string, group: string): Promise<number[]> {
  const output = await tool('kafka-consumer-groups', ['--bootstrap-server', bootstrap, '--describe', '--group', group, '--members']);
  return output.split('\n').map((line) => line.trim().split(/\s+/)).filter((fields) => fields[0] === group)
    .map((fields) => Number(fields[fields.length - 1])).sort();
}

export async function groupRebalance(context: ScenarioContext): Promise<Outcome> {
  const topic = context.name('topic');
  const group = context.name('group');
  const bootstrap = context.target.bootstrap;
  // Six partitions need an admin client: Kafka's own tool creates the topic.
  await tool('kafka-topics', ['--bootstrap-server', bootstrap, '--create', '--topic', topic, '--partitions', '6']);
  const member = (): ChildProcess =>
    spawn('kcat', ['-b', bootstrap, '-G', group, '-X', 'session.timeout.ms=6000', '-X', 'heartbeat.interval.ms=500', '-q', topic],
      { stdio: ['ignore', 'ignore', 'ignore'] });
  const running: ChildProcess[] = [];
  const steps: Record<string, number[]> = {};
  const settle = async (step: string, sizes: number[]): Promise<void> => {
    steps[step] = await eventually(`${step}: sizes ${JSON.stringify(sizes)}`, async () => {
      const now = await memberSizes(bootstrap, group);
      return JSON.stringify(now) === JSON.stringify(sizes) ? now : undefined;
    }, 90_000);
  };
  const stop = (child: ChildProcess, signal: NodeJS.Signals): Promise<void> =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill(signal);
    });
  try {
    running.push(member());
    await settle('one', [6]);
    running.push(member());
    await settle('two', [3, 3]);
    const third = member();
    running.push(third);
    await settle('three', [2, 2, 2]);
    await stop(third, 'SIGTERM'); // kcat closes its consumer on SIGTERM: a clean LeaveGroup
    await settle('after-leave', [3, 3]);
    const crasher = member();
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

export async function errorMessageTooLarge(context: ScenarioContext): Promise<Outcome> {
  const topic = context.name('topic');
  const bootstrap = context.target.bootstrap;
  await produceLines(bootstrap, topic, ['small']);
  // message.max.bytes raised so the broker, not librdkafka, judges the size (over the default 1048588).
  const reason = await kcatFails(['-P', '-b', bootstrap, '-t', topic, '-p', '0', '-X', 'message.max.bytes=4000000', '-X', 'retries=0'],
    `${'x'.repeat(1_100_000)}\n`);
  context.observe('over-broker-default', reason);
  return pass;
}

export async function errorInvalidTopic(context: ScenarioContext): Promise<Outcome> {
  const reason = await kcatFails(['-P', '-b', context.target.bootstrap, '-t', 'bad name!'], 'x\n');
  context.observe('produce', reason);
  return pass;
}

/**
 * newest-versions without a transaction (kcat cannot write one): an idempotent producer, the balanced consumer
 * committing on exit, and a read_committed reader, for the runner to read the versions librdkafka negotiates.
 */
export async function newestVersionsWork(bootstrap: string, context: ScenarioContext): Promise<Outcome> {
  const topic = context.name('topic');
  await produceLines(bootstrap, topic, numbered(0, 3), ['-X', 'enable.idempotence=true']);
  const read = await groupRead(bootstrap, context.name('group'), topic, 3);
  assert.deepEqual(read, numbered(0, 3).map((v, i) => `0:${i}:${v}`));
  const committed = lines(await kcatRun(['-C', '-b', bootstrap, '-t', topic, '-o', 'beginning', '-e', '-q', '-X', 'isolation.level=read_committed', '-f', '%o\\n']));
  assert.deepEqual(committed, ['0', '1', '2']);
  context.observe('read', read);
  return pass;
}
