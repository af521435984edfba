// Producer state on the produce path (Kafka's ProducerStateManager): a duplicate batch is answered with its
// original offset and not appended again; gaps are OUT_OF_ORDER_SEQUENCE_NUMBER; an older epoch is
// INVALID_PRODUCER_EPOCH; a new epoch starts at sequence 0; five batches are remembered; state is rebuilt
// from the log after a restart (file engine).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveBrokerConfig } from '../../src/config/index.js';
import { ProducerStates } from '../../src/broker/producer-states.js';
import { ReplicaManager } from '../../src/broker/replica-manager.js';
import { ErrorCode } from '../../src/protocol/error-codes.js';
import { encodeRecordBatch } from '../../src/protocol/records/index.js';
import { FileLogStore } from '../../src/storage/file/file-store.js';
import type { LogStore } from '../../src/storage/log-store.js';
import { MemoryLogStore } from '../../src/storage/memory/memory-store.js';

const config = resolveBrokerConfig({ 'node.id': '1', 'gregor.log.engine': 'memory' });

async function setup(store: LogStore = new MemoryLogStore({ nodeId: 1 })) {
  if (store.topic('t') === undefined) await store.createTopic('t', 1);
  const states = await ProducerStates.load(store);
  const rm = new ReplicaManager(store, config, { producerState: states });
  const produce = (id: number, epoch: number, seq: number, count = 1, transactional = false) =>
    rm.appendRecords(
      't',
      0,
      encodeRecordBatch({
        producerId: id,
        producerEpoch: epoch,
        baseSequence: seq,
        isTransactional: transactional,
        records: Array.from({ length: count }, (_, i) => ({ timestamp: 1000 + seq + i, key: null, value: Buffer.from(`r${seq + i}`) })),
      }),
      { apiVersion: 11, internalTopicsAllowed: false },
    );
  return { store, states, produce, log: store.log('t', 0)! };
}

test('a retried batch is answered with its original offset and not appended again', async () => {
  const { produce, log } = await setup();
  assert.equal((await produce(7, 0, 0, 3)).baseOffset, 0);
  assert.equal((await produce(7, 0, 3, 2)).baseOffset, 3);
  const end = log.logEndOffset;
  const retried = await produce(7, 0, 0, 3);
  assert.deepEqual([retried.errorCode, retried.baseOffset], [ErrorCode.NONE, 0]);
  assert.equal((await produce(7, 0, 3, 2)).baseOffset, 3);
  assert.equal(log.logEndOffset, end, 'nothing appended for duplicates');
});

test('pipelined batches are checked against each other before any is in the log', async () => {
  const { produce } = await setup();
  const outcomes = await Promise.all([produce(1, 0, 0), produce(1, 0, 1), produce(1, 0, 2), produce(1, 0, 3), produce(1, 0, 4)]);
  assert.deepEqual(outcomes.map((o) => [o.errorCode, o.baseOffset]), [[0, 0], [0, 1], [0, 2], [0, 3], [0, 4]]);
});

test('a gap in sequences is OUT_OF_ORDER_SEQUENCE_NUMBER; an older epoch INVALID_PRODUCER_EPOCH; a new epoch starts at 0', async () => {
  const { produce } = await setup();
  await produce(5, 0, 0);
  const gap = await produce(5, 0, 2);
  assert.equal(gap.errorCode, ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER);
  assert.match(gap.errorMessage ?? '', /Out of order sequence number for producer 5/);
  assert.equal((await produce(5, 1, 3)).errorCode, ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER, 'a new epoch must start at 0');
  assert.equal((await produce(5, 1, 0)).errorCode, ErrorCode.NONE);
  assert.equal((await produce(5, 0, 1)).errorCode, ErrorCode.INVALID_PRODUCER_EPOCH);
  // An unknown producer id (its state expired or was never seen) may start at any sequence.
  assert.equal((await produce(6, 3, 42)).errorCode, ErrorCode.NONE);
});

test('only the last five batches are remembered for duplicate detection', async () => {
  const { produce } = await setup();
  for (let seq = 0; seq < 6; seq++) await produce(9, 0, seq);
  assert.equal((await produce(9, 0, 1)).baseOffset, 1, 'still remembered');
  assert.equal((await produce(9, 0, 0)).errorCode, ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER, 'forgotten: no longer a duplicate');
});

test('a non-transactional write during an open transaction is INVALID_TXN_STATE; the LSO stays at the transaction start', async () => {
  const { produce, states, log } = await setup();
  await produce(3, 0, 0);
  const txn = await produce(4, 0, 0, 2, true);
  assert.equal(states.lastStableOffset(log), txn.baseOffset);
  assert.equal((await produce(4, 0, 2, 1, false)).errorCode, ErrorCode.INVALID_TXN_STATE);
  assert.equal(log.highWatermark, 3);
});

test('producer state is rebuilt from the log after a restart: duplicates and open transactions survive', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'gregor-producer-state-'));
  try {
    const first = await setup(await FileLogStore.open({ logDir: dir, nodeId: 1 }));
    await first.produce(11, 2, 0, 2);
    await first.produce(11, 2, 2, 2);
    await first.produce(12, 0, 0, 1, true);
    await first.store.close();

    const second = await setup(await FileLogStore.open({ logDir: dir, nodeId: 1 }));
    const retried = await second.produce(11, 2, 2, 2);
    assert.deepEqual([retried.errorCode, retried.baseOffset], [ErrorCode.NONE, 2]);
    assert.equal((await second.produce(11, 2, 5)).errorCode, ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER);
    assert.equal((await second.produce(11, 1, 0)).errorCode, ErrorCode.INVALID_PRODUCER_EPOCH);
    assert.equal(second.states.lastStableOffset(second.log), 4, 'the open transaction still holds the LSO');
    await second.store.close();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
