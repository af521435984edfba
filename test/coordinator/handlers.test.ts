// The group handlers over a real socket, version by version: what changes between versions of
// FindCoordinator, JoinGroup, LeaveGroup, OffsetCommit and OffsetFetch.
import { ZERO_UUID } from '../../src/protocol/uuid.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ErrorCode } from '../../src/protocol/error-codes.js';
import { createFindCoordinatorRequest, findCoordinatorApi } from '../../src/protocol/generated/find-coordinator.js';
import { createJoinGroupRequest, joinGroupApi } from '../../src/protocol/generated/join-group.js';
import { createLeaveGroupRequest, leaveGroupApi } from '../../src/protocol/generated/leave-group.js';
import { createOffsetCommitRequest, offsetCommitApi } from '../../src/protocol/generated/offset-commit.js';
import { createOffsetFetchRequest, offsetFetchApi } from '../../src/protocol/generated/offset-fetch.js';
import { listGroupsApi } from '../../src/protocol/generated/list-groups.js';
import { roundTrip, startTestBroker } from '../server/broker-harness.js';
import { RawClient } from '../server/raw-client.js';
import { MemoryLogStore } from '../../src/storage/memory/memory-store.js';

async function withBroker(run: (client: RawClient, port: number) => Promise<void>): Promise<void> {
  const broker = await startTestBroker({ 'offsets.topic.num.partitions': '4' });
  const client = await RawClient.connect(broker.port);
  try {
    await run(client, broker.port);
  } finally {
    await client.close();
    await broker.close();
  }
}

test('FindCoordinator v0-v6: this node; v4+ batched keys; unknown key types are INVALID_REQUEST; the first group lookup creates __consumer_offsets', async () => {
  await withBroker(async (client, port) => {
    const v0 = await roundTrip(client, findCoordinatorApi, 0, { ...createFindCoordinatorRequest(), key: 'g' });
    assert.deepEqual([v0.errorCode, v0.nodeId, v0.host, v0.port], [ErrorCode.NONE, 1, '127.0.0.1', port]);
    const v3 = await roundTrip(client, findCoordinatorApi, 3, { ...createFindCoordinatorRequest(), key: 'txn', keyType: 1 });
    assert.deepEqual([v3.errorCode, v3.errorMessage, v3.port], [ErrorCode.NONE, 'NONE', port]);
    const v4 = await roundTrip(client, findCoordinatorApi, 4, { ...createFindCoordinatorRequest(), keyType: 0, coordinatorKeys: ['a', 'b'] });
    assert.deepEqual(v4.coordinators.map((c) => [c.key, c.errorCode, c.nodeId, c.port]), [
      ['a', ErrorCode.NONE, 1, port],
      ['b', ErrorCode.NONE, 1, port],
    ]);
    const share = await roundTrip(client, findCoordinatorApi, 6, { ...createFindCoordinatorRequest(), keyType: 2, coordinatorKeys: ['s'] });
    assert.equal(share.coordinators[0]!.errorCode, ErrorCode.INVALID_REQUEST);
  });
});

test('JoinGroup v0 (no MEMBER_ID_REQUIRED, protocol name never null) and v4+ (MEMBER_ID_REQUIRED); LeaveGroup v0 folds the member error', async () => {
  await withBroker(async (client) => {
    const request = {
      ...createJoinGroupRequest(),
      groupId: 'g',
      sessionTimeoutMs: 10000,
      protocolType: 'consumer',
      protocols: [{ name: 'range', metadata: Buffer.from('m') }],
    };
    const v4 = await roundTrip(client, joinGroupApi, 4, request);
    assert.equal(v4.errorCode, ErrorCode.MEMBER_ID_REQUIRED);
    assert.match(v4.memberId, /^test-client-/);
    const bad = await roundTrip(client, joinGroupApi, 0, { ...request, sessionTimeoutMs: 10 });
    assert.deepEqual([bad.errorCode, bad.protocolName], [ErrorCode.INVALID_SESSION_TIMEOUT, '']);
    const v0 = await roundTrip(client, joinGroupApi, 0, { ...request, groupId: 'g0' });
    assert.equal(v0.errorCode, ErrorCode.NONE);
    assert.equal(v0.generationId, 1);
    assert.equal(v0.leader, v0.memberId);
    const leave = await roundTrip(client, leaveGroupApi, 0, { ...createLeaveGroupRequest(), groupId: 'g0', memberId: 'stranger' });
    assert.equal(leave.errorCode, ErrorCode.UNKNOWN_MEMBER_ID);
    const left = await roundTrip(client, leaveGroupApi, 2, { ...createLeaveGroupRequest(), groupId: 'g0', memberId: v0.memberId });
    assert.equal(left.errorCode, ErrorCode.NONE);
    const listed = await roundTrip(client, listGroupsApi, 4, { statesFilter: ['Empty'], typesFilter: [] });
    assert.deepEqual(listed.groups.map((g) => [g.groupId, g.groupState]).sort(), [['g', 'Empty'], ['g0', 'Empty']]);
  });
});

