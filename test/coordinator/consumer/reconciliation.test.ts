// The reconciliation state machine (Kafka's CurrentAssignmentBuilder) and the target assignment step
// (TargetAssignmentBuilder) driven as the heartbeat will drive them, every change going through records and replay:
// tables of the member's and the group's states after each step. The assignor is a trivial one of this test.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadXxh3 } from '../../../src/coordinator/group/consumer/xxh3.js';
import type { ConsumerGroupAssignor } from '../../../src/coordinator/group/consumer/assignor.js';
import type { ConsumerGroup } from '../../../src/coordinator/group/consumer/consumer-group.js';
import { reconcile, type OwnedTopicPartitions } from '../../../src/coordinator/group/consumer/current-assignment.js';
import { newMember, sameMember, type ConsumerGroupMember } from '../../../src/coordinator/group/consumer/member.js';
import { computeMetadataHash } from '../../../src/coordinator/group/consumer/metadata-hash.js';
import {
  currentAssignmentRecord,
  currentAssignmentTombstone,
  groupEpochRecord,
  memberSubscriptionRecord,
  memberSubscriptionTombstone,
  targetAssignmentTombstone,
  type ConsumerGroupRecord,
} from '../../../src/coordinator/group/consumer/records.js';
import { buildTargetAssignment } from '../../../src/coordinator/group/consumer/target-assignment.js';
import { StaticTopicsImage } from '../../../src/coordinator/group/consumer/topics-image.js';
import { GroupError } from '../../../src/coordinator/group/group-error.js';
import { GroupHarness } from '../group-harness.js';

const T = Buffer.alloc(16, 1).toString('base64url');
const U = Buffer.alloc(16, 2).toString('base64url');
const IMAGE = new StaticTopicsImage([
  { id: T, name: 't', numPartitions: 4 },
  { id: U, name: 'u', numPartitions: 2 },
]);

/** Each topic's partitions split in contiguous ranges over its subscribers in member id order. */
const testAssignor: ConsumerGroupAssignor = {
  name: 'test-range',
  assign(group, topics) {
    const result = new Map<string, Map<string, Set<number>>>(group.memberIds.map((id) => [id, new Map()]));
    for (const topicId of [T, U]) {
      const members = [...group.memberIds].filter((id) => group.memberSubscription(id).subscribedTopicIds.has(topicId)).sort();
      const count = topics.numPartitions(topicId);
      for (let p = 0; p < count; p++) {
        const owner = members[Math.floor((p * members.length) / count)];
        if (owner === undefined) continue;
        const assignment = result.get(owner)!;
        if (!assignment.has(topicId)) assignment.set(topicId, new Set());
        assignment.get(topicId)!.add(p);
      }
    }
    return result;
  },
};

/** One consumer group driven through records, as the coordinator will: each step's records are replayed. */
class Sim {
  readonly shard = new GroupHarness().shard;
  now = 1_000;
  readonly written: ConsumerGroupRecord[][] = [];

  constructor(readonly groupId = 'g') {}

  get group(): ConsumerGroup {
    return this.shard.consumerGroup(this.groupId)!;
  }

  member(id: string): ConsumerGroupMember {
    return this.group.members.get(id)!;
  }

  write(records: ConsumerGroupRecord[]): void {
    this.written.push(records);
    for (const record of records) this.shard.replay(record);
  }

  /** A member joins or changes its subscription: the subscription, a new group epoch, the new target. */
  subscribe(memberId: string, topics: string[]): void {
    const old = this.shard.consumerGroup(this.groupId)?.members.get(memberId) ?? { ...newMember(memberId), clientId: memberId, rebalanceTimeoutMs: 45000 };
    const member = { ...old, subscribedTopicNames: new Set(topics) };
    const epoch = (this.shard.consumerGroup(this.groupId)?.groupEpoch ?? 1) + 1;
    const names = new Set([...(this.shard.consumerGroup(this.groupId)?.members.values() ?? [])].flatMap((m) => (m.memberId === memberId ? [] : [...m.subscribedTopicNames])));
    for (const t of topics) names.add(t);
    this.write([memberSubscriptionRecord(this.groupId, member), groupEpochRecord(this.groupId, epoch, computeMetadataHash(names, IMAGE))]);
    this.assign(new Map([[memberId, this.member(memberId)]]));
  }

  /** A member leaves or is fenced (its session expired): its records deleted, a new group epoch, the new target. */
  remove(memberId: string): void {
    const g = this.groupId;
    this.write([currentAssignmentTombstone(g, memberId), targetAssignmentTombstone(g, memberId), memberSubscriptionTombstone(g, memberId)]);
    const names = new Set([...this.group.members.values()].flatMap((m) => [...m.subscribedTopicNames]));
    this.write([groupEpochRecord(g, this.group.groupEpoch + 1, computeMetadataHash(names, IMAGE))]);
    this.assign(new Map());
  }

