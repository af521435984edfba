// Transactions v2 (KIP-890 part 2) over the wire, each answer as Kafka 4.3.1 gives it for the same requests
// (checked against the reference broker): Produce v12 adds its partitions to the transaction, EndTxn v5 bumps
// the epoch and tells a retry apart by it, TxnOffsetCommit v5 adds the offsets partition, WriteTxnMarkers v2
// carries the transaction version (KIP-1228), and the verification errors older versions get (KIP-890 part 1).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Features } from '../../../src/broker/features.js';
import { ErrorCode } from '../../../src/protocol/error-codes.js';
import { produceApi } from '../../../src/protocol/generated/produce.js';
import { writeTxnMarkersApi } from '../../../src/protocol/generated/write-txn-markers.js';
import { encodeRecordBatch } from '../../../src/protocol/records/index.js';
import { ZERO_UUID } from '../../../src/protocol/uuid.js';
import { roundTrip, startTestBroker } from '../broker-harness.js';
import { TxnClient, type ProducerIdAndEpoch } from './txn-client.js';

async function open(transactionalId: string, features?: Features) {
  const broker = await startTestBroker({}, features === undefined ? {} : { features });
  const client = await TxnClient.connect(broker.port, transactionalId);
  await client.findCoordinator();
  await client.createTopic('t');
  return {
    client,
    async close() {
      await client.close();
      await broker.close();
    },
  };
}

const epochOf = (p: ProducerIdAndEpoch, producerEpoch: number): ProducerIdAndEpoch => ({ producerId: p.producerId, producerEpoch });

test('transaction.version 2: Produce v12 adds the partition, EndTxn v5 bumps the epoch and answers retries by it', async () => {
  const { client: c, close } = await open('tx-v2');
  try {
    const p = await c.initProducerId();
    assert.equal(p.producerEpoch, 0);
    assert.equal((await c.produce(12, 't', 0, p, 0)).errorCode, ErrorCode.NONE, 'no AddPartitionsToTxn needed');
    const ongoing = await c.describe();
    assert.equal(ongoing.transactionState, 'Ongoing');
    assert.deepEqual(ongoing.topics, [{ topic: 't', partitions: [0] }]);

    const committed = await c.endTxn(5, p, true);
    assert.deepEqual([committed.errorCode, Number(committed.producerId), committed.producerEpoch], [ErrorCode.NONE, p.producerId, 1]);
    const complete = await c.waitForState('CompleteCommit');
    assert.equal(complete.producerEpoch, 1);

    // A retry carries the epoch before the bump: the same answer again; the other outcome is refused.
    const retried = await c.endTxn(5, p, true);
    assert.deepEqual([retried.errorCode, Number(retried.producerId), retried.producerEpoch], [ErrorCode.NONE, p.producerId, 1]);
    const abortRetry = await c.endTxn(5, p, false);
    assert.deepEqual([abortRetry.errorCode, Number(abortRetry.producerId), abortRetry.producerEpoch], [ErrorCode.INVALID_TXN_STATE, -1, -1]);
    // The bumped-over epoch is fenced on the produce path (answered as INVALID_PRODUCER_EPOCH, no log start offset).
    const stale = await c.produce(12, 't', 0, p, 1);
    assert.deepEqual([stale.errorCode, stale.logStartOffset, stale.errorMessage], [ErrorCode.INVALID_PRODUCER_EPOCH, -1n, null]);
    const future = await c.endTxn(5, epochOf(p, 6), false);
    assert.deepEqual([future.errorCode, future.producerEpoch], [ErrorCode.PRODUCER_FENCED, -1]);
    const wrongId = await c.endTxn(5, { producerId: p.producerId + 1000, producerEpoch: 1 }, true);
    assert.equal(wrongId.errorCode, ErrorCode.INVALID_PRODUCER_ID_MAPPING);

    // At the current epoch a completed transaction cannot be committed again, but an empty one can be aborted.
    assert.equal((await c.endTxn(5, epochOf(p, 1), true)).errorCode, ErrorCode.INVALID_TXN_STATE);
    const emptyAbort = await c.endTxn(5, epochOf(p, 1), false);
    assert.deepEqual([emptyAbort.errorCode, emptyAbort.producerEpoch], [ErrorCode.NONE, 2]);
    assert.equal((await c.waitForState('CompleteAbort')).producerEpoch, 2);

    // The next transaction at epoch 2: sequences start again at 0; a second batch needs no add.
    const p2 = epochOf(p, 2);
    assert.equal((await c.produce(12, 't', 0, p2, 0)).errorCode, ErrorCode.NONE);
    assert.equal((await c.produce(12, 't', 0, p2, 1)).errorCode, ErrorCode.NONE);
    await c.findCoordinator('g', 0);
    assert.equal(await c.txnOffsetCommit(5, p2, 'g', 't', 2), ErrorCode.NONE, 'no AddOffsetsToTxn needed');
    const withOffsets = await c.describe();
    assert.deepEqual(withOffsets.topics.map((t) => t.topic).sort(), ['__consumer_offsets', 't']);
    assert.equal((await c.endTxn(5, p2, true)).producerEpoch, 3);
    assert.deepEqual(await c.listStates(), ['CompleteCommit']);
  } finally {
    await close();
  }
});

