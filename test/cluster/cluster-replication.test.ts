// Cluster replication's leader side on the broker's injected clock: the ReplicaManager with ClusterReplication over a
// memory store, followers' fetches made as their Fetch makes them (replica id, fetch offset), the metadata an in-memory
// Cluster holding one partition record (what etcd's cache holds; its AlterPartition txn is tested on real etcd by the
// e2e). acks=all waits for the ISR, the ISR shrinks after replica.lag.time.max.ms and grows back, min.insync.replicas.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { resolveBrokerConfig } from '../../src/config/index.js';
import type { FetchTarget } from '../../src/broker/fetch-context.js';
import { ReplicaManager } from '../../src/broker/replica-manager.js';
import type { PartitionAppendOutcome } from '../../src/broker/produce-append.js';
import type { Cluster, ClusterTopic, PartitionRecord } from '../../src/cluster/cluster.js';
import { ClusterReplication } from '../../src/cluster/cluster-replication.js';
import { silentLog } from '../../src/log.js';
import { ErrorCode } from '../../src/protocol/error-codes.js';
import { ZERO_UUID } from '../../src/protocol/uuid.js';
import { MemoryLogStore } from '../../src/storage/memory/memory-store.js';
import { ManualScheduler } from '../../src/storage/scheduler.js';
import { batch, values } from '../broker/data-harness.js';

const LAG = 10_000;

/** One topic 't' with one partition led by node 1, replicas 1,2,3; ISR changes applied as AlterPartition applies them. */
class OnePartitionCluster {
  record: PartitionRecord = { replicas: [1, 2, 3], leader: 1, leaderEpoch: 0, isr: [1, 2, 3], partitionEpoch: 0 };
  readonly changes: number[][] = [];
  readonly nodeId = 1;
  readonly clusterId = 'c';
  topics(): ClusterTopic[] {
    return [{ name: 't', id: ZERO_UUID, partitions: 1, configs: {}, partitionStates: [this.record] }];
  }
  partition(topic: string, index: number): PartitionRecord | undefined {
    return topic === 't' && index === 0 ? this.record : undefined;
  }
  liveBrokers() {
    return [];
  }
  async alterPartitionIsr(_topic: string, _index: number, known: PartitionRecord, isr: readonly number[]) {
    if (known.partitionEpoch !== this.record.partitionEpoch) return { ok: false as const, error: 'INVALID_UPDATE_VERSION' as const };
    this.changes.push([...isr]);
    this.record = { ...this.record, isr: [...isr], partitionEpoch: this.record.partitionEpoch + 1 };
    return { ok: true as const, record: this.record };
  }
}

interface Leader {
  readonly rm: ReplicaManager;
  readonly cluster: OnePartitionCluster;
  readonly clock: ManualScheduler;
  /** Resolves once the leader's log end reached `offset` (an append landed and its wait began). */
  appended(offset: number): Promise<void>;
}

async function withLeader(minIsr: number, run: (h: Leader) => Promise<void>): Promise<void> {
  const clock = new ManualScheduler(Date.now());
  const config = resolveBrokerConfig({ 'node.id': '1', 'gregor.log.engine': 'memory', 'replica.lag.time.max.ms': String(LAG) });
  const store = new MemoryLogStore({ nodeId: 1, scheduler: clock });
  await store.createTopic('t', 1, { 'min.insync.replicas': String(minIsr) });
  const cluster = new OnePartitionCluster();
  const replication = new ClusterReplication({ cluster: cluster as unknown as Cluster, store, config: () => config, clock, log: silentLog() });
  const rm = new ReplicaManager(store, config, { clock });
  rm.setReplication(replication);
  replication.start();
  try {
    const log = store.log('t', 0)!;
    await run({ rm, cluster, clock, appended: async (offset) => { while (log.logEndOffset < offset) await nextTurn(); await nextTurn(); } });
  } finally {
    await replication.close();
    await store.close();
  }
}

const produce = (rm: ReplicaManager, text: string, timeoutMs = 30_000): Promise<PartitionAppendOutcome> =>
  rm.appendRecords('t', 0, batch(values(text)), { apiVersion: 9, internalTopicsAllowed: false, requiredAcks: -1, timeoutMs });

const target = (fetchOffset: number): FetchTarget => ({
  key: 't-0', topic: 't', topicId: ZERO_UUID, partition: 0, request: { fetchOffset, lastFetchedEpoch: -1, currentLeaderEpoch: 0, maxBytes: 1 << 20 },
});

