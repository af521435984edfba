// The transaction coordinator's state machine with a manual clock: InitProducerId epochs and fencing (KIP-360
// retries), AddPartitions / EndTxn answers per state, markers on every partition, timeouts that abort and fence,
// and recovery from __transaction_state.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ErrorCode } from '../../../src/protocol/error-codes.js';
import { ControlRecordType } from '../../../src/protocol/records/index.js';
import { TxnLog } from '../../../src/coordinator/txn/txn-log.js';
import { TxnState } from '../../../src/coordinator/txn/txn-metadata.js';
import { MemoryBlockStore, ProducerIdManager, PRODUCER_ID_BLOCK_SIZE } from '../../../src/coordinator/producer-ids.js';
import { START_TIME, TxnHarness } from './txn-harness.js';

const TOPICS = new Map([['t', [0]]]);

test('idempotent producers get fresh ids at epoch 0; ids are never handed out twice across restarts', async () => {
  const blocks = new MemoryBlockStore();
  const first = new ProducerIdManager(blocks);
  await first.load();
  const a = await first.generate();
  const b = await first.generate();
  assert.equal(b, a + 1);
  const restarted = new ProducerIdManager(blocks);
  await restarted.load();
  const c = await restarted.generate();
  assert.ok(c >= PRODUCER_ID_BLOCK_SIZE, `id ${c} after a restart comes from a new block`);

  const h = await TxnHarness.start();
  const r1 = await h.coordinator.initProducerId(null, 60000, null);
  const r2 = await h.coordinator.initProducerId(null, 60000, null);
  assert.equal(r1.errorCode, ErrorCode.NONE);
  assert.equal(r1.producerEpoch, 0);
  assert.notEqual(r1.producerId, r2.producerId);
  await h.close();
});

test('InitProducerId with a transactional id bumps the epoch; KIP-360 retries keep it; a stale epoch is fenced', async () => {
  const h = await TxnHarness.start();
  const c = h.coordinator;
  assert.equal((await c.initProducerId('tx', 60000, null)).errorCode, ErrorCode.NONE);
  assert.equal((await c.initProducerId('tx', h.config['transaction.max.timeout.ms'] + 1, null)).errorCode, ErrorCode.INVALID_TRANSACTION_TIMEOUT);
  assert.equal((await c.initProducerId('tx', 0, null)).errorCode, ErrorCode.INVALID_TRANSACTION_TIMEOUT);
  assert.equal((await c.initProducerId('', 1000, null)).errorCode, ErrorCode.INVALID_REQUEST);

  const init = await c.initProducerId('tx', 60000, null);
  assert.equal(init.producerEpoch, 1);
  const bumped = await c.initProducerId('tx', 60000, { producerId: init.producerId, epoch: 1 });
  assert.deepEqual([bumped.producerId, bumped.producerEpoch], [init.producerId, 2]);
  const retried = await c.initProducerId('tx', 60000, { producerId: init.producerId, epoch: 1 });
  assert.deepEqual([retried.errorCode, retried.producerEpoch], [ErrorCode.NONE, 2]);
  assert.equal((await c.initProducerId('tx', 60000, { producerId: init.producerId, epoch: 0 })).errorCode, ErrorCode.PRODUCER_FENCED);
  assert.equal((await c.initProducerId('tx', 60000, { producerId: init.producerId + 100, epoch: 2 })).errorCode, ErrorCode.PRODUCER_FENCED);

  // The older producer's requests are fenced.
  assert.equal(await c.addPartitions('tx', init.producerId, 1, TOPICS), ErrorCode.PRODUCER_FENCED);
  assert.equal(await c.addPartitions('tx', init.producerId + 1, 2, TOPICS), ErrorCode.INVALID_PRODUCER_ID_MAPPING);
  assert.equal(await c.addPartitions('unknown', init.producerId, 2, TOPICS), ErrorCode.INVALID_PRODUCER_ID_MAPPING);
  await h.close();
});

