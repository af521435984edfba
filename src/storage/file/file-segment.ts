// One segment on disk: `<base>.log` holds the batches exactly as appended (offsets and leader epoch
// patched), `<base>.index` and `<base>.timeindex` the sparse indexes, `<base>.txnindex` the aborted transactions
// whose markers it holds (created with the first). All I/O is asynchronous.

import { constants } from 'node:fs';
import { rename, rm, stat, utimes, type FileHandle } from 'node:fs/promises';
import { BATCH_HEADER_SIZE, baseOffsetAt, batchSizeAt, lastOffsetAt, maxTimestampAt } from '../../protocol/records/batch.js';
import { scanBatches, type AssignedAppend, type BatchInfo } from '../batches.js';
import { StorageError } from '../errors.js';
import type { LogConfig } from '../log-config.js';
import type { TimestampAndOffset } from '../log.js';
import type { AbortedTxn } from '../producer-state.js';
import type { RollCandidate } from '../roll-policy.js';
import type { Scheduler } from '../scheduler.js';
import type { LogSegment } from '../segment.js';
import { firstRecordAtOrAfter } from '../timestamp-search.js';
import { readAt, walkBatches, walkHeadersBelow } from './batch-walker.js';
import { IoFaults, partitionPlace } from './io-faults.js';
import { OFFSET_ENTRY_SIZE, OffsetIndex } from './offset-index.js';
import { segmentFilePool, withShortLivedFile, type PooledFile } from './segment-file-pool.js';
import { DELETED_SUFFIX, segmentPaths, txnIndexPath } from './segment-files.js';
import { TIME_ENTRY_SIZE, TimeIndex } from './time-index.js';
import { TransactionIndex } from './txn-index.js';

export interface SegmentContext {
  dir: string;
  scheduler: Scheduler;
  /** The owning log's current config (it can change at run time). */
  config: () => LogConfig;
  /** Where failed I/O is reported (default: nowhere). */
  faults?: IoFaults;
}

const unreported = new IoFaults();

interface IndexProblem {
  kind: 'missing' | 'corrupt';
  index: 'offset index' | 'time index';
}

export interface LoadedSegment {
  segment: FileSegment;
  recovered: boolean;
  truncatedBytes: number;
  /** Bytes whose batches were CRC-checked while loading. */
  validatedBytes: number;
}

export class FileSegment implements LogSegment {
  private bytes = 0;
  private next: number;
  private maxTs = -1;
  private offsetOfMaxTs: number;
  private firstBatchTimestamp = -1;
  private bytesSinceIndexEntry = 0;
  private lastModified: number;
  /** The .log, opened on use and closed when idle and the process's budget of open segment files is reached. */
  private readonly file: PooledFile;
  /** .log bytes changed since its last fsync. */
  private logDirty = false;
  /** The in-memory indexes differ from the index files. */
  private indexesDirty = false;
  /** The index files were written since their last fsync. */
  private indexesUnsynced = false;
  /**
   * Whether the index files are known to be on disk. A new segment creates them lazily, as Kafka's LazyIndex
   * does: at its first index write or when it becomes inactive, so a partition that is never written costs one
   * file, not three.
   */
  private indexFilesExist = true;
  /** remove() renamed the files: nothing is written to them any more. */
  private removed = false;
  /** Entries each index file holds (-1: unknown, it must be rewritten): a flush writes and fsyncs only changed files. */
  private offsetFileEntries = -1;
  private timeFileEntries = -1;
  private paths: ReturnType<typeof segmentPaths>;
  readonly offsetIndex: OffsetIndex;
  readonly timeIndex: TimeIndex;
  readonly txnIndex: TransactionIndex;

