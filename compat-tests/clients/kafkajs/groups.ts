// kafkajs consumer-group scenarios: rebalancing, commit and resume, offset reset with the stock tool, two groups,
// and a broker restart in the middle.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Consumer } from 'kafkajs';
import { resetGroupOffsets } from '../../lib/tools.js';
import { eventually } from '../../runner/eventually.js';
import { pass, type Outcome, type ScenarioContext } from '../../runner/types.js';
import { consumeUntil, createTopic, kafkaFor, numbered, positions, produce, withAdmin } from './common.js';

// The broker's group.min.session.timeout.ms: a crashed member is noticed after this long.
const SESSION_TIMEOUT_MS = 6000;

interface Member {
  assignment: number[];
  stop(): Promise<void>;
}

async function inProcessMember(context: ScenarioContext, groupId: string, topic: string): Promise<Member & { consumer: Consumer }> {
  const consumer = kafkaFor(context).consumer({ groupId, sessionTimeout: SESSION_TIMEOUT_MS, heartbeatInterval: 500, maxWaitTimeInMs: 500 });
  const member = { consumer, assignment: [] as number[], stop: () => consumer.disconnect() };
  consumer.on(consumer.events.GROUP_JOIN, (event) => {
    const payload = event.payload as { memberAssignment: Record<string, number[]> };
    member.assignment = Object.values(payload.memberAssignment).flat().sort((a, b) => a - b);
  });
  await consumer.connect();
  await consumer.subscribe({ topics: [topic], fromBeginning: true });
  await consumer.run({ eachMessage: async () => {} });
  return member;
}

