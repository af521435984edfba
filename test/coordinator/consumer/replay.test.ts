// Replay of the consumer group records Kafka 4.3.1 wrote, through the shard's load path: the group rebuilt at each
// point of the log, and after compaction (last record per key, with and without the tombstones) the same group.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ConsumerGroup } from '../../../src/coordinator/group/consumer/consumer-group.js';
import { reconcile, type OwnedTopicPartitions } from '../../../src/coordinator/group/consumer/current-assignment.js';
import { currentAssignmentRecord, groupEpochRecord, memberSubscriptionRecord } from '../../../src/coordinator/group/consumer/records.js';
import { newMember } from '../../../src/coordinator/group/consumer/member.js';
import { decodeRecord, encodeRecordValue } from '../../../src/coordinator/group/record-serde.js';
import { groupMetadataRecord, recordKey, type GroupRecord } from '../../../src/coordinator/group/records.js';
import type { OffsetStore } from '../../../src/coordinator/group/offsets.js';
import { GroupHarness } from '../group-harness.js';
import { KAFKA_IMAGE, kafkaRecords, ORDERS_ID, PAYMENTS_ID, type KafkaRecord } from './kafka-records.js';

const MEMBER_A = 'xvdD-44kRSy66YXUF70OQg';
const MEMBER_B = 'D1f0CL-iS9OEByL3JXpEtA';
const STATIC = 'G1OcYyz4TFyjxnL8PDQ2MQ';

function decoded(records: readonly KafkaRecord[]): GroupRecord[] {
  return records.map((r) => decodeRecord(r.key, r.value)!);
}

function load(records: readonly GroupRecord[]): GroupHarness {
  const h = new GroupHarness();
  for (const record of records) h.shard.replay(record);
  h.shard.onLoaded();
  return h;
}

/** What a group holds, in plain values (partitions sorted) for deepEqual. */
function snapshot(group: ConsumerGroup | undefined) {
  if (group === undefined) return undefined;
  const sortedMap = <V>(m: ReadonlyMap<string, V>) => [...m.entries()].sort(([a], [b]) => (a < b ? -1 : 1));
  return {
    state: group.state,
    groupEpoch: group.groupEpoch,
    metadataHash: group.metadataHash,
    assignmentEpoch: group.assignmentEpoch,
    members: sortedMap(group.members).map(([id, m]) => ({
      id,
      epoch: m.memberEpoch,
      previous: m.previousMemberEpoch,
      state: m.state,
      instanceId: m.instanceId,
      assigned: sortedMap(m.assignedPartitions).map(([t, ps]) => [t, [...ps].sort((a, b) => a[0] - b[0])]),
      revoking: sortedMap(m.partitionsPendingRevocation).map(([t, ps]) => [t, [...ps].sort((a, b) => a[0] - b[0])]),
    })),
    target: sortedMap(group.targetAssignment).map(([id, a]) => [id, sortedMap(a).map(([t, ps]) => [t, [...ps].sort()])]),
  };
}

/** Compaction: the last record of each key, in log order; tombstones too unless `dropTombstones`. */
function compact(records: readonly GroupRecord[], dropTombstones: boolean): GroupRecord[] {
  const last = new Map<string, number>();
  records.forEach((r, i) => last.set(recordKey(r), i));
  return records.filter((r, i) => last.get(recordKey(r)) === i && !(dropTombstones && r.value === null));
}

const g1 = decoded(kafkaRecords('g1'));
const upTo = (offset: number) => decoded(kafkaRecords('g1').filter((r) => r.offset <= offset));