  private constructor(
    private readonly ctx: SegmentContext,
    readonly baseOffset: number,
    private readonly created: number,
    private readonly rollJitterMs: number,
    suffix = '',
    flags = 'r+',
  ) {
    const cfg = ctx.config();
    this.paths = withSuffix(segmentPaths(ctx.dir, baseOffset), suffix);
    this.file = segmentFilePool().file(() => this.paths.log, flags);
    this.offsetIndex = new OffsetIndex(baseOffset, Math.floor(cfg.segmentIndexBytes / OFFSET_ENTRY_SIZE));
    this.timeIndex = new TimeIndex(baseOffset, Math.floor(cfg.segmentIndexBytes / TIME_ENTRY_SIZE));
    this.txnIndex = new TransactionIndex(txnIndexPath(ctx.dir, baseOffset) + suffix);
    this.next = baseOffset;
    this.offsetOfMaxTs = baseOffset;
    this.lastModified = created;
  }

  /**
   * A new empty segment (replacing any files of the same name). `suffix` names a segment that is not part of
   * the log yet (the cleaner's `.cleaned` copy); renameFiles gives it its final names. Only the .log is
   * created now; the first index write starts at position 0 and cuts each index file to its length.
   */
  static async create(ctx: SegmentContext, baseOffset: number, now: number, rollJitterMs: number, suffix = ''): Promise<FileSegment> {
    const segment = new FileSegment(ctx, baseOffset, now, rollJitterMs, suffix, 'w+');
    await segment.io('creating a segment for', async () => undefined);
    segment.indexFilesExist = false;
    return segment;
  }

  /**
   * An existing segment, with the offsets below `flushedBelow` known to be on disk as written (Infinity after a
   * clean shutdown or for a segment below the recovery point; the recovery point for the segment holding it;
   * 0 for the segments after it). Fully trusted: indexes are loaded and only the bytes after the last index
   * entry are walked. Otherwise the segment is recovered from the recovery point on: batches are CRC-checked,
   * indexes rebuilt and a bad tail cut off. `validatedBytes` counts the bytes CRC-walked.
   */
  static async load(ctx: SegmentContext, baseOffset: number, rollJitterMs: number, flushedBelow: number): Promise<LoadedSegment> {
    const info = await stat(segmentPaths(ctx.dir, baseOffset).log);
    const segment = new FileSegment(ctx, baseOffset, info.mtimeMs, rollJitterMs);
    segment.lastModified = info.mtimeMs;
    segment.bytes = info.size;
    const trusted = flushedBelow === Infinity;
    // A trusted empty segment has nothing to index or walk (many idle partitions start without reading them).
    if (trusted && info.size === 0) return { segment, recovered: false, truncatedBytes: 0, validatedBytes: 0 };
    return segment.io('loading', async () => {
      if (trusted) {
        const problem = await segment.loadIndexes();
        if (problem === undefined) {
          const cut = await segment.walkTail();
          return { segment, recovered: cut !== undefined, truncatedBytes: cut ?? 0, validatedBytes: cut === undefined ? 0 : info.size };
        }
        segment.reportIndexProblem(problem);
      }
      const partial = flushedBelow > baseOffset && !trusted ? await segment.recoverFrom(flushedBelow) : undefined;
      if (partial !== undefined) return { segment, recovered: true, ...partial };
      const truncatedBytes = await segment.recover();
      return { segment, recovered: true, truncatedBytes, validatedBytes: info.size };
    });
  }

  get size(): number {
    return this.bytes;
  }
  get nextOffset(): number {
    return this.next;
  }
  get maxTimestamp(): number {
    return this.maxTs;
  }

  get abortedTxns(): readonly AbortedTxn[] {
    return this.txnIndex.entries;
  }

  appendAbortedTxn(txn: AbortedTxn): void {
    this.txnIndex.append(txn);
  }

  rollCandidate(): RollCandidate {
    return {
      baseOffset: this.baseOffset,
      size: this.bytes,
      created: this.created,
      rollingBasedTimestamp: this.firstBatchTimestamp,
      rollJitterMs: this.rollJitterMs,
      indexFull: this.offsetIndex.isFull() || this.timeIndex.isFull(),
    };
  }

