// ConsumerGroupHeartbeat through the GroupShard state machine (records replayed as the runtime does), with the
// injected clock: join, a second member taking half after the first revokes, leave, session and rebalance expiry,
// static members, fenced epochs, topic changes, and the group API's view of consumer groups.
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ErrorCode } from '../../../src/protocol/error-codes.js';
import { ZERO_UUID } from '../../../src/protocol/uuid.js';
import type { ConsumerGroupHeartbeatRequest, ConsumerGroupHeartbeatResponse } from '../../../src/protocol/generated/consumer-group-heartbeat.js';
import { createOffsetCommitRequest } from '../../../src/protocol/generated/offset-commit.js';
import { StaticTopicsImage } from '../../../src/coordinator/group/consumer/topics-image.js';
import { loadXxh3 } from '../../../src/coordinator/group/consumer/xxh3.js';
import { GroupShard } from '../../../src/coordinator/group/group-shard.js';
import { KeyedTimer } from '../../../src/coordinator/runtime/keyed-timer.js';
import type { Outcome } from '../../../src/coordinator/runtime/outcome.js';
import { ManualScheduler } from '../../../src/storage/scheduler.js';
import { TEST_CONFIG } from '../group-harness.js';
import { ConsumerHarness, T, U } from './consumer-harness.js';

before(loadXxh3);

/** The response's assignment as sorted "topicId:partition" strings (null: none sent). */
function assigned(response: ConsumerGroupHeartbeatResponse): string[] | null {
  if (response.assignment === null) return null;
  return response.assignment.topicPartitions.flatMap((t) => t.partitions.map((p) => `${t.topicId === T ? 't' : 'u'}-${p}`)).sort();
}

const owned = (partitions: number[]) => [{ topicId: T, partitions }];

