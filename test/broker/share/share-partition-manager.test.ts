// SharePartitionManager over a memory store with a manual clock: acquisition locks expire on the scheduler's
// timers (Kafka's AcquisitionLockTimerTask) without anyone fetching, and wake share fetches waiting in a long poll,
// as Kafka's DelayedShareFetch is completed when a lock times out, an acknowledgement or a session's release.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { ErrorCode } from '../../../src/protocol/error-codes.js';
import { DelayedFetches } from '../../../src/broker/fetch-wait.js';
import { RecordState } from '../../../src/broker/share/share-partition.js';
import { SharePartitionManager, type ShareFetchRead, type ShareGroupSettings } from '../../../src/broker/share/share-partition-manager.js';
import { ManualScheduler } from '../../../src/storage/scheduler.js';
import { MemoryLogStore } from '../../../src/storage/memory/memory-store.js';
import { batch, values } from '../data-harness.js';

const settings: ShareGroupSettings = { lockDurationMs: 15_000, deliveryCountLimit: 5, maxInFlightRecords: 200, renewAcknowledgeEnabled: true, autoOffsetReset: 'earliest', isolationLevel: 'read_uncommitted' };
/** A long poll far longer than any test: only a wake ends it. */
const LONG_POLL = { maxWaitMs: 600_000, minBytes: 1, maxBytes: 1 << 20, maxRecords: 500 };
const NOW = { ...LONG_POLL, maxWaitMs: 0 };

interface Harness {
  manager: SharePartitionManager;
  clock: ManualScheduler;
  delayed: DelayedFetches;
  ref: { topicId: string; partition: number };
  produce: (...texts: string[]) => Promise<void>;
}

async function withManager(run: (h: Harness) => Promise<void>): Promise<void> {
  const store = new MemoryLogStore({ nodeId: 1 });
  const clock = new ManualScheduler(1_000_000);
  const delayed = new DelayedFetches(clock);
  try {
    const topic = await store.createTopic('t', 1);
    const log = store.log('t', 0)!;
    const manager = new SharePartitionManager(store, delayed, clock, () => 1000);
    await run({ manager, clock, delayed, ref: { topicId: topic.topicId, partition: 0 }, produce: async (...texts) => void (await log.append(batch(values(...texts)), { leaderEpoch: 0 })) });
  } finally {
    delayed.shutdown();
    await store.close();
  }
}

const acquired = (reads: ShareFetchRead[]) => reads.flatMap((r) => r.acquired.map((a) => [a.firstOffset, a.lastOffset, a.deliveryCount]));

async function untilWaiting(delayed: DelayedFetches, count: number): Promise<void> {
  while (delayed.size < count) await nextTurn();
}

test('an expired lock makes its records available again without a fetch, at the lock duration and not before', async () => {
  await withManager(async ({ manager, clock, ref, produce }) => {
    await produce('a', 'b');
    assert.deepEqual(acquired(await manager.fetch('g', 'm1', [ref], NOW, settings)), [[0, 1, 1]]);
    const partition = (await manager.existing('g', ref))!;
    await clock.advance(14_999);
    assert.equal(partition.stateOf(0)?.state, RecordState.ACQUIRED);
    await clock.advance(1);
    // Nobody fetched: the timer released them.
    assert.deepEqual(partition.stateOf(0), { state: RecordState.AVAILABLE, deliveryCount: 1, memberId: null });
    assert.deepEqual(acquired(await manager.fetch('g', 'm2', [ref], NOW, settings)), [[0, 1, 2]]);
  });
});

test("a share fetch waiting in a long poll is answered when another member's lock expires", async () => {
  await withManager(async ({ manager, clock, delayed, ref, produce }) => {
    await produce('a', 'b', 'c');
    assert.deepEqual(acquired(await manager.fetch('g', 'm1', [ref], NOW, settings)), [[0, 2, 1]]);
    const waiting = manager.fetch('g', 'm2', [ref], LONG_POLL, settings);
    await untilWaiting(delayed, 1);
    await clock.advance(15_000);
    assert.deepEqual(acquired(await waiting), [[0, 2, 2]]);
  });
});

test('a waiting share fetch is answered by a RELEASE acknowledgement and by a released session, not by an ACCEPT', async () => {
  await withManager(async ({ manager, delayed, ref, produce }) => {
    await produce('a', 'b');
    assert.deepEqual(acquired(await manager.fetch('g', 'm1', [ref], NOW, settings)), [[0, 1, 1]]);
    const waiting = manager.fetch('g', 'm2', [ref], LONG_POLL, settings);
    await untilWaiting(delayed, 1);
    // The ACCEPT wakes it (as Kafka completes delayed share fetches after any acknowledgement), but it finds nothing and waits on.
    assert.equal(await manager.acknowledge('g', 'm1', ref, [{ firstOffset: 0, lastOffset: 0, types: [1] }], settings), 0);
    await untilWaiting(delayed, 1);
    await manager.releaseSession('g', 'm1', [ref], settings);
    assert.deepEqual(acquired(await waiting), [[1, 1, 2]]);
  });
});

test("a lock expiring after its records were acknowledged changes nothing and wakes no one", async () => {
  await withManager(async ({ manager, clock, ref, produce }) => {
    await produce('a');
    assert.deepEqual(acquired(await manager.fetch('g', 'm1', [ref], NOW, settings)), [[0, 0, 1]]);
    assert.equal(await manager.acknowledge('g', 'm1', ref, [{ firstOffset: 0, lastOffset: 0, types: [1] }], settings), 0);
    await clock.advance(15_000);
    const partition = (await manager.existing('g', ref))!;
    assert.equal(partition.startOffset, 1);
    assert.deepEqual(acquired(await manager.fetch('g', 'm2', [ref], NOW, settings)), []);
  });
});

