// Committed offsets, group admin and expiry in the state machine, driven with a manual clock.
import type { DescribedGroup } from '../../src/protocol/generated/describe-groups.js';
import { ZERO_UUID } from '../../src/protocol/uuid.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ErrorCode } from '../../src/protocol/error-codes.js';
import { createOffsetCommitRequest, type OffsetCommitRequest } from '../../src/protocol/generated/offset-commit.js';
import { GroupHarness, subscription } from './group-harness.js';

function commitRequest(fields: Partial<OffsetCommitRequest>, offsets: Record<string, Record<number, number>> = { t: { 0: 10 } }): OffsetCommitRequest {
  return {
    ...createOffsetCommitRequest(),
    groupId: 'g',
    generationIdOrMemberEpoch: -1,
    memberId: '',
    ...fields,
    topics: Object.entries(offsets).map(([name, parts]) => ({
      name,
      topicId: ZERO_UUID,
      partitions: Object.entries(parts).map(([p, offset]) => ({
        partitionIndex: Number(p),
        committedOffset: BigInt(offset),
        committedLeaderEpoch: 3,
        commitTimestamp: -1n,
        committedMetadata: 'meta',
      })),
    })),
  };
}

function commitErrors(h: GroupHarness, fields: Partial<OffsetCommitRequest>, version = 9, offsets?: Record<string, Record<number, number>>): number[] {
  return h.apply(h.shard.commitOffsets(commitRequest(fields, offsets), version)).flatMap((t) => t.partitions.map((p) => p.errorCode));
}

async function stableMember(h: GroupHarness, topics = ['t']): Promise<string> {
  const a = h.joinNew({ protocols: [{ name: 'range', metadata: subscription(topics) }] });
  await h.advance(0);
  h.sync({ memberId: a.memberId, generationId: 1 });
  return a.memberId;
}

test('a commit outside group management creates a simple (Empty, typeless) group; fetch returns it', () => {
  const h = new GroupHarness();
  assert.deepEqual(commitErrors(h, {}, 9, { t: { 0: 10, 1: 20 } }), [ErrorCode.NONE, ErrorCode.NONE]);
  assert.equal(h.shard.groupState('g'), 'Empty');
  assert.equal(h.shard.group('g')!.protocolType, null);
  assert.equal(h.log.length, 2);
  const fetched = h.shard.fetchOffsets('g', [{ name: 't', partitionIndexes: [0, 1, 2] }]);
  assert.deepEqual(
    fetched.topics[0]!.partitions.map((p) => [p.partitionIndex, p.committedOffset, p.committedLeaderEpoch, p.metadata]),
    [
      [0, 10n, 3, 'meta'],
      [1, 20n, 3, 'meta'],
      [2, -1n, -1, ''],
    ],
  );
  const all = h.shard.fetchOffsets('g', null);
  assert.deepEqual(all.topics.map((t) => [t.name, t.partitions.length]), [['t', 2]]);
  assert.deepEqual(h.shard.fetchOffsets('unknown', null).topics, []);
  assert.equal(h.shard.fetchOffsets('unknown', [{ name: 't', partitionIndexes: [0] }]).topics[0]!.partitions[0]!.committedOffset, -1n);
  assert.deepEqual(h.shard.listGroups([], []).map((g) => [g.groupId, g.protocolType, g.groupState]), [['g', '', 'Empty']]);
});

test('commit checks: generation, member, rebalance in progress, missing group by version, metadata size', async () => {
  const h = new GroupHarness({ offsetMetadataMaxBytes: 4 });
  assert.deepEqual(commitErrors(h, { generationIdOrMemberEpoch: 1, memberId: 'm' }, 9), [ErrorCode.GROUP_ID_NOT_FOUND]);
  assert.deepEqual(commitErrors(h, { generationIdOrMemberEpoch: 1, memberId: 'm' }, 8), [ErrorCode.ILLEGAL_GENERATION]);
  const member = await stableMember(h);
  assert.deepEqual(commitErrors(h, { generationIdOrMemberEpoch: 1, memberId: member }), [ErrorCode.NONE]);
  assert.deepEqual(commitErrors(h, { generationIdOrMemberEpoch: 0, memberId: member }), [ErrorCode.ILLEGAL_GENERATION]);
  assert.deepEqual(commitErrors(h, { generationIdOrMemberEpoch: 1, memberId: 'other' }), [ErrorCode.UNKNOWN_MEMBER_ID]);
  assert.deepEqual(commitErrors(h, {}), [ErrorCode.UNKNOWN_MEMBER_ID], 'a non-member cannot commit for a non-empty group');
  assert.deepEqual(commitErrors(h, { generationIdOrMemberEpoch: 1, memberId: member, groupInstanceId: 'nope' }), [ErrorCode.UNKNOWN_MEMBER_ID]);
  assert.deepEqual(commitErrors(h, { groupId: '' }), [ErrorCode.NONE], '"" is a group like any other, as in Kafka 4.3.1');
  // Oversized metadata fails that partition only.
  const request = commitRequest({ generationIdOrMemberEpoch: 1, memberId: member });
  request.topics[0]!.partitions.push({ ...request.topics[0]!.partitions[0]!, partitionIndex: 1, committedMetadata: 'too long' });
  assert.deepEqual(
    h.apply(h.shard.commitOffsets(request, 9))[0]!.partitions.map((p) => p.errorCode),
    [ErrorCode.NONE, ErrorCode.OFFSET_METADATA_TOO_LARGE],
  );
  // A second member joins: CompletingRebalance refuses commits from the new generation.
  const b = h.joinNew();
  h.join({ memberId: member });
  assert.equal(b.pending.get().generationId, 2);
  assert.deepEqual(commitErrors(h, { generationIdOrMemberEpoch: 2, memberId: member }), [ErrorCode.REBALANCE_IN_PROGRESS]);
});