describe('ConsumerGroupHeartbeat', () => {
  test('a first member joins: group epoch 1 → 2, every partition at once, heartbeat interval told', () => {
    const h = new ConsumerHarness();
    const r = h.joinConsumer('m1');
    assert.equal(r.errorCode, ErrorCode.NONE);
    assert.equal(r.memberId, 'm1');
    assert.equal(r.memberEpoch, 2);
    assert.equal(r.heartbeatIntervalMs, 5000);
    assert.deepEqual(assigned(r), ['t-0', 't-1', 't-2', 't-3']);
    const group = h.shard.consumerGroup('g')!;
    assert.equal(group.groupEpoch, 2);
    assert.equal(group.assignmentEpoch, 2);
    assert.equal(group.state, 'Stable');
    // Kafka's order: member subscription, group epoch, target member, target metadata, current assignment.
    assert.deepEqual(h.log.map((r) => r.type), ['consumer-member', 'consumer-group', 'consumer-target-member', 'consumer-target', 'consumer-current-member']);
    // A plain heartbeat with nothing new: no records, no assignment.
    const before = h.log.length;
    const again = h.hb({ memberId: 'm1', memberEpoch: 2 });
    assert.equal(again.memberEpoch, 2);
    assert.equal(again.assignment, null);
    assert.equal(h.log.length, before);
  });

  test('v0: the coordinator gives a member id; v1: an empty one is INVALID_REQUEST', () => {
    const h = new ConsumerHarness();
    const r = h.hb({ memberEpoch: 0, rebalanceTimeoutMs: 1000, subscribedTopicNames: ['t'], topicPartitions: [] }, 0);
    assert.equal(r.memberId, 'uuid0');
    const v1 = h.hb({ memberEpoch: 0, rebalanceTimeoutMs: 1000, subscribedTopicNames: ['t'], topicPartitions: [] }, 1);
    assert.deepEqual([v1.errorCode, v1.errorMessage], [ErrorCode.INVALID_REQUEST, "MemberId can't be empty."]);
  });

  test('a second member gets half only once the first has revoked them', () => {
    const h = new ConsumerHarness();
    h.joinConsumer('m1');
    const j2 = h.joinConsumer('m2');
    assert.equal(j2.memberEpoch, 3);
    assert.equal(h.shard.consumerGroup('g')!.state, 'Reconciling');
    // m2's partitions are still m1's: it gets none yet (UNRELEASED_PARTITIONS).
    assert.deepEqual(assigned(j2), []);
    // m1 is told to keep two (revoking the others), at its old epoch.
    const r1 = h.hb({ memberId: 'm1', memberEpoch: 2, topicPartitions: owned([0, 1, 2, 3]) });
    assert.equal(r1.memberEpoch, 2);
    const kept = assigned(r1)!;
    assert.equal(kept.length, 2);
    // m1 revoked: it moves to epoch 3.
    const r1b = h.hb({ memberId: 'm1', memberEpoch: 2, topicPartitions: owned(kept.map((p) => Number(p.slice(2)))) });
    assert.equal(r1b.memberEpoch, 3);
    assert.equal(r1b.assignment, null);
    // m2 now gets the two released.
    const r2 = h.hb({ memberId: 'm2', memberEpoch: 3, topicPartitions: [] });
    assert.equal(r2.memberEpoch, 3);
    assert.deepEqual([...assigned(r2)!, ...kept].sort(), ['t-0', 't-1', 't-2', 't-3']);
    assert.equal(h.shard.consumerGroup('g')!.state, 'Stable');
  });

  test('within the assignment interval a joining member reconciles to the previous target; the first heartbeat after computes the new one', async () => {
    // What Kafka 4.3.1 answers (reference broker, group.consumer.assignment.interval.ms=1000).
    const h = new ConsumerHarness({ assignmentIntervalMs: 1000 });
    const j1 = h.joinConsumer('m1');
    assert.deepEqual([j1.memberEpoch, assigned(j1)], [2, ['t-0', 't-1', 't-2', 't-3']]);
    const j2 = h.joinConsumer('m2');
    assert.deepEqual([j2.memberEpoch, assigned(j2)], [2, []]);
    const group = h.shard.consumerGroup('g')!;
    assert.deepEqual([group.state, group.groupEpoch, group.assignmentEpoch], ['Assigning', 3, 2]);
    await h.advance(1000);
    const r2 = h.hb({ memberId: 'm2', memberEpoch: 2 });
    assert.deepEqual([r2.memberEpoch, assigned(r2)], [3, null]);
    assert.deepEqual([group.state, group.assignmentEpoch], ['Reconciling', 3]);
    // m1 reports owning nothing: its revocation is done at once.
    const r1 = h.hb({ memberId: 'm1', memberEpoch: 2, topicPartitions: [] });
    assert.deepEqual([r1.memberEpoch, assigned(r1)!.length], [3, 2]);
  });

  test('a member leaving (-1) is removed, the group epoch bumped, the other gets everything back', () => {
    const h = new ConsumerHarness();
    h.joinConsumer('m1');
    h.joinConsumer('m2');
    const r1 = h.hb({ memberId: 'm1', memberEpoch: 2, topicPartitions: owned([0, 1, 2, 3]) });
    h.hb({ memberId: 'm1', memberEpoch: 2, topicPartitions: owned(assigned(r1)!.map((p) => Number(p.slice(2)))) });
    const leave = h.hb({ memberId: 'm2', memberEpoch: -1 });
    assert.deepEqual([leave.errorCode, leave.memberId, leave.memberEpoch], [ErrorCode.NONE, 'm2', -1]);
    const group = h.shard.consumerGroup('g')!;
    assert.deepEqual([...group.members.keys()], ['m1']);
    assert.equal(group.groupEpoch, 4);
    const back = h.hb({ memberId: 'm1', memberEpoch: 3 });
    assert.equal(back.memberEpoch, 4);
    assert.deepEqual(assigned(back), ['t-0', 't-1', 't-2', 't-3']);
    // The last member leaving leaves an Empty group.
    h.hb({ memberId: 'm1', memberEpoch: -1 });
    assert.equal(h.shard.consumerGroup('g')!.state, 'Empty');
  });

  test('a member silent for the session timeout is fenced; its next heartbeat is UNKNOWN_MEMBER_ID', async () => {
    const h = new ConsumerHarness({ sessionTimeoutMs: 10000 });
    h.joinConsumer('m1');
    h.joinConsumer('m2');
    await h.advance(6000);
    h.hb({ memberId: 'm1', memberEpoch: 2, topicPartitions: owned([0, 1, 2, 3]) });
    await h.advance(6000);
    const group = h.shard.consumerGroup('g')!;
    assert.deepEqual([...group.members.keys()], ['m1']);
    assert.equal(group.groupEpoch, 4);
    const r = h.hb({ memberId: 'm2', memberEpoch: 3 });
    assert.deepEqual([r.errorCode, r.errorMessage], [ErrorCode.UNKNOWN_MEMBER_ID, 'Member m2 is not a member of group g.']);
  });

  test('a member that does not revoke within its rebalance timeout is fenced', async () => {
    const h = new ConsumerHarness();
    h.hb({ memberId: 'm1', memberEpoch: 0, rebalanceTimeoutMs: 5000, subscribedTopicNames: ['t'], topicPartitions: [] });
    h.joinConsumer('m2');
    h.hb({ memberId: 'm1', memberEpoch: 2, topicPartitions: owned([0, 1, 2, 3]) }); // told to revoke
    await h.advance(5000);
    assert.deepEqual([...h.shard.consumerGroup('g')!.members.keys()], ['m2']);
  });

  test('epochs ahead or behind are FENCED_MEMBER_EPOCH; the previous epoch with a subset is accepted', () => {
    const h = new ConsumerHarness();
    h.joinConsumer('m1');
    const ahead = h.hb({ memberId: 'm1', memberEpoch: 5 });
    assert.deepEqual(
      [ahead.errorCode, ahead.errorMessage],
      [ErrorCode.FENCED_MEMBER_EPOCH, 'The consumer group member has a greater member epoch (5) than the one known by the group coordinator (2). The member must abandon all its partitions and rejoin.'],
    );
    const behind = h.hb({ memberId: 'm1', memberEpoch: 1 });
    assert.equal(behind.errorCode, ErrorCode.FENCED_MEMBER_EPOCH);
    // Previous epoch (0) with owned partitions within the assignment: the bumping response was lost.
    const lost = h.hb({ memberId: 'm1', memberEpoch: 0, rebalanceTimeoutMs: 300000, subscribedTopicNames: ['t'], topicPartitions: [] });
    assert.equal(lost.errorCode, ErrorCode.NONE);
  });

  test('static members: -2 keeps the place, a new id with the instance takes it over without a new epoch; a second instance is refused', () => {
    const h = new ConsumerHarness();
    h.joinConsumer('m1', ['t'], 'i1');
    const dup = h.joinConsumer('m9', ['t'], 'i1');
    assert.deepEqual(
      [dup.errorCode, dup.errorMessage],
      [ErrorCode.UNRELEASED_INSTANCE_ID, 'Static member m9 with instance id i1 cannot join the group because the instance id is owned by m1 member.'],
    );
    const leave = h.hb({ memberId: 'm1', memberEpoch: -2, instanceId: 'i1' });
    assert.deepEqual([leave.errorCode, leave.memberEpoch], [ErrorCode.NONE, -2]);
    const group = h.shard.consumerGroup('g')!;
    assert.equal(group.members.get('m1')!.memberEpoch, -2);
    const back = h.joinConsumer('m1b', ['t'], 'i1');
    assert.equal(back.errorCode, ErrorCode.NONE);
    assert.equal(back.memberEpoch, 2, 'same group epoch: no rebalance');
    assert.deepEqual(assigned(back), ['t-0', 't-1', 't-2', 't-3']);
    assert.deepEqual([...group.members.keys()], ['m1b']);
    assert.equal(group.groupEpoch, 2);
    const fenced = h.hb({ memberId: 'm1', memberEpoch: 2, instanceId: 'i1' });
    assert.deepEqual([fenced.errorCode, fenced.errorMessage], [ErrorCode.FENCED_INSTANCE_ID, 'Static member m1 with instance id i1 was fenced by member m1b.']);
    const unknown = h.hb({ memberId: 'x', memberEpoch: 3, instanceId: 'i2' });
    assert.deepEqual([unknown.errorCode, unknown.errorMessage], [ErrorCode.UNKNOWN_MEMBER_ID, 'Instance id i2 is unknown.']);
  });

  test('a topic given partitions or subscribed to later bumps the group epoch at the next heartbeat', () => {
    const h = new ConsumerHarness();
    h.joinConsumer('m1', ['t', 'u']);
    assert.equal(h.shard.consumerGroup('g')!.groupEpoch, 2);
    h.topics = new StaticTopicsImage([
      { id: T, name: 't', numPartitions: 4 },
      { id: U, name: 'u', numPartitions: 2 },
    ]);
    const r = h.hb({ memberId: 'm1', memberEpoch: 2 });
    assert.equal(r.memberEpoch, 3);
    assert.deepEqual(assigned(r), ['t-0', 't-1', 't-2', 't-3', 'u-0', 'u-1']);
    h.topics = new StaticTopicsImage([
      { id: T, name: 't', numPartitions: 6 },
      { id: U, name: 'u', numPartitions: 2 },
    ]);
    const r2 = h.hb({ memberId: 'm1', memberEpoch: 3 });
    assert.equal(r2.memberEpoch, 4);
    assert.equal(assigned(r2)!.length, 8);
  });

  test("requests Kafka refuses, with Kafka's messages", () => {
    const h = new ConsumerHarness({ maxSize: 1 });
    const cases: [Partial<ConsumerGroupHeartbeatRequest>, number, string][] = [
      [{ groupId: '', memberId: 'm' }, ErrorCode.INVALID_REQUEST, "GroupId can't be empty."],
      [{ memberId: 'm', rebalanceTimeoutMs: -1, subscribedTopicNames: ['t'], topicPartitions: [] }, ErrorCode.INVALID_REQUEST, 'RebalanceTimeoutMs must be provided in first request.'],
      [{ memberId: 'm', rebalanceTimeoutMs: 1, subscribedTopicNames: ['t'], topicPartitions: null }, ErrorCode.INVALID_REQUEST, 'TopicPartitions must be empty when (re-)joining.'],
      [{ memberId: 'm', rebalanceTimeoutMs: 1, subscribedTopicNames: [], topicPartitions: [] }, ErrorCode.INVALID_REQUEST, 'SubscribedTopicNames or SubscribedTopicRegex must be set in first request.'],
      [{ memberId: 'm', memberEpoch: -3 }, ErrorCode.INVALID_REQUEST, 'MemberEpoch is invalid.'],
      [{ memberId: 'm', memberEpoch: -2 }, ErrorCode.INVALID_REQUEST, "InstanceId can't be null."],
      [
        { memberId: 'm', rebalanceTimeoutMs: 1, subscribedTopicNames: ['t'], topicPartitions: [], serverAssignor: 'sticky' },
        ErrorCode.UNSUPPORTED_ASSIGNOR,
        'ServerAssignor sticky is not supported. Supported assignors: uniform, range.',
      ],
      [{ groupId: 'nope', memberId: 'm', memberEpoch: 3 }, ErrorCode.GROUP_ID_NOT_FOUND, 'Consumer group nope not found.'],
      [{ groupId: 'nope', memberId: 'm', memberEpoch: -1 }, ErrorCode.GROUP_ID_NOT_FOUND, 'Group nope not found.'],
    ];
    for (const [fields, code, message] of cases) {
      const r = h.hb(fields);
      assert.deepEqual([r.errorCode, r.errorMessage], [code, message], JSON.stringify(fields));
    }
    h.joinConsumer('m1');
    const full = h.joinConsumer('m2');
    assert.deepEqual([full.errorCode, full.errorMessage], [ErrorCode.GROUP_MAX_SIZE_REACHED, 'The consumer group has reached its maximum capacity of 1 members.']);
  });

  test('a classic group with members is not upgraded when the policy does not allow it', () => {
    const h = new ConsumerHarness({ migrationPolicy: 'downgrade' });
    const { memberId } = h.joinNew();
    h.advance(0);
    assert.ok(memberId);
    const r = h.joinConsumer('m1');
    assert.deepEqual(
      [r.errorCode, r.errorMessage],
      [ErrorCode.GROUP_ID_NOT_FOUND, 'Cannot upgrade classic group g to consumer group because online upgrade is disabled.'],
    );
  });
});