  largestTimestamp(): number {
    return this.maxTs >= 0 ? this.maxTs : this.lastModified;
  }

  /** When the segment was last written (the .log file's mtime). */
  get lastModifiedMs(): number {
    return this.lastModified;
  }

  /** The cleaner keeps the replaced segments' time on their cleaned copy (retention and delete horizons use it). */
  async setLastModified(ms: number): Promise<void> {
    await utimes(this.paths.log, ms / 1000, ms / 1000);
    this.lastModified = ms;
  }

  /**
   * Rename the segment's files from their current suffix to `suffix` ('' for the final names), the .log
   * last so that a .log with a suffix means every file of it has one. Open handles stay valid.
   */
  async renameFiles(suffix: string, afterEach?: (path: string) => Promise<void> | void): Promise<void> {
    const target = withSuffix(segmentPaths(this.ctx.dir, this.baseOffset), suffix);
    for (const key of ['index', 'timeIndex', 'log'] as const) {
      await rename(this.paths[key], target[key]);
      this.paths = { ...this.paths, [key]: target[key] };
      await afterEach?.(target[key]);
      if (key === 'timeIndex') {
        const moved = await this.txnIndex.renameTo(txnIndexPath(this.ctx.dir, this.baseOffset) + suffix);
        if (moved !== undefined) await afterEach?.(moved);
      }
    }
  }

  async append(parts: readonly Buffer[], assigned: AssignedAppend, now: number): Promise<void> {
    const start = this.bytes;
    let length = 0;
    for (const part of parts) length += part.length;
    await this.io('appending records to', async (file) => {
      try {
        await writeAllAt(file, parts, start);
      } catch (err) {
        // Leave no partial batch behind; the log stays as it was.
        await file.truncate(start).catch(() => undefined);
        throw err;
      }
    });
    this.logDirty = true;
    this.indexesDirty = true;
    if (start === 0) this.firstBatchTimestamp = assigned.batches[0]!.maxTimestamp;
    for (const batch of assigned.batches) this.indexBatch(batch, start + batch.position);
    this.bytes = start + length;
    this.lastModified = now;
  }

  read(offset: number, maxBytes: number, maxOffset: number, minOneBatch: boolean, partialLastBatch = false): Promise<Buffer[]> {
    return this.io('reading', (file) => this.readFrom(file, offset, maxBytes, maxOffset, minOneBatch, partialLastBatch));
  }

  private async readFrom(file: FileHandle, offset: number, maxBytes: number, maxOffset: number, minOneBatch: boolean, partialLastBatch: boolean): Promise<Buffer[]> {
    const end = this.bytes;
    const budget = Math.max(maxBytes, 0) + this.ctx.config().indexIntervalBytes + BATCH_HEADER_SIZE;
    let position = this.offsetIndex.lookup(offset).position;
    let chunk = await readAt(file, position, Math.min(budget, end - position));
    let at = 0;
    // Skip the batches that end before `offset`; only their headers are needed.
    for (;;) {
      if (chunk.length - at < BATCH_HEADER_SIZE) {
        position += at;
        if (end - position < BATCH_HEADER_SIZE) return [];
        chunk = await readAt(file, position, Math.min(budget, end - position));
        at = 0;
        continue;
      }
      const size = batchSizeAt(chunk, at);
      if (size < BATCH_HEADER_SIZE) throw new StorageError('CORRUPT_MESSAGE', `bad batch at ${position + at} in ${this.paths.log}`);
      if (lastOffsetAt(chunk, at) >= offset) break;
      at += size;
    }
    if (baseOffsetAt(chunk, at) >= maxOffset) return [];
    const firstSize = batchSizeAt(chunk, at);
    const limit = minOneBatch ? Math.max(maxBytes, firstSize) : maxBytes;
    if (firstSize > limit) return [];
    const firstPosition = position + at;
    const wanted = Math.min(limit, end - firstPosition);
    const bytes = at + wanted <= chunk.length ? chunk.subarray(at, at + wanted) : await readAt(file, firstPosition, wanted);
    let cut = 0;
    let reachedMaxOffset = false;
    for (const batch of scanBatches(bytes, 0, bytes.length).batches) {
      if (batch.baseOffset >= maxOffset) {
        reachedMaxOffset = true;
        break;
      }
      cut = batch.position + batch.size;
    }
    if (cut === 0) return [];
    // Kafka's LogSegment.read sends the span up to the byte budget (or the high watermark's position), so the last
    // batch may be cut; bytes past the budget are never read, so only a batch below maxOffset is kept in part.
    if (partialLastBatch && !reachedMaxOffset && cut < bytes.length && (await this.startsBelow(file, bytes, cut, firstPosition + cut, maxOffset))) return [bytes];
    return [bytes.subarray(0, cut)];
  }