test('OffsetCommit v2 (unknown topics: UNKNOWN_TOPIC_OR_PARTITION) and OffsetFetch v1, v7 (all topics) and v8 (several groups)', async () => {
  const store = new MemoryLogStore({ nodeId: 1 });
  await store.createTopic('t', 2);
  const broker = await startTestBroker({}, { store });
  const client = await RawClient.connect(broker.port);
  try {
    const partition = (partitionIndex: number, offset: bigint) => ({ partitionIndex, committedOffset: offset, committedLeaderEpoch: -1, committedMetadata: 'x' });
    const committed = await roundTrip(client, offsetCommitApi, 2, {
      ...createOffsetCommitRequest(),
      groupId: 'g',
      generationIdOrMemberEpoch: -1,
      topics: [
        { topicId: ZERO_UUID, name: 't', partitions: [partition(0, 5n), partition(7, 1n)] },
        { topicId: ZERO_UUID, name: 'nope', partitions: [partition(0, 1n)] },
      ],
    });
    const errors = Object.fromEntries(committed.topics.flatMap((t) => t.partitions.map((p) => [`${t.name}-${p.partitionIndex}`, p.errorCode])));
    assert.deepEqual(errors, { 't-0': ErrorCode.NONE, 't-7': ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, 'nope-0': ErrorCode.UNKNOWN_TOPIC_OR_PARTITION });

    const v1 = await roundTrip(client, offsetFetchApi, 1, { ...createOffsetFetchRequest(), groupId: 'g', topics: [{ name: 't', partitionIndexes: [0, 1] }] });
    assert.deepEqual(v1.topics[0]!.partitions.map((p) => [p.partitionIndex, p.committedOffset, p.metadata]), [
      [0, 5n, 'x'],
      [1, -1n, ''],
    ]);
    const all = await roundTrip(client, offsetFetchApi, 7, { ...createOffsetFetchRequest(), groupId: 'g', topics: null, requireStable: true });
    assert.deepEqual(all.topics.map((t) => [t.name, t.partitions.map((p) => p.partitionIndex)]), [['t', [0]]]);
    const v8 = await roundTrip(client, offsetFetchApi, 8, {
      ...createOffsetFetchRequest(),
      groups: [
        { groupId: 'g', memberId: null, memberEpoch: -1, topics: null },
        { groupId: 'other', memberId: null, memberEpoch: -1, topics: [{ topicId: ZERO_UUID, name: 't', partitionIndexes: [0] }] },
      ],
    });
    assert.deepEqual(v8.groups.map((g) => [g.groupId, g.errorCode, g.topics.flatMap((t) => t.partitions.map((p) => p.committedOffset))]), [
      ['g', ErrorCode.NONE, [5n]],
      ['other', ErrorCode.NONE, [-1n]],
    ]);
  } finally {
    await client.close();
    await broker.close();
  }
});

