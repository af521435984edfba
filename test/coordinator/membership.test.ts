// The classic group state machine: every transition and timeout, driven with a manual clock.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ErrorCode } from '../../src/protocol/error-codes.js';
import { GroupHarness, subscription } from './group-harness.js';

/** Two dynamic members through a full first rebalance; returns their ids (a is the leader). */
async function stableGroupOfTwo(h: GroupHarness): Promise<{ a: string; b: string; generation: number }> {
  const a = h.joinNew();
  await h.advance(0); // initial rebalance delay 0: the join phase completes with a alone
  const gen1 = a.pending.get();
  h.sync({ memberId: a.memberId, generationId: gen1.generationId, assignments: [{ memberId: a.memberId, assignment: Buffer.from('A') }] });
  assert.equal(h.shard.groupState('g'), 'Stable');
  const b = h.joinNew();
  assert.equal(h.shard.groupState('g'), 'PreparingRebalance');
  assert.equal(h.heartbeat(a.memberId, gen1.generationId), ErrorCode.REBALANCE_IN_PROGRESS);
  const aRejoin = h.join({ memberId: a.memberId });
  const generation = aRejoin.get().generationId;
  assert.equal(b.pending.get().generationId, generation);
  const syncB = h.sync({ memberId: b.memberId, generationId: generation });
  assert.equal(syncB.done, false, 'a follower waits for the leader');
  h.sync({
    memberId: a.memberId,
    generationId: generation,
    assignments: [
      { memberId: a.memberId, assignment: Buffer.from('A2') },
      { memberId: b.memberId, assignment: Buffer.from('B2') },
    ],
  });
  assert.equal(syncB.get().assignment.toString(), 'B2');
  assert.equal(h.shard.groupState('g'), 'Stable');
  return { a: a.memberId, b: b.memberId, generation };
}

test('a new member: MEMBER_ID_REQUIRED, rejoin, join phase, leader sync, Stable', async () => {
  const h = new GroupHarness();
  const first = h.join({}, { clientId: 'c1' }).get();
  assert.equal(first.errorCode, ErrorCode.MEMBER_ID_REQUIRED);
  assert.match(first.memberId, /^c1-uuid\d+$/);
  assert.equal(h.shard.groupState('g'), 'Empty');
  assert.equal(h.log.length, 1, 'a new group is written as an empty group record');

  const rejoin = h.join({ memberId: first.memberId }, { clientId: 'c1' });
  assert.equal(rejoin.done, false, 'parked until the initial rebalance delay elapses');
  assert.equal(h.shard.groupState('g'), 'PreparingRebalance');
  await h.advance(0);
  const joined = rejoin.get();
  assert.equal(joined.errorCode, ErrorCode.NONE);
  assert.equal(joined.generationId, 1);
  assert.equal(joined.leader, first.memberId);
  assert.equal(joined.protocolName, 'range');
  assert.equal(joined.protocolType, 'consumer');
  assert.deepEqual(joined.members.map((m) => m.memberId), [first.memberId]);
  assert.equal(h.shard.groupState('g'), 'CompletingRebalance');

  const sync = h.sync({ memberId: first.memberId, generationId: 1, assignments: [{ memberId: first.memberId, assignment: Buffer.from('x') }] });
  assert.equal(sync.get().errorCode, ErrorCode.NONE);
  assert.equal(sync.get().assignment.toString(), 'x');
  assert.equal(sync.get().protocolName, 'range');
  assert.equal(h.shard.groupState('g'), 'Stable');
  const record = h.log.at(-1)!;
  assert.ok(record.type === 'group');
  assert.equal(record.value?.generation, 1);
  assert.equal(record.value?.members[0]?.assignment.toString(), 'x');
  assert.equal(h.heartbeat(first.memberId, 1), ErrorCode.NONE);
});

test('a member joining a stable group triggers a rebalance; only the leader gets the member list', async () => {
  const h = new GroupHarness();
  const { a, b, generation } = await stableGroupOfTwo(h);
  assert.equal(generation, 2);
  const group = h.shard.group('g')!;
  assert.equal(group.leaderId, a);
  assert.deepEqual([...group.members.keys()].sort(), [a, b].sort());
});

