// Deterministic assignor cases (a group evolving run by run: members joining one by one and leaving, topics and
// partitions added, subscriptions changing) in the line format test/e2e/java/ConsumerGroupAssignors.java reads, and
// the same cases run through gregor's assignors, printed in that program's output format.
import type { ConsumerGroupAssignor, GroupSpec, SubscribedTopicDescriber, TopicPartitions } from '../../src/coordinator/group/consumer/assignor.js';
import { PartitionAssignorError } from '../../src/coordinator/group/consumer/assignor.js';
import { rangeAssignor } from '../../src/coordinator/group/consumer/range-assignor.js';
import { uniformAssignor } from '../../src/coordinator/group/consumer/uniform-assignor.js';
import { seededRng } from '../protocol/codec-random.js';

export interface CaseMember {
  readonly id: string;
  readonly instanceId: string | null;
  readonly topics: readonly string[];
}
export interface CaseRun {
  readonly topics: ReadonlyMap<string, number>;
  readonly members: readonly CaseMember[];
}
export interface AssignorCase {
  readonly name: string;
  readonly assignor: 'uniform' | 'range';
  readonly runs: readonly CaseRun[];
}

/** A Uuid text (16 random bytes in base64url) that does not start with '-', as Kafka's. */
function uuidFrom(next: () => number): string {
  for (;;) {
    const bytes = Buffer.alloc(16);
    for (let i = 0; i < 16; i++) bytes[i] = Math.floor(next() * 256);
    const text = bytes.toString('base64url');
    if (!text.startsWith('-')) return text;
  }
}

/** A case built step by step: each snapshot() records the current topics and members as one run. */
class Scenario {
  readonly runs: CaseRun[] = [];
  readonly topics = new Map<string, number>();
  members: CaseMember[] = [];
  constructor(readonly next: () => number) {}
  topic(partitions: number): string {
    const id = uuidFrom(this.next);
    this.topics.set(id, partitions);
    return id;
  }
  join(topics: readonly string[], instanceId: string | null = null): string {
    const id = uuidFrom(this.next);
    this.members.push({ id, instanceId, topics: [...topics] });
    return id;
  }
  leave(id: string): void {
    this.members = this.members.filter((m) => m.id !== id);
  }
  resubscribe(id: string, topics: readonly string[]): void {
    this.members = this.members.map((m) => (m.id === id ? { ...m, topics: [...topics] } : m));
  }
  snapshot(): void {
    this.runs.push({ topics: new Map(this.topics), members: [...this.members] });
  }
}

function pick<T>(next: () => number, items: readonly T[]): T {
  return items[Math.floor(next() * items.length)]!;
}

function subset(next: () => number, items: readonly string[]): string[] {
  const chosen = items.filter(() => next() < 0.5);
  return chosen.length > 0 ? chosen : [pick(next, items)];
}

/** Scripted cases for the named situations, then seeded random evolutions. */
export function assignorCases(randomCount = 120): AssignorCase[] {
  const cases: AssignorCase[] = [];
  for (const assignor of ['uniform', 'range'] as const) {
    // Homogeneous: joins one by one past the partition count, leaves, a new topic, more partitions, a 0-partition topic.
    {
      const s = new Scenario(seededRng(assignor === 'uniform' ? 1 : 2));
      const topics = [s.topic(8), s.topic(5), s.topic(0)];
      const ids: string[] = [];
      for (let i = 0; i < 16; i++) {
        ids.push(s.join(topics));
        s.snapshot();
      }
      for (const id of [ids[3]!, ids[0]!, ids[9]!, ids[15]!]) {
        s.leave(id);
        s.snapshot();
      }
      for (let i = 0; i < 9; i++) s.leave(ids[i + 1]!);
      s.snapshot();
      topics.push(s.topic(13));
      for (const m of s.members) s.resubscribe(m.id, topics);
      s.snapshot();
      s.topics.set(topics[1]!, 40);
      s.snapshot();
      cases.push({ name: `${assignor}-homogeneous-joins`, assignor, runs: s.runs });
    }
    // Heterogeneous: varied subscriptions, static members, changes of subscription, leaves, partitions added.
    {
      const s = new Scenario(seededRng(assignor === 'uniform' ? 3 : 4));
      const [a, b, c, d] = [s.topic(6), s.topic(21), s.topic(3), s.topic(40)];
      const ids = [s.join([a!, b!]), s.join([b!], 'static-b'), s.join([a!, c!, d!]), s.join([d!], 'static-a')];
      s.snapshot();
      ids.push(s.join([a!, b!, c!, d!]));
      s.snapshot();
      ids.push(s.join([c!]));
      s.snapshot();
      s.resubscribe(ids[0]!, [d!]);
      s.snapshot();
      s.leave(ids[2]!);
      s.snapshot();
      s.topics.set(c!, 17);
      s.snapshot();
      s.resubscribe(ids[1]!, []);
      s.snapshot();
      cases.push({ name: `${assignor}-heterogeneous`, assignor, runs: s.runs });
    }
    // Unknown topic: the error, then the group recovers when the topic exists.
    {
      const s = new Scenario(seededRng(assignor === 'uniform' ? 5 : 6));
      const known = s.topic(4);
      const unknown = uuidFrom(s.next);
      s.join([known]);
      s.join([known, unknown]);
      s.snapshot();
      s.topics.set(unknown, 2);
      s.snapshot();
      cases.push({ name: `${assignor}-unknown-topic`, assignor, runs: s.runs });
    }
    // 100 members on 1000 partitions (10 topics), homogeneous then heterogeneous.
    {
      const s = new Scenario(seededRng(assignor === 'uniform' ? 7 : 8));
      const topics = Array.from({ length: 10 }, () => s.topic(100));
      for (let batch = 0; batch < 4; batch++) {
        for (let i = 0; i < 25; i++) s.join(topics);
        s.snapshot();
      }
      for (const m of s.members.slice(0, 40)) s.resubscribe(m.id, subset(s.next, topics));
      s.snapshot();
      for (const m of s.members.slice(50, 70)) s.leave(m.id);
      s.snapshot();
      cases.push({ name: `${assignor}-large`, assignor, runs: s.runs });
    }
  }
  for (let seed = 0; seed < randomCount; seed++) {
    const next = seededRng(1000 + seed);
    const assignor = seed % 3 === 2 ? 'range' : 'uniform';
    const s = new Scenario(next);
    // One case in four has large topics: partition sets beyond their Java table's size, crowded buckets.
    const sizes = seed % 4 === 3 ? [50, 128, 200, 333] : [0, 1, 3, 7, 16, 17, 31, 33, 64, 70];
    const topics = Array.from({ length: 1 + Math.floor(next() * 6) }, () => s.topic(pick(next, sizes)));
    const homogeneous = next() < 0.5;
    for (let step = 0; step < (seed % 4 === 3 ? 24 : 10); step++) {
      const roll = next();
      if (roll < 0.45 || s.members.length === 0) {
        s.join(homogeneous ? topics : subset(next, topics), next() < 0.3 ? `i${Math.floor(next() * 100)}-${step}` : null);
      } else if (roll < 0.65) {
        s.leave(pick(next, s.members).id);
      } else if (roll < 0.75) {
        topics.push(s.topic(pick(next, [2, 9, 20])));
        if (homogeneous) for (const m of s.members) s.resubscribe(m.id, topics);
      } else if (roll < 0.85) {
        const t = pick(next, topics);
        s.topics.set(t, s.topics.get(t)! + 1 + Math.floor(next() * 12));
      } else if (!homogeneous) {
        s.resubscribe(pick(next, s.members).id, subset(next, topics));
      }
      s.snapshot();
    }
    cases.push({ name: `random-${seed}-${assignor}`, assignor, runs: s.runs });
  }
  return cases;
}