  assign(updated: ReadonlyMap<string, ConsumerGroupMember | null>): ConsumerGroupRecord[] {
    const g = this.group;
    const { records } = buildTargetAssignment({
      groupId: this.groupId,
      groupEpoch: g.groupEpoch,
      assignor: testAssignor,
      members: g.members,
      updatedMembers: updated,
      staticMembers: g.staticMembers,
      subscriptionType: g.subscriptionType,
      targetAssignment: g.targetAssignment,
      invertedTargetAssignment: g.invertedTargetAssignment,
      image: IMAGE,
      resolvedRegularExpressions: g.resolvedRegularExpressions,
      now: this.now,
    });
    this.write(records);
    return records;
  }

  /** A heartbeat reporting the partitions the member owns (null: not reported): its next state, recorded when changed. */
  heartbeat(memberId: string, owned: OwnedTopicPartitions, hasSubscriptionChanged = false): ConsumerGroupMember {
    const g = this.group;
    const member = this.member(memberId);
    const next = reconcile({
      member,
      targetAssignmentEpoch: g.assignmentEpoch,
      targetAssignment: g.targetAssignmentOf(memberId),
      image: IMAGE,
      resolvedRegularExpressions: g.resolvedRegularExpressions,
      hasSubscriptionChanged,
      currentPartitionEpoch: (topicId, partition) => g.currentPartitionEpoch(topicId, partition),
      ownedTopicPartitions: owned,
    });
    if (!sameMember(next, member)) this.write([currentAssignmentRecord(this.groupId, next)]);
    return next;
  }
}

const owns = (...partitions: number[]): OwnedTopicPartitions => (partitions.length === 0 ? [] : [{ topicId: T, partitions }]);

/** A member's state as a row: epoch, previous epoch, state, assigned and revoking as "t:partition@epoch". */
function row(m: ConsumerGroupMember): [number, number, string, string, string] {
  const text = (a: ReadonlyMap<string, ReadonlyMap<number, number>>) =>
    [...a]
      .flatMap(([topicId, ps]) => [...ps].map(([p, e]) => `${topicId === T ? 't' : 'u'}:${p}@${e}`))
      .sort()
      .join(' ');
  return [m.memberEpoch, m.previousMemberEpoch, m.state, text(m.assignedPartitions), text(m.partitionsPendingRevocation)];
}


before(loadXxh3);

test('join, a second member takes half once the first has revoked it, the first leaves', () => {
  const sim = new Sim();
  type Step = [string, () => void, string, [number, number, string, string, string], string];
  let last: ConsumerGroupMember | undefined;
  const hb = (id: string, owned: OwnedTopicPartitions) => () => void (last = sim.heartbeat(id, owned));
  const steps: Step[] = [
    // what happens, the step, whose row, the member after it (epoch, previous, state, assigned, revoking), group state
    ['A joins', () => sim.subscribe('A', ['t']), 'A', [0, -1, 'STABLE', '', ''], 'Reconciling'],
    ['A heartbeats: all of t at epoch 2', hb('A', owns()), 'A', [2, 0, 'STABLE', 't:0@2 t:1@2 t:2@2 t:3@2', ''], 'Stable'],
    ['B joins: epoch 3, target A {0,1} B {2,3}', () => sim.subscribe('B', ['t']), 'B', [0, -1, 'STABLE', '', ''], 'Reconciling'],
    ['B heartbeats: 2 and 3 are still A’s', hb('B', owns()), 'B', [3, 0, 'UNRELEASED_PARTITIONS', '', ''], 'Reconciling'],
    ['A heartbeats owning all: it must revoke 2 and 3 first', hb('A', owns(0, 1, 2, 3)), 'A', [2, 2, 'UNREVOKED_PARTITIONS', 't:0@2 t:1@2', 't:2@2 t:3@2'], 'Reconciling'],
    ['A heartbeats still owning them: no change', hb('A', owns(0, 1, 2, 3)), 'A', [2, 2, 'UNREVOKED_PARTITIONS', 't:0@2 t:1@2', 't:2@2 t:3@2'], 'Reconciling'],
    // Recomputed, its epoch set again: the previous epoch becomes 3 (Kafka's log shows the same record).
    ['B heartbeats: still unreleased', hb('B', owns()), 'B', [3, 3, 'UNRELEASED_PARTITIONS', '', ''], 'Reconciling'],
    ['A revoked them: epoch 3, its partitions keep epoch 2', hb('A', owns(0, 1)), 'A', [3, 2, 'STABLE', 't:0@2 t:1@2', ''], 'Reconciling'],
    ['B heartbeats: 2 and 3 at epoch 3', hb('B', owns()), 'B', [3, 3, 'STABLE', 't:2@3 t:3@3', ''], 'Stable'],
    ['A leaves: epoch 4, all to B', () => sim.remove('A'), 'B', [3, 3, 'STABLE', 't:2@3 t:3@3', ''], 'Reconciling'],
    ['B heartbeats: 0 and 1 were released, at epoch 4', hb('B', owns(2, 3)), 'B', [4, 3, 'STABLE', 't:0@4 t:1@4 t:2@3 t:3@3', ''], 'Stable'],
  ];
  for (const [what, step, whose, member, groupState] of steps) {
    last = undefined;
    step();
    assert.deepEqual(row(sim.member(whose)), member, what);
    if (last !== undefined) assert.deepEqual(row(last), member, `${what}: the member replayed is the one computed`);
    assert.equal(sim.group.state, groupState, `${what}: group state`);
  }
  assert.equal(sim.group.members.has('A'), false);
  assert.equal(sim.group.groupEpoch, 4);
  assert.equal(sim.group.assignmentEpoch, 4);
});