describe('the group API on consumer groups', () => {
  test('ListGroups, DescribeGroups, ConsumerGroupDescribe, DeleteGroups', () => {
    const h = new ConsumerHarness();
    h.joinConsumer('m1');
    assert.deepEqual(h.shard.listGroups([], []), [{ groupId: 'g', protocolType: 'consumer', groupState: 'Stable', groupType: 'consumer' }]);
    assert.deepEqual(h.shard.listGroups([], ['classic']), []);
    assert.deepEqual(h.shard.listGroups(['empty'], []), []);
    const classic = h.shard.describeGroup('g');
    assert.deepEqual([classic.errorCode, classic.errorMessage, classic.groupState], [ErrorCode.GROUP_ID_NOT_FOUND, 'Group g is not a classic group.', 'Dead']);
    const [described] = h.shard.consumerGroupDescribe(['g']);
    assert.equal(described!.groupState, 'Stable');
    assert.equal(described!.groupEpoch, 2);
    assert.equal(described!.assignmentEpoch, 2);
    assert.equal(described!.assignorName, 'uniform');
    assert.equal(described!.members[0]!.memberType, 1);
    assert.deepEqual(described!.members[0]!.assignment.topicPartitions.map((t) => t.topicName), ['t']);
    const [missing] = h.shard.consumerGroupDescribe(['x']);
    assert.deepEqual([missing!.errorCode, missing!.errorMessage], [ErrorCode.GROUP_ID_NOT_FOUND, 'Group x not found.']);
    assert.deepEqual(h.apply(h.shard.deleteGroups(['g'])), [{ groupId: 'g', errorCode: ErrorCode.NON_EMPTY_GROUP }]);
    h.hb({ memberId: 'm1', memberEpoch: -1 });
    assert.deepEqual(h.apply(h.shard.deleteGroups(['g'])), [{ groupId: 'g', errorCode: ErrorCode.NONE }]);
    assert.equal(h.shard.consumerGroup('g'), undefined);
  });

  test('OffsetCommit and OffsetFetch check the member id and epoch', () => {
    const h = new ConsumerHarness();
    h.joinConsumer('m1');
    const commit = (memberId: string, epoch: number, apiVersion = 9) =>
      h.apply(
        h.shard.commitOffsets(
          { ...createOffsetCommitRequest(), groupId: 'g', memberId, generationIdOrMemberEpoch: epoch, topics: [{ name: 't', topicId: T, partitions: [{ partitionIndex: 0, committedOffset: 5n, committedLeaderEpoch: -1, committedMetadata: '' }] }] },
          apiVersion,
        ),
      )[0]!.partitions[0]!.errorCode;
    assert.equal(commit('m1', 2), ErrorCode.NONE);
    assert.equal(commit('m1', 1), ErrorCode.STALE_MEMBER_EPOCH);
    assert.equal(commit('zz', 2), ErrorCode.UNKNOWN_MEMBER_ID);
    assert.equal(commit('m1', 2, 8), ErrorCode.UNSUPPORTED_VERSION);
    assert.equal(commit('', -1), ErrorCode.UNKNOWN_MEMBER_ID, 'epoch -1 commits only into an empty group');
    const fetched = h.shard.fetchOffsets('g', [{ name: 't', partitionIndexes: [0] }], { memberId: 'm1', memberEpoch: 2 });
    assert.equal(fetched.topics[0]!.partitions[0]!.committedOffset, 5n);
    assert.equal(h.shard.fetchOffsets('g', null, { memberId: 'm1', memberEpoch: 1 }).errorCode, ErrorCode.STALE_MEMBER_EPOCH);
    assert.equal(h.shard.fetchOffsets('g', null, { memberId: 'x', memberEpoch: 2 }).errorCode, ErrorCode.UNKNOWN_MEMBER_ID);
    assert.equal(h.shard.fetchOffsets('g', null).topics.length, 1, 'the admin client reads without a member');
  });

  test('an empty consumer group goes once its offsets expire', async () => {
    const h = new ConsumerHarness();
    h.joinConsumer('m1');
    h.apply(h.shard.commitOffsets({ ...createOffsetCommitRequest(), groupId: 'g', memberId: 'm1', generationIdOrMemberEpoch: 2, topics: [{ name: 't', topicId: T, partitions: [{ partitionIndex: 0, committedOffset: 5n, committedLeaderEpoch: -1, committedMetadata: '' }] }] }, 9));
    h.hb({ memberId: 'm1', memberEpoch: -1 });
    h.apply(h.shard.cleanupExpired());
    assert.ok(h.shard.consumerGroup('g'));
    await h.advance(TEST_CONFIG.offsetsRetentionMs);
    h.apply(h.shard.cleanupExpired());
    assert.equal(h.shard.consumerGroup('g'), undefined);
  });

  test("a non-empty consumer group's offsets on topics no member subscribes to expire from their commit; subscribed ones stay", async () => {
    // Kafka 4.3.1: ModernGroup.offsetExpirationCondition is the commit timestamp in every state, and
    // cleanupExpiredOffsets keeps the topics isSubscribedToTopic names. The member's session outlives the retention.
    const h = new ConsumerHarness({ sessionTimeoutMs: 2 * TEST_CONFIG.offsetsRetentionMs });
    h.joinConsumer('m1');
    const partition = { partitionIndex: 0, committedOffset: 5n, committedLeaderEpoch: -1, committedMetadata: '' };
    h.apply(h.shard.commitOffsets({ ...createOffsetCommitRequest(), groupId: 'g', memberId: 'm1', generationIdOrMemberEpoch: 2,
      topics: [{ name: 't', topicId: T, partitions: [partition] }, { name: 'gone-from-subscription', topicId: ZERO_UUID, partitions: [partition] }] }, 9));
    const topics = () => h.shard.fetchOffsets('g', null).topics.map((t) => t.name).sort();
    h.apply(h.shard.cleanupExpired());
    assert.deepEqual(topics(), ['gone-from-subscription', 't']);
    await h.advance(TEST_CONFIG.offsetsRetentionMs);
    h.hb({ memberId: 'm1', memberEpoch: 2 });
    h.apply(h.shard.cleanupExpired());
    assert.deepEqual(topics(), ['t']);
    assert.equal(h.shard.consumerGroup('g')?.members.size, 1);
  });

  test('JoinGroup: a non-empty consumer group takes classic members; an empty one becomes a classic group', () => {
    const h = new ConsumerHarness();
    h.joinConsumer('m1');
    const refused = h.join({ protocolType: 'connect' }).get();
    assert.deepEqual([refused.errorCode, refused.memberId], [ErrorCode.INCONSISTENT_GROUP_PROTOCOL, '']);
    const told = h.join({}).get();
    assert.deepEqual([told.errorCode, told.memberId], [ErrorCode.MEMBER_ID_REQUIRED, 'uuid1']);
    h.hb({ memberId: 'm1', memberEpoch: -1 });
    const before = h.log.length;
    const joined = h.join({}).get();
    assert.equal(joined.errorCode, ErrorCode.MEMBER_ID_REQUIRED);
    assert.equal(h.shard.consumerGroup('g'), undefined);
    assert.equal(h.shard.groupState('g'), 'Empty');
    // The empty consumer group's tombstones, in Kafka's order (no member left to delete), then the new classic group's record.
    assert.deepEqual(h.log.slice(before).map((r) => `${r.type}:${r.value === null ? 'tombstone' : 'value'}`), [
      'consumer-target:tombstone',
      'consumer-partition-metadata:tombstone',
      'consumer-group:tombstone',
      'group:value',
    ]);
    // And back: a consumer heartbeat on the empty classic group replaces it (its tombstone first).
    const again = h.joinConsumer('m2');
    assert.equal(again.errorCode, ErrorCode.NONE);
    assert.equal(h.shard.group('g'), undefined);
  });

  test('a transactional commit with a stale epoch is ILLEGAL_GENERATION, at any version', () => {
    const h = new ConsumerHarness();
    h.joinConsumer('m1');
    const request = { ...createOffsetCommitRequest(), groupId: 'g', memberId: 'm1', generationIdOrMemberEpoch: 1, topics: [{ name: 't', topicId: T, partitions: [{ partitionIndex: 0, committedOffset: 5n, committedLeaderEpoch: -1, committedMetadata: '' }] }] };
    assert.equal(h.apply(h.shard.commitOffsets(request, 8, true))[0]!.partitions[0]!.errorCode, ErrorCode.ILLEGAL_GENERATION);
    assert.equal(h.apply(h.shard.commitOffsets({ ...request, generationIdOrMemberEpoch: 2 }, 8, true))[0]!.partitions[0]!.errorCode, ErrorCode.NONE);
  });

  test('a group rebuilt from the records written is the live group', () => {
    const h = new ConsumerHarness();
    h.joinConsumer('m1');
    h.joinConsumer('m2');
    h.hb({ memberId: 'm1', memberEpoch: 2, topicPartitions: owned([0, 1, 2, 3]) });
    const scheduler = new ManualScheduler(0);
    const fresh = new GroupShard(TEST_CONFIG, new KeyedTimer<Outcome<void>>(scheduler, () => undefined), scheduler, () => 'x');
    for (const record of h.log) fresh.replay(record);
    const live = h.shard.consumerGroup('g')!;
    const loaded = fresh.consumerGroup('g')!;
    assert.deepEqual([loaded.groupEpoch, loaded.assignmentEpoch, loaded.state], [live.groupEpoch, live.assignmentEpoch, live.state]);
    assert.deepEqual(loaded.members, live.members);
    assert.deepEqual(loaded.targetAssignment, live.targetAssignment);
  });
});