test('retention_time_ms (v2-v4) stores an expire timestamp; the default stores none', () => {
  const h = new GroupHarness();
  h.apply(h.shard.commitOffsets(commitRequest({ retentionTimeMs: 5000n }), 2));
  const record = h.log.at(-1)!;
  assert.ok(record.type === 'offset' && record.value !== null);
  assert.equal(record.value.expireTimestamp, h.scheduler.now() + 5000);
  h.apply(h.shard.commitOffsets(commitRequest({}), 9));
  const again = h.log.at(-1)!;
  assert.ok(again.type === 'offset' && again.value?.expireTimestamp === null);
});

test('DeleteGroups: NON_EMPTY_GROUP, GROUP_ID_NOT_FOUND (also for an absent ""); a deleted group leaves tombstones for it and its offsets', async () => {
  const h = new GroupHarness();
  h.apply(h.shard.commitOffsets(commitRequest({ groupId: 'simple' }, { t: { 0: 1, 1: 2 } }), 9));
  await stableMember(h);
  const results = h.apply(h.shard.deleteGroups(['g', 'simple', 'missing', '']));
  assert.deepEqual(results.map((r) => r.errorCode), [ErrorCode.NON_EMPTY_GROUP, ErrorCode.NONE, ErrorCode.GROUP_ID_NOT_FOUND, ErrorCode.GROUP_ID_NOT_FOUND]);
  const tombstones = h.log.slice(-3);
  assert.deepEqual(tombstones.map((r) => [r.type, r.group, r.value]), [
    ['offset', 'simple', null],
    ['offset', 'simple', null],
    ['group', 'simple', null],
  ]);
  assert.equal(h.shard.groupState('simple'), 'Dead');
  assert.deepEqual(h.shard.fetchOffsets('simple', null).topics, []);
});

test('OffsetDelete: GROUP_SUBSCRIBED_TO_TOPIC for subscribed topics of a live consumer group, tombstones otherwise', async () => {
  const h = new GroupHarness();
  assert.equal(h.apply(h.shard.deleteOffsets({ groupId: 'g', topics: [] })).errorCode, ErrorCode.GROUP_ID_NOT_FOUND);
  const member = await stableMember(h, ['t']);
  commitErrors(h, { generationIdOrMemberEpoch: 1, memberId: member }, 9, { t: { 0: 5 }, old: { 0: 7 } });
  const result = h.apply(
    h.shard.deleteOffsets({
      groupId: 'g',
      topics: [
        { name: 't', partitions: [{ partitionIndex: 0 }] },
        { name: 'old', partitions: [{ partitionIndex: 0 }, { partitionIndex: 1 }] },
      ],
    }),
  );
  assert.equal(result.errorCode, ErrorCode.NONE);
  assert.deepEqual(result.topics.map((t) => t.partitions.map((p) => p.errorCode)), [[ErrorCode.GROUP_SUBSCRIBED_TO_TOPIC], [ErrorCode.NONE, ErrorCode.NONE]]);
  assert.equal(h.log.at(-1)!.value, null, 'one tombstone: only old-0 had an offset');
  assert.deepEqual(h.shard.fetchOffsets('g', null).topics.map((t) => t.name), ['t']);
});

test('OffsetDelete on a non-empty group that does not use the consumer protocol is NON_EMPTY_GROUP', async () => {
  const h = new GroupHarness();
  const a = h.joinNew({ protocolType: 'connect', protocols: [{ name: 'default', metadata: Buffer.from('x') }] });
  await h.advance(0);
  h.sync({ memberId: a.memberId, generationId: 1 });
  assert.equal(h.apply(h.shard.deleteOffsets({ groupId: 'g', topics: [] })).errorCode, ErrorCode.NON_EMPTY_GROUP);
});

