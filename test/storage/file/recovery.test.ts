import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { verifyBatchCrc } from '../../../src/protocol/records/batch.js';
import { openFileLog, type FileLog } from '../../../src/storage/file/file-log.js';
import { DEFAULT_LOG_CONFIG, type LogConfig } from '../../../src/storage/log-config.js';
import { ManualScheduler } from '../../../src/storage/scheduler.js';
import { batchOf, makeBatch } from '../batch-fixtures.js';
import { batchesOf, offsetsOf } from '../log-contract.js';

const root = mkdtempSync(join(tmpdir(), 'gregor-recovery-'));
after(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const freshDir = () => join(root, `p-${n++}`);

async function open(dir: string, config: Partial<LogConfig> = {}, clean = false, recoveryPoint = 0) {
  return openFileLog({
    dir,
    topic: 't',
    partition: 0,
    config: { ...DEFAULT_LOG_CONFIG, indexIntervalBytes: 100, ...config },
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
    config: { ...DEFAULT_LOG_CONFIG, segmentBytes: 400, retentionMs: 1_000, fileDeleteDelayMs: 60_000 },
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
