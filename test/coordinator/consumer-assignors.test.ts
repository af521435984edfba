// The KIP-848 server-side assignors' main rules (balance, stickiness, co-partitioning, errors) and the Java
// hash-table order they reproduce; test/e2e/consumer-group-assignors-java.test.ts compares them with Kafka's own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { type GroupAssignment, PartitionAssignorError, type TopicPartitions } from '../../src/coordinator/group/consumer/assignor.js';
import { JavaHashTable, kafkaMemberOrder } from '../../src/coordinator/runtime/java-hash-table.js';
import { javaIntegerHash } from '../../src/coordinator/runtime/java-hash.js';
import { rangeAssignor } from '../../src/coordinator/group/consumer/range-assignor.js';
import { uniformAssignor } from '../../src/coordinator/group/consumer/uniform-assignor.js';
import { ErrorCode } from '../../src/protocol/error-codes.js';
import { assignorCases, type CaseMember, describer, groupSpec } from './consumer-assignor-cases.js';

// Topic ids (Uuid text) and member ids.
const T1 = 'AAAAAAAAAAAAAAAAAAAAAQ';
const T2 = 'AAAAAAAAAAAAAAAAAAAAAg';
const T3 = 'AAAAAAAAAAAAAAAAAAAAAw';

function member(id: string, topics: string[], instanceId: string | null = null): CaseMember {
  return { id, instanceId, topics };
}

function count(assignment: TopicPartitions | undefined): number {
  let n = 0;
  for (const partitions of assignment?.values() ?? []) n += partitions.size;
  return n;
}

/** Every partition of the topics exactly once, each to a member subscribed to its topic. */
function assertComplete(result: GroupAssignment, members: readonly CaseMember[], topics: ReadonlyMap<string, number>): void {
  const seen = new Set<string>();
  for (const m of members) {
    for (const [topicId, partitions] of result.get(m.id) ?? []) {
      assert.ok(m.topics.includes(topicId), `${m.id} is not subscribed to ${topicId}`);
      for (const p of partitions) {
        assert.ok(!seen.has(`${topicId}:${p}`), `${topicId}:${p} assigned twice`);
        seen.add(`${topicId}:${p}`);
      }
    }
  }
  const subscribed = new Set(members.flatMap((m) => m.topics));
  let expected = 0;
  for (const [topicId, partitions] of topics) if (subscribed.has(topicId)) expected += partitions;
  assert.equal(seen.size, expected);
}

function assign(assignor: typeof uniformAssignor, members: CaseMember[], topics: Map<string, number>, current = new Map<string, TopicPartitions>()): GroupAssignment {
  return assignor.assign(groupSpec(members, current), describer(topics));
}

test('uniform, same subscriptions: complete, balanced to one partition, for every member count', () => {
  const topics = new Map([[T1, 7], [T2, 5], [T3, 0]]);
  const members: CaseMember[] = [];
  let current = new Map<string, TopicPartitions>();
  for (let i = 0; i < 15; i++) {
    members.push(member(`m${i}`, [T1, T2, T3]));
    const result = assign(uniformAssignor, members, topics, current);
    assertComplete(result, members, topics);
    const counts = members.map((m) => count(result.get(m.id)));
    assert.ok(Math.max(...counts) - Math.min(...counts) <= 1, `counts ${counts}`);
    current = new Map(result);
  }
});

test('uniform, same subscriptions: a member that joins takes partitions only from those above their new quota', () => {
  const topics = new Map([[T1, 6], [T2, 6]]);
  const members = [member('a', [T1, T2]), member('b', [T1, T2])];
  const before = assign(uniformAssignor, members, topics);
  members.push(member('c', [T1, T2]));
  const after = assign(uniformAssignor, members, topics, new Map(before));
  for (const id of ['a', 'b']) {
    assert.equal(count(after.get(id)), 4);
    for (const [topicId, partitions] of after.get(id)!) for (const p of partitions) assert.ok(before.get(id)!.get(topicId)!.has(p), `${id} gained ${topicId}:${p}`);
  }
  assert.equal(count(after.get('c')), 4);
});

