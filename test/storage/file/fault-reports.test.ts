// What the file engine finds wrong and repairs, or fails to do, is reported at Kafka's level and in its words:
// index files rebuilt (offset index missing: ERROR; time index missing, either corrupt: WARN), orphaned index files (WARN), acknowledged records cut by
// recovery (WARN), refused writes on a full disk (ERROR, once while they keep failing).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileLogStore } from '../../../src/storage/file/file-store.js';
import { IoFaults } from '../../../src/storage/file/io-faults.js';
import { batchOf } from '../batch-fixtures.js';

const root = mkdtempSync(join(tmpdir(), 'gregor-faults-'));
after(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const freshDir = () => join(root, `d-${n++}`);
const segment = (logDir: string, suffix: string) => join(logDir, 't-0', `${'0'.repeat(20)}${suffix}`);

/** A store whose WARN and ERROR lines are kept. */
async function openStore(logDir: string) {
  const warnings: string[] = [];
  const errors: string[] = [];
  const store = await FileLogStore.open({ logDir, nodeId: 1, warn: (m) => warnings.push(m), error: (m) => errors.push(m) });
  return { store, warnings, errors };
}

/** Topic t, one partition with index entries, 10 batches of 2 records, closed cleanly. */
async function written(logDir: string): Promise<void> {
  const { store } = await openStore(logDir);
  await store.createTopic('t', 1, { 'index.interval.bytes': '100' });
  for (let i = 0; i < 10; i++) await store.log('t', 0)!.append(await batchOf(2, 1_000 + i, 50), { leaderEpoch: 0 });
  await store.close();
}

test('a missing index file is logged at ERROR, a corrupt one at WARN, an orphaned one at WARN, and the data stays', async () => {
  const logDir = freshDir();
  await written(logDir);

  rmSync(segment(logDir, '.index'));
  const missing = await openStore(logDir);
  assert.deepEqual(missing.errors, [
    `Could not find offset index file corresponding to log file ${segment(logDir, '.log')}, recovering segment and rebuilding index files...`,
  ]);
  assert.deepEqual(missing.warnings, []);
  assert.equal(missing.store.loadStats.recoveredSegments, 1);
  assert.equal(missing.store.log('t', 0)!.logEndOffset, 20);
  await missing.store.close();
  assert.ok(readFileSync(segment(logDir, '.index')).length > 0, 'the index is rebuilt');

  rmSync(segment(logDir, '.timeindex'));
  const noTimeIndex = await openStore(logDir);
  assert.deepEqual(noTimeIndex.warnings, [
    `Could not find time index file corresponding to log file ${segment(logDir, '.log')}, recovering segment and rebuilding index files...`,
  ]);
  assert.deepEqual(noTimeIndex.errors, []);
  await noTimeIndex.store.close();

  writeFileSync(segment(logDir, '.timeindex'), Buffer.alloc(5));
  const corrupt = await openStore(logDir);
  assert.deepEqual(corrupt.warnings, [
    `Found a corrupted time index file corresponding to log file ${segment(logDir, '.log')} due to entries not whole, not in order or past the segment's end, recovering segment and rebuilding index files...`,
  ]);
  assert.deepEqual(corrupt.errors, []);
  assert.equal(corrupt.store.log('t', 0)!.logEndOffset, 20);
  await corrupt.store.close();

  const orphan = join(logDir, 't-0', `${'9'.padStart(20, '0')}.index`);
  writeFileSync(orphan, Buffer.alloc(8));
  const orphaned = await openStore(logDir);
  assert.deepEqual(orphaned.warnings, [`Found an orphaned index file ${orphan}, with no corresponding log file.`]);
  assert.deepEqual(orphaned.errors, []);
  await orphaned.store.close();

  const clean = await openStore(logDir);
  assert.deepEqual([clean.warnings, clean.errors], [[], []], 'nothing to report once repaired');
  await clean.store.close();
});

test('acknowledged records cut by recovery after a CRC failure are logged at WARN', async () => {
  const logDir = freshDir();
  const { store } = await openStore(logDir);
  await store.createTopic('t', 1);
  for (let i = 0; i < 10; i++) await store.log('t', 0)!.append(await batchOf(2, 1_000 + i, 50), { leaderEpoch: 0 });
  // A crash: the store is never closed (only its lock dropped, as a dying process's), so the next open recovers.
  // One byte of the 8th batch's records flips.
  await store.abandon();
  const bytes = readFileSync(segment(logDir, '.log'));
  const batchSize = 12 + bytes.readInt32BE(8);
  const file = await open(segment(logDir, '.log'), 'r+');
  await file.write(Buffer.from([bytes[7 * batchSize + batchSize - 1]! ^ 0xff]), 0, 1, 7 * batchSize + batchSize - 1);
  await file.close();
  const recovered = await openStore(logDir);
  assert.deepEqual(recovered.warnings, [`t-0: corruption found in segment 0, ${3 * batchSize} bytes of a torn or corrupt tail cut; it now ends at offset 14`]);
  assert.equal(recovered.store.log('t', 0)!.logEndOffset, 14);
  await recovered.store.close();
});

test('appends refused by a full disk answer KAFKA_STORAGE_ERROR and are logged at ERROR once while they keep failing', async () => {
  const logDir = freshDir();
  const { store } = await openStore(logDir);
  await store.createTopic('t', 1);
  await store.close();
  // Every write to /dev/full fails with the kernel's ENOSPC.
  rmSync(segment(logDir, '.log'));
  symlinkSync('/dev/full', segment(logDir, '.log'));
  const full = await openStore(logDir);
  const expected = `Error while appending records to t-0 in dir ${logDir}: ENOSPC: no space left on device, write`;
  for (let i = 0; i < 3; i++) {
    await assert.rejects(full.store.log('t', 0)!.append(await batchOf(1), { leaderEpoch: 0 }), { code: 'KAFKA_STORAGE_ERROR', message: expected });
  }
  assert.deepEqual(full.errors, [expected]);
  assert.equal(full.store.log('t', 0)!.logEndOffset, 0);
  await full.store.close();
});

test('a repeated failure is logged again once the operation succeeded in between, with how many were not logged', async () => {
  const errors: string[] = [];
  const warnings: string[] = [];
  const faults = new IoFaults((m) => errors.push(m), (m) => warnings.push(m));
  const missing = join(root, 'missing');
  const openMissing = () => faults.run('reading', `t-0 in dir ${root}`, () => open(missing, 'r').then((f) => f.close()));
  for (let i = 0; i < 3; i++) await assert.rejects(openMissing(), { code: 'KAFKA_STORAGE_ERROR' });
  writeFileSync(missing, '');
  await openMissing();
  rmSync(missing);
  await assert.rejects(openMissing(), { code: 'KAFKA_STORAGE_ERROR' });
  const line = `Error while reading t-0 in dir ${root}: ENOENT: no such file or directory, open '${missing}'`;
  assert.deepEqual(errors, [line, line]);
  assert.deepEqual(warnings, [`reading t-0 in dir ${root} succeeded again; 2 later failures with ENOENT were not logged`]);
  // Not a system error: a bug passes through as it is, unreported.
  await assert.rejects(faults.run('reading', 'x', async () => { throw new TypeError('bug'); }), TypeError);
  assert.equal(errors.length, 2);
});

test('a partition whose dir cannot be made is logged at ERROR and its creation answered KAFKA_STORAGE_ERROR', async () => {
  const logDir = freshDir();
  const { store, errors } = await openStore(logDir);
  // A file where the partition's dir must go: mkdir fails as it would on a full disk, with a system error.
  writeFileSync(join(logDir, 'blocked-0'), '');
  await assert.rejects(store.createTopic('blocked', 1), (err: Error & { code?: string }) => {
    assert.equal(err.code, 'KAFKA_STORAGE_ERROR');
    return true;
  });
  assert.equal(errors.length, 1);
  assert.match(errors[0]!, new RegExp(`^Error while creating the log of blocked-0 in dir ${logDir}: E[A-Z]+: `));
  await store.close();
});