test('JoinGroup v0-v3 adds the member at once (no MEMBER_ID_REQUIRED)', async () => {
  const h = new GroupHarness();
  const join = h.join({}, { apiVersion: 3 });
  assert.equal(join.done, false);
  await h.advance(0);
  assert.equal(join.get().errorCode, ErrorCode.NONE);
  assert.equal(join.get().generationId, 1);
});

test('session timeout: a member that stops heartbeating is removed and the group rebalances', async () => {
  const h = new GroupHarness();
  const { a, b, generation } = await stableGroupOfTwo(h);
  // a keeps heartbeating, b is silent.
  for (let t = 0; t < 12000; t += 3000) {
    await h.advance(3000);
    if (h.shard.group('g')!.member(a) !== undefined && h.shard.groupState('g') === 'Stable') assert.equal(h.heartbeat(a, generation), ErrorCode.NONE);
  }
  assert.equal(h.shard.group('g')!.member(b), undefined, 'b expired after its 10 s session');
  assert.equal(h.shard.groupState('g'), 'PreparingRebalance');
  assert.equal(h.heartbeat(a, generation), ErrorCode.REBALANCE_IN_PROGRESS);
  const rejoin = h.join({ memberId: a });
  assert.equal(rejoin.get().generationId, generation + 1);
  assert.deepEqual(rejoin.get().members.map((m) => m.memberId), [a]);
  assert.equal(h.heartbeat(b, generation), ErrorCode.UNKNOWN_MEMBER_ID);
});

test('rebalance timeout: a member that does not rejoin is dropped when the join phase times out', async () => {
  const h = new GroupHarness();
  const { a, b } = await stableGroupOfTwo(h);
  const c = h.joinNew({ rebalanceTimeoutMs: 20000 });
  const aRejoin = h.join({ memberId: a, rebalanceTimeoutMs: 20000 });
  // b heartbeats (REBALANCE_IN_PROGRESS) but never rejoins.
  for (let t = 0; t < 30000; t += 5000) {
    await h.advance(5000);
    if (aRejoin.done) break;
    assert.equal(h.heartbeat(b, 2), ErrorCode.REBALANCE_IN_PROGRESS);
  }
  assert.equal(aRejoin.get().errorCode, ErrorCode.NONE);
  assert.equal(c.pending.get().generationId, 3);
  assert.deepEqual([...h.shard.group('g')!.members.keys()].sort(), [a, c.memberId].sort());
  assert.equal(h.heartbeat(b, 3), ErrorCode.UNKNOWN_MEMBER_ID);
});

test('the leader leaving: immediate rebalance, the remaining member becomes leader', async () => {
  const h = new GroupHarness();
  const { a, b, generation } = await stableGroupOfTwo(h);
  const left = h.apply(h.shard.leaveGroup('g', [{ memberId: a, groupInstanceId: null, reason: 'bye' }]));
  assert.equal(left.errorCode, ErrorCode.NONE);
  assert.deepEqual(left.members.map((m) => m.errorCode), [ErrorCode.NONE]);
  assert.equal(h.shard.groupState('g'), 'PreparingRebalance');
  assert.equal(h.shard.group('g')!.leaderId, b);
  const rejoin = h.join({ memberId: b });
  assert.equal(rejoin.get().generationId, generation + 1, 'the only member rejoined: the phase completes at once');
  assert.equal(rejoin.get().leader, b);
});

test('the last member leaving empties the group and writes it', async () => {
  const h = new GroupHarness();
  const a = h.joinNew();
  await h.advance(0);
  h.sync({ memberId: a.memberId, generationId: 1 });
  const before = h.log.length;
  h.apply(h.shard.leaveGroup('g', [{ memberId: a.memberId, groupInstanceId: null, reason: null }]));
  assert.equal(h.shard.groupState('g'), 'Empty');
  assert.equal(h.shard.group('g')!.generationId, 2);
  assert.equal(h.log.length, before + 1);
  const record = h.log.at(-1)!;
  assert.ok(record.type === 'group' && record.value?.members.length === 0);
});

