// __consumer_offsets and __transaction_state on the log cleaner, over the file engine: many commits and
// transaction state changes roll small segments, the cleaner compacts them, and after a restart every group's
// committed offsets, its pending and committed transactional offsets, and every transactional id reload.
import { ZERO_UUID } from '../../src/protocol/uuid.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveBrokerConfig } from '../../src/config/index.js';
import { autoCreateSpec, CONSUMER_OFFSETS_TOPIC, TRANSACTION_STATE_TOPIC } from '../../src/broker/auto-create.js';
import { ErrorCode } from '../../src/protocol/error-codes.js';
import { createOffsetCommitRequest } from '../../src/protocol/generated/offset-commit.js';
import { FileLogStore } from '../../src/storage/file/file-store.js';
import { ManualScheduler } from '../../src/storage/scheduler.js';
import { TxnState } from '../../src/coordinator/txn/txn-metadata.js';
import { START_TIME, TxnHarness } from './txn/txn-harness.js';

const SETTINGS = {
  'offsets.topic.num.partitions': '2',
  'transaction.state.log.num.partitions': '2',
};
const GROUPS = Array.from({ length: 6 }, (_, i) => `group-${i}`);
const TOPICS = ['t', 'u'];

function commit(groupId: string, offset: number) {
  return {
    ...createOffsetCommitRequest(),
    groupId,
    generationIdOrMemberEpoch: -1,
    topics: TOPICS.map((name) => ({
      name,
      topicId: ZERO_UUID,
      partitions: [0, 1].map((partitionIndex) => ({ partitionIndex, committedOffset: BigInt(offset + partitionIndex), committedLeaderEpoch: -1, committedMetadata: `m${offset}` })),
    })),
  };
}

async function openStore(logDir: string, scheduler: ManualScheduler): Promise<FileLogStore> {
  const config = resolveBrokerConfig({ 'node.id': '1', ...SETTINGS });
  const store = await FileLogStore.open({ logDir, nodeId: 1, scheduler, broker: config });
  // Created as the coordinators would, with small segments (Kafka's test-only internal.segment.bytes: segment.bytes,
  // and so offsets.topic.segment.bytes, has a 1 MiB minimum) so the cleaner has inactive segments to compact.
  for (const name of [CONSUMER_OFFSETS_TOPIC, TRANSACTION_STATE_TOPIC]) {
    if (store.topic(name) !== undefined) continue;
    const spec = autoCreateSpec(name, config);
    await store.createTopic(name, spec.partitions, { ...spec.configs, 'internal.segment.bytes': '2000' });
  }
  store.startBackground({ cleaner: { backoffMs: 1e12, dedupeBufferSize: 1 << 20 } });
  return store;
}

/** Every group's committed offsets as "topic-partition" → [offset, metadata]. */
async function offsetsOf(h: TxnHarness, groupId: string): Promise<Record<string, [bigint, string | null]>> {
  const fetched = await h.groups.fetchOffsets(groupId, null);
  assert.equal(fetched.errorCode, ErrorCode.NONE);
  return Object.fromEntries(fetched.topics.flatMap((t) => t.partitions.map((p) => [`${t.name}-${p.partitionIndex}`, [p.committedOffset, p.metadata]])));
}

async function txnCommit(h: TxnHarness, transactionalId: string, groupId: string, offset: number): Promise<{ producerId: number; producerEpoch: number }> {
  const { producerId, producerEpoch, errorCode } = await h.coordinator.initProducerId(transactionalId, 600_000, null);
  assert.equal(errorCode, ErrorCode.NONE);
  const added = await h.coordinator.addPartitions(transactionalId, producerId, producerEpoch, new Map([['__consumer_offsets', [h.groups.partitionFor(groupId)]]]));
  assert.equal(added, ErrorCode.NONE);
  const request = commit(groupId, offset);
  const response = await h.groups.commitTransactionalOffsets({
    transactionalId,
    groupId,
    producerId: BigInt(producerId),
    producerEpoch,
    generationId: -1,
    memberId: '',
    groupInstanceId: null,
    topics: request.topics.map((t) => ({ name: t.name, partitions: t.partitions.map((p) => ({ partitionIndex: p.partitionIndex, committedOffset: p.committedOffset, committedLeaderEpoch: -1, committedMetadata: p.committedMetadata })) })),
  });
  assert.ok(response.every((t) => t.partitions.every((p) => p.errorCode === ErrorCode.NONE)));
  return { producerId, producerEpoch };
}

/** Waits (without a clock) until the transaction's markers are written and it is complete. */
async function completed(h: TxnHarness, transactionalId: string) {
  const state = () => h.coordinator.metadata(transactionalId)?.state;
  while (state() !== TxnState.CompleteCommit && state() !== TxnState.CompleteAbort) {
    await h.settle();
    await new Promise((resolve) => setImmediate(resolve));
  }
  return state();
}