test('a committed transaction writes COMMIT markers to each partition, then is CompleteCommit; EndTxn answers per state', async () => {
  const h = await TxnHarness.start();
  await h.createTopic('t', 2);
  const c = h.coordinator;
  const { producerId, producerEpoch } = await c.initProducerId('tx', 60000, null);
  assert.equal((await c.endTxn('tx', producerId, producerEpoch, true)).errorCode, ErrorCode.INVALID_TXN_STATE, 'nothing to end in Empty');
  assert.equal(await c.addPartitions('tx', producerId, producerEpoch, new Map([['t', [0, 1]]])), ErrorCode.NONE);
  assert.equal(c.metadata('tx')!.state, TxnState.Ongoing);
  const appended = await h.produce('t', 0, { id: producerId, epoch: producerEpoch, seq: 0, transactional: true }, 2);
  assert.equal(appended.errorCode, ErrorCode.NONE);
  assert.equal(h.producerStates.lastStableOffset(h.log('t', 0)), 0, 'the open transaction holds the LSO');

  assert.equal((await c.endTxn('tx', producerId, producerEpoch, true)).errorCode, ErrorCode.NONE);
  await h.settle();
  assert.equal(c.metadata('tx')!.state, TxnState.CompleteCommit);
  for (const p of [0, 1]) {
    const markers = await h.markers('t', p);
    assert.deepEqual(markers.map((m) => [m.type, m.producerId, m.producerEpoch]), [[ControlRecordType.COMMIT, producerId, producerEpoch]]);
  }
  assert.equal(h.producerStates.lastStableOffset(h.log('t', 0)), h.log('t', 0).highWatermark);
  assert.deepEqual(h.producerStates.abortedTransactions(h.log('t', 0), 0, 100), []);
  assert.equal((await c.endTxn('tx', producerId, producerEpoch, true)).errorCode, ErrorCode.NONE, 'a retried commit succeeds');
  assert.equal((await c.endTxn('tx', producerId, producerEpoch, false)).errorCode, ErrorCode.INVALID_TXN_STATE);
  assert.equal((await c.endTxn('tx', producerId, producerEpoch + 1, true)).errorCode, ErrorCode.PRODUCER_FENCED);
  await h.close();
});

test('an aborted transaction is indexed for read_committed fetches', async () => {
  const h = await TxnHarness.start();
  await h.createTopic('t');
  const c = h.coordinator;
  const { producerId, producerEpoch } = await c.initProducerId('tx', 60000, null);
  await c.addPartitions('tx', producerId, producerEpoch, TOPICS);
  await h.produce('t', 0, { id: producerId, epoch: producerEpoch, seq: 0, transactional: true }, 3);
  assert.equal((await c.endTxn('tx', producerId, producerEpoch, false)).errorCode, ErrorCode.NONE);
  await h.settle();
  assert.equal(c.metadata('tx')!.state, TxnState.CompleteAbort);
  const aborted = h.producerStates.abortedTransactions(h.log('t'), 0, 10);
  assert.deepEqual(aborted.map((a) => [a.producerId, a.firstOffset, a.lastOffset]), [[producerId, 0, 3]]);
  assert.deepEqual(h.producerStates.abortedTransactions(h.log('t'), 4, 10), [], 'not past its marker');
  await h.close();
});

test('a transaction open past its timeout is aborted with a bumped epoch; the old producer is fenced', async () => {
  const h = await TxnHarness.start();
  await h.createTopic('t');
  const c = h.coordinator;
  const { producerId, producerEpoch } = await c.initProducerId('tx', 5000, null);
  await c.addPartitions('tx', producerId, producerEpoch, TOPICS);
  await h.produce('t', 0, { id: producerId, epoch: producerEpoch, seq: 0, transactional: true });
  await h.produce('t', 0, { id: 999, epoch: 0, seq: 0 });
  assert.equal(h.producerStates.lastStableOffset(h.log('t')), 0);

  await h.scheduler.advance(5000);
  assert.equal(c.metadata('tx')!.state, TxnState.Ongoing, 'not yet past the timeout when the check runs');
  await h.scheduler.advance(h.config['transaction.abort.timed.out.transaction.cleanup.interval.ms']);
  await h.settle();
  const m = c.metadata('tx')!;
  assert.equal(m.state, TxnState.CompleteAbort);
  assert.equal(m.producerEpoch, producerEpoch + 1);
  assert.equal(h.producerStates.lastStableOffset(h.log('t')), h.log('t').highWatermark, 'the LSO moves on');
  const markers = await h.markers('t');
  assert.deepEqual(markers.map((x) => [x.type, x.producerEpoch]), [[ControlRecordType.ABORT, producerEpoch + 1]]);

  const late = await h.produce('t', 0, { id: producerId, epoch: producerEpoch, seq: 1, transactional: true });
  assert.equal(late.errorCode, ErrorCode.INVALID_PRODUCER_EPOCH);
  assert.equal((await c.endTxn('tx', producerId, producerEpoch, true)).errorCode, ErrorCode.PRODUCER_FENCED);
  await h.close();
});

test('a new producer with the same transactional id aborts the open transaction (CONCURRENT_TRANSACTIONS until done)', async () => {
  const h = await TxnHarness.start();
  await h.createTopic('t');
  const c = h.coordinator;
  const old = await c.initProducerId('tx', 60000, null);
  await c.addPartitions('tx', old.producerId, old.producerEpoch, TOPICS);
  await h.produce('t', 0, { id: old.producerId, epoch: old.producerEpoch, seq: 0, transactional: true });
  assert.equal((await c.initProducerId('tx', 60000, null)).errorCode, ErrorCode.CONCURRENT_TRANSACTIONS);
  await h.settle();
  const next = await c.initProducerId('tx', 60000, null);
  assert.equal(next.errorCode, ErrorCode.NONE);
  assert.equal(next.producerEpoch, old.producerEpoch + 2, 'one bump to fence, one for the new producer');
  assert.deepEqual((await h.markers('t')).map((x) => x.type), [ControlRecordType.ABORT]);
  await h.close();
});