test('OffsetCommit/OffsetFetch v10 name topics by id: UNKNOWN_TOPIC_ID for an unknown or zero id, offsets stored by name, answered by id', async () => {
  const store = new MemoryLogStore({ nodeId: 1 });
  const t = (await store.createTopic('t', 2)).topicId;
  const u = (await store.createTopic('u', 1)).topicId;
  const gone = (await store.createTopic('gone', 1)).topicId;
  const unknown = 'AAAAAAAAAAAAAAAAAAAAAQ';
  const broker = await startTestBroker({}, { store });
  const client = await RawClient.connect(broker.port);
  try {
    const partition = (partitionIndex: number) => ({ partitionIndex, committedOffset: 7n, committedLeaderEpoch: -1, commitTimestamp: -1n, committedMetadata: 'm' });
    const byId = (topicId: string, ...partitions: number[]) => ({ topicId, name: '', partitions: partitions.map(partition) });
    const commit = (version: number, topics: ReturnType<typeof byId>[], generationIdOrMemberEpoch = -1) =>
      roundTrip(client, offsetCommitApi, version, { ...createOffsetCommitRequest(), groupId: 'g', generationIdOrMemberEpoch, memberId: generationIdOrMemberEpoch < 0 ? '' : 'm1', topics });
    const answer = (response: Awaited<ReturnType<typeof commit>>) => response.topics.map((topic) => [topic.name, topic.topicId, topic.partitions.map((p) => [p.partitionIndex, p.errorCode])]);

    // As Kafka 4.3.1 answers: the refused partitions first, a known topic's merged into its entry; the rest as asked.
    assert.deepEqual(answer(await commit(10, [byId(unknown, 0, 1), byId(u, 5), byId(t, 0), byId(u, 0), byId(t, 1), byId(ZERO_UUID, 0)])), [
      ['', unknown, [[0, ErrorCode.UNKNOWN_TOPIC_ID], [1, ErrorCode.UNKNOWN_TOPIC_ID]]],
      ['', u, [[5, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION], [0, ErrorCode.NONE]]],
      ['', ZERO_UUID, [[0, ErrorCode.UNKNOWN_TOPIC_ID]]],
      ['', t, [[0, ErrorCode.NONE], [1, ErrorCode.NONE]]],
    ]);
    // Nothing refused: the coordinator's answer as is, a topic named twice answered twice.
    assert.deepEqual(answer(await commit(10, [byId(t, 0), byId(gone, 0), byId(t, 1)])), [
      ['', t, [[0, ErrorCode.NONE]]],
      ['', gone, [[0, ErrorCode.NONE]]],
      ['', t, [[1, ErrorCode.NONE]]],
    ]);
    // An absent group with a generation: GROUP_ID_NOT_FOUND for the known topics, UNKNOWN_TOPIC_ID before it.
    const absent = await roundTrip(client, offsetCommitApi, 10, { ...createOffsetCommitRequest(), groupId: 'none', generationIdOrMemberEpoch: 3, memberId: 'm1', topics: [byId(t, 0), byId(unknown, 0)] });
    assert.deepEqual(answer(absent), [
      ['', unknown, [[0, ErrorCode.UNKNOWN_TOPIC_ID]]],
      ['', t, [[0, ErrorCode.GROUP_ID_NOT_FOUND]]],
    ]);

    // Stored by name: v9 reads them by name.
    const v9 = await roundTrip(client, offsetFetchApi, 9, { ...createOffsetFetchRequest(), groups: [{ groupId: 'g', memberId: null, memberEpoch: -1, topics: [{ topicId: ZERO_UUID, name: 't', partitionIndexes: [0, 1] }] }] });
    assert.deepEqual(v9.groups[0]!.topics[0]!.partitions.map((p) => [p.partitionIndex, p.committedOffset, p.metadata]), [[0, 7n, 'm'], [1, 7n, 'm']]);

    await store.deleteTopic('gone');
    const fetch10 = (groupId: string, topics: { topicId: string; name: string; partitionIndexes: number[] }[] | null) =>
      roundTrip(client, offsetFetchApi, 10, { ...createOffsetFetchRequest(), groups: [{ groupId, memberId: null, memberEpoch: -1, topics }] });
    const offsets = (response: Awaited<ReturnType<typeof fetch10>>) =>
      response.groups.map((g) => [g.errorCode, g.topics.map((topic) => [topic.name, topic.topicId, topic.partitions.map((p) => [p.partitionIndex, p.committedOffset, p.committedLeaderEpoch, p.metadata, p.errorCode])])]);
    // All topics: by id, a topic without one (deleted) left out.
    assert.deepEqual(offsets(await fetch10('g', null)), [
      [ErrorCode.NONE, [
        ['', t, [[0, 7n, -1, 'm', ErrorCode.NONE], [1, 7n, -1, 'm', ErrorCode.NONE]]],
        ['', u, [[0, 7n, -1, 'm', ErrorCode.NONE]]],
      ]],
    ]);
    // Listed topics: the coordinator's as asked (-1 for a partition without an offset), then the unknown ids.
    const listed = [
      { topicId: unknown, name: '', partitionIndexes: [0] },
      { topicId: t, name: '', partitionIndexes: [1, 9] },
      { topicId: gone, name: '', partitionIndexes: [0] },
      { topicId: t, name: '', partitionIndexes: [0] },
    ];
    assert.deepEqual(offsets(await fetch10('g', listed)), [
      [ErrorCode.NONE, [
        ['', t, [[1, 7n, -1, 'm', ErrorCode.NONE], [9, -1n, -1, '', ErrorCode.NONE]]],
        ['', t, [[0, 7n, -1, 'm', ErrorCode.NONE]]],
        ['', unknown, [[0, -1n, -1, '', ErrorCode.UNKNOWN_TOPIC_ID]]],
        ['', gone, [[0, -1n, -1, '', ErrorCode.UNKNOWN_TOPIC_ID]]],
      ]],
    ]);
    assert.deepEqual(offsets(await fetch10('absent', [listed[0]!, listed[1]!])), [
      [ErrorCode.NONE, [
        ['', t, [[1, -1n, -1, '', ErrorCode.NONE], [9, -1n, -1, '', ErrorCode.NONE]]],
        ['', unknown, [[0, -1n, -1, '', ErrorCode.UNKNOWN_TOPIC_ID]]],
      ]],
    ]);
  } finally {
    await client.close();
    await broker.close();
  }
});
