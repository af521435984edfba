// Both protocols in one group (KIP-848 online upgrade and downgrade, mixed groups) through the GroupShard state machine
// with the injected clock: a classic group converted on the first ConsumerGroupHeartbeat, its classic members told to
// rejoin and served by the broker's assignor, fenced when their session expires, the group converted back once its
// last consumer-protocol member leaves, and the records replayed into a fresh shard giving the same group.
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ErrorCode } from '../../../src/protocol/error-codes.js';
import { decodeAssignment } from '../../../src/coordinator/group/consumer/classic-protocol.js';
import { loadXxh3 } from '../../../src/coordinator/group/consumer/xxh3.js';
import { encodeConsumerProtocolAssignment } from '../../../src/protocol/generated/data/consumer-protocol-assignment.js';
import { Writer } from '../../../src/protocol/io/writer.js';
import { createOffsetCommitRequest } from '../../../src/protocol/generated/offset-commit.js';
import { ZERO_UUID } from '../../../src/protocol/uuid.js';
import { ConsumerHarness } from './consumer-harness.js';

before(loadXxh3);

function assignmentBytes(partitions: number[]): Buffer {
  const w = new Writer();
  w.int16(0);
  encodeConsumerProtocolAssignment(w, { assignedPartitions: [{ topic: 't', partitions }], userData: null }, 0);
  return w.toBuffer();
}

/** Partitions of topic "t" in a SyncGroup assignment. */
function partitionsOf(bytes: Buffer): number[] {
  return decodeAssignment(bytes).assignedPartitions.flatMap((tp) => tp.partitions).sort();
}

/** A Stable classic group "g" at generation 1 with one member owning all four partitions of "t". */
async function stableClassicGroup(h: ConsumerHarness): Promise<string> {
  const { memberId, pending } = h.joinNew();
  await h.advance(0);
  const joined = pending.get();
  assert.equal(joined.generationId, 1);
  const synced = h.sync({ memberId, generationId: 1, protocolType: 'consumer', protocolName: 'range', assignments: [{ memberId, assignment: assignmentBytes([0, 1, 2, 3]) }] }).get();
  assert.equal(synced.errorCode, ErrorCode.NONE);
  assert.equal(h.shard.groupState('g'), 'Stable');
  return memberId;
}

