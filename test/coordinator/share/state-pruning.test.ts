// __share_group_state pruning and cold-partition snapshots, as Kafka 4.3.1's ShareCoordinatorService runs them on its
// timer: every share.coordinator.state.topic.prune.interval.ms a partition's log start moves up to the oldest latest
// snapshot it holds; every share.coordinator.cold.partition.snapshot.interval.ms the share partitions not written to
// for that long get a fresh snapshot, so an idle one stops holding the prune point back. All on a manual clock, over
// a real (memory) log store that a second coordinator then loads again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveBrokerConfig } from '../../../src/config/index.js';
import { ShareCoordinator, SHARE_GROUP_STATE_TOPIC } from '../../../src/coordinator/share-state/share-coordinator.js';
import { RedundantOffsets } from '../../../src/coordinator/share-state/redundant-offsets.js';
import { decodeShareStateRecord, type SharePartitionKey } from '../../../src/coordinator/share-state/records.js';
import { decodeBatchRecords } from '../../../src/protocol/records/index.js';
import { replayBatches } from '../../../src/storage/log-replay.js';
import { MemoryLogStore } from '../../../src/storage/memory/memory-store.js';
import { ManualScheduler } from '../../../src/storage/scheduler.js';

const config = resolveBrokerConfig({
  'share.coordinator.state.topic.num.partitions': '1',
  'share.coordinator.snapshot.update.records.per.snapshot': '2',
  'share.coordinator.state.topic.prune.interval.ms': '1000',
  'share.coordinator.cold.partition.snapshot.interval.ms': '5000',
});

const write = (coordinator: ShareCoordinator, key: SharePartitionKey, first: number) =>
  coordinator.write(key, { stateEpoch: 0, leaderEpoch: 0, startOffset: -1, deliveryCompleteCount: 1, stateBatches: [{ firstOffset: first, lastOffset: first, deliveryState: 2, deliveryCount: 1 }] });

/** What partition 0 of __share_group_state holds from its log start: [offset, type, share partition, snapshot epoch]. */
async function stateLog(store: MemoryLogStore): Promise<{ start: number; records: [number, string, number, number][] }> {
  const log = store.log(SHARE_GROUP_STATE_TOPIC, 0)!;
  const records: [number, string, number, number][] = [];
  for await (const batch of replayBatches(log, log.logStartOffset, 1 << 20)) {
    for (const r of decodeBatchRecords(batch)) {
      const record = decodeShareStateRecord(r.key!, r.value)!;
      records.push([r.offset, record.type, record.key.partition, record.value?.snapshotEpoch ?? -1]);
    }
  }
  return { start: log.logStartOffset, records };
}

test('the share coordinator prunes __share_group_state below the oldest latest snapshot, snapshots cold partitions, and a reload gives the same state', async () => {
  const store = new MemoryLogStore({ nodeId: 1 });
  const topic = await store.createTopic('t', 2);
  const clock = new ManualScheduler(10_000);
  const coordinator = await ShareCoordinator.open({ store, config: () => config, scheduler: clock });
  await coordinator.ensureTopic();
  const a: SharePartitionKey = { groupId: 'g', topicId: topic.topicId, partition: 0 };
  const b: SharePartitionKey = { groupId: 'g', topicId: topic.topicId, partition: 1 };
  assert.equal((await coordinator.initialize(a, 0, 0)).errorCode, 0); // offset 0: snapshot of a
  assert.equal((await coordinator.initialize(b, 0, 0)).errorCode, 0); // offset 1: snapshot of b

  // t=11 000: the latest snapshots are at 0 and 1: nothing below 0 to delete.
  await clock.advance(1_000);
  assert.equal((await stateLog(store)).start, 0);

  // Four writes of a: three ShareUpdates (2-4), then a ShareSnapshot (5) after updates.per.snapshot of them.
  for (let i = 0; i < 4; i++) assert.equal((await write(coordinator, a, i)).errorCode, 0);
  assert.deepEqual((await stateLog(store)).records.map((r) => r.slice(1, 3)), [['snapshot', 0], ['snapshot', 1], ['update', 0], ['update', 0], ['update', 0], ['snapshot', 0]]);

  // t=12 000: b's snapshot at 1 is now the oldest latest one: everything before it goes.
  await clock.advance(1_000);
  assert.deepEqual(await stateLog(store), {
    start: 1,
    records: [[1, 'snapshot', 1, 0], [2, 'update', 0, 0], [3, 'update', 0, 0], [4, 'update', 0, 0], [5, 'snapshot', 0, 1]],
  });

  // t=15 000: b was last written at 10 000, a at 11 000: only b is cold. Its fresh snapshot (epoch 1, its create
  // time kept) lets the log start reach a's latest snapshot.
  const bBefore = coordinator.shard.get(b)!;
  await clock.advance(3_000);
  const bCold = coordinator.shard.get(b)!;
  assert.deepEqual(bCold, { ...bBefore, snapshotEpoch: 1, writeTimestamp: 15_000 });
  await clock.advance(1_000);
  assert.deepEqual(await stateLog(store), { start: 5, records: [[5, 'snapshot', 0, 1], [6, 'snapshot', 1, 1]] });

  // A reload reads the same state from what is left, and its next prune finds nothing more to delete.
  const aState = coordinator.shard.get(a);
  await coordinator.close();
  const reloaded = await ShareCoordinator.open({ store, config: () => config, scheduler: new ManualScheduler(16_000) });
  assert.deepEqual(reloaded.shard.get(a), aState);
  assert.deepEqual(reloaded.shard.get(b), bCold);
  assert.deepEqual(aState!.stateBatches, [{ firstOffset: 0, lastOffset: 3, deliveryState: 2, deliveryCount: 1 }]);
  await reloaded.prune();
  assert.equal((await stateLog(store)).start, 5);
  // A new write goes on from the loaded state (its updates count from the loaded snapshot).
  assert.equal((await write(reloaded, a, 4)).errorCode, 0);
  assert.deepEqual(reloaded.shard.get(a)!.stateBatches, [{ firstOffset: 0, lastOffset: 4, deliveryState: 2, deliveryCount: 1 }]);
  await reloaded.close();
});