test('expiry: offsets of an empty group go offsets.retention after it emptied; then the group goes too', async () => {
  const h = new GroupHarness({ offsetsRetentionMs: 60_000 });
  const member = await stableMember(h);
  commitErrors(h, { generationIdOrMemberEpoch: 1, memberId: member });
  for (let t = 0; t < 90_000; t += 5_000) {
    await h.advance(5_000);
    assert.equal(h.heartbeat(member, 1), ErrorCode.NONE);
  }
  h.apply(h.shard.cleanupExpired());
  assert.equal(h.shard.fetchOffsets('g', null).topics.length, 1, 'a stable group subscribed to t keeps its offsets');
  h.apply(h.shard.leaveGroup('g', [{ memberId: member, groupInstanceId: null, reason: null }]));
  await h.advance(59_000);
  h.apply(h.shard.cleanupExpired());
  assert.equal(h.shard.fetchOffsets('g', null).topics.length, 1, 'not yet: retention counts from when the group emptied');
  await h.advance(1_000);
  h.apply(h.shard.cleanupExpired());
  assert.deepEqual(h.shard.fetchOffsets('g', null).topics, []);
  assert.equal(h.shard.groupState('g'), 'Dead');
  assert.deepEqual(h.log.slice(-2).map((r) => [r.type, r.value]), [['offset', null], ['group', null]]);
});

test('expiry of a simple group counts from each commit; an explicit expire timestamp wins', async () => {
  const h = new GroupHarness({ offsetsRetentionMs: 60_000 });
  h.apply(h.shard.commitOffsets(commitRequest({}, { t: { 0: 1 } }), 9));
  h.apply(h.shard.commitOffsets(commitRequest({ retentionTimeMs: 10_000n }, { u: { 0: 1 } }), 3));
  await h.advance(10_000);
  h.apply(h.shard.cleanupExpired());
  assert.deepEqual(h.shard.fetchOffsets('g', null).topics.map((t) => t.name), ['t']);
  await h.advance(50_000);
  h.apply(h.shard.cleanupExpired());
  assert.equal(h.shard.groupState('g'), 'Dead');
});

test('DescribeGroups: Dead and GROUP_ID_NOT_FOUND for unknown groups; member metadata and assignment only when Stable', async () => {
  const h = new GroupHarness();
  const unknown = ({ groupState, protocolType, members, errorCode, errorMessage }: DescribedGroup) => ({ groupState, protocolType, members, errorCode, errorMessage });
  assert.deepEqual(unknown(h.shard.describeGroup('nope')),
    { groupState: 'Dead', protocolType: '', members: [], errorCode: ErrorCode.GROUP_ID_NOT_FOUND, errorMessage: 'Group nope not found.' });
  assert.deepEqual(unknown(h.shard.describeGroup('')),
    { groupState: 'Dead', protocolType: '', members: [], errorCode: ErrorCode.GROUP_ID_NOT_FOUND, errorMessage: 'Group  not found.' });
  const a = h.joinNew();
  await h.advance(0);
  const completing = h.shard.describeGroup('g');
  assert.equal(completing.groupState, 'CompletingRebalance');
  assert.equal(completing.protocolData, '');
  assert.equal(completing.members[0]!.memberMetadata.length, 0);
  h.sync({ memberId: a.memberId, generationId: 1, assignments: [{ memberId: a.memberId, assignment: Buffer.from('A') }] });
  const stable = h.shard.describeGroup('g');
  assert.equal(stable.groupState, 'Stable');
  assert.equal(stable.protocolType, 'consumer');
  assert.equal(stable.protocolData, 'range');
  assert.deepEqual(stable.members.map((m) => [m.memberId, m.clientId, m.clientHost, m.memberAssignment.toString()]), [[a.memberId, 'client', '/127.0.0.1', 'A']]);
  assert.ok(stable.members[0]!.memberMetadata.equals(subscription(['t'])));
});

test('ListGroups filters by state (case-insensitive) and type', async () => {
  const h = new GroupHarness();
  h.apply(h.shard.commitOffsets(commitRequest({ groupId: 'simple' }), 9));
  await stableMember(h);
  assert.deepEqual(h.shard.listGroups(['STABLE'], []).map((g) => g.groupId), ['g']);
  assert.deepEqual(h.shard.listGroups(['empty'], []).map((g) => g.groupId), ['simple']);
  assert.deepEqual(h.shard.listGroups([], ['Classic']).map((g) => g.groupId).sort(), ['g', 'simple']);
  assert.deepEqual(h.shard.listGroups([], ['consumer']), []);
});