test('uniform, same subscriptions: the extra partition stays with the member that holds it (Kafka 4.3.1)', () => {
  // 7 partitions over 3 members: one gets 3. a, first in group order, holds 2 and leaves the extra to b, which
  // holds 3: nothing moves (Kafka before 4.x gave the extra to a, moving partition 4 from b to a).
  const topics = new Map([[T1, 7]]);
  const members = [member('a', [T1]), member('b', [T1]), member('c', [T1])];
  const current = new Map<string, TopicPartitions>([
    ['a', new Map([[T1, new Set([0, 1])]])],
    ['b', new Map([[T1, new Set([2, 3, 4])]])],
    ['c', new Map([[T1, new Set([5, 6])]])],
  ]);
  const result = assign(uniformAssignor, members, topics, current);
  assert.deepEqual([...result.get('a')!.get(T1)!], [0, 1]);
  assert.deepEqual([...result.get('b')!.get(T1)!], [2, 3, 4]);
  assert.deepEqual([...result.get('c')!.get(T1)!], [5, 6]);
});

test('uniform, different subscriptions: each partition to a subscriber, shared topics balanced, current owners kept', () => {
  const topics = new Map([[T1, 12], [T2, 4], [T3, 9]]);
  const members = [member('a', [T1, T2]), member('b', [T1]), member('c', [T2, T3]), member('d', [T1, T3])];
  const first = assign(uniformAssignor, members, topics);
  assertComplete(first, members, topics);
  const counts = members.map((m) => count(first.get(m.id)));
  assert.ok(Math.max(...counts) - Math.min(...counts) <= 1, `counts ${counts}`);
  // Same group again: nothing moves.
  const again = assign(uniformAssignor, members, topics, new Map(first));
  for (const m of members) assert.deepEqual(again.get(m.id), first.get(m.id));
  // b leaves: its partitions go to the others (a, the other subscriber of T1 with room, keeps all it had).
  const rest = members.filter((m) => m.id !== 'b');
  const after = assign(uniformAssignor, rest, topics, new Map(first));
  assertComplete(after, rest, topics);
  for (const [topicId, partitions] of first.get('a')!) for (const p of partitions) assert.ok(after.get('a')!.get(topicId)?.has(p), `a lost ${topicId}:${p}`);
});

test('range: co-partitioning, the first partitions % members members one more, static members first', () => {
  const topics = new Map([[T1, 7], [T2, 7]]);
  const members = [member('z', [T1, T2]), member('b', [T1, T2], 'inst-2'), member('a', [T1, T2]), member('y', [T1, T2], 'inst-1')];
  const result = assign(rangeAssignor, members, topics);
  const expected: [string, number[]][] = [['y', [0, 1]], ['b', [2, 3]], ['a', [4, 5]], ['z', [6]]];
  for (const [id, partitions] of expected) {
    assert.deepEqual([...result.get(id)!.get(T1)!], partitions, id);
    assert.deepEqual([...result.get(id)!.get(T2)!], partitions, id);
  }
});

test('range, different subscriptions: each topic is split among its own subscribers only', () => {
  const topics = new Map([[T1, 4], [T2, 3]]);
  const members = [member('a', [T1]), member('b', [T1, T2]), member('c', [T2])];
  const result = assign(rangeAssignor, members, topics);
  assert.deepEqual([...result.get('a')!.get(T1)!], [0, 1]);
  assert.deepEqual([...result.get('b')!.get(T1)!], [2, 3]);
  assert.deepEqual([...result.get('b')!.get(T2)!], [0, 1]);
  assert.deepEqual([...result.get('c')!.get(T2)!], [2]);
  assert.equal(result.get('a')!.has(T2), false);
});

test('more members than partitions: range serves the first members, uniform (4.3.1) the last ones when none holds any', () => {
  const topics = new Map([[T1, 2]]);
  const members = ['a', 'b', 'c'].map((id) => member(id, [T1]));
  assert.deepEqual(members.map((m) => count(assign(rangeAssignor, members, topics).get(m.id))), [1, 1, 0]);
  assert.deepEqual(members.map((m) => count(assign(uniformAssignor, members, topics).get(m.id))), [0, 1, 1]);
});