function childMember(context: ScenarioContext, groupId: string, topic: string): Member & { kill(): void } {
  const script = fileURLToPath(new URL('./member.js', import.meta.url));
  const child = spawn(process.execPath, [script, context.target.bootstrap, groupId, topic, String(SESSION_TIMEOUT_MS)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const member = {
    assignment: [] as number[],
    stop: async () => {
      child.kill('SIGKILL');
    },
    kill: () => child.kill('SIGKILL'),
  };
  let pending = '';
  child.stdout.on('data', (chunk: Buffer) => {
    pending += chunk.toString();
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      if (line.startsWith('assigned ')) member.assignment = (JSON.parse(line.slice(9)) as number[]).sort((a, b) => a - b);
    }
  });
  return member;
}

export async function groupRebalance(context: ScenarioContext): Promise<Outcome> {
  const topic = context.name('topic');
  const groupId = context.name('group');
  await createTopic(context, topic, 6);
  const members: Member[] = [];
  const observed: Record<string, unknown> = {};
  return withAdmin(context, async (admin) => {
    // Waits until the live members split the six partitions as `sizes` and the group is Stable with them.
    const settle = async (step: string, live: Member[], sizes: number[]): Promise<void> => {
      await eventually(`${step}: assignments ${JSON.stringify(sizes)}`, async () => {
        const all = live.flatMap((m) => m.assignment).sort((a, b) => a - b);
        const have = live.map((m) => m.assignment.length).sort();
        if (JSON.stringify(all) !== JSON.stringify([0, 1, 2, 3, 4, 5]) || JSON.stringify(have) !== JSON.stringify(sizes)) return undefined;
        const { groups } = await admin.describeGroups([groupId]);
        const group = groups[0];
        if (group?.state !== 'Stable' || group.members.length !== live.length) return undefined;
        return true;
      }, 60_000);
      const { groups } = await admin.describeGroups([groupId]);
      observed[step] = { sizes, state: groups[0]?.state, protocol: groups[0]?.protocol, members: groups[0]?.members.length };
    };
    try {
      const a = await inProcessMember(context, groupId, topic);
      members.push(a);
      await settle('one', [a], [6]);
      const b = await inProcessMember(context, groupId, topic);
      members.push(b);
      await settle('two', [a, b], [3, 3]);
      const c = await inProcessMember(context, groupId, topic);
      members.push(c);
      await settle('three', [a, b, c], [2, 2, 2]);
      await c.stop(); // a clean leave
      await settle('after-leave', [a, b], [3, 3]);
      const d = childMember(context, groupId, topic);
      members.push(d);
      await settle('rejoin', [a, b, d], [2, 2, 2]);
      d.kill(); // a crash: the coordinator notices when the session times out
      await settle('after-crash', [a, b], [3, 3]);
      context.observe('steps', observed);
      return pass;
    } finally {
      for (const member of members) await member.stop().catch(() => undefined);
    }
  });
}

async function committedOffset(context: ScenarioContext, groupId: string, topic: string): Promise<string | undefined> {
  return withAdmin(context, async (admin) => {
    const [fetched] = await admin.fetchOffsets({ groupId, topics: [topic] });
    return fetched?.partitions.find((p) => p.partition === 0)?.offset;
  });
}

export async function commitResume(context: ScenarioContext): Promise<Outcome> {
  const topic = context.name('topic');
  const groupId = context.name('group');
  await createTopic(context, topic, 1);
  await produce(context, topic, numbered(10));
  context.observe('committed-before', await committedOffset(context, groupId, topic));
  // Read five, committing "next is 5" after the fifth, then leave.
  await consumeUntil(context, { groupId }, topic, (r) => r.length >= 5, {
    autoCommit: false,
    onMessage: async (consumer, message) => {
      if (message.offset === 4) await consumer.commitOffsets([{ topic, partition: 0, offset: '5' }]);
    },
  });
  const committed = await committedOffset(context, groupId, topic);
  assert.equal(committed, '5');
  const resumed = await consumeUntil(context, { groupId }, topic, (r) => r.some((m) => m.offset === 9));
  assert.deepEqual(resumed.map((r) => r.value), ['m5', 'm6', 'm7', 'm8', 'm9']);
  context.observe('committed', committed);
  context.observe('resumed', positions(resumed));
  context.observe('committed-after', await committedOffset(context, groupId, topic));
  return pass;
}

export async function offsetReset(context: ScenarioContext): Promise<Outcome> {
  const topic = context.name('topic');
  const groupId = context.name('group');
  await createTopic(context, topic, 1);
  await produce(context, topic, numbered(10));
  await consumeUntil(context, { groupId }, topic, (r) => r.length >= 10);
  await eventually('offset 10 committed', async () => ((await committedOffset(context, groupId, topic)) === '10' ? true : undefined));
  // The group is empty now: Kafka's tool moves its offset back to 3.
  const table = await resetGroupOffsets(context.target.bootstrap, groupId, topic, ['--to-offset', '3']);
  assert.deepEqual(table, ['0:3']);
  assert.equal(await committedOffset(context, groupId, topic), '3');
  const resumed = await consumeUntil(context, { groupId }, topic, (r) => r.some((m) => m.offset === 9));
  assert.deepEqual(resumed.map((r) => r.offset), [3, 4, 5, 6, 7, 8, 9]);
  const earliest = await resetGroupOffsets(context.target.bootstrap, groupId, topic, ['--to-earliest']);
  context.observe('tool', { toOffset: table, toEarliest: earliest });
  context.observe('resumed', positions(resumed));
  return pass;
}

export async function twoGroups(context: ScenarioContext): Promise<Outcome> {
  const topic = context.name('topic');
  await createTopic(context, topic, 2);
  await produce(context, topic, Array.from({ length: 10 }, (_, i) => ({ key: `key-${i}`, value: `m${i}` })));
  const sorted = (received: { partition: number; offset: number; value: string | null }[]): string[] =>
    received.map((r) => `${r.partition}:${r.offset}:${r.value}`).sort();
  const first = await consumeUntil(context, { groupId: context.name('first') }, topic, (r) => r.length >= 10);
  const second = await consumeUntil(context, { groupId: context.name('second') }, topic, (r) => r.length >= 10);
  assert.deepEqual(sorted(first), sorted(second));
  assert.deepEqual(first.map((r) => r.value).sort(), numbered(10).map((m) => m.value).sort());
  context.observe('placement', sorted(first));
  return pass;
}

export async function brokerRestart(context: ScenarioContext): Promise<Outcome> {
  const topic = context.name('topic');
  const groupId = context.name('group');
  await createTopic(context, topic, 1);
  await produce(context, topic, numbered(5));
  await consumeUntil(context, { groupId }, topic, (r) => r.length >= 5, {
    autoCommit: false,
    onMessage: async (consumer, message) => {
      if (message.offset === 4) await consumer.commitOffsets([{ topic, partition: 0, offset: '5' }]);
    },
  });
  await context.target.restart();
  // Data and the committed offset survived: the group resumes at 5, and everything reads back from 0. The
  // coordinator answers NOT_COORDINATOR until it has loaded its offsets again.
  const committed = await eventually('the coordinator to load its offsets', () => committedOffset(context, groupId, topic));
  assert.equal(committed, '5');
  await produce(context, topic, numbered(5, 5));
  const resumed = await consumeUntil(context, { groupId }, topic, (r) => r.some((m) => m.offset === 9));
  assert.deepEqual(resumed.map((r) => r.value), ['m5', 'm6', 'm7', 'm8', 'm9']);
  const everything = await consumeUntil(context, { groupId: context.name('all') }, topic, (r) => r.length >= 10);
  assert.deepEqual(everything.map((r) => r.value), numbered(10).map((m) => m.value));
  context.observe('resumed', positions(resumed));
  return pass;
}