test("a deleted topic's share partitions go: a fetch of it answers UNKNOWN_TOPIC_OR_PARTITION, a topic recreated under the name starts afresh", async () => {
  const store = new MemoryLogStore({ nodeId: 1 });
  const clock = new ManualScheduler(0);
  const delayed = new DelayedFetches(clock);
  try {
    const manager = new SharePartitionManager(store, delayed, clock, () => 1000);
    const first = await store.createTopic('t', 1);
    await store.log('t', 0)!.append(batch(values('a')), { leaderEpoch: 0 });
    const old = { topicId: first.topicId, partition: 0 };
    assert.deepEqual(acquired(await manager.fetch('g', 'm1', [old], NOW, settings)), [[0, 0, 1]]);
    await store.deleteTopic('t');
    manager.onTopicDeleted(first.topicId);
    assert.equal(manager.existing('g', old), undefined);
    assert.deepEqual((await manager.fetch('g', 'm1', [old], NOW, settings)).map((r) => r.errorCode), [ErrorCode.UNKNOWN_TOPIC_OR_PARTITION]);
    const again = await store.createTopic('t', 1);
    await store.log('t', 0)!.append(batch(values('b')), { leaderEpoch: 0 });
    assert.deepEqual(acquired(await manager.fetch('g', 'm1', [{ topicId: again.topicId, partition: 0 }], NOW, settings)), [[0, 0, 1]]);
  } finally {
    delayed.shutdown();
    await store.close();
  }
});

test("a deleted group's share partitions go: the group recreated starts again from share.auto.offset.reset", async () => {
  await withManager(async ({ manager, ref, produce }) => {
    await produce('a', 'b');
    assert.deepEqual(acquired(await manager.fetch('g', 'm1', [ref], NOW, settings)), [[0, 1, 1]]);
    assert.equal(await manager.acknowledge('g', 'm1', ref, [{ firstOffset: 0, lastOffset: 1, types: [1] }], settings), 0);
    assert.deepEqual(acquired(await manager.fetch('other', 'm1', [ref], NOW, settings)), [[0, 1, 1]]);
    manager.forgetGroup('g');
    assert.equal(manager.existing('g', ref), undefined);
    assert.notEqual(manager.existing('other', ref), undefined);
    assert.deepEqual(acquired(await manager.fetch('g', 'm2', [ref], NOW, settings)), [[0, 1, 1]]);
  });
});

test('a RENEW acknowledgement restarts the lock from now: the records stay acquired past the first lock, released at the renewed one', async () => {
  await withManager(async ({ manager, clock, ref, produce }) => {
    await produce('a', 'b');
    assert.deepEqual(acquired(await manager.fetch('g', 'm1', [ref], NOW, settings)), [[0, 1, 1]]);
    await clock.advance(10_000);
    assert.equal(await manager.acknowledge('g', 'm1', ref, [{ firstOffset: 0, lastOffset: 1, types: [4] }], settings), 0);
    const partition = (await manager.existing('g', ref))!;
    await clock.advance(14_999);
    assert.deepEqual(partition.stateOf(1), { state: RecordState.ACQUIRED, deliveryCount: 1, memberId: 'm1' });
    await clock.advance(1);
    assert.deepEqual(partition.stateOf(1), { state: RecordState.AVAILABLE, deliveryCount: 1, memberId: null });
    // Renewing what another member holds, or what is no longer acquired, is refused.
    assert.deepEqual(acquired(await manager.fetch('g', 'm2', [ref], NOW, settings)), [[0, 1, 2]]);
    assert.equal(await manager.acknowledge('g', 'm1', ref, [{ firstOffset: 0, lastOffset: 0, types: [4] }], settings), ErrorCode.INVALID_RECORD_STATE);
    // With share.renew.acknowledge.enable=false, INVALID_RECORD_STATE and the lock runs on.
    assert.equal(await manager.acknowledge('g', 'm2', ref, [{ firstOffset: 0, lastOffset: 1, types: [4] }], { ...settings, renewAcknowledgeEnabled: false }), ErrorCode.INVALID_RECORD_STATE);
    await clock.advance(15_000);
    assert.equal(partition.stateOf(0)?.state, RecordState.AVAILABLE);
  });
});

test('once the broker stops, neither a session ended by its connection nor a lock expiring releases anything, nor writes', async () => {
  await withManager(async ({ manager, clock, ref, produce }) => {
    const written: unknown[] = [];
    manager.usePersister({
      read: async () => ({ errorCode: 0, errorMessage: null, stateEpoch: 1, startOffset: -1, stateBatches: [] }),
      write: async (_key, data) => {
        written.push(data.stateBatches);
        return { errorCode: 0, errorMessage: null };
      },
    });
    await produce('a', 'b', 'c');
    assert.deepEqual(acquired(await manager.fetch('g', 'm1', [ref], NOW, settings)), [[0, 2, 1]]);
    assert.equal(await manager.acknowledge('g', 'm1', ref, [{ firstOffset: 0, lastOffset: 0, types: [1] }], settings), ErrorCode.NONE);
    assert.deepEqual(written, [[{ firstOffset: 0, lastOffset: 0, deliveryState: RecordState.ACKNOWLEDGED, deliveryCount: 1 }]]);
    const partition = (await manager.existing('g', ref))!;
    manager.shutdown();
    // As Kafka's: the records stay acquired (in memory only), so after a restart they come again as never delivered.
    await manager.releaseSession('g', 'm1', [ref], settings);
    await clock.advance(15_000);
    assert.deepEqual(partition.stateOf(1), { state: RecordState.ACQUIRED, deliveryCount: 1, memberId: 'm1' });
    assert.equal(written.length, 1);
  });
});
