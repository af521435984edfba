// The broker's producer state over the file engine, which keeps it as Kafka does: `<offset>.snapshot` files written
// by the log at segment roll and at close, `<segmentBase>.txnindex` files of aborted transactions. A restart after a
// clean shutdown reads no batch; a crash replays only from the latest roll snapshot, or the whole log when there is
// none; aborted transactions come back from the .txnindex files. (The file formats: test/storage/file/.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveBrokerConfig } from '../../src/config/index.js';
import { ProducerStates } from '../../src/broker/producer-states.js';
import { ReplicaManager } from '../../src/broker/replica-manager.js';
import { ErrorCode } from '../../src/protocol/error-codes.js';
import { ControlRecordType, encodeRecordBatch } from '../../src/protocol/records/index.js';
import { FileLogStore } from '../../src/storage/file/file-store.js';

const config = resolveBrokerConfig({ 'node.id': '1', 'gregor.log.engine': 'memory' });

/** Opens the store in `dir` with producer state loaded; `t-0` rolls a segment every few batches (segment.ms in record time). */
async function open(dir: string) {
  const store = await FileLogStore.open({ logDir: dir, nodeId: 1 });
  if (store.topic('t') === undefined) await store.createTopic('t', 1, { 'segment.ms': '1000' });
  const states = await ProducerStates.load(store);
  const rm = new ReplicaManager(store, config, { producerState: states });
  const log = store.log('t', 0)!;
  let clock = 1_000;
  const produce = (id: number, epoch: number, seq: number, transactional = false) =>
    rm.appendRecords(
      't',
      0,
      encodeRecordBatch({
        producerId: id,
        producerEpoch: epoch,
        baseSequence: seq,
        isTransactional: transactional,
        records: [{ timestamp: (clock += 300), key: null, value: Buffer.from(`r${seq}`) }],
      }),
      { apiVersion: 11, internalTopicsAllowed: false },
    );
  const abort = (id: number, epoch: number) => states.writeMarker(log, { producerId: id, producerEpoch: epoch, type: ControlRecordType.ABORT, coordinatorEpoch: 0 });
  const commit = (id: number, epoch: number) => states.writeMarker(log, { producerId: id, producerEpoch: epoch, type: ControlRecordType.COMMIT, coordinatorEpoch: 0 });
  const partitionDir = join(dir, 't-0');
  return { store, states, log, produce, abort, commit, partitionDir };
}

/** 40 idempotent batches of producer 1, then producer 2 aborts one transaction, commits one and leaves one open. */
async function write(p: Awaited<ReturnType<typeof open>>): Promise<void> {
  for (let seq = 0; seq < 40; seq++) assert.equal((await p.produce(1, 0, seq)).errorCode, ErrorCode.NONE);
  await p.produce(2, 0, 0, true);
  await p.produce(2, 0, 1, true);
  assert.equal(await p.abort(2, 0), ErrorCode.NONE);
  await p.produce(2, 0, 2, true);
  assert.equal(await p.commit(2, 0), ErrorCode.NONE);
  await p.produce(2, 0, 3, true);
}

/** What a restarted broker must still know, whichever way it loaded. */
async function assertStateSurvived(p: Awaited<ReturnType<typeof open>>): Promise<void> {
  const retried = await p.produce(1, 0, 39);
  assert.deepEqual([retried.errorCode, retried.baseOffset], [ErrorCode.NONE, 39], 'the last batch is still a duplicate');
  assert.equal((await p.produce(1, 0, 41)).errorCode, ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER, 'sequences go on from 39');
  assert.deepEqual(p.states.abortedTransactions(p.log, 0, p.log.logEndOffset), [{ producerId: 2, firstOffset: 40, lastOffset: 42, lastStableOffset: 43 }]);
  assert.equal(p.states.lastStableOffset(p.log), 45, 'the open transaction (from offset 45) holds the LSO');
}

async function snapshotsIn(dir: string): Promise<string[]> {
  return (await readdir(dir)).filter((n) => n.endsWith('.snapshot')).sort();
}

