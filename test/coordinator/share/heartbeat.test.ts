// ShareGroupHeartbeat through the GroupShard state machine (records replayed as the runtime does), with the injected
// clock: Kafka 4.3.1's own run replayed record for record, session expiry, the request checks and their messages,
// partitions shared by more members than there are partitions, and the group APIs' view of share groups.
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ErrorCode } from '../../../src/protocol/error-codes.js';
import { createOffsetCommitRequest } from '../../../src/protocol/generated/offset-commit.js';
import { createShareGroupHeartbeatRequest, type ShareGroupHeartbeatRequest, type ShareGroupHeartbeatResponse } from '../../../src/protocol/generated/share-group-heartbeat.js';
import { StaticTopicsImage, type TopicsImage } from '../../../src/coordinator/group/consumer/topics-image.js';
import { loadXxh3 } from '../../../src/coordinator/group/consumer/xxh3.js';
import { encodeRecordKey, encodeRecordValue } from '../../../src/coordinator/group/record-serde.js';
import { GroupHarness } from '../group-harness.js';
import type { GroupRecord } from '../../../src/coordinator/group/records.js';
import { JOBS_ID, kafkaShareRecords, MEMBER_A, MEMBER_B, SHARE_IMAGE } from './kafka-records.js';

before(loadXxh3);

class ShareHarness extends GroupHarness {
  topics: TopicsImage;

  constructor(topics: TopicsImage, options: { maxSize?: number; sessionTimeoutMs?: number } = {}) {
    super(
      {},
      { topics: () => this.topics, assignors: ['uniform'], maxSize: 100, settings: () => ({ sessionTimeoutMs: 45000, heartbeatIntervalMs: 5000, assignmentIntervalMs: 1000 }) },
      { maxSize: options.maxSize ?? 200, settings: () => ({ sessionTimeoutMs: options.sessionTimeoutMs ?? 45000, heartbeatIntervalMs: 5000, assignmentIntervalMs: 1000 }) },
    );
    this.topics = topics;
  }

  hb(fields: Partial<ShareGroupHeartbeatRequest>, clientId = 'c'): ShareGroupHeartbeatResponse {
    const request: ShareGroupHeartbeatRequest = { ...createShareGroupHeartbeatRequest(), groupId: 's1', ...fields };
    return this.apply(this.shard.shareGroupHeartbeat({ clientId, clientHost: '/127.0.0.1', apiVersion: 1 }, request));
  }

  /** Moves the clock to `time` (ms since the epoch), running what falls due. */
  async at(time: number): Promise<void> {
    await this.advance(time - this.scheduler.now());
  }
}

/** The response's assignment as sorted partition numbers (null: none sent). */
const assigned = (r: ShareGroupHeartbeatResponse): number[] | null =>
  r.assignment === null ? null : r.assignment.topicPartitions.flatMap((t) => t.partitions).sort((a, b) => a - b);