test('Produce v12 adds every partition of a request in one go', async () => {
  const { client: c, close } = await open('tx-multi');
  try {
    await c.createTopic('three', 3);
    const p = await c.initProducerId();
    const batch = (): Buffer =>
      encodeRecordBatch({ producerId: p.producerId, producerEpoch: p.producerEpoch, baseSequence: 0, isTransactional: true, records: [{ timestamp: Date.now(), key: null, value: Buffer.from('x') }] });
    const res = await roundTrip(c.client, produceApi, 12, {
      transactionalId: 'tx-multi',
      acks: -1,
      timeoutMs: 30000,
      topicData: [
        { name: 'three', topicId: ZERO_UUID, partitionData: [0, 1, 2].map((index) => ({ index, records: batch() })) },
        { name: 't', topicId: ZERO_UUID, partitionData: [{ index: 0, records: batch() }] },
      ],
    });
    assert.deepEqual(res.responses.map((t) => t.partitionResponses.map((x) => x.errorCode)), [[0, 0, 0], [0]]);
    assert.deepEqual((await c.describe()).topics, [{ topic: 'three', partitions: [0, 1, 2] }, { topic: 't', partitions: [0] }]);
  } finally {
    await close();
  }
});

test('verification before transaction version 2: a partition outside the transaction is TRANSACTION_ABORTABLE from Produce v11 / TxnOffsetCommit v4, INVALID_TXN_STATE before', async () => {
  const { client: c, close } = await open('tx-verify');
  try {
    const p = await c.initProducerId();
    const v11 = await c.produce(11, 't', 0, p, 0);
    assert.deepEqual([v11.errorCode, v11.logStartOffset, v11.errorMessage], [ErrorCode.TRANSACTION_ABORTABLE, -1n, null]);
    const v10 = await c.produce(10, 't', 0, p, 0);
    assert.deepEqual([v10.errorCode, v10.errorMessage], [ErrorCode.INVALID_TXN_STATE, 'Partition was not added to the transaction']);
    const stale = await c.produce(11, 't', 0, epochOf(p, p.producerEpoch - 1), 0);
    assert.equal(stale.errorCode, ErrorCode.INVALID_PRODUCER_EPOCH);

    await c.findCoordinator('g', 0);
    assert.equal(await c.txnOffsetCommit(4, p, 'g', 't', 1), ErrorCode.TRANSACTION_ABORTABLE);
    assert.equal(await c.txnOffsetCommit(3, p, 'g', 't', 1), ErrorCode.INVALID_TXN_STATE);
    for (const version of [1, 4, 5]) assert.equal(await c.txnOffsetCommit(version, epochOf(p, 5), 'g', 't', 1), ErrorCode.INVALID_PRODUCER_EPOCH, `v${version}`);
    assert.equal(await c.txnOffsetCommit(5, { producerId: p.producerId + 100, producerEpoch: 0 }, 'g', 't', 1), ErrorCode.INVALID_PRODUCER_ID_MAPPING);
    // TxnOffsetCommit v5 starts the transaction; EndTxn v4 (transaction version 0) ends it without a bump.
    assert.equal(await c.txnOffsetCommit(5, p, 'g', 't', 1), ErrorCode.NONE);
    const ended = await c.endTxn(4, p, true);
    assert.deepEqual([ended.errorCode, ended.producerId, ended.producerEpoch], [ErrorCode.NONE, -1n, -1]);
    assert.equal((await c.waitForState('CompleteCommit')).producerEpoch, 0);
  } finally {
    await close();
  }
});

test('WriteTxnMarkers v2 (KIP-1228): a transaction version 2 marker must carry an epoch above the producer\'s, unless its transaction already ended', async () => {
  const { client: c, close } = await open('tx-markers');
  try {
    const p = await c.initProducerId();
    assert.equal((await c.produce(12, 't', 0, p, 0)).errorCode, ErrorCode.NONE);
    const marker = async (version: number, transactionVersion: number, producerEpoch: number): Promise<number> => {
      const res = await roundTrip(c.client, writeTxnMarkersApi, version, {
        markers: [{ producerId: BigInt(p.producerId), producerEpoch, transactionResult: false, topics: [{ name: 't', partitionIndexes: [0] }], coordinatorEpoch: 0, transactionVersion }],
      });
      return res.markers[0]!.topics[0]!.partitions[0]!.errorCode;
    };
    assert.equal(await marker(2, 2, 0), ErrorCode.INVALID_PRODUCER_EPOCH, 'same epoch, transaction open');
    assert.equal(await marker(2, 0, 0), ErrorCode.NONE, 'version 0: the same epoch ends it');
    assert.equal(await marker(2, 2, 0), ErrorCode.NONE, 'a repeat once it ended');
    assert.equal(await marker(2, 2, 1), ErrorCode.NONE);
    assert.equal(await marker(1, 0, 0), ErrorCode.INVALID_PRODUCER_EPOCH);
    assert.equal(await marker(2, 2, 0), ErrorCode.INVALID_PRODUCER_EPOCH);
  } finally {
    await close();
  }
});