/** One fetch as a replica (or a consumer with -1), without waiting. */
async function fetchAs(rm: ReplicaManager, replicaId: number, fetchOffset: number) {
  const [read] = await rm.fetchRecords([target(fetchOffset)], { maxWaitMs: 0, minBytes: 1, maxBytes: 1 << 20, isolationLevel: 0, usesTopicIds: false, replicaId });
  return read!;
}

/** Whether the promise settled within a few turns of the event loop. */
async function settled<T>(p: Promise<T>): Promise<boolean> {
  let done = false;
  void p.then(() => (done = true));
  for (let i = 0; i < 5; i++) await nextTurn();
  return done;
}

test('acks=all answers once every ISR follower fetched past the batch; consumers read up to the high watermark, followers past it', async () => {
  await withLeader(2, async ({ rm, appended }) => {
    const pending = produce(rm, 'a');
    await appended(1);
    assert.equal(await settled(pending), false);
    const consumer = await fetchAs(rm, -1, 0);
    assert.deepEqual([consumer.highWatermark, consumer.records.length], [0, 0]);
    const follower = await fetchAs(rm, 2, 0);
    assert.deepEqual([follower.highWatermark, follower.records.length > 0], [0, true], 'a follower reads up to the log end');
    await fetchAs(rm, 2, 1);
    assert.equal(await settled(pending), false, 'follower 3 has not fetched it');
    await fetchAs(rm, 3, 1);
    assert.deepEqual([(await pending).errorCode, (await pending).baseOffset], [ErrorCode.NONE, 0]);
    assert.equal((await fetchAs(rm, -1, 0)).highWatermark, 1);
    // A follower fetch for a broker that is no replica is refused.
    assert.equal((await fetchAs(rm, 7, 1)).errorCode, ErrorCode.NOT_LEADER_OR_FOLLOWER);
  });
});

test('a follower silent for replica.lag.time.max.ms leaves the ISR (checked every half of it); what waited on it answers', async () => {
  await withLeader(3, async ({ rm, cluster, clock, appended }) => {
    await fetchAs(rm, 2, 0);
    await fetchAs(rm, 3, 0);
    const pending = produce(rm, 'b');
    await appended(1);
    await fetchAs(rm, 2, 1);
    await clock.advance(LAG / 2);
    assert.deepEqual(cluster.changes, [], 'follower 3 was caught up half a lag ago');
    // Follower 2 keeps fetching; follower 3 stays silent.
    await fetchAs(rm, 2, 1);
    await clock.advance(LAG / 2);
    await fetchAs(rm, 2, 1);
    await clock.advance(LAG / 2);
    assert.deepEqual(cluster.changes, [[1, 2]]);
    // Appended with the whole ISR, answered once it shrank below min.insync.replicas=3.
    assert.equal((await pending).errorCode, ErrorCode.NOT_ENOUGH_REPLICAS_AFTER_APPEND);
    const refused = await produce(rm, 'c');
    assert.deepEqual([refused.errorCode, refused.baseOffset], [ErrorCode.NOT_ENOUGH_REPLICAS, -1]);
    // acks=1 is not held by the ISR's size.
    const one = await rm.appendRecords('t', 0, batch(values('d')), { apiVersion: 9, internalTopicsAllowed: false, requiredAcks: 1 });
    assert.deepEqual([one.errorCode, one.baseOffset], [ErrorCode.NONE, 1]);
    // Follower 3 comes back: once it reached the high watermark (1: follower 2 holds offset 0 only) it joins, last.
    await fetchAs(rm, 3, 0);
    assert.deepEqual(cluster.changes, [[1, 2]], 'short of the high watermark');
    await fetchAs(rm, 3, 1);
    await nextTurn();
    assert.deepEqual(cluster.changes, [[1, 2], [1, 2, 3]]);
    // The ISR whole again: acks=all with min.insync.replicas=3 waits for all three.
    const again = produce(rm, 'e');
    await appended(3);
    await fetchAs(rm, 2, 3);
    assert.equal(await settled(again), false);
    await fetchAs(rm, 3, 3);
    assert.deepEqual([(await again).errorCode, (await again).baseOffset], [ErrorCode.NONE, 2]);
  });
});

test('acks=all not replicated within the request\'s timeout answers REQUEST_TIMED_OUT', async () => {
  await withLeader(1, async ({ rm, clock, appended }) => {
    const pending = produce(rm, 'late', 1000);
    await appended(1);
    await clock.advance(999);
    assert.equal(await settled(pending), false);
    await clock.advance(1);
    assert.equal((await pending).errorCode, ErrorCode.REQUEST_TIMED_OUT);
  });
});
