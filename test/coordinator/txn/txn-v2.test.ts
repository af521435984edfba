// Transaction version 2 in the coordinator (KIP-890 part 2): an exhausted epoch moves to a new producer id when
// the transaction completes, the records carry the v2 fields and the value version the finalized level picks,
// and a restart reads them back (a prepared rotation completes after it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ErrorCode } from '../../../src/protocol/error-codes.js';
import { ControlRecordType, decodeBatchRecords } from '../../../src/protocol/records/index.js';
import { TRANSACTION_STATE_TOPIC, TxnLog } from '../../../src/coordinator/txn/txn-log.js';
import { decodeTxnRecord } from '../../../src/coordinator/txn/txn-records.js';
import { TxnState, type TxnFields } from '../../../src/coordinator/txn/txn-metadata.js';
import { replayBatches } from '../../../src/storage/log-replay.js';
import { FileLogStore } from '../../../src/storage/file/file-store.js';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TxnHarness } from './txn-harness.js';

const TOPICS = new Map([['t', [0]]]);
const TV2 = 2;

/** Appends the record the coordinator would write for `transactionalId` (a state it reaches only after a long life, or a crash). */
async function logRecord(h: TxnHarness, transactionalId: string, fields: TxnFields): Promise<void> {
  const txnLog = new TxnLog(h.store, h.config, async (topic, p, batch) => (await h.replicaManager.appendRecords(topic, p, batch, { apiVersion: 11, internalTopicsAllowed: true })).errorCode, () => h.scheduler.now());
  await txnLog.append({ transactionalId, value: fields }, TV2);
}

/** Every __transaction_state record of `transactionalId`: its value version and fields, in log order. */
async function records(h: TxnHarness, transactionalId: string): Promise<{ version: number; value: TxnFields | null }[]> {
  const out: { version: number; value: TxnFields | null }[] = [];
  for (let p = 0; p < h.config['transaction.state.log.num.partitions']; p++) {
    const log = h.store.log(TRANSACTION_STATE_TOPIC, p);
    if (log === undefined) continue;
    for await (const batch of replayBatches(log, 0, 1 << 20)) {
      for (const r of decodeBatchRecords(batch)) {
        const decoded = decodeTxnRecord(r.key!, r.value);
        if (decoded.transactionalId === transactionalId) out.push({ version: r.value === null ? -1 : r.value.readInt16BE(0), value: decoded.value });
      }
    }
  }
  return out;
}