test('a subscribed topic the metadata does not know: PartitionAssignorError (UNKNOWN_SERVER_ERROR) with Kafka\'s message', () => {
  const topics = new Map([[T1, 2]]);
  const cases: [typeof uniformAssignor, CaseMember[], string][] = [
    [uniformAssignor, [member('a', [T1, T2])], `Members are subscribed to topic ${T2} which doesn't exist in the topic metadata.`],
    [uniformAssignor, [member('a', [T1, T2]), member('b', [T1])], `Members are subscribed to topic ${T2} which doesn't exist in the topic metadata.`],
    [rangeAssignor, [member('a', [T2])], 'Member is subscribed to a non-existent topic'],
    [rangeAssignor, [member('a', [T1, T2]), member('b', [T1])], 'Member is subscribed to a non-existent topic'],
  ];
  for (const [assignor, members, message] of cases) {
    assert.throws(
      () => assign(assignor, members, topics),
      (error: unknown) => error instanceof PartitionAssignorError && error.message === message && error.errorCode === ErrorCode.UNKNOWN_SERVER_ERROR,
    );
  }
});

test('an empty group, or one subscribed to nothing, gets an empty assignment', () => {
  for (const assignor of [uniformAssignor, rangeAssignor]) assert.equal(assign(assignor, [], new Map()).size, 0);
  assert.equal(assign(uniformAssignor, [member('a', [])], new Map()).size, 0);
});

test('Java hash-table order: put appends to a bucket, computeIfAbsent prepends and grows lazily, a long bucket grows a small table', () => {
  // Each expectation is what Java 17's HashMap / HashSet print for the same calls.
  const put = new JavaHashTable<number, true>(javaIntegerHash);
  for (const k of [1, 17, 33]) put.set(k, true);
  assert.deepEqual(put.keys(), [1, 17, 33]);
  const computed = new JavaHashTable<number, true>(javaIntegerHash);
  for (const k of [1, 17, 33]) computed.computeIfAbsent(k, () => true);
  assert.deepEqual(computed.keys(), [33, 17, 1]);
  const small = new JavaHashTable<number, true>(javaIntegerHash, 1);
  for (const k of [3, 1, 2]) small.computeIfAbsent(k, () => true);
  assert.deepEqual(small.keys(), [1, 2, 3]);
  const crowded = new JavaHashTable<number, true>(javaIntegerHash);
  for (let k = 0; k < 9; k++) crowded.set(k * 16 + 5, true);
  crowded.set(2, true);
  assert.deepEqual(crowded.keys(), [2, 5, 37, 69, 101, 133, 21, 53, 85, 117]);
});

test('member ids in the order of Kafka\'s HashMap<String, ...> (ids with the same String.hashCode, Aa and BB, in insertion order)', () => {
  const ids = [...Array.from({ length: 20 }, (_, i) => `member-${i}`), 'consumer-1-5b1d0a3e', 'static-a', 'static-b', 'Aa', 'BB'];
  // What Java 17 prints for the same puts.
  const java = 'Aa BB member-19 member-18 member-17 member-16 member-5 member-15 member-6 member-14 member-3 member-13 member-4 member-12 member-9 member-11 member-10 member-7 member-8 static-b static-a consumer-1-5b1d0a3e member-1 member-2 member-0';
  assert.deepEqual(kafkaMemberOrder(ids), java.split(' '));
});

test('the 1000-partition, 100-member cases run through both assignors', () => {
  for (const c of assignorCases(0).filter((k) => k.name.endsWith('-large'))) {
    let current = new Map<string, TopicPartitions>();
    for (const run of c.runs) {
      const result = assign(c.assignor === 'range' ? rangeAssignor : uniformAssignor, [...run.members], new Map(run.topics), current);
      assertComplete(result, run.members, run.topics);
      current = new Map(result);
    }
  }
});