test('LeaveGroup errors: unknown group, unknown member, static member removed by instance id', async () => {
  const h = new GroupHarness();
  assert.equal(h.apply(h.shard.leaveGroup('nope', [{ memberId: 'x', groupInstanceId: null, reason: null }])).errorCode, ErrorCode.UNKNOWN_MEMBER_ID);
  const s = h.join({ groupInstanceId: 'i1' });
  await h.advance(0);
  const memberId = s.get().memberId;
  const result = h.apply(
    h.shard.leaveGroup('g', [
      { memberId: 'ghost', groupInstanceId: null, reason: null },
      { memberId: '', groupInstanceId: 'i1', reason: null },
      { memberId: '', groupInstanceId: 'i2', reason: null },
    ]),
  );
  assert.deepEqual(result.members.map((m) => m.errorCode), [ErrorCode.UNKNOWN_MEMBER_ID, ErrorCode.NONE, ErrorCode.UNKNOWN_MEMBER_ID]);
  assert.equal(h.shard.group('g')!.member(memberId), undefined);
});

test('a pending member (MEMBER_ID_REQUIRED) that never rejoins expires after its session timeout', async () => {
  const h = new GroupHarness();
  const { a, b, generation } = await stableGroupOfTwo(h);
  const first = h.join({}).get();
  assert.equal(h.shard.group('g')!.isPendingMember(first.memberId), true);
  await h.advance(5000);
  assert.equal(h.heartbeat(a, generation), ErrorCode.NONE);
  assert.equal(h.heartbeat(b, generation), ErrorCode.NONE);
  await h.advance(6000);
  assert.equal(h.shard.group('g')!.isPendingMember(first.memberId), false);
  assert.equal(h.shard.groupState('g'), 'Stable', 'a pending member does not trigger a rebalance');
  // Its later rejoin is unknown.
  assert.equal(h.join({ memberId: first.memberId }).get().errorCode, ErrorCode.UNKNOWN_MEMBER_ID);
});

test('pending sync: a member that never sends SyncGroup is removed after the rebalance timeout', async () => {
  const h = new GroupHarness();
  const a = h.joinNew({ rebalanceTimeoutMs: 8000 });
  await h.advance(0);
  const b = h.joinNew({ rebalanceTimeoutMs: 8000 });
  h.join({ memberId: a.memberId, rebalanceTimeoutMs: 8000 });
  assert.equal(h.shard.groupState('g'), 'CompletingRebalance');
  // The leader syncs; b never does (but heartbeats).
  const syncA = h.sync({ memberId: a.memberId, generationId: 2, assignments: [] });
  assert.equal(syncA.done, true);
  assert.equal(h.shard.groupState('g'), 'Stable');
  await h.advance(4000);
  assert.equal(h.heartbeat(b.memberId, 2), ErrorCode.NONE);
  await h.advance(4001);
  assert.equal(h.shard.group('g')!.member(b.memberId), undefined);
  assert.equal(h.shard.groupState('g'), 'PreparingRebalance');
});

test('rejoining during CompletingRebalance: same metadata gets the current generation again, new metadata a new generation', async () => {
  const h = new GroupHarness();
  const a = h.joinNew();
  await h.advance(0);
  const again = h.join({ memberId: a.memberId });
  assert.equal(again.get().generationId, 1);
  assert.equal(again.get().members.length, 1, 'the leader gets the members again');
  const changed = h.join({ memberId: a.memberId, protocols: [{ name: 'range', metadata: subscription(['t', 'u']) }] });
  assert.equal(changed.get().generationId, 2, 'the only member rejoined: a new generation at once');
  assert.equal(h.sync({ memberId: a.memberId, generationId: 1 }).get().errorCode, ErrorCode.ILLEGAL_GENERATION);
});