  /** Whether the batch at `at` in `bytes` (file position `position`) starts below maxOffset, reading its base offset from the file when `bytes` ends before it. */
  private async startsBelow(file: FileHandle, bytes: Buffer, at: number, position: number, maxOffset: number): Promise<boolean> {
    if (maxOffset >= this.next) return true;
    const header = bytes.length - at >= 8 ? bytes.subarray(at, at + 8) : await readAt(file, position, 8);
    return header.length === 8 && baseOffsetAt(header, 0) < maxOffset;
  }

  findByTimestamp(timestamp: number, startingOffset: number): Promise<TimestampAndOffset | null> {
    return this.io('searching by timestamp in', async (file) => {
      const fromIndex = this.timeIndex.lookup(timestamp);
      const start = this.offsetIndex.lookup(Math.max(fromIndex.offset, startingOffset)).position;
      for await (const chunk of walkBatches(file, start, this.bytes)) {
        for (const batch of chunk.batches) {
          if (batch.maxTimestamp < timestamp || batch.lastOffset < startingOffset) continue;
          const found = firstRecordAtOrAfter(chunk.bytes, batch.position, timestamp, startingOffset);
          if (found !== null) return { ...found, leaderEpoch: batch.leaderEpoch };
        }
      }
      return null;
    });
  }

  async truncateTo(offset: number): Promise<void> {
    if (offset >= this.next) return;
    await this.io('truncating', async (file) => {
      // Find the first batch holding an offset >= target; everything from it goes.
      let cutAt = this.bytes;
      const walk = walkBatches(file, this.offsetIndex.lookup(offset).position, this.bytes);
      outer: for await (const chunk of walk) {
        for (const batch of chunk.batches) {
          if (batch.lastOffset >= offset) {
            cutAt = chunk.filePosition + batch.position;
            break outer;
          }
        }
      }
      await file.truncate(cutAt);
      this.logDirty = true;
      this.bytes = cutAt;
      // Indexes and the segment's summary are rebuilt from what remains (truncation is rare).
      await this.rebuildFrom(0);
      this.txnIndex.truncateTo(offset);
    });
  }

  /** Kafka's onBecomeInactiveSegment: the final time index entry, and index files on disk from now on. */
  async onBecomeInactive(): Promise<void> {
    this.finalTimeIndexEntry();
    if (!this.indexFilesExist) this.indexesDirty = true;
    await this.reported('rolling a new segment for', () => this.persistIndexes(true));
  }

  /**
   * Nothing to do for a segment unchanged since its last flush (Kafka flushes only past the recovery point).
   * The indexes are fsynced too, as Kafka's LogSegment.flush does: recovery from the recovery point within a
   * segment relies on the index entries below it being on disk.
   */
  async flush(): Promise<void> {
    await this.reported('flushing', async () => {
      if (this.logDirty) {
        // A handle closed since the write syncs on its reopening: fsync flushes the file, whichever fd wrote it.
        await this.file.use((file) => file.sync());
        this.logDirty = false;
      }
      await this.persistIndexes(true);
      await this.txnIndex.idle();
    });
  }

