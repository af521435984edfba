// The group coordinator resigning __consumer_offsets partitions and loading them again (what the coordinator-moved
// fault scenario does, as Kafka's coordinator does on a leader change): the partition's groups and offsets leave memory,
// a parked join is answered NOT_COORDINATOR, no member timer fires meanwhile, and the load brings back the group, its
// member and its offsets, the member's session starting at the load. Other partitions' groups are untouched.
import { ZERO_UUID } from '../../src/protocol/uuid.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveBrokerConfig } from '../../src/config/index.js';
import { GroupCoordinator } from '../../src/coordinator/group-coordinator.js';
import { partitionForGroup } from '../../src/coordinator/runtime/java-hash.js';
import { ErrorCode } from '../../src/protocol/error-codes.js';
import { createJoinGroupRequest } from '../../src/protocol/generated/join-group.js';
import { createOffsetCommitRequest } from '../../src/protocol/generated/offset-commit.js';
import { createSyncGroupRequest } from '../../src/protocol/generated/sync-group.js';
import { MemoryLogStore } from '../../src/storage/memory/memory-store.js';
import { ManualScheduler } from '../../src/storage/scheduler.js';
import { subscription } from './group-harness.js';

const config = resolveBrokerConfig({ 'offsets.topic.num.partitions': '3' });
const ctx = { clientId: 'c', clientHost: '/127.0.0.1', apiVersion: 3 };
const join = (groupId: string, memberId = '') => ({
  ...createJoinGroupRequest(), groupId, memberId, sessionTimeoutMs: 10_000, rebalanceTimeoutMs: 10_000, protocolType: 'consumer',
  protocols: [{ name: 'range', metadata: subscription(['t']) }],
});
const commit = (groupId: string, offset: number, generation = -1, memberId = '') => ({
  ...createOffsetCommitRequest(), groupId, generationIdOrMemberEpoch: generation, memberId,
  topics: [{ name: 't', topicId: ZERO_UUID, partitions: [{ partitionIndex: 0, committedOffset: BigInt(offset), committedLeaderEpoch: -1, committedMetadata: null }] }],
});

test('resign drops a partition\'s groups and offsets from memory; load reads them back and restarts the sessions', async () => {
  const store = new MemoryLogStore({ nodeId: 1 });
  const scheduler = new ManualScheduler(5_000);
  const coordinator = await GroupCoordinator.open({ store, config, scheduler });
  const moved = 'group-a';
  const other = ['b', 'c', 'd', 'e', 'f'].map((g) => `group-${g}`).find((g) => partitionForGroup(g, 3) !== partitionForGroup(moved, 3))!;
  const offsetOf = async (groupId: string) => (await coordinator.fetchOffsets(groupId, [{ name: 't', partitionIndexes: [0] }])).topics[0]!.partitions[0]!.committedOffset;

  const joining = coordinator.joinGroup(ctx, join(moved));
  await scheduler.advance(0);
  const { memberId } = await joining;
  assert.equal((await coordinator.syncGroup({ ...createSyncGroupRequest(), groupId: moved, generationId: 1, memberId, assignments: [{ memberId, assignment: Buffer.from('as') }] })).errorCode, ErrorCode.NONE);
  await coordinator.commitOffsets(commit(moved, 42, 1, memberId), 8);
  await coordinator.commitOffsets(commit(other, 7), 8);
  // A second member's join parks until the first rejoins.
  const parked = coordinator.joinGroup(ctx, join(moved, ''));
  await scheduler.advance(0);

  const partition = coordinator.partitionFor(moved);
  assert.equal(coordinator.resign(new Set([partition])), 1);
  assert.equal((await parked).errorCode, ErrorCode.NOT_COORDINATOR);
  assert.equal(coordinator.describeGroups([moved])[0]!.groupState, 'Dead');
  assert.equal(await offsetOf(moved), -1n);
  assert.equal(await offsetOf(other), 7n);
  // The member's session would have ended meanwhile: no timer of the resigned group runs.
  await scheduler.advance(60_000);

  await coordinator.load(new Set([partition]));
  const described = coordinator.describeGroups([moved])[0]!;
  assert.equal(described.groupState, 'Stable');
  assert.deepEqual(described.members.map((m) => [m.memberId, m.memberAssignment.toString()]), [[memberId, 'as']]);
  assert.equal(await offsetOf(moved), 42n);
  assert.equal(await offsetOf(other), 7n);
  // The session starts at the load: within it the member heartbeats, past it the member expires.
  await scheduler.advance(9_000);
  assert.equal(coordinator.heartbeat({ groupId: moved, memberId, generationId: 1, groupInstanceId: null }).errorCode, ErrorCode.NONE);
  await scheduler.advance(10_001);
  assert.equal(coordinator.heartbeat({ groupId: moved, memberId, generationId: 1, groupInstanceId: null }).errorCode, ErrorCode.UNKNOWN_MEMBER_ID);
  await coordinator.close();
});