test('SyncGroup during PreparingRebalance is refused with REBALANCE_IN_PROGRESS', async () => {
  const h = new GroupHarness();
  const { a, b, generation } = await stableGroupOfTwo(h);
  h.join({ memberId: a, protocols: [{ name: 'range', metadata: subscription(['other']) }] });
  assert.equal(h.shard.groupState('g'), 'PreparingRebalance');
  assert.equal(h.sync({ memberId: b, generationId: generation }).get().errorCode, ErrorCode.REBALANCE_IN_PROGRESS);
});

test('a rebalance while followers wait in SyncGroup answers them REBALANCE_IN_PROGRESS', async () => {
  const h = new GroupHarness();
  const a = h.joinNew();
  await h.advance(0);
  h.sync({ memberId: a.memberId, generationId: 1 });
  const b = h.joinNew();
  h.join({ memberId: a.memberId });
  const syncB = h.sync({ memberId: b.memberId, generationId: 2 });
  assert.equal(syncB.done, false);
  h.joinNew(); // a third member arrives before the leader syncs
  assert.equal(syncB.get().errorCode, ErrorCode.REBALANCE_IN_PROGRESS);
});

test('SyncGroup and Heartbeat errors: unknown group/member, illegal generation, inconsistent protocol', async () => {
  const h = new GroupHarness();
  assert.equal(h.sync({ memberId: 'x', generationId: 1 }).get().errorCode, ErrorCode.UNKNOWN_MEMBER_ID);
  assert.equal(h.heartbeat('x', 1), ErrorCode.UNKNOWN_MEMBER_ID);
  const a = h.joinNew();
  await h.advance(0);
  assert.equal(h.sync({ memberId: 'x', generationId: 1 }).get().errorCode, ErrorCode.UNKNOWN_MEMBER_ID);
  assert.equal(h.sync({ memberId: a.memberId, generationId: 7 }).get().errorCode, ErrorCode.ILLEGAL_GENERATION);
  assert.equal(h.sync({ memberId: a.memberId, generationId: 1, protocolType: 'connect' }).get().errorCode, ErrorCode.INCONSISTENT_GROUP_PROTOCOL);
  assert.equal(h.sync({ memberId: a.memberId, generationId: 1, protocolName: 'roundrobin' }).get().errorCode, ErrorCode.INCONSISTENT_GROUP_PROTOCOL);
  assert.equal(h.heartbeat(a.memberId, 1), ErrorCode.NONE, 'heartbeats are fine while CompletingRebalance');
  assert.equal(h.heartbeat(a.memberId, 0), ErrorCode.ILLEGAL_GENERATION);
  assert.equal(h.heartbeat('', 1, null, ''), ErrorCode.INVALID_GROUP_ID);
});

test('JoinGroup validation: group id, session timeout bounds, unknown member of a missing group, group.max.size', async () => {
  const h = new GroupHarness({ maxGroupSize: 1 });
  assert.equal(h.join({ groupId: '' }).get().errorCode, ErrorCode.INVALID_GROUP_ID);
  assert.equal(h.join({ sessionTimeoutMs: 5999 }).get().errorCode, ErrorCode.INVALID_SESSION_TIMEOUT);
  assert.equal(h.join({ sessionTimeoutMs: 1800001 }).get().errorCode, ErrorCode.INVALID_SESSION_TIMEOUT);
  assert.equal(h.join({ groupId: 'missing', memberId: 'm' }).get().errorCode, ErrorCode.UNKNOWN_MEMBER_ID);
  const a = h.joinNew();
  await h.advance(0);
  h.sync({ memberId: a.memberId, generationId: 1 });
  assert.equal(h.join({}, { apiVersion: 3 }).get().errorCode, ErrorCode.GROUP_MAX_SIZE_REACHED);
});