test('g1 replayed record by record: join, a second member waits for the first to revoke, both leave', () => {
  const rows: [number, string, number, number, [string, number, string][]][] = [
    // offset, group state, group epoch, assignment epoch, members (id, epoch, state)
    [4, 'Stable', 2, 2, [[MEMBER_A, 2, 'STABLE']]],
    [10, 'Assigning', 3, 2, [[MEMBER_A, 2, 'STABLE'], [MEMBER_B, 0, 'STABLE']]],
    [14, 'Reconciling', 3, 3, [[MEMBER_A, 2, 'STABLE'], [MEMBER_B, 3, 'UNRELEASED_PARTITIONS']]],
    [20, 'Reconciling', 3, 3, [[MEMBER_A, 2, 'UNREVOKED_PARTITIONS'], [MEMBER_B, 3, 'UNRELEASED_PARTITIONS']]],
    [25, 'Reconciling', 3, 3, [[MEMBER_A, 3, 'STABLE'], [MEMBER_B, 3, 'UNRELEASED_PARTITIONS']]],
    [30, 'Stable', 3, 3, [[MEMBER_A, 3, 'STABLE'], [MEMBER_B, 3, 'STABLE']]],
    [34, 'Assigning', 4, 3, [[MEMBER_B, 3, 'STABLE']]],
    [37, 'Stable', 4, 4, [[MEMBER_B, 4, 'STABLE']]],
    [49, 'Empty', 5, 4, []],
  ];
  for (const [offset, state, groupEpoch, assignmentEpoch, members] of rows) {
    const group = load(upTo(offset)).shard.consumerGroup('g1')!;
    const got = snapshot(group)!;
    assert.deepEqual(
      [got.state, got.groupEpoch, got.assignmentEpoch, got.members.map((m) => [m.id, m.epoch, m.state])],
      [state, groupEpoch, assignmentEpoch, [...members].sort(([a], [b]) => (a < b ? -1 : 1))],
      `after offset ${offset}`,
    );
  }
  // While c-a revokes 2 and 3, they stay its own (pending revocation) at the epoch it got them: c-b cannot have them.
  const revoking = load(upTo(20)).shard.consumerGroup('g1')!;
  const a = revoking.members.get(MEMBER_A)!;
  assert.deepEqual([...a.assignedPartitions.get(ORDERS_ID)!], [[0, 2], [1, 2]]);
  assert.deepEqual([...a.partitionsPendingRevocation.get(ORDERS_ID)!], [[2, 2], [3, 2]]);
  assert.equal(revoking.currentPartitionEpoch(ORDERS_ID, 2), 2);
  // c-b got them once released, at epoch 3; after c-a left, the others at epoch 4.
  assert.deepEqual([...load(upTo(30)).shard.consumerGroup('g1')!.members.get(MEMBER_B)!.assignedPartitions.get(ORDERS_ID)!], [[2, 3], [3, 3]]);
  const alone = load(upTo(37)).shard.consumerGroup('g1')!.members.get(MEMBER_B)!;
  assert.deepEqual(new Map(alone.assignedPartitions.get(ORDERS_ID)!), new Map([[0, 4], [1, 4], [2, 3], [3, 3]]));
});

test('g1 after the whole log: an empty consumer group, its offsets kept, no classic group made for them', () => {
  const h = load(g1);
  assert.equal(h.shard.group('g1'), undefined);
  assert.equal(snapshot(h.shard.consumerGroup('g1'))!.state, 'Empty');
  assert.equal(h.shard.consumerGroup('g1')!.metadataHash, 0n);
  // Kept in the shard's offset store (OffsetFetch of consumer groups, with member epochs, is not served yet).
  const stored = (h.shard as unknown as { offsets: OffsetStore }).offsets.topics('g1');
  assert.deepEqual([...stored!.get('orders')!].map(([p, o]) => [p, o.offset]).sort(), [[0, 0], [1, 20], [2, 0], [3, 0]]);
});

/** Offsets of g1 where one write of the coordinator ended (its records share a batch): the cleaner drops a tombstone only long after. */
const G1_WRITES_END = [4, 8, 14, 18, 19, 20, 24, 25, 27, 29, 30, 34, 37, 41, 45, 49];

test('compaction keeps the group: the log compacted (last record per key), and with its tombstones gone, replays to the same group', () => {
  for (let end = 1; end <= g1.length; end++) {
    const prefix = g1.slice(0, end);
    const expected = snapshot(load(prefix).shard.consumerGroup('g1'));
    assert.deepEqual(snapshot(load(compact(prefix, false)).shard.consumerGroup('g1')), expected, `prefix of ${end} records`);
  }
  for (const offset of G1_WRITES_END) {
    const prefix = upTo(offset);
    const expected = snapshot(load(prefix).shard.consumerGroup('g1'));
    assert.deepEqual(snapshot(load(compact(prefix, true)).shard.consumerGroup('g1')), expected, `up to offset ${offset}, tombstones gone`);
  }
});