test('after a clean shutdown the state loads from the snapshot without reading a batch; aborted transactions from .txnindex', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'gregor-producer-snapshot-'));
  try {
    const first = await open(dir);
    await write(first);
    await first.store.close();
    assert.ok((await snapshotsIn(first.partitionDir)).includes('00000000000000000046.snapshot'), 'a snapshot at the log end');
    const indexes = (await readdir(first.partitionDir)).filter((n) => n.endsWith('.txnindex'));
    const markerSegment = [...first.log.segments].reverse().find((s) => s.baseOffset <= 42)!.baseOffset;
    assert.deepEqual(indexes, [`${String(markerSegment).padStart(20, '0')}.txnindex`], 'indexed with the segment of its marker');
    assert.equal((await stat(join(first.partitionDir, indexes[0]!))).size, 34, 'one aborted transaction');

    const second = await open(dir);
    assert.deepEqual(second.states.loadStats, { snapshotsLoaded: 1, batchesReplayed: 0 }, 'no batch read');
    await assertStateSurvived(second);
    const snapshot = join(first.partitionDir, '00000000000000000046.snapshot');
    const before = await stat(snapshot);
    await second.store.close();
    assert.equal((await stat(snapshot)).ino, before.ino, 'nothing appended since: the snapshot is not written again');

    // Without the .txnindex the aborted transaction is unknown: it was served from the file, not the log.
    for (const name of await readdir(first.partitionDir)) if (name.endsWith('.txnindex')) await rm(join(first.partitionDir, name));
    const third = await open(dir);
    assert.deepEqual(third.states.abortedTransactions(third.log, 0, third.log.logEndOffset), []);
    await third.store.close();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('after a crash the state replays from the latest roll snapshot only, and .txnindex entries are not doubled', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'gregor-producer-snapshot-'));
  try {
    const first = await open(dir);
    await write(first);
    // As if the broker died: no snapshot at close, only the ones written when segments rolled are there.
    first.store.setProducerStateSource(undefined);
    await first.store.close();
    const snapshots = await snapshotsIn(first.partitionDir);
    assert.ok(snapshots.length >= 1 && snapshots.length <= 2, `roll snapshots kept: ${snapshots.join(', ')}`);
    const latest = Number(snapshots.at(-1)!.slice(0, 20));
    assert.ok(latest > 0 && latest < 46);

    const second = await open(dir);
    assert.equal(second.states.loadStats.snapshotsLoaded, 1);
    const segmentBatches = 46 - latest;
    assert.equal(second.states.loadStats.batchesReplayed, segmentBatches, `only the ${segmentBatches} batches after offset ${latest} are read`);
    await assertStateSurvived(second);
    await second.store.close();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('without any snapshot (or with a corrupt one) the state is rebuilt from the whole log', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'gregor-producer-snapshot-'));
  try {
    const first = await open(dir);
    await write(first);
    first.store.setProducerStateSource(undefined);
    await first.store.close();
    const snapshots = await snapshotsIn(first.partitionDir);
    await rm(join(first.partitionDir, snapshots[0]!));
    for (const name of snapshots.slice(1)) await writeFile(join(first.partitionDir, name), Buffer.from('not a snapshot'));

    const second = await open(dir);
    assert.deepEqual(second.states.loadStats, { snapshotsLoaded: 0, batchesReplayed: 46 }, 'every batch read');
    assert.deepEqual(await snapshotsIn(first.partitionDir), [], 'the corrupt snapshot is deleted');
    await assertStateSurvived(second);
    await second.store.close();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a .txnindex whose segment is gone gives its entries to the segment holding their markers (a data dir from before the cleaner carried them)', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'gregor-producer-snapshot-'));
  try {
    const first = await open(dir);
    await write(first);
    await first.store.close();
    const index = (await readdir(first.partitionDir)).find((n) => n.endsWith('.txnindex'))!;
    // As if the segment holding the marker had been merged into an earlier one by the cleaner.
    await rename(join(first.partitionDir, index), join(first.partitionDir, '00000000000000000041.txnindex'));

    const second = await open(dir);
    assert.equal(second.states.loadStats.batchesReplayed, 0);
    await assertStateSurvived(second);
    await second.store.close();
    const indexes = (await readdir(first.partitionDir)).filter((n) => n.endsWith('.txnindex'));
    assert.deepEqual(indexes, [index], 'the orphan is gone, its entry is back in the index of the segment holding offset 42');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