test('the target step writes a record per member whose target changed, in Kafka’s member order, then the metadata', () => {
  const sim = new Sim();
  sim.subscribe('A', ['t']);
  sim.heartbeat('A', owns());
  sim.now = 5_000;
  sim.subscribe('B', ['t']);
  // B's and A's targets ("A" and "B" hash to 65 and 66: buckets 1 and 2 of a 16-slot table).
  assert.deepEqual(
    sim.written.at(-1)!.map((r) => [r.type, 'memberId' in r ? r.memberId : '', r.value]),
    [
      ['consumer-target-member', 'A', { topicPartitions: [{ topicId: T, partitions: [0, 1] }] }],
      ['consumer-target-member', 'B', { topicPartitions: [{ topicId: T, partitions: [2, 3] }] }],
      ['consumer-target', '', { assignmentEpoch: 3, assignmentTimestamp: 5000n }],
    ],
  );
  // A member whose subscription changes without changing the target: only the metadata at the new epoch.
  sim.subscribe('B', ['t']);
  assert.deepEqual(sim.written.at(-1)!.map((r) => r.type), ['consumer-target']);
  // A member new to the target gets its record even when the assignor gives it nothing.
  sim.subscribe('C', ['u']);
  sim.subscribe('D', ['nothing']);
  assert.deepEqual(
    sim.written.at(-1)!.map((r) => [r.type, 'memberId' in r ? r.memberId : '', r.value]),
    [
      ['consumer-target-member', 'D', { topicPartitions: [] }],
      ['consumer-target', '', { assignmentEpoch: 6, assignmentTimestamp: 5000n }],
    ],
  );
});

test('a subscription change at the target epoch revokes the dropped topic’s partitions at once', () => {
  const sim = new Sim();
  sim.subscribe('A', ['t', 'u']);
  sim.heartbeat('A', null);
  assert.deepEqual(row(sim.member('A')), [2, 0, 'STABLE', 't:0@2 t:1@2 t:2@2 t:3@2 u:0@2 u:1@2', '']);
  // Only the subscription changes (the target is recomputed by the next step, not yet): u is revoked.
  sim.write([memberSubscriptionRecord('g', { ...sim.member('A'), subscribedTopicNames: new Set(['t']) })]);
  const owned: OwnedTopicPartitions = [
    { topicId: T, partitions: [0, 1, 2, 3] },
    { topicId: U, partitions: [0, 1] },
  ];
  assert.deepEqual(row(sim.heartbeat('A', owned, true)), [2, 2, 'UNREVOKED_PARTITIONS', 't:0@2 t:1@2 t:2@2 t:3@2', 'u:0@2 u:1@2']);
  // Once revoked, the member is stable again with t alone (u is no longer subscribed, whatever the old target says).
  assert.deepEqual(row(sim.heartbeat('A', owns(0, 1, 2, 3))), [2, 2, 'STABLE', 't:0@2 t:1@2 t:2@2 t:3@2', '']);
});

test('a member in an unknown state is fenced unless it reports owning nothing; a fenced or expired member’s partitions go to the others', () => {
  const sim = new Sim();
  sim.subscribe('A', ['t']);
  sim.heartbeat('A', owns());
  sim.subscribe('B', ['t']);
  sim.heartbeat('A', owns(0, 1, 2, 3));
  // A state byte this version does not know reads back as UNKNOWN.
  const record = currentAssignmentRecord('g', sim.member('A'));
  sim.write([{ ...record, value: { ...record.value!, state: 99 } }]);
  assert.equal(sim.member('A').state, 'UNKNOWN');
  assert.throws(
    () => sim.heartbeat('A', owns(0)),
    (e: unknown) => e instanceof GroupError && e.code === 'FENCED_MEMBER_EPOCH' && /unknown state/.test(e.message),
  );
  assert.throws(() => sim.heartbeat('A', null), GroupError);
  // Reporting nothing owned, it goes straight to the target epoch, keeping its target's partitions at their epochs.
  assert.deepEqual(row(sim.heartbeat('A', owns())), [3, 2, 'STABLE', 't:0@2 t:1@2', '']);
  // A's session expires: fenced, as a leave; B gets everything once free.
  sim.remove('A');
  assert.deepEqual(row(sim.heartbeat('B', owns())), [4, 0, 'STABLE', 't:0@4 t:1@4 t:2@4 t:3@4', '']);
  assert.equal(sim.group.state, 'Stable');
  assert.equal(sim.group.currentPartitionEpoch(T, 0), 4);
});