/** The cases as the Java program's input. */
export function casesScript(cases: readonly AssignorCase[]): string {
  const lines: string[] = [];
  for (const c of cases) {
    lines.push(`case ${c.name} ${c.assignor}`);
    for (const run of c.runs) {
      for (const [id, partitions] of run.topics) lines.push(`topic ${id} ${partitions}`);
      for (const m of run.members) lines.push(`member ${m.id} ${m.instanceId ?? '-'} ${m.topics.length > 0 ? m.topics.join(',') : '-'}`);
      lines.push('run');
    }
  }
  return lines.join('\n') + '\n';
}

export const assignorsByName: Readonly<Record<AssignorCase['assignor'], ConsumerGroupAssignor>> = { uniform: uniformAssignor, range: rangeAssignor };

/** A GroupSpec over plain data: members in order, their current assignments as given. */
export function groupSpec(members: readonly CaseMember[], current: ReadonlyMap<string, TopicPartitions>): GroupSpec {
  const byId = new Map(members.map((m) => [m.id, m]));
  const owned = new Set<string>();
  for (const m of members) for (const [topicId, partitions] of current.get(m.id) ?? []) for (const p of partitions) owned.add(`${topicId}:${p}`);
  const keys = new Set(members.map((m) => [...m.topics].sort().join(',')));
  return {
    memberIds: members.map((m) => m.id),
    subscriptionType: keys.size <= 1 ? 'homogeneous' : 'heterogeneous',
    memberSubscription: (id) => ({ rackId: null, instanceId: byId.get(id)!.instanceId, subscribedTopicIds: new Set(byId.get(id)!.topics) }),
    memberAssignment: (id) => current.get(id) ?? new Map(),
    isPartitionAssigned: (topicId, partition) => owned.has(`${topicId}:${partition}`),
  };
}

export function describer(topics: ReadonlyMap<string, number>): SubscribedTopicDescriber {
  return { numPartitions: (id) => topics.get(id) ?? -1, racksForPartition: () => new Set() };
}

/** gregor's results for the cases, in the Java program's output format. */
export function runCases(cases: readonly AssignorCase[]): string[] {
  const out: string[] = [];
  for (const c of cases) {
    let current = new Map<string, TopicPartitions>();
    c.runs.forEach((run, index) => {
      out.push(`run ${c.name} ${index}`);
      try {
        const result = assignorsByName[c.assignor].assign(groupSpec(run.members, current), describer(run.topics));
        for (const id of [...result.keys()].sort()) {
          const listed = [...result.get(id)!].map(([topicId, partitions]) => `${topicId}:${[...partitions].join(',')};`).join('');
          out.push(`member ${id} ${listed}`);
        }
        current = new Map(result);
      } catch (error) {
        if (!(error instanceof PartitionAssignorError)) throw error;
        out.push(`error ${error.message}`);
      }
    });
  }
  return out;
}