  /** Unchanged segments close without a write or an fsync: shutdown with many partitions stays quick. */
  async close(): Promise<void> {
    if (this.removed) return;
    await this.reported('closing', async () => {
      this.finalTimeIndexEntry();
      await this.persistIndexes(true);
      await this.txnIndex.idle();
      if (this.logDirty) await this.file.use((file) => file.sync());
      this.logDirty = false;
      await this.file.close();
    });
  }

  /** Rename to .deleted now (readers holding the file keep working), delete after file.delete.delay.ms. */
  async remove(): Promise<void> {
    const files = [this.paths.log, this.paths.index, this.paths.timeIndex];
    const renamed: string[] = [];
    for (const path of files) {
      try {
        await rename(path, path + DELETED_SUFFIX);
        renamed.push(path + DELETED_SUFFIX);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      }
    }
    // Readers holding this segment now reopen the renamed files (the cleaner may put a new segment under the old name).
    this.paths = { log: this.paths.log + DELETED_SUFFIX, index: this.paths.index + DELETED_SUFFIX, timeIndex: this.paths.timeIndex + DELETED_SUFFIX };
    const txnFile = await this.txnIndex.renameTo(this.txnIndex.path + DELETED_SUFFIX).catch(() => undefined);
    if (txnFile !== undefined) renamed.push(txnFile);
    this.removed = true;
    this.ctx.scheduler.after(this.ctx.config().fileDeleteDelayMs, () => {
      void (async () => {
        await this.file.close().catch(() => undefined);
        for (const path of renamed) await rm(path, { force: true }).catch(() => undefined);
      })();
    });
  }

  /** The time index ends with the segment's max timestamp (Kafka's onBecomeInactiveSegment/close). */
  private finalTimeIndexEntry(): void {
    const before = this.timeIndex.entries;
    this.timeIndex.maybeAppend(this.maxTs, this.offsetOfMaxTs, true);
    if (this.timeIndex.entries !== before) this.indexesDirty = true;
  }

  /** `job` with the .log open; a system error is reported and becomes KAFKA_STORAGE_ERROR. */
  private io<T>(operation: string, job: (file: FileHandle) => Promise<T>): Promise<T> {
    return this.reported(operation, () => this.file.use(job));
  }

  private reported<T>(operation: string, job: () => Promise<T>): Promise<T> {
    return (this.ctx.faults ?? unreported).run(operation, partitionPlace(this.ctx.dir), job);
  }

  /** Kafka's rule: an index entry once more than index.interval.bytes were appended since the last. */
  private indexBatch(batch: BatchInfo, filePosition: number): void {
    if (batch.maxTimestamp > this.maxTs) {
      this.maxTs = batch.maxTimestamp;
      this.offsetOfMaxTs = batch.lastOffset;
    }
    if (this.bytesSinceIndexEntry > this.ctx.config().indexIntervalBytes) {
      this.offsetIndex.append(batch.lastOffset, filePosition);
      this.timeIndex.maybeAppend(this.maxTs, this.offsetOfMaxTs);
      this.bytesSinceIndexEntry = 0;
    }
    this.bytesSinceIndexEntry += batch.size;
    this.next = batch.lastOffset + 1;
  }

  /** Loads the index files; what is wrong with them when they cannot be used. */
  private async loadIndexes(): Promise<IndexProblem | undefined> {
    const [index, timeIndex] = await Promise.all([readWhole(this.paths.index), readWhole(this.paths.timeIndex)]);
    if (index === undefined) return { kind: 'missing', index: 'offset index' };
    if (timeIndex === undefined) return { kind: 'missing', index: 'time index' };
    if (!this.offsetIndex.load(index, this.bytes)) return { kind: 'corrupt', index: 'offset index' };
    const last = this.offsetIndex.lastEntry();
    if (!this.timeIndex.load(timeIndex, Number.MAX_SAFE_INTEGER)) return { kind: 'corrupt', index: 'time index' };
    this.offsetFileEntries = this.offsetIndex.entries;
    this.timeFileEntries = this.timeIndex.entries;
    const lastTime = this.timeIndex.lastEntry();
    if (lastTime.timestamp >= 0) {
      this.maxTs = lastTime.timestamp;
      this.offsetOfMaxTs = lastTime.offset;
    }
    this.next = Math.max(this.baseOffset, this.offsetIndex.entries > 0 ? last.offset + 1 : this.baseOffset);
    return undefined;
  }