describe('mixed groups', () => {
  test('upgrade: a Stable classic group becomes a consumer group; its classic member revokes, rejoins and syncs', async () => {
    const h = new ConsumerHarness();
    const classic = await stableClassicGroup(h);
    const before = h.log.length;
    const r = h.joinConsumer('c1');
    assert.equal(r.errorCode, ErrorCode.NONE);
    // The conversion's records (Kafka's order), then the joining member's.
    assert.deepEqual(h.log.slice(before, before + 6).map((x) => `${x.type}:${x.value === null ? 'tombstone' : 'value'}`), [
      'group:tombstone',
      'consumer-member:value',
      'consumer-group:value',
      'consumer-target-member:value',
      'consumer-target:value',
      'consumer-current-member:value',
    ]);
    const group = h.shard.consumerGroup('g')!;
    assert.equal(h.shard.group('g'), undefined);
    assert.equal(group.numClassicProtocolMembers, 1);
    // The new member gets nothing yet: the classic member still owns every partition.
    assert.equal(r.memberEpoch, 2);
    assert.deepEqual(r.assignment?.topicPartitions ?? [], []);
    // The classic member heartbeats at generation 1: the target moved on, it must rejoin.
    assert.equal(h.heartbeat(classic, 1), ErrorCode.REBALANCE_IN_PROGRESS);
    // It rejoins owning everything: it keeps what stays its own and revokes the rest (no new generation yet).
    const rejoin = h.join({ memberId: classic, protocols: [{ name: 'range', metadata: subscriptionOwning([0, 1, 2, 3]) }] }).get();
    assert.equal(rejoin.errorCode, ErrorCode.NONE);
    assert.equal(rejoin.protocolType, 'consumer');
    assert.equal(rejoin.protocolName, 'range');
    const revoking = h.shard.consumerGroup('g')!.members.get(classic)!;
    assert.equal(revoking.state, 'UNREVOKED_PARTITIONS');
    const sync1 = h.sync({ memberId: classic, generationId: rejoin.generationId, protocolType: 'consumer', protocolName: 'range' }).get();
    assert.equal(sync1.errorCode, ErrorCode.NONE);
    assert.equal(partitionsOf(sync1.assignment).length, 2);
    // Partitions to revoke: REBALANCE_IN_PROGRESS until it rejoins having given them up.
    assert.equal(h.heartbeat(classic, rejoin.generationId), ErrorCode.REBALANCE_IN_PROGRESS);
    const kept = partitionsOf(sync1.assignment);
    const again = h.join({ memberId: classic, protocols: [{ name: 'range', metadata: subscriptionOwning(kept) }] }).get();
    assert.equal(again.generationId, 2);
    const sync2 = h.sync({ memberId: classic, generationId: 2, protocolType: 'consumer', protocolName: 'range' }).get();
    assert.deepEqual(partitionsOf(sync2.assignment), kept);
    assert.equal(h.heartbeat(classic, 2), ErrorCode.NONE);
    // The consumer member now gets the other half: the two assignments are exclusive and cover the topic.
    const c1 = h.hb({ memberId: 'c1', memberEpoch: 2, topicPartitions: [] });
    const theirs = (c1.assignment?.topicPartitions ?? []).flatMap((t) => t.partitions).sort();
    assert.deepEqual([...kept, ...theirs].sort(), [0, 1, 2, 3]);
    assert.equal(h.shard.consumerGroup('g')!.state, 'Stable');
    // A stale generation is ILLEGAL_GENERATION; a consumer-protocol member may not use the classic API.
    assert.equal(h.heartbeat(classic, 1), ErrorCode.ILLEGAL_GENERATION);
    assert.equal(h.heartbeat('c1', 2), ErrorCode.UNKNOWN_MEMBER_ID);
    assert.equal(h.heartbeat('nobody', 2), ErrorCode.UNKNOWN_MEMBER_ID);

    // Restart: the records replayed into a fresh shard give the same group.
    const restarted = new ConsumerHarness();
    for (const record of h.log) restarted.shard.replay(record);
    const reloaded = restarted.shard.consumerGroup('g')!;
    assert.deepEqual([...reloaded.members.keys()].sort(), [...h.shard.consumerGroup('g')!.members.keys()].sort());
    assert.deepEqual(reloaded.members.get(classic), h.shard.consumerGroup('g')!.members.get(classic));
    assert.equal(reloaded.groupEpoch, h.shard.consumerGroup('g')!.groupEpoch);

    // Downgrade: the last consumer-protocol member leaves; a classic group at the group epoch, rebalancing.
    const beforeLeave = h.log.length;
    const epochBefore = h.shard.consumerGroup('g')!.groupEpoch;
    const left = h.hb({ memberId: 'c1', memberEpoch: -1 });
    assert.equal(left.errorCode, ErrorCode.NONE);
    assert.equal(h.shard.consumerGroup('g'), undefined);
    const downgraded = h.shard.group('g')!;
    assert.equal(downgraded.state, 'PreparingRebalance');
    assert.equal(downgraded.generationId, epochBefore);
    assert.deepEqual([...downgraded.members.keys()], [classic]);
    const written = h.log.slice(beforeLeave);
    assert.equal(written.at(-1)!.type, 'group');
    assert.ok(written.slice(0, -1).every((x) => x.value === null && x.type.startsWith('consumer')));
    // The classic member is told to rejoin, and the classic protocol takes over.
    assert.equal(h.heartbeat(classic, downgraded.generationId), ErrorCode.REBALANCE_IN_PROGRESS);
    const pending = h.join({ memberId: classic });
    await h.advance(0);
    assert.equal(pending.get().generationId, downgraded.generationId);
    // Replayed, the downgraded group is a classic group again.
    const afterRestart = new ConsumerHarness();
    for (const record of h.log) afterRestart.shard.replay(record);
    assert.equal(afterRestart.shard.consumerGroup('g'), undefined);
    assert.deepEqual([...afterRestart.shard.group('g')!.members.keys()], [classic]);
  });

  test('a classic group upgraded while rebalancing: the parked JoinGroup is told to rejoin, its member converted', async () => {
    const h = new ConsumerHarness();
    const first = await stableClassicGroup(h);
    const { memberId: second, pending } = h.joinNew();
    assert.equal(h.shard.groupState('g'), 'PreparingRebalance');
    assert.equal(pending.done, false);
    assert.equal(h.joinConsumer('c1').errorCode, ErrorCode.NONE);
    assert.deepEqual([pending.get().errorCode, pending.get().memberId], [ErrorCode.REBALANCE_IN_PROGRESS, second]);
    assert.deepEqual([...h.shard.consumerGroup('g')!.members.keys()].sort(), [first, second, 'c1'].sort());
  });

  test('an upgrade the joining member cannot finish leaves the classic group as it was, its sessions running', async () => {
    const h = new ConsumerHarness({ maxSize: 1 });
    const classic = await stableClassicGroup(h);
    const r = h.joinConsumer('c1');
    assert.deepEqual([r.errorCode, r.errorMessage], [ErrorCode.GROUP_MAX_SIZE_REACHED, 'The consumer group has reached its maximum capacity of 1 members.']);
    assert.equal(h.shard.groupState('g'), 'Stable');
    assert.equal(h.heartbeat(classic, 1), ErrorCode.NONE);
    // Its session (10 s) still expires it.
    await h.advance(10001);
    assert.equal(h.shard.group('g')!.members.has(classic), false);
  });

  test("a classic member's session expires in a consumer group: it is fenced", async () => {
    const h = new ConsumerHarness();
    const classic = await stableClassicGroup(h);
    h.joinConsumer('c1');
    assert.equal(h.shard.consumerGroup('g')!.members.size, 2);
    // Its JoinGroup session timeout (10 s) passes without a heartbeat; the consumer member keeps heartbeating.
    await h.advance(5000);
    h.hb({ memberId: 'c1', memberEpoch: 2 });
    await h.advance(5001);
    assert.deepEqual([...h.shard.consumerGroup('g')!.members.keys()], ['c1']);
    assert.equal(h.heartbeat(classic, 1), ErrorCode.UNKNOWN_MEMBER_ID);
  });

  test('a classic member told to rejoin that does not within its rebalance timeout is fenced, heartbeats or not', async () => {
    const h = new ConsumerHarness();
    const classic = await stableClassicGroup(h);
    h.joinConsumer('c1');
    for (let t = 0; t < 30000; t += 5000) {
      assert.equal(h.heartbeat(classic, 1), ErrorCode.REBALANCE_IN_PROGRESS);
      h.hb({ memberId: 'c1', memberEpoch: 2 });
      await h.advance(5000);
    }
    assert.deepEqual([...h.shard.consumerGroup('g')!.members.keys()], ['c1']);
    // One that joins but never syncs is fenced after its rebalance timeout too.
    const joined = h.join({}).get();
    const rejoined = h.join({ memberId: joined.memberId }).get();
    assert.equal(rejoined.errorCode, ErrorCode.NONE);
    assert.equal(h.shard.consumerGroup('g')!.members.size, 2);
    // Its heartbeats keep its session (10 s) alive; the sync deadline (30 s) is what fences it.
    for (let t = 0; t < 25000; t += 5000) {
      await h.advance(5000);
      h.heartbeat(rejoined.memberId, rejoined.generationId);
      h.hb({ memberId: 'c1', memberEpoch: h.shard.consumerGroup('g')!.members.get('c1')!.memberEpoch });
    }
    await h.advance(4999);
    assert.equal(h.shard.consumerGroup('g')!.members.has(rejoined.memberId), true, 'still there at 29999 ms');
    await h.advance(1);
    assert.equal(h.shard.consumerGroup('g')!.members.has(rejoined.memberId), false);
  });

  test('after a restart every member of a mixed group has the group session timeout until it heartbeats', async () => {
    const h = new ConsumerHarness();
    const classic = await stableClassicGroup(h);
    h.joinConsumer('c1');
    const restarted = new ConsumerHarness();
    for (const record of h.log) restarted.shard.replay(record);
    restarted.shard.onLoaded();
    // Past the classic member's own 10 s, not the group's 45 s: still there.
    await restarted.advance(40000);
    restarted.hb({ memberId: 'c1', memberEpoch: 2 });
    assert.deepEqual([...restarted.shard.consumerGroup('g')!.members.keys()].sort(), [classic, 'c1'].sort());
    await restarted.advance(5001);
    assert.deepEqual([...restarted.shard.consumerGroup('g')!.members.keys()], ['c1']);
  });

  test('OffsetCommit with member epochs: a classic member by its generation, partitions checked by assignment epoch', async () => {
    const h = new ConsumerHarness();
    const classic = await stableClassicGroup(h);
    h.joinConsumer('c1');
    const commit = (memberId: string, epoch: number, partition: number, transactional = false) =>
      h.apply(
        h.shard.commitOffsets(
          {
            ...createOffsetCommitRequest(),
            groupId: 'g',
            memberId,
            generationIdOrMemberEpoch: epoch,
            topics: [{ name: 't', topicId: ZERO_UUID, partitions: [{ partitionIndex: partition, committedOffset: 5n, committedLeaderEpoch: -1, committedMetadata: '' }] }],
          },
          transactional ? 8 : 9,
          transactional,
        ),
      )[0]!.partitions[0]!.errorCode;
    // The classic member is still at generation 1, owning all four partitions since then.
    assert.equal(commit(classic, 1, 3), ErrorCode.NONE);
    assert.equal(commit(classic, 2, 3), ErrorCode.ILLEGAL_GENERATION, 'newer than its epoch');
    assert.equal(commit(classic, 0, 3), ErrorCode.ILLEGAL_GENERATION, 'older than the partition\'s assignment epoch');
    // The consumer member at epoch 2 owns nothing yet: an older epoch may commit no partition.
    assert.equal(commit('c1', 2, 0), ErrorCode.NONE);
    assert.equal(commit('c1', 1, 0), ErrorCode.STALE_MEMBER_EPOCH);
    assert.equal(commit('c1', 3, 0), ErrorCode.STALE_MEMBER_EPOCH);
    assert.equal(commit('c1', 1, 0, true), ErrorCode.ILLEGAL_GENERATION, 'TxnOffsetCommit has no STALE_MEMBER_EPOCH');
    assert.equal(commit('', -1, 0, true), ErrorCode.NONE, 'a transactional commit from no member');
    assert.equal(commit('', -1, 0), ErrorCode.UNKNOWN_MEMBER_ID);
    // OffsetFetch v9+ naming the member: its epoch must match, a classic member's generation too.
    assert.equal(h.shard.fetchOffsets('g', null, { memberId: classic, memberEpoch: 1 }).errorCode, ErrorCode.NONE);
    assert.equal(h.shard.fetchOffsets('g', null, { memberId: classic, memberEpoch: 2 }).errorCode, ErrorCode.ILLEGAL_GENERATION);
    assert.equal(h.shard.fetchOffsets('g', null, { memberId: 'c1', memberEpoch: 1 }).errorCode, ErrorCode.STALE_MEMBER_EPOCH);
  });

  test('a classic static member replacing the last consumer-protocol member downgrades the group, keeping its assignment', () => {
    const h = new ConsumerHarness();
    const c1 = h.joinConsumer('c1', ['t'], 'i1');
    assert.deepEqual((c1.assignment?.topicPartitions ?? []).flatMap((t) => t.partitions).sort(), [0, 1, 2, 3]);
    // A classic static member joins the consumer group (no member id needed): a mixed group.
    const joined = h.join({ groupInstanceId: 'i2' }).get();
    assert.equal(joined.errorCode, ErrorCode.NONE);
    const classicId = joined.memberId;
    assert.equal(h.shard.consumerGroup('g')!.numClassicProtocolMembers, 1);
    // Instance i1 comes back speaking the classic protocol with the same subscription.
    const c1Target = [...h.shard.consumerGroup('g')!.targetAssignment.get('c1')!.values()].flatMap((ps) => [...ps]).sort();
    const before = h.log.length;
    const replacing = h.join({ groupInstanceId: 'i1' }).get();
    assert.equal(replacing.errorCode, ErrorCode.NONE);
    assert.equal(h.shard.consumerGroup('g'), undefined);
    const classic = h.shard.group('g')!;
    assert.equal(classic.state, 'Stable', 'the same subscription: no rebalance');
    assert.deepEqual([...classic.members.keys()].sort(), [classicId, replacing.memberId].sort());
    assert.equal(classic.generationId, replacing.generationId);
    // It holds what c1 held, in ConsumerProtocol bytes, and heartbeats at the generation it was told.
    assert.deepEqual(partitionsOf(classic.member(replacing.memberId)!.assignment), c1Target);
    assert.equal(c1Target.length, 2);
    assert.equal(h.heartbeat(replacing.memberId, replacing.generationId, 'i1'), ErrorCode.NONE);
    // The records: c1 replaced by the new member, the consumer group's tombstones under the new id, the classic group.
    const written = h.log.slice(before);
    assert.equal(written.at(-1)!.type, 'group');
    const deletedMembers = new Set(written.filter((r) => r.type === 'consumer-member' && r.value === null).map((r) => (r as { memberId: string }).memberId));
    assert.deepEqual([...deletedMembers].sort(), ['c1', classicId, replacing.memberId].sort());
    const restarted = new ConsumerHarness();
    for (const record of h.log) restarted.shard.replay(record);
    assert.equal(restarted.shard.consumerGroup('g'), undefined);
    assert.deepEqual([...restarted.shard.group('g')!.members.keys()].sort(), [classicId, replacing.memberId].sort());
  });

  test('LeaveGroup of a classic member, and the migration policy', async () => {
    const h = new ConsumerHarness();
    const classic = await stableClassicGroup(h);
    h.joinConsumer('c1');
    const left = h.apply(h.shard.leaveGroup('g', [{ memberId: classic, groupInstanceId: null, reason: null }, { memberId: 'c1', groupInstanceId: null, reason: null }]));
    assert.deepEqual(left.members.map((m) => m.errorCode), [ErrorCode.NONE, ErrorCode.UNKNOWN_MEMBER_ID]);
    assert.deepEqual([...h.shard.consumerGroup('g')!.members.keys()], ['c1']);

    // UPGRADE only: the last consumer member leaving leaves a consumer group of classic members.
    const up = new ConsumerHarness({ migrationPolicy: 'upgrade' });
    const member = await stableClassicGroup(up);
    up.joinConsumer('c1');
    up.hb({ memberId: 'c1', memberEpoch: -1 });
    assert.deepEqual([...up.shard.consumerGroup('g')!.members.keys()], [member]);
  });
});

/** ConsumerProtocolSubscription v1 of topic "t" owning these partitions (what a rejoining classic consumer sends). */
function subscriptionOwning(partitions: number[]): Buffer {
  const w = new Writer();
  w.int16(1);
  w.int32(1);
  w.string('t');
  w.nullableBytes(null);
  w.int32(1);
  w.string('t');
  w.int32(partitions.length);
  for (const p of partitions) w.int32(p);
  return w.toBuffer();
}