test('state is recovered from __transaction_state; a transaction prepared before a crash gets its markers', async () => {
  const h = await TxnHarness.start();
  await h.createTopic('t');
  const c = h.coordinator;
  const { producerId, producerEpoch } = await c.initProducerId('tx', 60000, null);
  await c.addPartitions('tx', producerId, producerEpoch, TOPICS);
  await h.produce('t', 0, { id: producerId, epoch: producerEpoch, seq: 0, transactional: true });
  // Crash after PrepareCommit was logged but before any marker: append the record the coordinator would write.
  const fields = { ...c.metadata('tx')!, state: TxnState.PrepareCommit, partitions: new Map([['t', new Set([0])]]) };
  const txnLog = new TxnLog(h.store, h.config, async (topic, p, batch) => (await h.replicaManager.appendRecords(topic, p, batch, { apiVersion: 11, internalTopicsAllowed: true })).errorCode, () => h.scheduler.now());
  await txnLog.append({ transactionalId: 'tx', value: fields }, 2);
  await h.close();

  await h.open();
  await h.settle();
  const m = h.coordinator.metadata('tx')!;
  assert.equal(m.state, TxnState.CompleteCommit);
  assert.deepEqual([m.producerId, m.producerEpoch], [producerId, producerEpoch]);
  assert.deepEqual((await h.markers('t')).map((x) => x.type), [ControlRecordType.COMMIT]);
  assert.equal(h.producerStates.lastStableOffset(h.log('t')), h.log('t').highWatermark);
  // The next InitProducerId continues from the recovered epoch.
  assert.equal((await h.coordinator.initProducerId('tx', 60000, null)).producerEpoch, producerEpoch + 1);
  const described = h.coordinator.describe('tx');
  assert.equal(described.state, 'Empty');
  assert.equal(h.coordinator.describe('other').errorCode, ErrorCode.TRANSACTIONAL_ID_NOT_FOUND);
  await h.close();
});

test('ListTransactions filters by state, producer id, duration and pattern; unknown states are echoed', async () => {
  const h = await TxnHarness.start();
  await h.createTopic('t');
  const c = h.coordinator;
  const a = await c.initProducerId('a', 60000, null);
  await c.initProducerId('b', 60000, null);
  await c.addPartitions('a', a.producerId, a.producerEpoch, TOPICS);
  const all = c.list({ states: [], producerIds: [], durationMs: -1, pattern: null });
  assert.deepEqual(all.transactions.map((t) => [t.transactionalId, t.state]).sort(), [['a', 'Ongoing'], ['b', 'Empty']]);
  assert.deepEqual(c.list({ states: ['Ongoing'], producerIds: [], durationMs: -1, pattern: null }).transactions.map((t) => t.transactionalId), ['a']);
  assert.deepEqual(c.list({ states: [], producerIds: [a.producerId], durationMs: -1, pattern: null }).transactions.map((t) => t.transactionalId), ['a']);
  assert.deepEqual(c.list({ states: ['Bogus'], producerIds: [], durationMs: -1, pattern: null }), { unknownStates: ['Bogus'], transactions: [] });
  // Kafka 4.3.1 keeps what started more than the duration ago, whatever the state: an Empty id (start -1) always.
  const running = (durationMs: number) => c.list({ states: [], producerIds: [], durationMs, pattern: null }).transactions.map((t) => t.transactionalId).sort();
  assert.deepEqual(running(1000), ['b']);
  await h.scheduler.advance(1000);
  assert.deepEqual(running(1000), ['b']);
  await h.scheduler.advance(1);
  assert.deepEqual(running(1000), ['a', 'b']);
  assert.deepEqual(c.list({ states: [], producerIds: [], durationMs: -1, pattern: /a/ }).transactions.map((t) => t.transactionalId), ['a']);
  assert.equal(h.scheduler.now() >= START_TIME, true);
  await h.close();
});

test('transactional ids idle past transactional.id.expiration.ms are forgotten', async () => {
  const h = await TxnHarness.start({ 'transactional.id.expiration.ms': '10000', 'transaction.remove.expired.transaction.cleanup.interval.ms': '1000' });
  await h.coordinator.initProducerId('idle', 60000, null);
  await h.scheduler.advance(5000);
  assert.notEqual(h.coordinator.metadata('idle'), undefined);
  await h.scheduler.advance(6000);
  await h.settle();
  assert.equal(h.coordinator.metadata('idle'), undefined);
  await h.close();
  await h.open();
  assert.equal(h.coordinator.metadata('idle'), undefined, 'the tombstone is replayed');
  await h.close();
});