test('g2: a static member that left keeps its partitions at epoch -2 and its instance id', () => {
  const group = load(decoded(kafkaRecords('g2'))).shard.consumerGroup('g2')!;
  const member = group.members.get(STATIC)!;
  assert.deepEqual([member.memberEpoch, member.instanceId, member.rackId, [...member.subscribedTopicNames].sort()], [-2, 'inst-1', 'rack-a', ['orders', 'payments']]);
  assert.deepEqual([...member.assignedPartitions.get(PAYMENTS_ID)!], [[0, 0], [1, 0]]);
  assert.equal(group.staticMemberId('inst-1'), STATIC);
  assert.equal(group.state, 'Reconciling');
});

test('a simple group (offsets only) becomes a consumer group; a classic group with a protocol refuses consumer records', () => {
  const offsetsFirst = load([...g1.filter((r) => r.type === 'offset').slice(0, 1), ...g1.slice(0, 5)]);
  assert.equal(offsetsFirst.shard.group('g1'), undefined);
  assert.equal(offsetsFirst.shard.consumerGroup('g1')!.state, 'Stable');
  // Even a tombstone turns a simple group into an (empty) consumer group, as in Kafka.
  const simple = load(g1.filter((r) => r.type === 'offset').slice(0, 1));
  assert.notEqual(simple.shard.group('g1'), undefined);
  simple.shard.replay({ type: 'consumer-current-member', group: 'g1', memberId: 'm', value: null });
  assert.equal(simple.shard.group('g1'), undefined);
  assert.equal(simple.shard.consumerGroup('g1')!.state, 'Empty');

  const h = load([
    groupMetadataRecord('c1', { protocolType: 'consumer', generation: 1, protocol: 'range', leader: null, currentStateTimestamp: -1n, members: [] }),
  ]);
  assert.throws(() => h.shard.replay(groupEpochRecord('c1', 2, 0n)), /Group c1 is not a consumer group/);
  assert.notEqual(h.shard.group('c1'), undefined);
  // A classic group's record replaces a consumer group of the same id (what a downgrade writes).
  h.shard.replay(memberSubscriptionRecord('c2', newMember('m')));
  h.shard.replay(groupMetadataRecord('c2', { protocolType: 'consumer', generation: 1, protocol: 'range', leader: null, currentStateTimestamp: -1n, members: [] }));
  assert.equal(h.shard.consumerGroup('c2'), undefined);
  assert.notEqual(h.shard.group('c2'), undefined);
});

test('records out of Kafka’s order are refused: a member deleted before its assignment, a group before its members', () => {
  const h = load(g1.slice(0, 5));
  const tombstoneOf = (offset: number) => decoded(kafkaRecords('g1').filter((r) => r.offset === offset))[0]!;
  assert.throws(() => h.shard.replay(tombstoneOf(33)), /did not receive ConsumerGroupCurrentMemberAssignmentValue tombstone/);
  assert.throws(() => h.shard.replay({ type: 'consumer-group', group: 'g1', value: null }), /still has 1 members/);
});

test('reconciliation from the replayed group computes the current assignment records Kafka wrote, byte for byte', () => {
  const T = [{ topicId: ORDERS_ID, partitions: [0, 1, 2, 3] }];
  const rows: [number, string, OwnedTopicPartitions][] = [
    // offset of Kafka's record, member, the partitions it reported owning
    [4, MEMBER_A, []],
    [14, MEMBER_B, []],
    [19, MEMBER_B, []],
    [20, MEMBER_A, T],
    [25, MEMBER_A, [{ topicId: ORDERS_ID, partitions: [0, 1] }]],
    [30, MEMBER_B, []],
    [37, MEMBER_B, [{ topicId: ORDERS_ID, partitions: [2, 3] }]],
  ];
  for (const [offset, memberId, owned] of rows) {
    const group = load(upTo(offset - 1)).shard.consumerGroup('g1')!;
    const next = reconcile({
      member: group.members.get(memberId)!,
      targetAssignmentEpoch: group.assignmentEpoch,
      targetAssignment: group.targetAssignmentOf(memberId),
      image: KAFKA_IMAGE,
      resolvedRegularExpressions: group.resolvedRegularExpressions,
      hasSubscriptionChanged: false,
      currentPartitionEpoch: (topicId, partition) => group.currentPartitionEpoch(topicId, partition),
      ownedTopicPartitions: owned,
    });
    const kafka = kafkaRecords('g1').find((r) => r.offset === offset)!;
    assert.equal(encodeRecordValue(currentAssignmentRecord('g1', next))!.toString('hex'), kafka.value!.toString('hex'), `offset ${offset}`);
  }
});