describe('regular expression subscriptions', () => {
  test('a new expression is resolved after the join (epoch 1, nothing yet), then bumps the group epoch; new topics that match are added', async () => {
    // What Kafka 4.3.1 answers for '.*' (reference broker): member epoch 1 at once, the assignment at the next heartbeat.
    const h = new ConsumerHarness();
    const bad = h.hb({ memberId: 'm1', memberEpoch: 0, rebalanceTimeoutMs: 30000, subscribedTopicRegex: '(', topicPartitions: [] });
    assert.deepEqual([bad.errorCode, bad.errorMessage], [ErrorCode.INVALID_REGULAR_EXPRESSION, 'SubscribedTopicRegex `(` is not a valid regular expression: missing closing ).']);
    const joined = h.hb({ memberId: 'm1', memberEpoch: 0, rebalanceTimeoutMs: 30000, subscribedTopicRegex: 't|u', topicPartitions: [] });
    assert.deepEqual([joined.errorCode, joined.memberEpoch, assigned(joined)], [ErrorCode.NONE, 1, []]);
    await h.advance(0);
    const group = h.shard.consumerGroup('g')!;
    assert.deepEqual([group.groupEpoch, [...group.resolvedRegularExpressions.get('t|u')!.topics]], [2, ['t']]);
    const next = h.hb({ memberId: 'm1', memberEpoch: 1 });
    assert.deepEqual([next.memberEpoch, assigned(next)], [2, ['t-0', 't-1', 't-2', 't-3']]);
    h.topics = new StaticTopicsImage([
      { id: T, name: 't', numPartitions: 4 },
      { id: U, name: 'u', numPartitions: 2 },
    ]);
    h.hb({ memberId: 'm1', memberEpoch: 2 });
    await h.advance(0);
    assert.equal(group.groupEpoch, 3);
    const grown = h.hb({ memberId: 'm1', memberEpoch: 2 });
    assert.deepEqual([grown.memberEpoch, assigned(grown)], [3, ['t-0', 't-1', 't-2', 't-3', 'u-0', 'u-1']]);
    // The last member of the expression leaving deletes it.
    h.hb({ memberId: 'm1', memberEpoch: -1 });
    assert.equal(group.resolvedRegularExpressions.size, 0);
    assert.equal(h.log.at(-2)!.type, 'consumer-regex');
  });
});
