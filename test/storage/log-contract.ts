// The behaviour every PartitionLog engine must show; each engine's test file runs it against itself.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TimestampType, baseOffsetAt, lastOffsetAt, maxTimestampAt, readBatchHeader, setBaseOffset, setPartitionLeaderEpoch, splitBatches, verifyBatchCrc } from '../../src/protocol/records/batch.js';
import { OffsetOutOfRangeError } from '../../src/storage/errors.js';
import { defaultLogConfig, type LogConfig } from '../../src/storage/log-config.js';
import { EARLIEST_TIMESTAMP, LATEST_TIMESTAMP, MAX_TIMESTAMP } from '../../src/storage/log.js';
import { ManualScheduler } from '../../src/storage/scheduler.js';
import type { SegmentedLog } from '../../src/storage/segmented-log.js';
import type { LogSegment } from '../../src/storage/segment.js';
import { batchOf, makeBatch } from './batch-fixtures.js';

const DEFAULT_CONFIG = defaultLogConfig();

export type AnyLog = SegmentedLog<LogSegment>;
export type LogFactory = (config: LogConfig, scheduler: ManualScheduler) => Promise<AnyLog>;

const cfg = (over: Partial<LogConfig> = {}): LogConfig => ({ ...DEFAULT_CONFIG, ...over });

/** Each batch on its own (an engine may return several batches in one buffer). */
export function batchesOf(records: Buffer[]): Buffer[] {
  const out: Buffer[] = [];
  for (const r of records) {
    const { batches, trailingBytes } = splitBatches(r);
    assert.equal(trailingBytes, 0, 'reads return whole batches only');
    for (const b of batches) out.push(r.subarray(b.pos, b.pos + b.size));
  }
  return out;
}

export function offsetsOf(records: Buffer[]): Array<[number, number]> {
  return batchesOf(records).map((r) => [baseOffsetAt(r, 0), lastOffsetAt(r, 0)]);
}

async function fill(log: AnyLog, batches: number, perBatch: number, ts = 1_000, valueSize = 10): Promise<void> {
  for (let i = 0; i < batches; i++) await log.append(await batchOf(perBatch, ts, valueSize), { leaderEpoch: 0 });
}