  /**
   * A trusted segment's indexes cannot be used, so it is recovered: Kafka's LogLoader logs a missing offset index at
   * ERROR (it was written before the clean shutdown or the flush), a corrupt index at WARN, in these words. A missing
   * time index Kafka starts anew without a word; gregor rebuilds it, and says so at WARN.
   */
  private reportIndexProblem(problem: IndexProblem): void {
    const faults = this.ctx.faults ?? unreported;
    if (problem.kind === 'missing') {
      const report = problem.index === 'offset index' ? faults.error : faults.warn;
      report(`Could not find ${problem.index} file corresponding to log file ${this.paths.log}, recovering segment and rebuilding index files...`);
    } else {
      faults.warn(
        `Found a corrupted ${problem.index} file corresponding to log file ${this.paths.log} due to entries not whole, ` +
          `not in order or past the segment's end, recovering segment and rebuilding index files...`,
      );
    }
  }

  /**
   * After loading trusted indexes: walk from the last index entry to find the end offset and max timestamp.
   * Returns the bytes cut when the tail turned out torn and the segment had to be recovered.
   */
  private walkTail(): Promise<number | undefined> {
    return this.file.use((file) => this.walkTailOf(file));
  }

  private async walkTailOf(file: FileHandle): Promise<number | undefined> {
    if (this.bytes >= BATCH_HEADER_SIZE) {
      // Only the header is read; the batch goes on past it.
      this.firstBatchTimestamp = maxTimestampAt(await readAt(file, 0, BATCH_HEADER_SIZE), 0);
    }
    const from = this.offsetIndex.lastEntry().position;
    const walk = walkBatches(file, from, this.bytes);
    let result = await walk.next();
    while (!result.done) {
      for (const batch of result.value.batches) {
        if (batch.maxTimestamp > this.maxTs) {
          this.maxTs = batch.maxTimestamp;
          this.offsetOfMaxTs = batch.lastOffset;
        }
        this.next = batch.lastOffset + 1;
      }
      result = await walk.next();
    }
    this.bytesSinceIndexEntry = this.bytes - from;
    if (result.value.validEnd !== this.bytes) {
      // A clean shutdown never leaves a partial batch; if one is there, recover instead of trusting it.
      return this.recover();
    }
    return undefined;
  }

  /**
   * Recovery from `recoveryPoint` inside the segment rather than from its start (Kafka recovers the whole
   * segment). Safe because the recovery point only moves past offsets that a flush fsynced, .log and indexes
   * both (flush, and onBecomeInactive on a roll), before the checkpoint can record it: every byte and index
   * entry below it is on disk as written. The index is still only a hint to a batch boundary: the batch at the
   * entry used must pass its CRC and end at the entry's offset, and the headers from there on must chain (magic
   * 2, increasing offsets, inside the file) up to the recovery point. From there the batches are CRC-checked,
   * indexed and a bad tail cut, as in a whole-segment recovery. Undefined (nothing changed on disk) when the
   * indexes or the log disagree: the caller then recovers the whole segment.
   */
  private async recoverFrom(recoveryPoint: number): Promise<{ truncatedBytes: number; validatedBytes: number } | undefined> {
    if ((await this.loadIndexes()) !== undefined) return undefined;
    return this.file.use((file) => this.recoverFromWith(file, recoveryPoint));
  }