test('transaction.version 0: EndTxn ≤ v4 keeps the epoch, as before KIP-890 part 2; version 2 requests are UNSUPPORTED_VERSION', async () => {
  const features = new Features();
  features.apply([{ name: 'transaction.version', level: 0 }]);
  const { client: c, close } = await open('tx-v0', features);
  try {
    const p = await c.initProducerId();
    assert.equal(await c.addPartitions(p, 't', [0]), ErrorCode.NONE);
    assert.equal((await c.produce(11, 't', 0, p, 0)).errorCode, ErrorCode.NONE);
    assert.equal((await c.endTxn(4, p, true)).errorCode, ErrorCode.NONE);
    await c.waitForState('CompleteCommit');
    assert.equal((await c.endTxn(4, p, true)).errorCode, ErrorCode.NONE, 'a repeated commit');
    assert.equal((await c.endTxn(4, p, false)).errorCode, ErrorCode.INVALID_TXN_STATE);
    assert.equal((await c.endTxn(4, epochOf(p, 1), false)).errorCode, ErrorCode.PRODUCER_FENCED);
    assert.equal(await c.addPartitions(p, 't', [0]), ErrorCode.NONE, 'the same epoch goes on');
    assert.equal((await c.produce(11, 't', 0, p, 1)).errorCode, ErrorCode.NONE);
    assert.equal((await c.endTxn(4, p, false)).errorCode, ErrorCode.NONE);
    assert.equal((await c.waitForState('CompleteAbort')).producerEpoch, 0);

    // Transaction version 2 requests cannot be logged at level 0 (Kafka's serializer refuses them; Kafka also
    // leaves the transactional id pending until the coordinator reloads, gregor changes nothing).
    const v5 = await c.endTxn(5, p, false);
    assert.deepEqual([v5.errorCode, v5.producerId, v5.producerEpoch], [ErrorCode.UNSUPPORTED_VERSION, -1n, -1]);
    assert.equal((await c.produce(12, 't', 0, p, 2)).errorCode, ErrorCode.UNSUPPORTED_VERSION);
    await c.findCoordinator('g', 0);
    assert.equal(await c.txnOffsetCommit(5, p, 'g', 't', 1), ErrorCode.UNSUPPORTED_VERSION);
    const unchanged = await c.describe();
    assert.deepEqual([unchanged.transactionState, unchanged.producerEpoch], ['CompleteAbort', 0]);
  } finally {
    await close();
  }
});

test('a restart reads transaction version 2 state back: the bumped epoch, retries answered by it, the next transaction', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'gregor-txn-v2-restart-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const settings = { 'gregor.log.engine': 'file', 'log.dirs': dir };
  let broker = await startTestBroker(settings);
  let c = await TxnClient.connect(broker.port, 'tx-restart');
  await c.findCoordinator();
  await c.createTopic('t');
  const p = await c.initProducerId();
  assert.equal((await c.produce(12, 't', 0, p, 0, 3)).errorCode, ErrorCode.NONE);
  assert.equal((await c.endTxn(5, p, true)).producerEpoch, 1);
  await c.waitForState('CompleteCommit');
  await c.close();
  await broker.close();

  broker = await startTestBroker(settings);
  c = await TxnClient.connect(broker.port, 'tx-restart');
  try {
    await c.findCoordinator();
    const described = await c.describe();
    assert.deepEqual([described.transactionState, Number(described.producerId), described.producerEpoch], ['CompleteCommit', p.producerId, 1]);
    const retried = await c.endTxn(5, p, true);
    assert.deepEqual([retried.errorCode, Number(retried.producerId), retried.producerEpoch], [ErrorCode.NONE, p.producerId, 1]);
    // The partition's producer state came back at the marker's epoch: the next transaction starts at sequence 0.
    const next = epochOf(p, 1);
    const produced = await c.produce(12, 't', 0, next, 0);
    assert.deepEqual([produced.errorCode, produced.baseOffset], [ErrorCode.NONE, 4n]);
    assert.equal((await c.produce(12, 't', 0, p, 3)).errorCode, ErrorCode.INVALID_PRODUCER_EPOCH);
    assert.equal((await c.endTxn(5, next, false)).producerEpoch, 2);
  } finally {
    await c.close();
    await broker.close();
  }
});