export function runLogContract(engine: string, open: LogFactory): void {
  const withLog = (name: string, config: Partial<LogConfig>, body: (log: AnyLog, clock: ManualScheduler) => Promise<void>) =>
    test(`${engine}: ${name}`, async () => {
      const clock = new ManualScheduler(1_000_000);
      const log = await open(cfg(config), clock);
      try {
        await body(log, clock);
      } finally {
        await log.close();
      }
    });

  withLog('append assigns consecutive offsets and stamps the leader epoch in place', {}, async (log) => {
    const a = await batchOf(3);
    const r1 = await log.append(a, { leaderEpoch: 7 });
    assert.deepEqual([r1.baseOffset, r1.lastOffset, r1.logAppendTime, r1.logStartOffset], [0, 2, -1, 0]);
    const twoBatches = Buffer.concat([await batchOf(2), await batchOf(1)]);
    const r2 = await log.append(twoBatches, { leaderEpoch: 7 });
    assert.deepEqual([r2.baseOffset, r2.lastOffset, r2.batchCount], [3, 5, 2]);
    assert.equal(log.logEndOffset, 6);
    assert.equal(log.highWatermark, 6);
    const read = await log.read(0, 1 << 20);
    assert.deepEqual(offsetsOf(read.records), [[0, 2], [3, 4], [5, 5]]);
    for (const r of batchesOf(read.records)) {
      assert.equal(readBatchHeader(r).partitionLeaderEpoch, 7);
      assert.ok(verifyBatchCrc(r, 0, r.length), 'patching offsets and epoch keeps the CRC valid');
    }
    assert.deepEqual(log.leaderEpochs(), [{ epoch: 7, startOffset: 0 }]);
  });

  withLog('read returns whole batches from the one containing the offset, within maxBytes', {}, async (log) => {
    await fill(log, 5, 4); // offsets 0..19, batches of 4
    const one = batchesOf((await log.read(0, 1)).records);
    assert.equal(one.length, 1, 'the first batch comes whole even when larger than maxBytes');
    const size = one[0]!.length;
    assert.deepEqual(offsetsOf((await log.read(6, size * 2)).records), [[4, 7], [8, 11]]);
    assert.deepEqual(offsetsOf((await log.read(6, size * 2 - 1)).records), [[4, 7]], 'never more than asked after the first');
    assert.deepEqual((await log.read(6, 1, { minOneBatch: false })).records, []);
    assert.deepEqual(offsetsOf((await log.read(0, 1 << 20, { maxOffset: 8 })).records), [[0, 3], [4, 7]]);
    const atEnd = await log.read(20, 1000);
    assert.deepEqual(atEnd.records, []);
    assert.equal(atEnd.logEndOffset, 20);
    await assert.rejects(log.read(21, 1000), OffsetOutOfRangeError);
    await assert.rejects(log.read(-1, 1000), OffsetOutOfRangeError);
  });

  withLog('an append of several buffers writes them in order as one, each batch with its own offsets', { messageTimestampType: TimestampType.LOG_APPEND_TIME }, async (log) => {
    await log.append(await batchOf(1), { leaderEpoch: 3 }); // 0
    const parts = [await batchOf(2), Buffer.concat([await batchOf(3), await batchOf(1)]), await batchOf(4)];
    const sizes = parts.map((p) => p.length);
    const r = await log.append(parts, { leaderEpoch: 3, now: 555_000 });
    assert.deepEqual([r.baseOffset, r.lastOffset, r.batchCount, r.bytes, r.logAppendTime], [1, 10, 4, sizes.reduce((a, b) => a + b), 555_000]);
    assert.equal(log.logEndOffset, 11);
    const read = await log.read(0, 1 << 20);
    assert.deepEqual(offsetsOf(read.records), [[0, 0], [1, 2], [3, 5], [6, 6], [7, 10]]);
    for (const b of batchesOf(read.records)) {
      assert.equal(readBatchHeader(b).partitionLeaderEpoch, 3);
      assert.ok(verifyBatchCrc(b, 0, b.length));
    }
    assert.deepEqual(offsetsOf((await log.read(6, 1 << 20)).records), [[6, 6], [7, 10]], 'the index knows where each part landed');
    await assert.rejects(log.append([await batchOf(1), Buffer.from([1, 2, 3])], { leaderEpoch: 3 }), /malformed record batch at byte/);
    assert.equal(log.logEndOffset, 11, 'a bad part fails the whole append');
  });

  withLog('partialLastBatch fills maxBytes as Kafka\'s LogSegment.read: the last batch cut at the budget, never past maxOffset', {}, async (log) => {
    await fill(log, 5, 4); // offsets 0..19, batches of 4, all the same size
    const size = batchesOf((await log.read(0, 1)).records)[0]!.length;
    const bytesOf = (records: Buffer[]) => Buffer.concat(records);
    const whole = bytesOf((await log.read(4, 1 << 20)).records);
    const read = await log.read(6, size * 2 + 10, { partialLastBatch: true });
    assert.equal(read.bytes, size * 2 + 10);
    assert.deepEqual(bytesOf(read.records), whole.subarray(0, size * 2 + 10), 'two whole batches, then the first 10 bytes of the third');
    assert.equal(splitBatches(bytesOf(read.records)).trailingBytes, 10);
    assert.deepEqual(bytesOf((await log.read(6, size * 2 + 5)).records), whole.subarray(0, size * 2), 'without it, whole batches only');
    const capped = await log.read(6, size * 2 + 10, { partialLastBatch: true, maxOffset: 12 });
    assert.deepEqual(offsetsOf(capped.records), [[4, 7], [8, 11]], 'nothing of a batch at or past maxOffset');
    const short = (maxOffset: number) => log.read(6, size * 2 + 5, { partialLastBatch: true, maxOffset }).then((r) => bytesOf(r.records));
    assert.deepEqual(await short(12), whole.subarray(0, size * 2), 'too few bytes of the cut batch to show its base offset: still none past maxOffset');
    assert.deepEqual(await short(13), whole.subarray(0, size * 2 + 5));
    const lso = await log.read(6, size + 3, { partialLastBatch: true, maxOffset: 9 });
    assert.deepEqual(bytesOf(lso.records), whole.subarray(0, size + 3), 'a batch that starts below maxOffset may be cut');
    assert.deepEqual((await log.read(6, size - 1, { partialLastBatch: true, minOneBatch: false })).records, [], 'a first batch is never sent cut');
    assert.deepEqual(bytesOf((await log.read(6, size - 1, { partialLastBatch: true })).records), whole.subarray(0, size), 'minOneBatch sends it whole');
    assert.deepEqual(bytesOf((await log.read(16, size * 3, { partialLastBatch: true })).records), whole.subarray(size * 3), 'the log end is a batch boundary');
  });

  withLog('offsetForTimestamp finds the first record at or after a timestamp', {}, async (log) => {
    await log.append(await makeBatch({ timestamps: [100, 105, 103] }), { leaderEpoch: 1 }); // 0..2
    await log.append(await makeBatch({ timestamps: [110, 120] }), { leaderEpoch: 2 }); // 3..4
    assert.deepEqual(await log.offsetForTimestamp(0), { offset: 0, timestamp: 100, leaderEpoch: 1 });
    assert.deepEqual(await log.offsetForTimestamp(104), { offset: 1, timestamp: 105, leaderEpoch: 1 });
    assert.deepEqual(await log.offsetForTimestamp(106), { offset: 3, timestamp: 110, leaderEpoch: 2 });
    assert.deepEqual(await log.offsetForTimestamp(120), { offset: 4, timestamp: 120, leaderEpoch: 2 });
    assert.equal(await log.offsetForTimestamp(121), null);
    assert.deepEqual(await log.offsetForTimestamp(LATEST_TIMESTAMP), { offset: 5, timestamp: -1, leaderEpoch: 2 });
    assert.deepEqual(await log.offsetForTimestamp(EARLIEST_TIMESTAMP), { offset: 0, timestamp: -1, leaderEpoch: 1 });
    assert.deepEqual(await log.offsetForTimestamp(MAX_TIMESTAMP), { offset: 4, timestamp: 120, leaderEpoch: 2 });
  });

  withLog('offsetForTimestamp looks inside compressed batches, which are stored as sent', {}, async (log) => {
    const gzip = await makeBatch({ timestamps: [200, 230, 210], compression: 1 });
    await log.append(Buffer.from(gzip), { leaderEpoch: 0 });
    assert.deepEqual(await log.offsetForTimestamp(220), { offset: 1, timestamp: 230, leaderEpoch: 0 });
    const [stored] = batchesOf((await log.read(0, 1000)).records);
    assert.deepEqual(stored!.subarray(61), gzip.subarray(61), 'records are not recompressed');
  });

  withLog('LogAppendTime stamps the append time into each batch', { messageTimestampType: TimestampType.LOG_APPEND_TIME }, async (log) => {
    const r = await log.append(await batchOf(2, 5), { leaderEpoch: 0, now: 777_000 });
    assert.equal(r.logAppendTime, 777_000);
    const [batch] = batchesOf((await log.read(0, 1000)).records);
    assert.equal(maxTimestampAt(batch!, 0), 777_000);
    assert.ok(verifyBatchCrc(batch!, 0, batch!.length));
    assert.deepEqual(await log.offsetForTimestamp(700_000), { offset: 0, timestamp: 777_000, leaderEpoch: 0 });
  });

  withLog('rolls a new segment when segment.bytes would be exceeded, and reads across segments', { segmentBytes: 300 }, async (log) => {
    await fill(log, 10, 2, 1_000, 20);
    assert.ok(log.segments.length > 2, `expected several segments, got ${log.segments.length}`);
    for (const s of log.segments) assert.ok(s.size <= 300);
    const bases = log.segments.map((s) => s.baseOffset);
    assert.deepEqual(bases, [...bases].sort((a, b) => a - b));
    const seen: Array<[number, number]> = [];
    for (let offset = 0; offset < log.logEndOffset; ) {
      const { records } = await log.read(offset, 100_000);
      const offsets = offsetsOf(records);
      seen.push(...offsets);
      offset = offsets[offsets.length - 1]![1] + 1;
    }
    assert.deepEqual(seen, Array.from({ length: 10 }, (_, i) => [2 * i, 2 * i + 1]));
  });

  withLog('without minOneBatch a first batch too large is an empty read, never the next segment\'s data', { segmentBytes: 300 }, async (log) => {
    await log.append(await makeBatch({ timestamps: [0, 0], valueSize: 100 }), { leaderEpoch: 0 }); // 0..1, ~280 bytes
    await log.append(await makeBatch({ timestamps: [0] }), { leaderEpoch: 0 }); // 2, rolled into the next segment
    assert.deepEqual(log.segments.map((s) => s.baseOffset), [0, 2]);
    assert.deepEqual((await log.read(0, 100, { minOneBatch: false })).records, []);
    assert.deepEqual(offsetsOf((await log.read(0, 100)).records), [[0, 1]]);
    assert.deepEqual(offsetsOf((await log.read(2, 100, { minOneBatch: false })).records), [[2, 2]]);
  });

  withLog('rolls on segment.ms measured in record time', { segmentMs: 1_000 }, async (log) => {
    await log.append(await batchOf(1, 10_000), { leaderEpoch: 0 });
    await log.append(await batchOf(1, 10_500), { leaderEpoch: 0 });
    assert.equal(log.segments.length, 1);
    await log.append(await batchOf(1, 11_001), { leaderEpoch: 0 });
    assert.deepEqual(log.segments.map((s) => s.baseOffset), [0, 2]);
  });

  withLog('truncateTo drops whole batches at and after the offset', { segmentBytes: 300 }, async (log) => {
    await fill(log, 10, 2, 1_000, 20);
    await log.truncateTo(7);
    assert.equal(log.logEndOffset, 6, 'the batch holding offset 7 (6..7) goes whole');
    assert.deepEqual(offsetsOf((await log.read(4, 100_000)).records).at(-1), [4, 5]);
    const r = await log.append(await batchOf(1), { leaderEpoch: 0 });
    assert.equal(r.baseOffset, 6);
    await log.truncateTo(0);
    assert.deepEqual([log.logStartOffset, log.logEndOffset, log.segments.length], [0, 0, 1]);
  });

  withLog('deleteRecordsBefore moves the log start and frees whole segments below it', { segmentBytes: 300 }, async (log) => {
    await fill(log, 10, 2, 1_000, 20);
    const segmentsBefore = log.segments.length;
    assert.equal(await log.deleteRecordsBefore(9), 9);
    assert.equal(log.logStartOffset, 9);
    await assert.rejects(log.read(8, 1000), OffsetOutOfRangeError);
    assert.deepEqual(offsetsOf((await log.read(9, 1)).records), [[8, 9]], 'the batch holding the start offset is served whole');
    assert.ok(log.segments.length < segmentsBefore);
    assert.ok(log.segments[0]!.baseOffset <= 9);
    await assert.rejects(log.deleteRecordsBefore(21), OffsetOutOfRangeError);
    assert.deepEqual(await log.offsetForTimestamp(EARLIEST_TIMESTAMP), { offset: 9, timestamp: -1, leaderEpoch: 0 });
    assert.equal(await log.deleteRecordsBefore(3), 9, 'the start offset never moves back');
  });

  withLog('retention.ms deletes old segments, rolling the active one when all have expired', { segmentBytes: 300, retentionMs: 10_000 }, async (log) => {
    for (let i = 0; i < 10; i++) await log.append(await batchOf(2, 1_000 * i, 20), { leaderEpoch: 0 });
    const segments = log.segments.length;
    assert.equal(await log.deleteOldSegments(10_500), 0, 'nothing is older than 10 s yet');
    const removed = await log.deleteOldSegments(14_500);
    assert.ok(removed >= 1 && removed < segments);
    for (const s of log.segments.slice(0, -1)) assert.ok(s.largestTimestamp() >= 14_500 - 10_000);
    assert.equal(log.logStartOffset, log.segments[0]!.baseOffset);
    const remaining = log.segments.length;
    assert.equal(await log.deleteOldSegments(100_000), remaining);
    assert.deepEqual([log.logStartOffset, log.logEndOffset], [20, 20]);
    assert.equal(log.segments.length, 1);
    assert.equal((await log.append(await batchOf(1), { leaderEpoch: 0 })).baseOffset, 20);
  });

  withLog('retention.bytes deletes the oldest segments until the log fits', { segmentBytes: 300, retentionMs: -1 }, async (log) => {
    await fill(log, 10, 2, 1_000, 20);
    const total = log.sizeInBytes();
    const limit = Math.floor(total / 2);
    log.updateConfig({ ...log.config, retentionBytes: limit });
    const removed = await log.deleteOldSegments();
    assert.ok(removed > 0);
    assert.ok(log.sizeInBytes() >= limit, 'never more than needed is removed');
    assert.ok(log.sizeInBytes() - log.segments[0]!.size < limit, 'removing one more segment would go under the limit');
    assert.equal(log.logStartOffset, log.segments[0]!.baseOffset);
  });

  withLog('notifies listeners when the end offset moves', {}, async (log) => {
    const seen: number[] = [];
    const off = log.onAppend((l) => seen.push(l.logEndOffset));
    await fill(log, 2, 3);
    off();
    await fill(log, 1, 1);
    assert.deepEqual(seen, [3, 6]);
  });

  withLog('keeps one leader epoch entry per epoch and truncates them with the log', {}, async (log) => {
    await log.append(await batchOf(2), { leaderEpoch: 1 });
    await log.append(await batchOf(2), { leaderEpoch: 1 });
    await log.append(await batchOf(2), { leaderEpoch: 3 });
    assert.deepEqual(log.leaderEpochs(), [{ epoch: 1, startOffset: 0 }, { epoch: 3, startOffset: 4 }]);
    assert.deepEqual(log.endOffsetForEpoch(1), { epoch: 1, startOffset: 4 });
    assert.deepEqual(log.endOffsetForEpoch(2), { epoch: 1, startOffset: 4 });
    assert.deepEqual(log.endOffsetForEpoch(3), { epoch: 3, startOffset: 6 });
    await log.truncateTo(4);
    assert.deepEqual(log.leaderEpochs(), [{ epoch: 1, startOffset: 0 }]);
  });

  withLog('rejects bytes that are not record batches without changing the log', {}, async (log) => {
    await fill(log, 1, 1);
    await assert.rejects(log.append(Buffer.from('not a batch at all'), { leaderEpoch: 0 }), { code: 'CORRUPT_MESSAGE' });
    assert.equal(log.logEndOffset, 1);
  });

  withLog('the transaction index follows its segments: indexed by marker, truncated and deleted with them', { segmentBytes: 300 }, async (log) => {
    await fill(log, 10, 1); // offsets 0..9, a few batches per segment
    const first = { producerId: 1, firstOffset: 0, lastOffset: 1, lastStableOffset: 2 };
    const second = { producerId: 2, firstOffset: 2, lastOffset: 8, lastStableOffset: 9 };
    log.appendAbortedTxn(first);
    log.appendAbortedTxn(second);
    const holding = (offset: number) => [...log.segments].reverse().find((s) => s.baseOffset <= offset)!;
    assert.ok(holding(8) !== holding(1), 'the markers are in different segments');
    assert.deepEqual(holding(8).abortedTxns, [second], 'indexed in the segment holding its marker');
    assert.deepEqual(log.abortedTransactions(0, 10), [first, second]);
    assert.deepEqual(log.abortedTransactions(2, 10), [second], 'a transaction aborted before the fetch offset is not returned');
    assert.deepEqual(log.abortedTransactions(0, 2), [first], 'the search stops at an entry whose LSO reaches the bound');
    await log.truncateTo(8);
    assert.deepEqual(log.abortedTransactions(0, 10), [first], 'truncation drops the entries of markers it cut');
    await log.deleteRecordsBefore(log.highWatermark);
    assert.deepEqual(log.segments.flatMap((s) => s.abortedTxns), [], 'deleted segments take their entries with them');
  });

  withLog('onAppended runs inside the append, before any later append', {}, async (log) => {
    const seen: Array<[number, number]> = [];
    const record = (r: { baseOffset: number }) => seen.push([r.baseOffset, log.logEndOffset]);
    await Promise.all([
      log.append(await batchOf(2), { leaderEpoch: 0, onAppended: record }),
      log.append(await batchOf(3), { leaderEpoch: 0, onAppended: record }),
    ]);
    assert.deepEqual(seen, [[0, 2], [2, 5]]);
  });

  withLog('a follower appends the leader\'s batches as they are; a held high watermark moves only by setHighWatermark', {}, async (log) => {
    /** A batch as a leader wrote it: its offsets and epoch set (neither is under the CRC). */
    const fetched = async (count: number, baseOffset: number, epoch: number): Promise<Buffer> => {
      const b = await batchOf(count);
      setBaseOffset(b, 0, baseOffset);
      setPartitionLeaderEpoch(b, 0, epoch);
      return b;
    };
    log.holdHighWatermark();
    const result = await log.appendAsFollower(Buffer.concat([await fetched(3, 0, 2), await fetched(2, 3, 5)]));
    assert.deepEqual([result.baseOffset, result.lastOffset, result.batchCount], [0, 4, 2]);
    assert.deepEqual([log.logEndOffset, log.highWatermark], [5, 0]);
    assert.deepEqual(log.leaderEpochs(), [{ epoch: 2, startOffset: 0 }, { epoch: 5, startOffset: 3 }]);
    const all = batchesOf((await log.read(0, 1 << 20, { maxOffset: 5 })).records);
    assert.deepEqual(all.map((b) => [baseOffsetAt(b, 0), lastOffsetAt(b, 0), readBatchHeader(b, 0).partitionLeaderEpoch]), [[0, 2, 2], [3, 4, 5]]);
    assert.deepEqual((await log.read(0, 1 << 20)).records, [], 'nothing is read past the high watermark');
    let woken = 0;
    log.onAppend(() => woken++);
    log.setHighWatermark(3);
    assert.deepEqual([log.highWatermark, woken], [3, 1]);
    assert.deepEqual(offsetsOf((await log.read(0, 1 << 20)).records), [[0, 2]]);
    log.setHighWatermark(99);
    assert.deepEqual([log.highWatermark, woken], [5, 2], 'never past the log end');
    log.setHighWatermark(5);
    assert.equal(woken, 2, 'no move, no wake');
    // A follower takes no append of its own; as leader again it does, and a held high watermark stays where it is.
    log.setFollowing(true);
    await assert.rejects(log.append(await batchOf(1), { leaderEpoch: 5 }), /NOT_LEADER_OR_FOLLOWER|takes no append/);
    assert.equal(log.logEndOffset, 5);
    log.setFollowing(false);
    await log.append(await batchOf(1), { leaderEpoch: 5 });
    assert.deepEqual([log.logEndOffset, log.highWatermark], [6, 5]);

    await assert.rejects(log.appendAsFollower(await fetched(1, 9, 5)), /CORRUPT_MESSAGE|do not follow/, 'a gap after the log end');
    const corrupt = await fetched(1, 6, 5);
    corrupt[corrupt.length - 1]! ^= 0xff;
    await assert.rejects(log.appendAsFollower(corrupt), /do not follow/, 'a batch failing its CRC');
    assert.equal(log.logEndOffset, 6);

    // Truncated back to where the epochs agree, then the leader's new epoch goes on.
    await log.truncateTo(3);
    assert.deepEqual([log.logEndOffset, log.highWatermark], [3, 3]);
    assert.deepEqual(log.leaderEpochs(), [{ epoch: 2, startOffset: 0 }]);
    await log.appendAsFollower(await fetched(2, 3, 6));
    assert.deepEqual(log.leaderEpochs(), [{ epoch: 2, startOffset: 0 }, { epoch: 6, startOffset: 3 }]);
    assert.equal(log.highWatermark, 3);
  });

  withLog('truncateFullyAndStartAt empties the log and starts it again at the offset given', { segmentBytes: 300 }, async (log) => {
    await fill(log, 6, 2);
    log.holdHighWatermark();
    await log.truncateFullyAndStartAt(40);
    assert.deepEqual([log.logStartOffset, log.logEndOffset, log.highWatermark, log.segments.length, log.segments[0]!.baseOffset], [40, 40, 40, 1, 40]);
    assert.deepEqual(log.leaderEpochs(), []);
    const b = await batchOf(2);
    setBaseOffset(b, 0, 40);
    setPartitionLeaderEpoch(b, 0, 3);
    await log.appendAsFollower(b);
    assert.deepEqual([log.logEndOffset, log.highWatermark], [42, 40]);
    assert.deepEqual(offsetsOf((await log.read(40, 1 << 20, { maxOffset: 42 })).records), [[40, 41]]);
    await assert.rejects(log.read(10, 1 << 20), OffsetOutOfRangeError);
  });
}