test('protocols: inconsistent protocol type or no common protocol is refused; the vote picks the most preferred common one', async () => {
  const h = new GroupHarness();
  const meta = Buffer.from('m');
  const a = h.joinNew({ protocols: [{ name: 'range', metadata: meta }, { name: 'roundrobin', metadata: meta }] });
  await h.advance(0);
  h.sync({ memberId: a.memberId, generationId: 1 });
  assert.equal(h.join({ protocolType: 'connect' }).get().errorCode, ErrorCode.INCONSISTENT_GROUP_PROTOCOL);
  assert.equal(h.join({ protocols: [{ name: 'sticky', metadata: meta }] }).get().errorCode, ErrorCode.INCONSISTENT_GROUP_PROTOCOL);
  const b = h.joinNew({ protocols: [{ name: 'roundrobin', metadata: meta }, { name: 'range', metadata: meta }] });
  const c = h.joinNew({ protocols: [{ name: 'roundrobin', metadata: meta }, { name: 'sticky', metadata: meta }] });
  h.join({ memberId: a.memberId, protocols: [{ name: 'range', metadata: meta }, { name: 'roundrobin', metadata: meta }] });
  assert.equal(b.pending.get().protocolName, 'roundrobin');
  assert.equal(c.pending.get().protocolName, 'roundrobin');
});

test('initial rebalance delay: members arriving within the delay join one generation; each extends it up to the rebalance timeout', async () => {
  const h = new GroupHarness({ initialRebalanceDelayMs: 3000 });
  const a = h.joinNew({ rebalanceTimeoutMs: 10000 });
  await h.advance(2000);
  const b = h.joinNew({ rebalanceTimeoutMs: 10000 });
  await h.advance(1000);
  assert.equal(a.pending.done, false, 'a new member extended the delay');
  await h.advance(3000);
  assert.equal(a.pending.get().generationId, 1);
  assert.equal(b.pending.get().generationId, 1);
  assert.equal(a.pending.get().members.length, 2);
});

test('static membership: a restarted member takes its place without a rebalance; the old id is fenced', async () => {
  const h = new GroupHarness();
  const first = h.join({ groupInstanceId: 'inst-1' });
  assert.equal(first.done, false, 'static members never get MEMBER_ID_REQUIRED');
  await h.advance(0);
  const oldId = first.get().memberId;
  assert.match(oldId, /^inst-1-uuid\d+$/);
  h.sync({ memberId: oldId, generationId: 1, groupInstanceId: 'inst-1', assignments: [{ memberId: oldId, assignment: Buffer.from('P') }] });

  const restarted = h.join({ groupInstanceId: 'inst-1' });
  const response = restarted.get();
  assert.notEqual(response.memberId, oldId);
  assert.equal(response.generationId, 1, 'same generation: no rebalance');
  assert.equal(response.skipAssignment, true, 'v9: the static leader keeps its assignment');
  assert.equal(h.shard.groupState('g'), 'Stable');
  assert.equal(h.heartbeat(oldId, 1, 'inst-1'), ErrorCode.FENCED_INSTANCE_ID);
  assert.equal(h.heartbeat(response.memberId, 1, 'inst-1'), ErrorCode.NONE);
  assert.equal(h.sync({ memberId: response.memberId, generationId: 1, groupInstanceId: 'inst-1' }).get().assignment.toString(), 'P');
});

test('a static member that stops heartbeating is removed after its session timeout', async () => {
  const h = new GroupHarness();
  const s = h.join({ groupInstanceId: 'i' });
  await h.advance(0);
  h.sync({ memberId: s.get().memberId, generationId: 1, groupInstanceId: 'i' });
  await h.advance(10001);
  assert.equal(h.shard.groupState('g'), 'Empty');
});

test('a new member whose JoinGroup stays parked times out after the new-member timeout with UNKNOWN_MEMBER_ID', async () => {
  const h = new GroupHarness();
  const { a, b } = await stableGroupOfTwo(h);
  const c = h.joinNew({ rebalanceTimeoutMs: 600000 });
  h.join({ memberId: a, rebalanceTimeoutMs: 600000 });
  // b heartbeats but never rejoins, so the phase waits for the rebalance timeout (10 min) ...
  for (let t = 0; t < 300000; t += 5000) {
    await h.advance(5000);
    if (c.pending.done) break;
    h.heartbeat(b, 2);
  }
  // ... and c, a new member, is dropped first, after 5 minutes.
  assert.equal(c.pending.get().errorCode, ErrorCode.UNKNOWN_MEMBER_ID);
});
