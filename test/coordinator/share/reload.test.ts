// A share group through the runtime over a real (memory) log store: its records land in __consumer_offsets, a
// coordinator opened again on the log rebuilds the same group, and the loaded members' sessions start over: one that
// does not come back is fenced when its session times out, one that heartbeats goes on at its epoch.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveBrokerConfig } from '../../../src/config/index.js';
import { GroupCoordinator } from '../../../src/coordinator/group-coordinator.js';
import { ErrorCode } from '../../../src/protocol/error-codes.js';
import { createShareGroupHeartbeatRequest } from '../../../src/protocol/generated/share-group-heartbeat.js';
import { MemoryLogStore } from '../../../src/storage/memory/memory-store.js';
import { ManualScheduler } from '../../../src/storage/scheduler.js';

const config = resolveBrokerConfig({ 'offsets.topic.num.partitions': '3', 'group.share.assignment.interval.ms': '0' });
const ctx = { clientId: 'c', clientHost: '/127.0.0.1', apiVersion: 1 };
const beat = (groups: GroupCoordinator, memberId: string, memberEpoch: number, subscribedTopicNames: string[] | null = null) =>
  groups.shareGroupHeartbeat(ctx, { ...createShareGroupHeartbeatRequest(), groupId: 's', memberId, memberEpoch, subscribedTopicNames });

test('a share group outlives a coordinator reload; loaded members are fenced unless they heartbeat within their session', async () => {
  const store = new MemoryLogStore({ nodeId: 1 });
  const topic = await store.createTopic('t', 2);
  const clock = new ManualScheduler(5_000);
  const first = await GroupCoordinator.open({ store, config, scheduler: clock });
  await first.ensureTopic();
  assert.equal((await beat(first, 'm1', 0, ['t'])).memberEpoch, 2);
  assert.equal((await beat(first, 'm2', 0, ['t'])).memberEpoch, 3);
  await clock.advance(0); // the task after the joins initializes the share partitions
  const m1 = await beat(first, 'm1', 2);
  const m2 = await beat(first, 'm2', 3);
  assert.deepEqual([m1.errorCode, m1.memberEpoch, m2.errorCode, m2.memberEpoch], [ErrorCode.NONE, 4, ErrorCode.NONE, 4]);
  const before = first.shareGroupDescribe(['s'])[0]!;

  const scheduler = new ManualScheduler(10_000);
  const second = await GroupCoordinator.open({ store, config, scheduler });
  const after = second.shareGroupDescribe(['s'])[0]!;
  assert.deepEqual(after, before);
  assert.deepEqual(
    after.members.map((m) => [m.memberId, m.memberEpoch, m.assignment.topicPartitions.map((t) => [t.topicId, t.partitions.length])]),
    [['m1', m1.memberEpoch, [[topic.topicId, 1]]], ['m2', m2.memberEpoch, [[topic.topicId, 1]]]],
  );
  // m1 heartbeats at its epoch; m2 never comes back and is fenced once its 45 s session (started at load) runs out.
  await scheduler.advance(30_000);
  assert.deepEqual([(await beat(second, 'm1', m1.memberEpoch)).errorCode], [ErrorCode.NONE]);
  await scheduler.advance(15_000);
  await new Promise((resolve) => setImmediate(resolve));
  const fenced = second.shareGroupDescribe(['s'])[0]!;
  assert.deepEqual(fenced.members.map((m) => m.memberId), ['m1']);
  assert.equal(fenced.groupEpoch, after.groupEpoch + 1);
});