test('an exhausted epoch moves to a new producer id as a version 2 transaction completes; a retry with the last epoch is answered with it', async (t) => {
  // The file engine: producer id blocks survive the restart, as on a real broker.
  const dir = await mkdtemp(join(tmpdir(), 'gregor-txn-v2-'));
  const store = await FileLogStore.open({ logDir: dir, nodeId: 1 });
  t.after(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });
  const h = await TxnHarness.start({}, store);
  await h.createTopic('t');
  const first = await h.coordinator.initProducerId('tx', 60000, null);
  const oldId = first.producerId;
  // 32766 epochs later (Short.MAX_VALUE - 1: exhausted), read back at start-up.
  await logRecord(h, 'tx', { ...h.coordinator.metadata('tx')!, producerEpoch: 32766 });
  await h.close();
  await h.open();
  const c = h.coordinator;
  assert.equal(c.metadata('tx')!.producerEpoch, 32766);

  assert.equal(await c.addPartitions('tx', oldId, 32766, TOPICS, TV2), ErrorCode.NONE);
  assert.equal((await h.produce('t', 0, { id: oldId, epoch: 32766, seq: 0, transactional: true })).errorCode, ErrorCode.NONE);
  const ended = await c.endTxn('tx', oldId, 32766, true, TV2);
  assert.equal(ended.errorCode, ErrorCode.NONE);
  assert.notEqual(ended.producerId, oldId);
  assert.equal(ended.producerEpoch, 0);
  // The file engine's marker and log writes take real I/O: wait for the transaction to complete.
  for (let i = 0; i < 500 && c.metadata('tx')!.state !== TxnState.CompleteCommit; i++) await new Promise((resolve) => setTimeout(resolve, 10));

  const m = c.metadata('tx')!;
  assert.deepEqual([m.state, m.producerId, m.producerEpoch, m.previousProducerId, m.nextProducerId], [TxnState.CompleteCommit, ended.producerId, 0, oldId, -1]);
  // The markers go out under the old id at the last epoch, Short.MAX_VALUE.
  assert.deepEqual((await h.markers('t')).map((x) => [x.type, x.producerId, x.producerEpoch]), [[ControlRecordType.COMMIT, oldId, 32767]]);
  const prepared = (await records(h, 'tx')).find((r) => r.value?.state === TxnState.PrepareCommit)!;
  assert.deepEqual([prepared.version, prepared.value!.producerId, prepared.value!.producerEpoch, prepared.value!.nextProducerId], [1, oldId, 32767, ended.producerId]);

  const retried = await c.endTxn('tx', oldId, 32766, true, TV2);
  assert.deepEqual([retried.errorCode, retried.producerId, retried.producerEpoch], [ErrorCode.NONE, ended.producerId, 0]);
  assert.equal((await c.endTxn('tx', oldId, 32766, false, TV2)).errorCode, ErrorCode.INVALID_TXN_STATE);
  // The new id goes on at epoch 0.
  assert.equal(await c.addPartitions('tx', ended.producerId, 0, TOPICS, TV2), ErrorCode.NONE);
  assert.equal((await c.endTxn('tx', ended.producerId, 0, false, TV2)).producerEpoch, 1);
  await h.close();
});

test('records carry the version 2 fields at level 2 (value v1) and none at level 0 (v0); a restart reads them back and finishes a prepared rotation', async () => {
  const h = await TxnHarness.start();
  await h.createTopic('t');
  const c = h.coordinator;
  const { producerId } = await c.initProducerId('tx', 60000, null);
  assert.equal(await c.addPartitions('tx', producerId, 0, TOPICS, TV2), ErrorCode.NONE);
  assert.equal((await h.produce('t', 0, { id: producerId, epoch: 0, seq: 0, transactional: true })).errorCode, ErrorCode.NONE);
  const written = await records(h, 'tx');
  assert.deepEqual(
    written.map((r) => [r.version, r.value!.state, r.value!.clientTransactionVersion]),
    [
      [1, TxnState.Empty, 0],
      [1, TxnState.Ongoing, TV2],
    ],
  );

  // A crash after PrepareCommit of an exhausted epoch (bumped to Short.MAX_VALUE, the next id chosen).
  const nextId = producerId + 1000;
  await logRecord(h, 'tx', { ...c.metadata('tx')!, state: TxnState.PrepareCommit, producerEpoch: 32767, lastProducerEpoch: 32766, nextProducerId: nextId, previousProducerId: producerId });
  await h.close();
  await h.open();
  await h.settle();
  const m = h.coordinator.metadata('tx')!;
  assert.deepEqual([m.state, m.producerId, m.producerEpoch, m.clientTransactionVersion], [TxnState.CompleteCommit, nextId, 0, TV2]);
  assert.deepEqual((await h.markers('t')).map((x) => [x.type, x.producerId, x.producerEpoch]), [[ControlRecordType.COMMIT, producerId, 32767]]);
  assert.equal(h.coordinator.describe('tx').producerId, nextId);

  // Level 0: value version 0 from the next record on (the version 2 fields are not written).
  h.features.apply([{ name: 'transaction.version', level: 0 }]);
  await h.coordinator.initProducerId('tx0', 60000, null);
  assert.deepEqual((await records(h, 'tx0')).map((r) => [r.version, r.value!.previousProducerId, r.value!.clientTransactionVersion]), [[0, -1, 0]]);
  await h.close();
});