  private async recoverFromWith(file: FileHandle, recoveryPoint: number): Promise<{ truncatedBytes: number; validatedBytes: number } | undefined> {
    // The last entry below the recovery point, or the segment's start when there is none.
    const hasEntry = this.offsetIndex.entries > 0 && this.offsetIndex.entry(0).offset < recoveryPoint;
    const entry = this.offsetIndex.lookup(recoveryPoint - 1);
    let afterOffset = this.baseOffset - 1;
    if (hasEntry) {
      // indexBatch's rule: an entry is (last offset, position) of one batch.
      const batch = await this.verifiedBatchAt(file, entry.position);
      if (batch === undefined || batch.lastOffset !== entry.offset) return undefined;
      afterOffset = batch.baseOffset - 1;
    }
    const below = await walkHeadersBelow(file, entry.position, this.bytes, recoveryPoint, afterOffset);
    if (below === undefined) return undefined;
    // Keep the index entries up to the one used; replaying the batches from it re-adds the rest as appends did.
    const keepBelow = hasEntry ? entry.offset + 1 : this.baseOffset;
    this.offsetIndex.truncateTo(keepBelow);
    this.timeIndex.truncateTo(keepBelow);
    const lastTime = this.timeIndex.lastEntry();
    this.maxTs = lastTime.timestamp;
    this.offsetOfMaxTs = lastTime.offset;
    this.next = this.baseOffset;
    this.bytesSinceIndexEntry = 0;
    for (const batch of below.batches) this.indexBatch(batch, batch.position);
    const end = this.bytes;
    const truncatedBytes = await this.walkAndIndex(below.position, below.batches.at(-1)?.lastOffset ?? afterOffset);
    this.firstBatchTimestamp = this.bytes >= BATCH_HEADER_SIZE ? maxTimestampAt(await readAt(file, 0, BATCH_HEADER_SIZE), 0) : -1;
    this.indexesDirty = true;
    await this.persistIndexes(false);
    return { truncatedBytes, validatedBytes: end - below.position };
  }

  /** The batch starting at `position` when it is whole, magic 2 and passes its CRC. */
  private async verifiedBatchAt(file: FileHandle, position: number): Promise<BatchInfo | undefined> {
    if (this.bytes - position < BATCH_HEADER_SIZE) return undefined;
    const size = batchSizeAt(await readAt(file, position, BATCH_HEADER_SIZE), 0);
    if (size < BATCH_HEADER_SIZE || position + size > this.bytes) return undefined;
    const bytes = await readAt(file, position, size);
    const { batches } = scanBatches(bytes, 0, bytes.length, { verify: true });
    return batches.length === 1 ? batches[0] : undefined;
  }

  /** Walk every batch with CRC checks, rebuild the indexes and cut the file at the first bad byte. */
  private async recover(): Promise<number> {
    return this.rebuildFrom(0, true);
  }

  private async rebuildFrom(start: number, verify = false): Promise<number> {
    this.offsetIndex.reset();
    this.timeIndex.reset();
    this.maxTs = -1;
    this.offsetOfMaxTs = this.baseOffset;
    this.next = this.baseOffset;
    this.bytesSinceIndexEntry = 0;
    this.firstBatchTimestamp = -1;
    const cut = await this.walkAndIndex(start, this.baseOffset - 1, verify);
    // The rebuilt indexes replace the files' contents.
    this.offsetIndex.persisted = 0;
    this.timeIndex.persisted = 0;
    this.indexesDirty = true;
    await this.persistIndexes(false);
    return cut;
  }

  /**
   * Index the batches from `start` to the end of the file (CRC-checked when `verify`), each after
   * `afterOffset`, and cut the file where the good ones end; returns the bytes cut.
   */
  private walkAndIndex(start: number, afterOffset: number, verify = true): Promise<number> {
    return this.file.use((file) => this.walkAndIndexWith(file, start, afterOffset, verify));
  }