const expected = (offset: number): Record<string, [bigint, string | null]> =>
  Object.fromEntries(TOPICS.flatMap((t) => [0, 1].map((p) => [`${t}-${p}`, [BigInt(offset + p), `m${offset}`] as [bigint, string | null]])));

test('__consumer_offsets and __transaction_state compacted by the cleaner reload every offset, transactional offset and transaction after a restart', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'gregor-coord-compact-'));
  const scheduler = new ManualScheduler(START_TIME);
  try {
    let store = await openStore(dir, scheduler);
    let h = await TxnHarness.start(SETTINGS, store, scheduler);
    await h.createTopic('t', 2);
    await h.createTopic('u', 2);

    // Many overwrites of the same keys, and many transactions over a few transactional ids.
    for (let round = 0; round < 40; round++) for (const g of GROUPS) assert.ok((await h.groups.commitOffsets(commit(g, round * 10), 8)).every((t) => t.partitions.every((p) => p.errorCode === ErrorCode.NONE)));
    for (let round = 0; round < 10; round++) {
      for (const [i, transactionalId] of ['tx-a', 'tx-b', 'tx-c'].entries()) {
        const producer = await txnCommit(h, transactionalId, `txn-group-${i}`, round * 100);
        // tx-c's transactions abort: its offsets never apply.
        assert.equal((await h.coordinator.endTxn(transactionalId, producer.producerId, producer.producerEpoch, transactionalId !== 'tx-c')).errorCode, ErrorCode.NONE);
        await completed(h, transactionalId);
      }
    }
    for (let round = 40; round < 60; round++) for (const g of GROUPS) await h.groups.commitOffsets(commit(g, round * 10), 8);
    // One transaction stays open across the restart; a later plain commit of its group is stable.
    const open = await txnCommit(h, 'tx-open', 'open-group', 7000);
    await h.groups.commitOffsets(commit('open-group', 5), 8);
    assert.equal(h.groups.hasPendingTransactionalOffsets('open-group', 't', 0), true);

    const before = sizes(store);
    await store.logCleaner!.kick();
    const cleaned = new Set(store.logCleaner!.history.map((c) => c.topic));
    assert.deepEqual([...cleaned].sort(), ['__consumer_offsets', '__transaction_state']);
    const after = sizes(store);
    for (const topic of ['__consumer_offsets', '__transaction_state']) {
      assert.ok(after.get(topic)! < before.get(topic)! / 2, `${topic}: ${before.get(topic)} bytes before the clean, ${after.get(topic)} after`);
    }

    await h.close();
    await store.close();
    store = await openStore(dir, scheduler);
    h = await TxnHarness.start(SETTINGS, store, scheduler);
    for (const g of GROUPS) assert.deepEqual(await offsetsOf(h, g), expected(590), g);
    assert.deepEqual(await offsetsOf(h, 'txn-group-0'), expected(900));
    assert.deepEqual(await offsetsOf(h, 'txn-group-1'), expected(900));
    assert.deepEqual(await offsetsOf(h, 'txn-group-2'), {}, 'aborted transactional offsets never apply');
    assert.deepEqual(await offsetsOf(h, 'open-group'), expected(5));
    assert.equal(h.groups.hasPendingTransactionalOffsets('open-group', 't', 0), true, 'the open transaction is still pending');
    for (const id of ['tx-a', 'tx-b']) assert.equal(h.coordinator.metadata(id)?.state, TxnState.CompleteCommit, id);
    assert.equal(h.coordinator.metadata('tx-c')?.state, TxnState.CompleteAbort);
    assert.equal(h.coordinator.metadata('tx-open')?.state, TxnState.Ongoing);

    // The open transaction commits after the restart: its offsets apply over the plain commit.
    assert.equal((await h.coordinator.endTxn('tx-open', open.producerId, open.producerEpoch, true)).errorCode, ErrorCode.NONE);
    assert.equal(await completed(h, 'tx-open'), TxnState.CompleteCommit);
    assert.equal(h.groups.hasPendingTransactionalOffsets('open-group'), false);
    assert.deepEqual(await offsetsOf(h, 'open-group'), expected(7000));
    await h.close();
    await store.close();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

function sizes(store: FileLogStore): Map<string, number> {
  const out = new Map<string, number>();
  for (const topic of ['__consumer_offsets', '__transaction_state']) {
    let bytes = 0;
    for (let p = 0; p < 2; p++) for (const s of (store.log(topic, p) as unknown as { segments: { size: number }[] }).segments) bytes += s.size;
    out.set(topic, bytes);
  }
  return out;
}
