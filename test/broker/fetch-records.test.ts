// ReplicaManager.fetchRecords: the delayed fetch (Kafka's DelayedFetch) owned by the replica manager.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { resolveBrokerConfig } from '../../src/config/index.js';
import type { FetchTarget } from '../../src/broker/fetch-context.js';
import { ReplicaManager, type FetchParams } from '../../src/broker/replica-manager.js';
import { ErrorCode } from '../../src/protocol/error-codes.js';
import { ZERO_UUID } from '../../src/protocol/uuid.js';
import { MemoryLogStore } from '../../src/storage/memory/memory-store.js';
import { batch, values } from './data-harness.js';

const config = resolveBrokerConfig({ 'node.id': '1', 'gregor.log.engine': 'memory' });
const LONG_POLL: FetchParams = { maxWaitMs: 600_000, minBytes: 1, maxBytes: 1 << 20, isolationLevel: 0, usesTopicIds: false };

function target(topic: string, fetchOffset = 0): FetchTarget {
  return {
    key: `${topic}-0`,
    topic,
    topicId: ZERO_UUID,
    partition: 0,
    request: { fetchOffset, lastFetchedEpoch: -1, currentLeaderEpoch: -1, maxBytes: 1 << 20 },
  };
}

async function withReplicaManager(topic: string, run: (rm: ReplicaManager, store: MemoryLogStore) => Promise<void>): Promise<void> {
  const store = new MemoryLogStore({ nodeId: 1 });
  try {
    await store.createTopic(topic, 1);
    await run(new ReplicaManager(store, config), store);
  } finally {
    await store.close();
  }
}

async function untilWaiting(rm: ReplicaManager, count: number): Promise<void> {
  while (rm.delayedFetches.size < count) await nextTurn();
}

test('20 concurrent long polls print no MaxListenersExceededWarning, and one append answers them all', async () => {
  const warnings: Error[] = [];
  const onWarning = (warning: Error) => warnings.push(warning);
  process.on('warning', onWarning);
  try {
    await withReplicaManager('polled', async (rm) => {
      const polls = Array.from({ length: 20 }, () => rm.fetchRecords([target('polled')], LONG_POLL));
      await untilWaiting(rm, 20);
      const appended = await rm.appendRecords('polled', 0, batch(values('wake')), { apiVersion: 9, internalTopicsAllowed: false });
      assert.equal(appended.errorCode, ErrorCode.NONE);
      for (const [read] of await Promise.all(polls)) {
        assert.deepEqual([read!.errorCode, read!.highWatermark, read!.records.length > 0], [ErrorCode.NONE, 1, true]);
      }
      assert.equal(rm.delayedFetches.size, 0);
      // Node emits warnings on a later tick.
      await nextTurn();
      assert.deepEqual(warnings.map((w) => `${w.name}: ${w.message}`), []);
    });
  } finally {
    process.off('warning', onWarning);
  }
});

test('shutdown answers every waiting long poll at once, and a later one does not wait', async () => {
  await withReplicaManager('idle', async (rm) => {
    const polls = Array.from({ length: 12 }, () => rm.fetchRecords([target('idle')], LONG_POLL));
    await untilWaiting(rm, 12);
    rm.shutdown();
    for (const [read] of await Promise.all(polls)) assert.deepEqual([read!.errorCode, read!.records.length], [ErrorCode.NONE, 0]);
    const [late] = await rm.fetchRecords([target('idle')], LONG_POLL);
    assert.deepEqual([late!.errorCode, late!.records.length], [ErrorCode.NONE, 0]);
  });
});

test('a topic deleted while a long poll waits is answered UNKNOWN_TOPIC_OR_PARTITION when the wait ends', async () => {
  await withReplicaManager('gone', async (rm, store) => {
    const poll = rm.fetchRecords([target('gone')], LONG_POLL);
    await untilWaiting(rm, 1);
    await store.deleteTopic('gone');
    rm.shutdown();
    const [read] = await poll;
    assert.equal(read!.errorCode, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
  });
});