  private async walkAndIndexWith(file: FileHandle, start: number, afterOffset: number, verify: boolean): Promise<number> {
    const walk = walkBatches(file, start, this.bytes, { verify, afterOffset });
    let result = await walk.next();
    while (!result.done) {
      for (const batch of result.value.batches) {
        if (this.firstBatchTimestamp < 0 && result.value.filePosition + batch.position === 0) this.firstBatchTimestamp = batch.maxTimestamp;
        this.indexBatch(batch, result.value.filePosition + batch.position);
      }
      result = await walk.next();
    }
    const validEnd = result.value.validEnd;
    const cut = this.bytes - validEnd;
    if (cut > 0) {
      await file.truncate(validEnd);
      this.logDirty = true;
      this.bytes = validEnd;
    }
    return cut;
  }

  private async persistIndexes(sync: boolean): Promise<void> {
    if (!this.indexesDirty && !(sync && this.indexesUnsynced)) return;
    // Appends mark the indexes dirty whether or not they added an entry: nothing new means no write and no fsync.
    const changed =
      !this.indexFilesExist ||
      this.offsetFileEntries !== this.offsetIndex.entries ||
      this.offsetIndex.persisted !== this.offsetIndex.entries ||
      this.timeFileEntries !== this.timeIndex.entries ||
      this.timeIndex.persisted !== this.timeIndex.entries;
    if (!changed && !(sync && this.indexesUnsynced)) {
      this.indexesDirty = false;
      return;
    }
    await persistIndex(this.paths.index, this.offsetIndex.persisted * OFFSET_ENTRY_SIZE, this.offsetIndex.unpersistedBytes(), sync);
    this.offsetIndex.persisted = this.offsetIndex.entries;
    await persistIndex(this.paths.timeIndex, this.timeIndex.persisted * TIME_ENTRY_SIZE, this.timeIndex.unpersistedBytes(), sync);
    this.timeIndex.persisted = this.timeIndex.entries;
    this.indexesDirty = false;
    this.offsetFileEntries = this.offsetIndex.entries;
    this.timeFileEntries = this.timeIndex.entries;
    this.indexesUnsynced = !sync;
    this.indexFilesExist = true;
  }
}

function withSuffix(paths: ReturnType<typeof segmentPaths>, suffix: string): ReturnType<typeof segmentPaths> {
  return suffix === '' ? paths : { log: paths.log + suffix, index: paths.index + suffix, timeIndex: paths.timeIndex + suffix };
}

/** Write `tail` at `position` and cut the file there, so it holds exactly the in-memory entries. */
async function persistIndex(path: string, position: number, tail: Buffer, sync: boolean): Promise<void> {
  await withShortLivedFile(
    path,
    constants.O_RDWR | constants.O_CREAT,
    async (file) => {
      if (tail.length > 0) await file.write(tail, 0, tail.length, position);
      await file.truncate(position + tail.length);
      if (sync) await file.sync();
    },
    0o644,
  );
}

async function readWhole(path: string): Promise<Buffer | undefined> {
  try {
    return await withShortLivedFile(path, 'r', (file) => file.readFile());
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/**
 * Writes `parts` back to back at `position`: one write(2) for one buffer, one pwritev(2) for several (a group commit
 * of several Produce requests' batches, never joined into a new buffer first), and again from where a short write
 * stopped.
 */
export async function writeAllAt(file: FileHandle, parts: readonly Buffer[], position: number): Promise<void> {
  let pending = parts.filter((part) => part.length > 0);
  let at = position;
  while (pending.length > 0) {
    if (pending.length === 1) {
      const buf = pending[0]!;
      const { bytesWritten } = await file.write(buf, 0, buf.length, at);
      at += bytesWritten;
      pending = bytesWritten === buf.length ? [] : [buf.subarray(bytesWritten)];
      continue;
    }
    let { bytesWritten } = await file.writev(pending, at);
    at += bytesWritten;
    // Drop what went out; the first part left may have gone out in part.
    let i = 0;
    while (i < pending.length && bytesWritten >= pending[i]!.length) bytesWritten -= pending[i++]!.length;
    pending = pending.slice(i);
    if (bytesWritten > 0) pending[0] = pending[0]!.subarray(bytesWritten);
  }
}