test('a cold partition is snapshotted once, not at every interval, and the jobs wait while periodicJobs says no', async () => {
  const store = new MemoryLogStore({ nodeId: 1 });
  const topic = await store.createTopic('t', 1);
  const clock = new ManualScheduler(0);
  let enabled = false;
  const coordinator = await ShareCoordinator.open({ store, config: () => config, scheduler: clock, periodicJobs: () => enabled });
  await coordinator.ensureTopic();
  const key: SharePartitionKey = { groupId: 'g', topicId: topic.topicId, partition: 0 };
  await coordinator.initialize(key, 0, 0);
  await write(coordinator, key, 0); // offset 1: an update
  await clock.advance(10_000);
  assert.deepEqual(await stateLog(store), { start: 0, records: [[0, 'snapshot', 0, 0], [1, 'update', 0, 0]] });

  enabled = true;
  // t=15 000: the snapshot (write time 0) is cold: a fresh one at offset 2, and the prune due at the same time (its
  // timer was set after the cold one's) deletes everything before it.
  await clock.advance(5_000);
  assert.deepEqual(await stateLog(store), { start: 2, records: [[2, 'snapshot', 0, 1]] });
  await clock.advance(20_000); // its write time now differs from its create time: no more snapshots of it
  assert.deepEqual(await stateLog(store), { start: 2, records: [[2, 'snapshot', 0, 1]] });
  assert.deepEqual(coordinator.shard.get(key)!.stateBatches, [{ firstOffset: 0, lastOffset: 0, deliveryState: 2, deliveryCount: 1 }]);
  await coordinator.close();
});

test('RedundantOffsets: the smallest latest snapshot offset; a deleted share partition stops holding it back after its tombstone', () => {
  const key = (partition: number): SharePartitionKey => ({ groupId: 'g', topicId: 'AAAAAAAAAAAAAAAAAAAAAQ', partition });
  const offsets = new RedundantOffsets();
  assert.equal(offsets.lastRedundantOffset(), undefined);
  offsets.update(key(1), 0, false);
  assert.equal(offsets.lastRedundantOffset(), undefined); // 0: nothing below it
  offsets.update(key(2), 1, false);
  offsets.update(key(3), 2, false);
  offsets.update(key(1), 3, false);
  assert.equal(offsets.lastRedundantOffset(), 1);
  offsets.update(key(2), 4, true); // key 2's tombstone
  assert.equal(offsets.lastRedundantOffset(), 2);
  offsets.update(key(3), 5, false);
  assert.equal(offsets.lastRedundantOffset(), 3); // key 2 forgotten: key 1 at 3 is the oldest
});

test('a deleted topic\'s share partitions get tombstones (Kafka\'s maybeCleanupShareState), and stop holding pruning back', async () => {
  const store = new MemoryLogStore({ nodeId: 1 });
  const gone = await store.createTopic('gone', 1);
  const kept = await store.createTopic('kept', 1);
  const clock = new ManualScheduler(0);
  const coordinator = await ShareCoordinator.open({ store, config: () => config, scheduler: clock });
  await coordinator.ensureTopic();
  const a: SharePartitionKey = { groupId: 'g', topicId: gone.topicId, partition: 0 };
  const b: SharePartitionKey = { groupId: 'g', topicId: kept.topicId, partition: 0 };
  await coordinator.initialize(a, 0, 0); // 0
  await coordinator.initialize(b, 0, 0); // 1
  await store.deleteTopic('gone');
  await coordinator.onTopicsDeleted([gone.topicId]); // 2: a's tombstone
  assert.equal(coordinator.shard.get(a), undefined);
  await coordinator.initialize(b, 1, 5); // 3: b's next snapshot
  await clock.advance(1_000);
  assert.deepEqual(await stateLog(store), { start: 3, records: [[3, 'snapshot', 0, 1]] });
  await coordinator.close();
  const reloaded = await ShareCoordinator.open({ store, config: () => config, scheduler: new ManualScheduler(0) });
  assert.deepEqual(reloaded.shard.keys(), [b]);
  assert.equal(reloaded.shard.get(b)!.startOffset, 5);
  await reloaded.close();
});
