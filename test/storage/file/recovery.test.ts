import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { verifyBatchCrc } from '../../../src/protocol/records/batch.js';
import { openFileLog, type FileLog } from '../../../src/storage/file/file-log.js';
import { defaultLogConfig, type LogConfig } from '../../../src/storage/log-config.js';
import { ManualScheduler } from '../../../src/storage/scheduler.js';
import { batchOf, makeBatch } from '../batch-fixtures.js';
import { batchesOf, offsetsOf } from '../log-contract.js';

const DEFAULT_CONFIG = defaultLogConfig();

const root = mkdtempSync(join(tmpdir(), 'gregor-recovery-'));
after(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const freshDir = () => join(root, `p-${n++}`);

async function open(dir: string, config: Partial<LogConfig> = {}, clean = false, recoveryPoint = 0) {
  return openFileLog({
    dir,
    topic: 't',
    partition: 0,
    config: { ...DEFAULT_CONFIG, indexIntervalBytes: 100, ...config },
    scheduler: new ManualScheduler(1_000_000),
    clean,
    recoveryPoint,
    logStartOffset: 0,
  });
}

async function readAll(log: FileLog): Promise<Buffer[]> {
  const out: Buffer[] = [];
  for (let offset = log.logStartOffset; offset < log.logEndOffset; ) {
    const batches = batchesOf((await log.read(offset, 1 << 20)).records);
    assert.ok(batches.length > 0);
    out.push(...batches);
    offset = offsetsOf(batches).at(-1)![1] + 1;
  }
  return out;
}

function segmentFiles(dir: string): string[] {
  return readdirSync(dir).filter((f) => /^\d{20}\.(log|index|timeindex)$/.test(f)).sort();
}

test('a torn last batch, cut at every byte, is dropped and nothing before it is lost', async () => {
  const source = freshDir();
  const { log } = await open(source);
  for (let i = 0; i < 12; i++) await log.append(await batchOf(3, 1_000 + i, 30), { leaderEpoch: 0 });
  const sizeBefore = log.sizeInBytes();
  const expected = await readAll(log);
  const referenceIndex = log.segments[0]!.offsetIndex.entries;
  const last = await makeBatch({ timestamps: [5_000, 5_001], valueSize: 25 });
  await log.append(last, { leaderEpoch: 0 });
  await log.close();
  const logFile = join(source, '00000000000000000000.log');
  assert.equal(statSync(logFile).size, sizeBefore + last.length);

  for (let cut = 0; cut < last.length; cut++) {
    const dir = freshDir();
    mkdirSync(dir);
    cpSync(source, dir, { recursive: true });
    truncateSync(join(dir, '00000000000000000000.log'), sizeBefore + cut);
    const { log: reopened, stats } = await open(dir);
    assert.equal(stats.recoveredSegments, 1);
    assert.equal(stats.truncatedBytes, cut, `cut at byte ${cut}`);
    assert.equal(reopened.logEndOffset, 36);
    const got = await readAll(reopened);
    assert.deepEqual(got, expected, `cut at byte ${cut}: exactly the batches before the torn one`);
    for (const b of got) assert.ok(verifyBatchCrc(b, 0, b.length));
    assert.equal(reopened.segments[0]!.offsetIndex.entries, referenceIndex, 'the index is rebuilt to match the data');
    assert.equal((await reopened.append(await batchOf(1), { leaderEpoch: 0 })).baseOffset, 36);
    await reopened.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a trusted segment whose tail is torn is recovered anyway', async () => {
  const dir = freshDir();
  const { log } = await open(dir);
  for (let i = 0; i < 5; i++) await log.append(await batchOf(2), { leaderEpoch: 0 });
  await log.close();
  const file = join(dir, '00000000000000000000.log');
  truncateSync(file, statSync(file).size - 3);
  const { log: reopened, stats } = await open(dir, {}, true);
  assert.equal(stats.recoveredSegments, 1);
  assert.equal(reopened.logEndOffset, 8);
  await reopened.close();
});

test('a corrupt batch in the middle truncates the log there and drops later segments', async () => {
  const dir = freshDir();
  const { log } = await open(dir, { segmentBytes: 400 });
  for (let i = 0; i < 12; i++) await log.append(await batchOf(2, 1_000, 40), { leaderEpoch: 0 });
  const segments = log.segments.map((s) => s.baseOffset);
  assert.ok(segments.length >= 3);
  const victim = segments[1]!;
  await log.close();
  // Flip a byte inside the second batch of the second segment (past its header: only the CRC can tell).
  const name = join(dir, `${String(victim).padStart(20, '0')}.log`);
  const bytes = readFileSync(name);
  const firstSize = 12 + bytes.readInt32BE(8);
  bytes[firstSize + 70] = bytes[firstSize + 70]! ^ 0xff;
  writeFileSync(name, bytes);
  const { log: reopened, stats } = await open(dir, { segmentBytes: 400 });
  assert.ok(stats.truncatedBytes > 0);
  assert.equal(reopened.logEndOffset, victim + 2, 'only the first batch of the corrupt segment survives');
  assert.deepEqual(reopened.segments.map((s) => s.baseOffset), segments.slice(0, 2));
  assert.deepEqual(segmentFiles(dir).filter((f) => f.endsWith('.log')).length, 2);
  for (const b of await readAll(reopened)) assert.ok(verifyBatchCrc(b, 0, b.length));
  await reopened.close();
});

/** Several segments of 2-record batches, closed cleanly; the batches as appended and the segments' base offsets. */
async function severalSegments(dir: string): Promise<{ expected: Buffer[]; bases: number[] }> {
  const { log } = await open(dir, { segmentBytes: 400 });
  for (let i = 0; i < 20; i++) await log.append(await batchOf(2, 1_000 + i, 40), { leaderEpoch: 0 });
  const expected = await readAll(log);
  const bases = log.segments.map((s) => s.baseOffset);
  assert.ok(bases.length >= 5);
  await log.close();
  return { expected, bases };
}

/** Cuts segment `base`'s .log inside its second batch; returns the offsets of the batches cut away. */
function cutInsideSecondBatch(dir: string, base: number, bases: number[]): { from: number; to: number; keptBytes: number } {
  const file = join(dir, `${String(base).padStart(20, '0')}.log`);
  const bytes = readFileSync(file);
  const firstSize = 12 + bytes.readInt32BE(8);
  truncateSync(file, firstSize + 30);
  return { from: base + 2, to: bases[bases.indexOf(base) + 1]!, keptBytes: firstSize };
}

test('after a clean shutdown a middle segment cut short loses only its torn batches: the segments after it stay', async () => {
  const dir = freshDir();
  const { expected, bases } = await severalSegments(dir);
  const victim = bases[2]!;
  const { from, to, keptBytes } = cutInsideSecondBatch(dir, victim, bases);
  const warnings: string[] = [];
  const { log, stats } = await openFileLog({
    dir, topic: 't', partition: 0, config: { ...DEFAULT_CONFIG, indexIntervalBytes: 100, segmentBytes: 400 },
    scheduler: new ManualScheduler(1_000_000), clean: true, recoveryPoint: 0, logStartOffset: 0, warn: (m) => warnings.push(m),
  });
  assert.deepEqual(log.segments.map((s) => s.baseOffset), bases, 'every segment is still there');
  assert.equal(log.logEndOffset, 40, 'the log end offset is unchanged, as in Kafka');
  assert.equal(stats.truncatedBytes, 30, 'the partial batch is cut');
  assert.equal(log.segments[2]!.nextOffset, from);
  assert.equal(statSync(join(dir, `${String(victim).padStart(20, '0')}.log`)).size, keptBytes);
  // A read from the start walks over the gap into the next segment and reads every surviving batch.
  const survivors = expected.filter((b) => {
    const [first] = offsetsOf([b])[0]!;
    return first < from || first >= to;
  });
  assert.equal(survivors.length, expected.length - (to - from) / 2);
  assert.deepEqual(await readAll(log), survivors);
  assert.deepEqual(offsetsOf((await log.read(from, 1 << 20)).records)[0], [to, to + 1], 'an offset in the gap reads on from the next segment');
  assert.equal(warnings.length, 1);
  assert.equal(warnings[0], `t-0: corruption found in segment ${victim}, 30 bytes of a torn or corrupt tail cut; it now ends at offset ${from}; the segments after it are kept (from ${to})`);
  assert.equal((await log.append(await batchOf(1), { leaderEpoch: 0 })).baseOffset, 40);
  await log.close();
  // The cut segment is now consistent: a clean restart loads it without repair.
  const { log: again, stats: againStats } = await open(dir, { segmentBytes: 400 }, true);
  assert.equal(againStats.truncatedBytes, 0);
  assert.equal(again.logEndOffset, 41);
  assert.deepEqual((await readAll(again)).slice(0, -1), survivors);
  await again.close();
});

test('after a crash a torn segment below the recovery point keeps the segments after it; one past it ends the log', async () => {
  const below = freshDir();
  const { expected, bases } = await severalSegments(below);
  const recoveryPoint = bases[3]!;
  const cut = cutInsideSecondBatch(below, bases[1]!, bases);
  const belowCopy = freshDir();
  cpSync(below, belowCopy, { recursive: true });
  const { log: a } = await open(below, { segmentBytes: 400 }, false, recoveryPoint);
  assert.deepEqual(a.segments.map((s) => s.baseOffset), bases);
  assert.equal(a.logEndOffset, 40);
  assert.equal((await readAll(a)).length, expected.length - (cut.to - cut.from) / 2);
  await a.close();

  // The same cut past the recovery point: Kafka's recoverLog deletes the unflushed segments after it.
  const warnings: string[] = [];
  const { log: b } = await openFileLog({
    dir: belowCopy, topic: 't', partition: 0, config: { ...DEFAULT_CONFIG, indexIntervalBytes: 100, segmentBytes: 400 },
    scheduler: new ManualScheduler(1_000_000), clean: false, recoveryPoint: bases[1]!, logStartOffset: 0, warn: (m) => warnings.push(m),
  });
  assert.deepEqual(b.segments.map((s) => s.baseOffset), bases.slice(0, 2));
  assert.equal(b.logEndOffset, cut.from);
  assert.deepEqual(await readAll(b), expected.slice(0, (cut.from - 0) / 2));
  assert.equal(warnings.length, 1);
  assert.equal(warnings[0], `t-0: corruption found in segment ${bases[1]}, 30 bytes of a torn or corrupt tail cut; it now ends at offset ${cut.from}; the unflushed segments after it are deleted: ${bases.slice(2).join(', ')}`);
  assert.equal(segmentFiles(belowCopy).filter((f) => f.endsWith('.log')).length, 2);
  await b.close();
});

test('segments below the recovery point are trusted, the rest are recovered', async () => {
  const dir = freshDir();
  const { log } = await open(dir, { segmentBytes: 400 });
  for (let i = 0; i < 12; i++) await log.append(await batchOf(2, 1_000, 40), { leaderEpoch: 0 });
  const bases = log.segments.map((s) => s.baseOffset);
  await log.close();
  const { log: reopened, stats } = await open(dir, { segmentBytes: 400 }, false, bases[bases.length - 2]!);
  assert.equal(stats.recoveredSegments, 2, 'the segment holding the recovery point and the one after it');
  assert.equal(reopened.logEndOffset, 24);
  await reopened.close();
});

test('a clean restart loads indexes without walking the data, and reads and lookups still work', async () => {
  const dir = freshDir();
  const { log } = await open(dir, { segmentBytes: 2_000 });
  for (let i = 0; i < 40; i++) await log.append(await makeBatch({ timestamps: [10 * i, 10 * i + 5], valueSize: 30 }), { leaderEpoch: i < 20 ? 1 : 2 });
  const before = await readAll(log);
  await log.close();
  const { log: reopened, stats } = await open(dir, { segmentBytes: 2_000 }, true);
  assert.equal(stats.recoveredSegments, 0);
  assert.equal(reopened.logEndOffset, 80);
  assert.deepEqual(await readAll(reopened), before);
  assert.deepEqual(await reopened.offsetForTimestamp(203), { offset: 41, timestamp: 205, leaderEpoch: 2 });
  assert.deepEqual(reopened.leaderEpochs(), [{ epoch: 1, startOffset: 0 }, { epoch: 2, startOffset: 40 }]);
  assert.equal((await reopened.append(await batchOf(1), { leaderEpoch: 2 })).baseOffset, 80);
  await reopened.close();
});

test('files follow Kafka layout: 20-digit names, 8-byte index and 12-byte time index entries', async () => {
  const dir = freshDir();
  const { log } = await open(dir, { segmentBytes: 1_000 });
  for (let i = 0; i < 20; i++) await log.append(await batchOf(2, 1_000 + i, 40), { leaderEpoch: 0 });
  await log.close();
  const files = segmentFiles(dir);
  assert.ok(files.includes('00000000000000000000.log'));
  for (const f of files.filter((f) => f.endsWith('.index'))) assert.equal(statSync(join(dir, f)).size % 8, 0);
  for (const f of files.filter((f) => f.endsWith('.timeindex'))) {
    const bytes = readFileSync(join(dir, f));
    assert.equal(bytes.length % 12, 0);
    assert.ok(bytes.length >= 12, 'a rolled segment ends with its max timestamp entry');
  }
  const index = readFileSync(join(dir, files.find((f) => f.endsWith('.index'))!));
  assert.ok(index.length >= 8);
  assert.ok(index.readInt32BE(4) > 0, 'entries hold (relative offset, position)');
  assert.equal(readFileSync(join(dir, 'leader-epoch-checkpoint'), 'utf8'), '0\n1\n0 0\n');
});

test('rolls when the offset index is full', async () => {
  const dir = freshDir();
  const { log } = await open(dir, { segmentIndexBytes: 8 * 3, indexIntervalBytes: 1 });
  for (let i = 0; i < 10; i++) await log.append(await batchOf(1), { leaderEpoch: 0 });
  assert.ok(log.segments.length >= 2);
  for (const s of log.segments) assert.ok(s.offsetIndex.entries <= 3);
  await log.close();
});

test('retention renames segments to .deleted and removes them after file.delete.delay.ms', async () => {
  const dir = freshDir();
  const scheduler = new ManualScheduler(1_000_000);
  const { log } = await openFileLog({
    dir,
    topic: 't',
    partition: 0,
    config: { ...DEFAULT_CONFIG, segmentBytes: 400, retentionMs: 1_000, fileDeleteDelayMs: 60_000 },
    scheduler,
    clean: false,
    recoveryPoint: 0,
    logStartOffset: 0,
  });
  for (let i = 0; i < 10; i++) await log.append(await batchOf(2, 1_000, 40), { leaderEpoch: 0 });
  await log.append(await batchOf(2, 1_000_000, 40), { leaderEpoch: 0 });
  const removed = await log.deleteOldSegments(1_000_500);
  assert.ok(removed > 0);
  assert.ok(readdirSync(dir).some((f) => f.endsWith('.deleted')));
  await scheduler.advance(60_000);
  // Deletion happens on timers; give the file operations a few turns.
  for (let i = 0; i < 20 && readdirSync(dir).some((f) => f.endsWith('.deleted')); i++) await new Promise((r) => setTimeout(r, 5));
  assert.ok(!readdirSync(dir).some((f) => f.endsWith('.deleted')));
  assert.equal(log.logStartOffset, log.segments[0]!.baseOffset);
  await log.close();
});

test('truncating to the first segment base offset starts over there, and what is appended after survives a restart', async () => {
  const dir = freshDir();
  const { log } = await open(dir);
  for (let i = 0; i < 4; i++) await log.append(await batchOf(2, 1_000 + i, 30), { leaderEpoch: 0 });
  await log.truncateTo(0);
  assert.deepEqual([log.logStartOffset, log.logEndOffset], [0, 0]);
  for (let i = 0; i < 3; i++) await log.append(await batchOf(1, 2_000 + i, 30), { leaderEpoch: 0 });
  assert.deepEqual(segmentFiles(dir), ['00000000000000000000.log'], 'the new segment keeps its files under their own name');
  await log.close();

  const { log: reopened } = await open(dir, {}, true, 3);
  assert.deepEqual(offsetsOf(await readAll(reopened)), [[0, 0], [1, 1], [2, 2]]);
  await reopened.close();
});

/**
 * A one-segment log of 30 batches whose first 20 were flushed (the recovery point), then 10 more appended and the
 * log closed; returns what a reader saw, the recovery point and the byte position where the unflushed batches start.
 */
async function flushedThenMore(dir: string) {
  const { log } = await open(dir);
  for (let i = 0; i < 20; i++) await log.append(await makeBatch({ timestamps: [10 * i, 10 * i + 5], valueSize: 30 }), { leaderEpoch: 0 });
  await log.flush();
  const recoveryPoint = log.recoveryPoint;
  const flushedBytes = log.sizeInBytes();
  for (let i = 20; i < 30; i++) await log.append(await makeBatch({ timestamps: [10 * i, 10 * i + 5], valueSize: 30 }), { leaderEpoch: 0 });
  const expected = await readAll(log);
  const indexEntries = log.segments[0]!.offsetIndex.entries;
  const timeEntries = log.segments[0]!.timeIndex.entries;
  await log.close();
  return { expected, recoveryPoint, flushedBytes, indexEntries, timeEntries, logFile: join(dir, '00000000000000000000.log') };
}

test('recovery starts at the recovery point inside the segment: only the bytes after it are CRC-checked', async () => {
  const dir = freshDir();
  const { expected, recoveryPoint, flushedBytes, indexEntries, timeEntries, logFile } = await flushedThenMore(dir);
  assert.equal(recoveryPoint, 40);
  const size = statSync(logFile).size;
  const { log, stats } = await open(dir, {}, false, recoveryPoint);
  assert.equal(stats.recoveredSegments, 1);
  assert.equal(stats.validatedBytes, size - flushedBytes, 'exactly the batches past the recovery point');
  assert.equal(stats.truncatedBytes, 0);
  assert.equal(log.logEndOffset, 60);
  assert.deepEqual(await readAll(log), expected);
  assert.equal(log.segments[0]!.offsetIndex.entries, indexEntries, 'the index is as the appends built it');
  assert.equal(log.segments[0]!.timeIndex.entries, timeEntries);
  assert.equal(log.segments[0]!.maxTimestamp, 295);
  assert.deepEqual(await log.offsetForTimestamp(103), { offset: 21, timestamp: 105, leaderEpoch: 0 });
  assert.deepEqual(await log.offsetForTimestamp(253), { offset: 51, timestamp: 255, leaderEpoch: 0 });
  assert.equal((await log.append(await batchOf(1), { leaderEpoch: 0 })).baseOffset, 60);
  await log.close();
});

test('a recovery point at the log end CRC-checks nothing', async () => {
  const dir = freshDir();
  const { expected } = await flushedThenMore(dir);
  const { log, stats } = await open(dir, {}, false, 60);
  assert.equal(stats.validatedBytes, 0);
  assert.deepEqual(await readAll(log), expected);
  await log.close();
});

test('a batch below the recovery point is not CRC-checked again: only the flushed bytes are trusted that way', async () => {
  // Proof that the walk below the recovery point reads headers only: a payload byte changed there is not noticed,
  // while a whole-segment recovery (recovery point 0) cuts the log at it.
  const dir = freshDir();
  const { recoveryPoint, logFile } = await flushedThenMore(dir);
  const bytes = readFileSync(logFile);
  const firstSize = 12 + bytes.readInt32BE(8);
  bytes[firstSize + 70] = bytes[firstSize + 70]! ^ 0xff;
  writeFileSync(logFile, bytes);
  const copy = freshDir();
  cpSync(dir, copy, { recursive: true });
  const { log, stats } = await open(dir, {}, false, recoveryPoint);
  assert.equal(stats.truncatedBytes, 0);
  assert.equal(log.logEndOffset, 60);
  await log.close();
  const { log: whole, stats: wholeStats } = await open(copy, {}, false, 0);
  assert.equal(wholeStats.validatedBytes, bytes.length);
  assert.equal(whole.logEndOffset, 2, 'the corrupt second batch and everything after it are cut');
  await whole.close();
});

test('a torn or corrupt tail past the recovery point is still cut', async () => {
  const dir = freshDir();
  const { expected, recoveryPoint, flushedBytes, logFile } = await flushedThenMore(dir);
  const size = statSync(logFile).size;
  const lastSize = expected.at(-1)!.length;

  const torn = freshDir();
  cpSync(dir, torn, { recursive: true });
  truncateSync(join(torn, '00000000000000000000.log'), size - 7);
  const { log: a, stats: aStats } = await open(torn, {}, false, recoveryPoint);
  assert.equal(aStats.truncatedBytes, lastSize - 7);
  assert.equal(aStats.validatedBytes, size - 7 - flushedBytes);
  assert.deepEqual(await readAll(a), expected.slice(0, -1));
  await a.close();

  // A changed payload byte in the fifth batch past the recovery point: that batch and the ones after it go.
  const corrupt = freshDir();
  cpSync(dir, corrupt, { recursive: true });
  const file = join(corrupt, '00000000000000000000.log');
  const bytes = readFileSync(file);
  let at = flushedBytes;
  for (let i = 0; i < 4; i++) at += expected[20 + i]!.length;
  bytes[at + 70] = bytes[at + 70]! ^ 0xff;
  writeFileSync(file, bytes);
  const { log: b, stats: bStats } = await open(corrupt, {}, false, recoveryPoint);
  assert.equal(bStats.truncatedBytes, size - at);
  assert.equal(b.logEndOffset, 48);
  assert.deepEqual(await readAll(b), expected.slice(0, 24));
  assert.equal((await b.append(await batchOf(1), { leaderEpoch: 0 })).baseOffset, 48);
  await b.close();
});

test('an index that is garbage or disagrees with the log falls back to recovering the whole segment', async () => {
  const dir = freshDir();
  const { expected, recoveryPoint, indexEntries, logFile } = await flushedThenMore(dir);
  const size = statSync(logFile).size;
  const indexFile = '00000000000000000000.index';
  const index = readFileSync(join(dir, indexFile));
  assert.ok(index.length >= 16);
  const variants: Array<[string, Buffer]> = [
    ['garbage bytes', Buffer.from('not an index at all, just text.!')],
    ['positions one byte off', Buffer.from(index.map((b, i) => (i % 8 === 7 ? b + 1 : b)))],
    ['offsets one too high', Buffer.from(index.map((b, i) => (i % 8 === 3 ? b + 1 : b)))],
  ];
  for (const [why, bytes] of variants) {
    const copy = freshDir();
    cpSync(dir, copy, { recursive: true });
    writeFileSync(join(copy, indexFile), bytes);
    const { log, stats } = await open(copy, {}, false, recoveryPoint);
    assert.equal(stats.validatedBytes, size, `${why}: the whole segment is CRC-checked`);
    assert.deepEqual(await readAll(log), expected, why);
    assert.equal(log.segments[0]!.offsetIndex.entries, indexEntries, `${why}: the index is rebuilt`);
    await log.close();
  }
});
