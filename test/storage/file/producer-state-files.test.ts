// The file engine keeps the broker's producer state as Kafka does, next to the segments: `<offset>.snapshot`
// files written when the log rolls and when it closes (two kept), `<segmentBase>.txnindex` files of aborted
// transactions. Recovery at open picks the newest usable snapshot and cuts index entries from its offset on;
// truncation takes the snapshots above the new end with it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openFileLog } from '../../../src/storage/file/file-log.js';
import { decodeProducerSnapshot, encodeProducerSnapshot } from '../../../src/storage/file/producer-snapshot.js';
import { decodeTxnIndex, encodeAbortedTxn } from '../../../src/storage/file/txn-index.js';
import { defaultLogConfig } from '../../../src/storage/log-config.js';
import type { SnapshotEntry } from '../../../src/storage/producer-state.js';
import { ManualScheduler } from '../../../src/storage/scheduler.js';
import { batchOf } from '../batch-fixtures.js';

test('snapshot and .txnindex files have Kafka layouts: 10-byte header + 46 bytes per producer, 34 bytes per aborted transaction', () => {
  const entries: SnapshotEntry[] = [
    { producerId: 7, epoch: 3, lastSequence: 41, lastOffset: 99, offsetDelta: 4, timestamp: 1_700_000_000_000, coordinatorEpoch: 2, currentTxnFirstOffset: -1 },
    { producerId: 2 ** 40, epoch: 0, lastSequence: -1, lastOffset: -1, offsetDelta: 0, timestamp: -1, coordinatorEpoch: -1, currentTxnFirstOffset: 12 },
  ];
  const encoded = encodeProducerSnapshot(entries);
  assert.equal(encoded.length, 10 + 2 * 46);
  assert.equal(encoded.readInt16BE(0), 1, 'version 1');
  assert.deepEqual(decodeProducerSnapshot(encoded), entries);
  encoded[20]! ^= 1;
  assert.throws(() => decodeProducerSnapshot(encoded), /snapshot is corrupt/);
  assert.throws(() => decodeProducerSnapshot(Buffer.from([0, 9, 0, 0, 0, 0, 0, 0, 0, 0])), /unknown file version 9/);

  const txn = { producerId: 5, firstOffset: 10, lastOffset: 20, lastStableOffset: 21 };
  const index = Buffer.concat([encodeAbortedTxn(txn), encodeAbortedTxn({ ...txn, producerId: 6 }), Buffer.alloc(7)]);
  assert.equal(encodeAbortedTxn(txn).length, 34);
  assert.deepEqual(decodeTxnIndex(index), { entries: [txn, { ...txn, producerId: 6 }], valid: 68 }, 'a torn tail is dropped');
});

/** A state that names the offset it was asked for, so each snapshot file shows where it was taken. */
const stateAt = (endOffset: number): SnapshotEntry[] => [
  { producerId: 1, epoch: 0, lastSequence: endOffset - 1, lastOffset: endOffset - 1, offsetDelta: 0, timestamp: 0, coordinatorEpoch: -1, currentTxnFirstOffset: -1 },
];

async function openIn(dir: string, clean: boolean) {
  const { log } = await openFileLog({
    dir,
    topic: 't',
    partition: 0,
    config: { ...defaultLogConfig(), segmentBytes: 300 },
    scheduler: new ManualScheduler(1_000_000),
    clean,
    recoveryPoint: 0,
    logStartOffset: 0,
  });
  return log;
}

const namesIn = async (dir: string, suffix: string) => (await readdir(dir)).filter((n) => n.endsWith(suffix)).sort();

test('the log snapshots its producer state at each roll (two kept) and at close; recovery starts from the newest', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'gregor-producer-files-'));
  try {
    const log = await openIn(dir, false);
    log.setProducerStateSource((_log, endOffset) => stateAt(endOffset));
    for (let i = 0; i < 10; i++) await log.append(await batchOf(1), { leaderEpoch: 0 });
    const rolls = log.segments.slice(1).map((s) => s.baseOffset);
    assert.ok(rolls.length >= 2, `rolled at ${rolls.join(', ')}`);
    await log.flush();
    await log.close();
    const names = await namesIn(dir, '.snapshot');
    assert.deepEqual(names, [rolls.at(-1)!, 10].map((o) => `${String(o).padStart(20, '0')}.snapshot`), 'the last roll and the close');
    assert.deepEqual(decodeProducerSnapshot(await readFile(join(dir, names[0]!))), stateAt(rolls.at(-1)!), 'taken at the new segment base');

    const reopened = await openIn(dir, true);
    assert.deepEqual(reopened.producerStateAtOpen(), { snapshot: stateAt(10), replayFrom: 10 });
    await reopened.close();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('truncation drops the snapshots above the new end; recovery cuts index entries at or after the snapshot offset', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'gregor-producer-files-'));
  try {
    const log = await openIn(dir, false);
    log.setProducerStateSource((_log, endOffset) => stateAt(endOffset));
    for (let i = 0; i < 10; i++) await log.append(await batchOf(1), { leaderEpoch: 0 });
    const early = { producerId: 1, firstOffset: 0, lastOffset: 1, lastStableOffset: 2 };
    const late = { producerId: 2, firstOffset: 7, lastOffset: 9, lastStableOffset: 10 };
    log.appendAbortedTxn(early);
    log.appendAbortedTxn(late);
    const lastRoll = log.segments.at(-1)!.baseOffset;
    await log.truncateTo(lastRoll - 1);
    await log.flush();
    // As after a crash: nothing snapshotted at close.
    log.setProducerStateSource(undefined);
    await log.close();
    const snapshots = (await namesIn(dir, '.snapshot')).map((n) => Number(n.slice(0, 20)));
    assert.ok(snapshots.every((o) => o <= lastRoll - 1), `no snapshot above the truncation point: ${snapshots.join(', ')}`);

    const reopened = await openIn(dir, false);
    const { replayFrom } = reopened.producerStateAtOpen();
    assert.equal(replayFrom, snapshots.at(-1) ?? 0);
    const kept = [early].filter((t) => t.lastOffset < replayFrom);
    assert.deepEqual(reopened.abortedTransactions(0, reopened.logEndOffset), kept, 'the replay will index the rest again');
    await reopened.close();
    const files = await namesIn(dir, '.txnindex');
    const onDisk = [];
    for (const name of files) onDisk.push(...decodeTxnIndex(await readFile(join(dir, name))).entries);
    assert.deepEqual(onDisk, kept);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