describe('ShareGroupHeartbeat', () => {
  test("Kafka 4.3.1's run: every record, in order, the bytes the reference broker wrote", async () => {
    const h = new ShareHarness(SHARE_IMAGE);
    await h.at(1796313115431);
    const joined = h.hb({ memberId: MEMBER_A, memberEpoch: 0, subscribedTopicNames: ['jobs'] }, 'c-a');
    // Nothing is assigned until the share partitions are initialized, which the task after the request does.
    assert.deepEqual([joined.memberEpoch, assigned(joined), joined.heartbeatIntervalMs], [2, [], 5000]);
    await h.at(1796313115473);
    await h.at(1796313120473);
    const a3 = h.hb({ memberId: MEMBER_A, memberEpoch: 2 }, 'c-a');
    assert.deepEqual([a3.memberEpoch, assigned(a3)], [3, [0, 1, 2]]);
    await h.at(1796313127680);
    const b = h.hb({ memberId: MEMBER_B, memberEpoch: 0, subscribedTopicNames: ['jobs'] }, 'c-b');
    assert.deepEqual([b.memberEpoch, assigned(b)], [4, [0, 1]]);
    await h.at(1796313130494);
    const a4 = h.hb({ memberId: MEMBER_A, memberEpoch: 3 }, 'c-a');
    assert.deepEqual([a4.memberEpoch, assigned(a4)], [4, [2]]);
    await h.at(1796313144506);
    assert.equal(h.hb({ memberId: MEMBER_B, memberEpoch: -1 }, 'c-b').memberEpoch, -1);
    await h.at(1796313145707);
    const a5 = h.hb({ memberId: MEMBER_A, memberEpoch: 4 }, 'c-a');
    assert.deepEqual([a5.memberEpoch, assigned(a5)], [5, [0, 1, 2]]);
    await h.at(1796313154584);
    h.hb({ memberId: MEMBER_A, memberEpoch: -1 }, 'c-a');

    const kafka = kafkaShareRecords();
    assert.deepEqual(
      h.log.map((r) => [encodeRecordKey(r).toString('hex'), encodeRecordValue(r)?.toString('hex') ?? null]),
      kafka.map((r) => [r.key.toString('hex'), r.value?.toString('hex') ?? null]),
    );
    assert.equal(h.shard.shareGroup('s1')!.state, 'Empty');
  });

  test("DeleteGroups of an empty share group: its share partitions recorded deleting, then its tombstones (Kafka 4.3.1's bytes)", async () => {
    const h = new ShareHarness(SHARE_IMAGE);
    const a = h.hb({ groupId: 'fresh1', memberId: MEMBER_A, memberEpoch: 0, subscribedTopicNames: ['jobs'] });
    await h.advance(0);
    assert.equal(h.shard.deleteGroups(['fresh1']).response[0]!.errorCode, ErrorCode.NON_EMPTY_GROUP);
    assert.equal(a.memberEpoch, 2);
    h.hb({ groupId: 'fresh1', memberId: MEMBER_A, memberEpoch: -1 });
    const before = h.log.length;
    assert.deepEqual(h.apply(h.shard.deleteGroups(['fresh1'])), [{ groupId: 'fresh1', errorCode: ErrorCode.NONE }]);
    // What the reference broker wrote when kafka-share-groups --delete deleted its group fresh1 (same topic id).
    assert.deepEqual(h.log.slice(before).map((r) => [encodeRecordKey(r).toString('hex'), encodeRecordValue(r)?.toString('hex') ?? null]), [
      ['000f0006667265736831', '000001010234aa84b1895c4e6a943bd5e64eb74977056a6f62730000'],
      ['000c0006667265736831', null],
      ['000f0006667265736831', null],
      ['000b0006667265736831', null],
    ]);
    assert.equal(h.shard.shareGroup('fresh1'), undefined);
  });

  test("a deleted topic leaves the share groups' state (Kafka 4.3.1's bytes for two topics, then one)", async () => {
    const dt = 'Ml5zZVxdQEmEjX4UcVmm8A'; // topic "dt" (2 partitions) on the reference broker
    const h = new ShareHarness(new StaticTopicsImage([{ id: JOBS_ID, name: 'jobs', numPartitions: 3 }, { id: dt, name: 'dt', numPartitions: 2 }]));
    h.hb({ groupId: 'dg1', memberId: MEMBER_A, memberEpoch: 0, subscribedTopicNames: ['dt', 'jobs'] });
    await h.advance(0);
    const bytes = (r: GroupRecord) => [encodeRecordKey(r).toString('hex'), encodeRecordValue(r)?.toString('hex') ?? null];
    assert.deepEqual(bytes(h.log.at(-1)!), [
      '000f0003646731',
      '0000010334aa84b1895c4e6a943bd5e64eb74977056a6f62730400000000000000010000000200325e73655c5d4049848d7e147159a6f0036474030000000000000001000100',
    ]);
    h.topics = new StaticTopicsImage([{ id: JOBS_ID, name: 'jobs', numPartitions: 3 }]);
    const deleted = h.apply(h.shard.onShareTopicsDeleted(new Set([dt])));
    assert.equal(deleted, undefined);
    assert.deepEqual(bytes(h.log.at(-1)!), ['000f0003646731', '0000010234aa84b1895c4e6a943bd5e64eb74977056a6f627304000000000000000100000002000100']);
    const before = h.log.length;
    h.apply(h.shard.onShareTopicsDeleted(new Set([dt])));
    assert.equal(h.log.length, before, 'a topic no group holds any more writes nothing');
  });

  test('a member that stops heartbeating is fenced when its session times out: its records deleted, the epoch bumped', async () => {
    const h = new ShareHarness(SHARE_IMAGE, { sessionTimeoutMs: 45000 });
    const a = h.hb({ memberId: MEMBER_A, memberEpoch: 0, subscribedTopicNames: ['jobs'] });
    await h.advance(0);
    const b = h.hb({ memberId: MEMBER_B, memberEpoch: 0, subscribedTopicNames: ['jobs'] });
    await h.advance(30000);
    assert.equal(h.hb({ memberId: MEMBER_A, memberEpoch: a.memberEpoch }).errorCode, ErrorCode.NONE);
    const before = h.log.length;
    await h.advance(15000); // B's session (last heartbeat 45 s ago) runs out; A's does not
    assert.deepEqual(h.log.slice(before).map((r) => r.type), ['share-current-member', 'share-target-member', 'share-member', 'share-group']);
    const group = h.shard.shareGroup('s1')!;
    assert.deepEqual([...group.members.keys()], [MEMBER_A]);
    const gone = h.hb({ memberId: MEMBER_B, memberEpoch: b.memberEpoch });
    assert.deepEqual([gone.errorCode, gone.errorMessage], [ErrorCode.UNKNOWN_MEMBER_ID, `Member ${MEMBER_B} is not a member of group s1.`]);
  });

  test("the request checks and epoch fencing answer Kafka's codes and messages", () => {
    const h = new ShareHarness(SHARE_IMAGE, { maxSize: 1 });
    const cases: [Partial<ShareGroupHeartbeatRequest>, number, string][] = [
      [{ memberId: '', memberEpoch: 0, subscribedTopicNames: ['jobs'] }, ErrorCode.INVALID_REQUEST, "MemberId can't be empty."],
      [{ groupId: '', memberId: 'm', memberEpoch: 0, subscribedTopicNames: ['jobs'] }, ErrorCode.INVALID_REQUEST, "GroupId can't be empty."],
      [{ memberId: 'm', rackId: '', memberEpoch: 0, subscribedTopicNames: ['jobs'] }, ErrorCode.INVALID_REQUEST, "RackId can't be empty."],
      [{ memberId: 'm', memberEpoch: 0, subscribedTopicNames: [] }, ErrorCode.INVALID_REQUEST, 'SubscribedTopicNames must be set in first request.'],
      [{ memberId: 'm', memberEpoch: -2 }, ErrorCode.INVALID_REQUEST, 'MemberEpoch is invalid.'],
      [{ memberId: 'm', memberEpoch: 1 }, ErrorCode.GROUP_ID_NOT_FOUND, 'Share group s1 not found.'],
    ];
    for (const [fields, code, message] of cases) {
      const r = h.hb(fields);
      assert.deepEqual([r.errorCode, r.errorMessage], [code, message], JSON.stringify(fields));
    }
    assert.equal(h.hb({ memberId: 'm', memberEpoch: 0, subscribedTopicNames: ['jobs'] }).memberEpoch, 2);
    const full = h.hb({ memberId: 'other', memberEpoch: 0, subscribedTopicNames: ['jobs'] });
    assert.deepEqual([full.errorCode, full.errorMessage], [ErrorCode.GROUP_MAX_SIZE_REACHED, 'The share group has reached its maximum capacity of 1 members.']);
    const ahead = h.hb({ memberId: 'm', memberEpoch: 5 });
    assert.deepEqual([ahead.errorCode, ahead.errorMessage], [
      ErrorCode.FENCED_MEMBER_EPOCH,
      'The share group member has a greater member epoch (5) than the one known by the group coordinator (2). The member must abandon all its partitions and rejoin.',
    ]);
    const behind = h.hb({ memberId: 'm', memberEpoch: 1 });
    assert.deepEqual([behind.errorCode, behind.errorMessage], [
      ErrorCode.FENCED_MEMBER_EPOCH,
      'The share group member has a smaller member epoch (1) than the one known by the group coordinator (2), and it does not match the previous member epoch (0). The member must abandon all its partitions and rejoin.',
    ]);
    // The previous epoch is accepted (the response that bumped it may have been lost).
    assert.equal(h.hb({ memberId: 'm', memberEpoch: 0, subscribedTopicNames: ['jobs'] }).errorCode, ErrorCode.NONE);
    const unknown = h.hb({ memberId: 'nobody', memberEpoch: -1 });
    assert.deepEqual([unknown.errorCode, unknown.errorMessage], [ErrorCode.UNKNOWN_MEMBER_ID, 'Member nobody is not a member of group s1.']);
  });

  test('three members on a one-partition topic all share partition 0; a consumer group id is not a share group', async () => {
    const q = 'AAAAAAAAAAAAAAAAAAAAAQ';
    const h = new ShareHarness(new StaticTopicsImage([{ id: q, name: 'q', numPartitions: 1 }]));
    // Within the assignment interval the second and third joins keep the first target (epoch 2, nothing initialized).
    const joins = ['m1', 'm2', 'm3'].map((m) => h.hb({ memberId: m, memberEpoch: 0, subscribedTopicNames: ['q'] }));
    assert.deepEqual(joins.map((r) => [r.memberEpoch, assigned(r)]), [[2, []], [2, []], [2, []]]);
    await h.advance(1000);
    const next = ['m1', 'm2', 'm3'].map((m) => h.hb({ memberId: m, memberEpoch: 2 }));
    assert.deepEqual(next.map((r) => [r.memberEpoch, assigned(r)]), [[4, [0]], [4, [0]], [4, [0]]]);
    const group = h.shard.shareGroup('s1')!;
    assert.deepEqual([...group.targetAssignment.values()].map((t) => [...t.get(q)!]), [[0], [0], [0]]);

    h.apply(h.shard.consumerGroupHeartbeat({ clientId: 'c', clientHost: '/127.0.0.1', apiVersion: 1 }, {
      groupId: 'cg', memberId: 'x', memberEpoch: 0, instanceId: null, rackId: null, rebalanceTimeoutMs: 1000,
      subscribedTopicNames: ['q'], subscribedTopicRegex: null, serverAssignor: null, topicPartitions: [], classicMemberMetadata: null,
    } as never));
    const wrong = h.hb({ groupId: 'cg', memberId: 'm', memberEpoch: 0, subscribedTopicNames: ['q'] });
    assert.deepEqual([wrong.errorCode, wrong.errorMessage], [ErrorCode.GROUP_ID_NOT_FOUND, 'Group cg is not a share group.']);
    assert.deepEqual(h.shard.shareGroupDescribe(['cg', 'none']).map((g) => [g.errorCode, g.errorMessage]), [
      [ErrorCode.GROUP_ID_NOT_FOUND, 'Group cg is not a share group.'],
      [ErrorCode.GROUP_ID_NOT_FOUND, 'Group none not found.'],
    ]);
    const [described] = h.shard.shareGroupDescribe(['s1']);
    assert.deepEqual(
      [described!.groupState, described!.groupEpoch, described!.assignmentEpoch, described!.assignorName, described!.members.length],
      ['Stable', 4, 4, 'simple', 3],
    );
    assert.deepEqual(described!.members[0]!.assignment.topicPartitions, [{ topicId: q, topicName: 'q', partitions: [0] }]);
    assert.deepEqual(h.shard.listGroups([], ['share']).map((g) => [g.groupId, g.groupType, g.protocolType, g.groupState]), [['s1', 'share', 'share', 'Stable']]);
    assert.equal(h.shard.deleteGroups(['s1']).response[0]!.errorCode, ErrorCode.NON_EMPTY_GROUP);
    assert.equal(h.shard.describeGroup('s1').errorMessage, 'Group s1 is not a classic group.');
    // The classic and offset APIs on a share group's id answer as Kafka 4.3.1 did on the reference broker, and
    // leave no classic group behind.
    const commit = h.apply(h.shard.commitOffsets({
      ...createOffsetCommitRequest(), groupId: 's1', generationIdOrMemberEpoch: -1,
      topics: [{ name: 'q', topicId: q, partitions: [{ partitionIndex: 0, committedOffset: 1n, committedLeaderEpoch: -1, committedMetadata: '' }] }],
    }, 9));
    assert.deepEqual(commit[0]!.partitions, [{ partitionIndex: 0, errorCode: ErrorCode.GROUP_ID_NOT_FOUND }]);
    assert.deepEqual(h.shard.fetchOffsets('s1', null), { errorCode: ErrorCode.NONE, topics: [] });
    assert.equal(h.apply(h.shard.deleteOffsets({ groupId: 's1', topics: [{ name: 'q', partitions: [{ partitionIndex: 0 }] }] })).errorCode, ErrorCode.GROUP_ID_NOT_FOUND);
    const joined = h.join({ groupId: 's1' }).get();
    assert.deepEqual([joined.errorCode, joined.memberId, joined.protocolName], [ErrorCode.INCONSISTENT_GROUP_PROTOCOL, '', null]);
    assert.equal(h.shard.group('s1'), undefined);
  });
});
