// A PartitionLog over a list of segments, engine-independent: offset assignment, rolling, reads across
// segments, timestamp lookup, truncation, log start / retention, leader epochs, flushing and append
// notifications, and the lifecycle of the producer state it keeps for the broker (producer-state.ts): a snapshot
// when a segment rolls and when the log closes, snapshots dropped with truncation and the log start, the
// transaction index kept per segment. Engines supply the segments (and persist what the hooks hand them).

import { TimestampType } from '../protocol/records/batch.js';
import { assignOffsets, scanBatches, type AssignedAppend } from './batches.js';
import { OffsetOutOfRangeError, StorageError } from './errors.js';
import { LeaderEpochCache, type EpochEntry } from './leader-epoch.js';
import type { LogConfig } from './log-config.js';
import {
  EARLIEST_LOCAL_TIMESTAMP,
  EARLIEST_TIMESTAMP,
  LATEST_TIMESTAMP,
  MAX_TIMESTAMP,
  type AppendInfo,
  type AppendListener,
  type AppendResult,
  type PartitionLog,
  type ReadOptions,
  type ReadResult,
  type TimestampAndOffset,
} from './log.js';
import type { AbortedTxn, LoadedProducerState, ProducerSnapshotStore, ProducerStateSource } from './producer-state.js';
import { deletableSegmentCount } from './retention-policy.js';
import { shouldRoll } from './roll-policy.js';
import type { Scheduler } from './scheduler.js';
import type { LogSegment } from './segment.js';
import { SerialQueue } from './serial-queue.js';

export interface SegmentedLogHooks<S extends LogSegment> {
  /** Create an empty segment starting at `baseOffset`. */
  newSegment(baseOffset: number, now: number): Promise<S>;
  /** Persist leader epoch entries (leader-epoch-checkpoint). */
  saveEpochs?(entries: readonly EpochEntry[]): Promise<void>;
  /** The log start offset moved (log-start-offset-checkpoint). */
  logStartChanged?(log: SegmentedLog<S>): void;
}

export interface SegmentedLogInit<S extends LogSegment> {
  topic: string;
  partition: number;
  config: LogConfig;
  scheduler: Scheduler;
  /** Loaded segments in offset order; at least one (the active segment is the last). */
  segments: S[];
  logStartOffset: number;
  recoveryPoint: number;
  epochs: readonly EpochEntry[];
  hooks: SegmentedLogHooks<S>;
  /** Where the engine keeps producer-state snapshots (none: nothing persists, the broker replays the whole log). */
  producerSnapshots?: ProducerSnapshotStore;
}

export class SegmentedLog<S extends LogSegment> implements PartitionLog {
  readonly topic: string;
  readonly partition: number;
  private cfg: LogConfig;
  private readonly scheduler: Scheduler;
  private readonly hooks: SegmentedLogHooks<S>;
  private segmentList: S[];
  private startOffset: number;
  private endOffset: number;
  private hw: number;
  /** A replicated partition's log: appends leave the high watermark to its replication (setHighWatermark). */
  private hwHeld = false;
  /** A follower's log takes batches from its leader alone (appendAsFollower). */
  private following = false;
  private recovered: number;
  private lastFlushTime: number;
  private readonly epochCache: LeaderEpochCache;
  private epochsDirty = false;
  private readonly queue = new SerialQueue();
  private readonly listeners = new Set<AppendListener>();
  private closed = false;
  private readonly snapshots: ProducerSnapshotStore | undefined;
  private producerState: ProducerStateSource | undefined;
  private loadedProducerState: LoadedProducerState | undefined;

  constructor(init: SegmentedLogInit<S>) {
    if (init.segments.length === 0) throw new Error('a log needs at least one segment');
    this.topic = init.topic;
    this.partition = init.partition;
    this.cfg = init.config;
    this.scheduler = init.scheduler;
    this.hooks = init.hooks;
    this.snapshots = init.producerSnapshots;
    this.segmentList = init.segments;
    this.endOffset = this.active.nextOffset;
    this.startOffset = Math.min(Math.max(init.logStartOffset, this.segmentList[0]!.baseOffset), this.endOffset);
    this.hw = this.endOffset;
    this.recovered = Math.min(init.recoveryPoint, this.endOffset);
    this.lastFlushTime = init.scheduler.now();
    this.epochCache = new LeaderEpochCache(init.epochs, () => {
      this.epochsDirty = true;
    });
    // Entries beyond the recovered end belong to a lost tail.
    this.epochCache.truncateFromEnd(this.endOffset);
    this.epochCache.truncateFromStart(this.startOffset);
  }

  get config(): LogConfig {
    return this.cfg;
  }
  get logStartOffset(): number {
    return this.startOffset;
  }
  get logEndOffset(): number {
    return this.endOffset;
  }
  get highWatermark(): number {
    return this.hw;
  }
  get recoveryPoint(): number {
    return this.recovered;
  }
  /** The segments, oldest first (read-only view for engines and tests). */
  get segments(): readonly S[] {
    return this.segmentList;
  }
  private get active(): S {
    return this.segmentList[this.segmentList.length - 1]!;
  }

  updateConfig(config: LogConfig): void {
    this.cfg = config;
  }

  onAppend(listener: AppendListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  producerStateAtOpen(): LoadedProducerState {
    const loaded = this.loadedProducerState;
    if (loaded === undefined || loaded.replayFrom < this.startOffset) return { snapshot: undefined, replayFrom: this.startOffset };
    return loaded;
  }

  /** The engine's recovery at open found this (file engine: the newest usable snapshot). */
  setLoadedProducerState(loaded: LoadedProducerState): void {
    this.loadedProducerState = loaded;
  }

  /** The broker's producer state, snapshotted from now on at each roll and at close (undefined: none). */
  setProducerStateSource(source: ProducerStateSource | undefined): void {
    this.producerState = source;
  }

  appendAbortedTxn(txn: AbortedTxn): void {
    this.segmentList[this.segmentIndexFor(txn.lastOffset)]!.appendAbortedTxn(txn);
  }

  /**
   * Kafka's collectAbortedTransactions: the index entries with lastOffset >= fetchOffset and firstOffset <
   * upperBound, from the segment holding fetchOffset on, until an entry's last stable offset reaches upperBound
   * (no transaction later in the log can have begun below it).
   */
  abortedTransactions(fetchOffset: number, upperBound: number): AbortedTxn[] {
    const found: AbortedTxn[] = [];
    for (let i = this.segmentIndexFor(fetchOffset); i < this.segmentList.length; i++) {
      for (const txn of this.segmentList[i]!.abortedTxns) {
        if (txn.lastOffset >= fetchOffset && txn.firstOffset < upperBound) found.push(txn);
        if (txn.lastStableOffset >= upperBound) return found;
      }
    }
    return found;
  }

  leaderEpochs(): readonly EpochEntry[] {
    return this.epochCache.entries();
  }

  /** OffsetForLeaderEpoch: the end offset of `epoch` on this log. */
  endOffsetForEpoch(epoch: number): EpochEntry {
    return this.epochCache.endOffsetFor(epoch, this.endOffset);
  }

  sizeInBytes(): number {
    let size = 0;
    for (const s of this.segmentList) size += s.size;
    return size;
  }

  append(batches: Buffer | readonly Buffer[], info: AppendInfo): Promise<AppendResult> {
    const parts = Buffer.isBuffer(batches) ? [batches] : (batches as readonly Buffer[]);
    let bytes = 0;
    for (const part of parts) bytes += part.length;
    return this.queue.run(async () => {
      this.ensureOpen();
      if (this.following) throw new StorageError('NOT_LEADER_OR_FOLLOWER', `${this.topic}-${this.partition} follows its leader: it takes no append of its own`);
      const now = info.now ?? this.scheduler.now();
      const type = info.timestampType ?? this.cfg.messageTimestampType;
      const logAppendTime = type === TimestampType.LOG_APPEND_TIME ? now : undefined;
      const assigned = assignOffsets(parts, this.endOffset, info.leaderEpoch, logAppendTime);
      const incoming = { bytes, maxTimestamp: assigned.maxTimestamp, lastOffset: assigned.lastOffset };
      if (shouldRoll(this.active.rollCandidate(), this.cfg, now, incoming)) await this.roll(now);
      await this.active.append(parts, assigned, now);
      this.endOffset = assigned.lastOffset + 1;
      this.epochCache.assign(info.leaderEpoch, assigned.baseOffset);
      await this.saveEpochsIfDirty();
      if (this.endOffset - this.recovered >= this.cfg.flushMessages) await this.flushLocked(now);
      if (!this.hwHeld) this.hw = this.endOffset;
      const result: AppendResult = {
        baseOffset: assigned.baseOffset,
        lastOffset: assigned.lastOffset,
        logAppendTime: logAppendTime ?? -1,
        logStartOffset: this.startOffset,
        maxTimestamp: assigned.maxTimestamp,
        offsetOfMaxTimestamp: assigned.offsetOfMaxTimestamp,
        batchCount: assigned.batches.length,
        bytes,
      };
      info.onAppended?.(result);
      for (const listener of this.listeners) listener(this);
      return result;
    });
  }

  /**
   * UnifiedLog.appendAsFollower: batches fetched from the partition's leader go in as they are, keeping the leader's
   * offsets and leader epochs (each batch's epoch enters the epoch cache); the first must start at the log end and
   * each must pass its CRC, else CORRUPT_MESSAGE and nothing is appended.
   */
  appendAsFollower(batches: Buffer): Promise<AppendResult> {
    return this.queue.run(async () => {
      this.ensureOpen();
      const now = this.scheduler.now();
      const scanned = scanBatches(batches, 0, batches.length, { verify: true, afterOffset: this.endOffset - 1 });
      const first = scanned.batches[0];
      if (first === undefined || scanned.validEnd !== batches.length || first.baseOffset !== this.endOffset) {
        throw new StorageError('CORRUPT_MESSAGE', `fetched batches do not follow log end ${this.endOffset} of ${this.topic}-${this.partition} as whole valid batches`);
      }
      const last = scanned.batches[scanned.batches.length - 1]!;
      let maxTimestamp = -1;
      let offsetOfMaxTimestamp = -1;
      for (const b of scanned.batches) {
        if (b.maxTimestamp > maxTimestamp) {
          maxTimestamp = b.maxTimestamp;
          offsetOfMaxTimestamp = b.lastOffset;
        }
      }
      const assigned: AssignedAppend = { batches: scanned.batches, baseOffset: first.baseOffset, lastOffset: last.lastOffset, maxTimestamp, offsetOfMaxTimestamp };
      if (shouldRoll(this.active.rollCandidate(), this.cfg, now, { bytes: batches.length, maxTimestamp, lastOffset: last.lastOffset })) await this.roll(now);
      await this.active.append([batches], assigned, now);
      this.endOffset = last.lastOffset + 1;
      for (const b of scanned.batches) this.epochCache.assign(b.leaderEpoch, b.baseOffset);
      await this.saveEpochsIfDirty();
      if (this.endOffset - this.recovered >= this.cfg.flushMessages) await this.flushLocked(now);
      if (!this.hwHeld) this.hw = this.endOffset;
      const result: AppendResult = {
        baseOffset: first.baseOffset, lastOffset: last.lastOffset, logAppendTime: -1, logStartOffset: this.startOffset,
        maxTimestamp, offsetOfMaxTimestamp, batchCount: scanned.batches.length, bytes: batches.length,
      };
      for (const listener of this.listeners) listener(this);
      return result;
    });
  }

  holdHighWatermark(): void {
    this.hwHeld = true;
  }

  setFollowing(following: boolean): void {
    this.following = following;
  }

  /** Moves the high watermark (within the log start and end); a move wakes what waits on the log, as an append does. */
  setHighWatermark(offset: number): void {
    const next = Math.max(this.startOffset, Math.min(offset, this.endOffset));
    if (next === this.hw) return;
    this.hw = next;
    for (const listener of this.listeners) listener(this);
  }

  async read(offset: number, maxBytes: number, options: ReadOptions = {}): Promise<ReadResult> {
    this.ensureOpen();
    if (offset < this.startOffset || offset > this.endOffset) {
      throw new OffsetOutOfRangeError(offset, this.startOffset, this.endOffset);
    }
    const maxOffset = Math.min(options.maxOffset ?? this.hw, this.endOffset);
    const minOne = options.minOneBatch ?? true;
    let records: Buffer[] = [];
    if (offset < maxOffset) {
      // Segments are read one at a time, like Kafka: the next fetch continues in the next segment.
      for (let i = this.segmentIndexFor(offset); i < this.segmentList.length && records.length === 0; i++) {
        const segment = this.segmentList[i]!;
        if (segment.baseOffset >= maxOffset) break;
        records = await segment.read(offset, maxBytes, maxOffset, minOne, options.partialLastBatch === true);
        // Only a segment with nothing at or after `offset` (a cleaned one) sends the read on; a first batch that
        // did not fit is an empty answer, as Kafka's LogSegment.read returns empty records there, not null.
        if (records.length === 0 && !minOne && (await segment.read(offset, 0, maxOffset, true)).length > 0) break;
      }
    }
    let bytes = 0;
    for (const r of records) bytes += r.length;
    return { records, bytes, highWatermark: this.hw, logStartOffset: this.startOffset, logEndOffset: this.endOffset };
  }

  async offsetForTimestamp(timestamp: number): Promise<TimestampAndOffset | null> {
    this.ensureOpen();
    switch (timestamp) {
      case LATEST_TIMESTAMP:
        return { timestamp: -1, offset: this.endOffset, leaderEpoch: this.epochCache.latestEpoch() };
      case EARLIEST_TIMESTAMP:
      case EARLIEST_LOCAL_TIMESTAMP:
        return { timestamp: -1, offset: this.startOffset, leaderEpoch: this.epochCache.epochForOffset(this.startOffset) };
      case MAX_TIMESTAMP: {
        let best: S | undefined;
        for (const s of this.segmentList) if (s.maxTimestamp >= 0 && (best === undefined || s.maxTimestamp > best.maxTimestamp)) best = s;
        return best === undefined ? null : this.withEpoch(await best.findByTimestamp(best.maxTimestamp, this.startOffset));
      }
    }
    if (timestamp < 0) return null;
    for (const segment of this.segmentList) {
      if (segment.nextOffset <= this.startOffset || segment.maxTimestamp < timestamp) continue;
      const found = await segment.findByTimestamp(timestamp, this.startOffset);
      if (found !== null) return this.withEpoch(found);
    }
    return null;
  }

  truncateFullyAndStartAt(offset: number): Promise<void> {
    return this.queue.run(async () => {
      this.ensureOpen();
      await this.startOverAt(offset, this.scheduler.now());
      this.endOffset = offset;
      this.hw = offset;
      this.recovered = offset;
      await this.saveEpochsIfDirty();
      this.snapshots?.deleteAbove(offset);
      this.startMoved();
    });
  }

  /** Nothing below `offset` survives: the old segments go first (the fresh one may take the first one's file names). */
  private async startOverAt(offset: number, now: number): Promise<void> {
    for (const s of this.segmentList) await s.remove();
    this.segmentList = [await this.hooks.newSegment(offset, now)];
    this.startOffset = offset;
    this.epochCache.clear();
  }

  truncateTo(offset: number): Promise<void> {
    return this.queue.run(async () => {
      this.ensureOpen();
      if (offset >= this.endOffset) return;
      const now = this.scheduler.now();
      if (offset <= this.segmentList[0]!.baseOffset || offset < this.startOffset) {
        // Nothing below `offset` survives: start over there, as Kafka's truncateFullyAndStartAt.
        await this.startOverAt(offset, now);
      } else {
        while (this.segmentList.length > 1 && this.active.baseOffset >= offset) {
          await this.segmentList.pop()!.remove();
        }
        await this.active.truncateTo(offset);
      }
      this.endOffset = this.active.nextOffset;
      this.hw = Math.min(this.hw, this.endOffset);
      this.recovered = Math.min(this.recovered, this.endOffset);
      this.epochCache.truncateFromEnd(this.endOffset);
      await this.saveEpochsIfDirty();
      this.snapshots?.deleteAbove(this.endOffset);
      this.startMoved();
    });
  }

  deleteRecordsBefore(offset: number): Promise<number> {
    return this.queue.run(async () => {
      this.ensureOpen();
      if (offset > this.hw || offset < 0) throw new OffsetOutOfRangeError(offset, this.startOffset, this.hw);
      if (offset > this.startOffset) {
        this.startOffset = offset;
        this.epochCache.truncateFromStart(offset);
        await this.saveEpochsIfDirty();
        await this.removeLeadingSegments({ ...this.cfg, deleteEnabled: false }, this.scheduler.now());
        this.startMoved();
      }
      return this.startOffset;
    });
  }

  deleteOldSegments(now?: number): Promise<number> {
    return this.queue.run(async () => {
      if (this.closed) return 0;
      const removed = await this.removeLeadingSegments(this.cfg, now ?? this.scheduler.now());
      if (removed > 0) this.startMoved();
      return removed;
    });
  }

  /**
   * The log cleaner's swap: `replacement` takes the place of `old` (a contiguous run of inactive segments),
   * with `commit` doing the engine's crash-safe file work while no append, roll, truncation or retention can
   * interleave. Returns false (nothing done) when the run is no longer in the log as it was (retention,
   * truncation or a topic delete got there first); the caller then discards its copy.
   */
  replaceSegments(old: readonly S[], replacement: S, commit: () => Promise<void>): Promise<boolean> {
    return this.queue.run(async () => {
      if (this.closed || old.length === 0) return false;
      const first = this.segmentList.indexOf(old[0]!);
      const last = first + old.length - 1;
      if (first < 0 || last >= this.segmentList.length - 1) return false;
      for (let i = 0; i < old.length; i++) if (this.segmentList[first + i] !== old[i]) return false;
      await commit();
      this.segmentList = [...this.segmentList.slice(0, first), replacement, ...this.segmentList.slice(last + 1)];
      return true;
    });
  }

  /** flush.ms: flush when the last flush is older than that. */
  async maybeFlush(now: number): Promise<void> {
    if (now - this.lastFlushTime >= this.cfg.flushMs && this.recovered < this.endOffset) {
      await this.queue.run(() => this.flushLocked(now));
    }
  }

  flush(): Promise<void> {
    return this.queue.run(async () => {
      this.ensureOpen();
      await this.flushLocked(this.scheduler.now());
    });
  }

  close(): Promise<void> {
    return this.queue.run(async () => {
      if (this.closed) return;
      await this.flushLocked(this.scheduler.now());
      await this.snapshotAtClose();
      this.closed = true;
      this.listeners.clear();
      for (const s of this.segmentList) await s.close();
    });
  }

  /** Close without flushing (the partition's files are about to be deleted). */
  abandon(): Promise<void> {
    return this.queue.run(async () => {
      if (this.closed) return;
      this.closed = true;
      this.listeners.clear();
      for (const s of this.segmentList) await s.close();
    });
  }

  private async roll(now: number): Promise<void> {
    const previous = this.active;
    if (previous.size === 0 && previous.baseOffset === this.endOffset) return;
    this.segmentList.push(await this.hooks.newSegment(this.endOffset, now));
    // Kafka's roll takes a producer-state snapshot at the new segment's base offset (written in the background).
    this.snapshotProducerState(this.endOffset);
    await previous.onBecomeInactive();
    // Kafka flushes the segment it rolled past in the background; queued after the current job.
    const upTo = this.active.baseOffset;
    void this.queue.run(async () => {
      if (this.closed || this.recovered >= upTo) return;
      await previous.flush();
      this.recovered = Math.max(this.recovered, upTo);
    }).catch(() => undefined);
  }

  private snapshotProducerState(offset: number): Promise<void> | undefined {
    if (this.snapshots === undefined || this.producerState === undefined) return undefined;
    return this.snapshots.write(offset, this.producerState(this, offset));
  }

  /**
   * A snapshot at the log end, so the next open replays no batch; as Kafka, none at an offset already snapshotted
   * nor for an empty log without producers.
   */
  private async snapshotAtClose(): Promise<void> {
    if (this.snapshots === undefined || this.producerState === undefined) return;
    await this.snapshots.idle();
    if (this.endOffset !== this.snapshots.latestOffset) {
      const entries = this.producerState(this, this.endOffset);
      if (this.endOffset !== this.startOffset || entries.length > 0) await this.snapshots.write(this.endOffset, entries);
    }
    await this.snapshots.idle();
  }

  /** The log start may have moved: the engine records it, and snapshots below it go. */
  private startMoved(): void {
    this.snapshots?.deleteBelow(this.startOffset);
    this.hooks.logStartChanged?.(this);
  }

  private async flushLocked(now: number): Promise<void> {
    for (const s of this.segmentList) if (s.nextOffset > this.recovered || s === this.active) await s.flush();
    this.recovered = this.endOffset;
    this.lastFlushTime = now;
  }

  private async removeLeadingSegments(config: LogConfig, now: number): Promise<number> {
    const count = deletableSegmentCount({
      segments: this.segmentList.map((s) => ({ baseOffset: s.baseOffset, size: s.size, largestTimestamp: s.largestTimestamp() })),
      logEndOffset: this.endOffset,
      highWatermark: this.hw,
      logStartOffset: this.startOffset,
      config,
      now,
    });
    if (count === 0) return 0;
    if (count === this.segmentList.length) await this.roll(now);
    const doomed = this.segmentList.slice(0, count);
    this.segmentList = this.segmentList.slice(count);
    for (const s of doomed) await s.remove();
    if (this.segmentList[0]!.baseOffset > this.startOffset) {
      this.startOffset = this.segmentList[0]!.baseOffset;
      this.epochCache.truncateFromStart(this.startOffset);
      await this.saveEpochsIfDirty();
    }
    return count;
  }

  /** Index of the last segment whose base offset is <= offset. */
  private segmentIndexFor(offset: number): number {
    let lo = 0;
    let hi = this.segmentList.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.segmentList[mid]!.baseOffset <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  private withEpoch(found: TimestampAndOffset | null): TimestampAndOffset | null {
    if (found === null || found.leaderEpoch >= 0) return found;
    return { ...found, leaderEpoch: this.epochCache.epochForOffset(found.offset) };
  }

  private async saveEpochsIfDirty(): Promise<void> {
    if (!this.epochsDirty) return;
    this.epochsDirty = false;
    await this.hooks.saveEpochs?.(this.epochCache.entries());
  }

  private ensureOpen(): void {
    if (this.closed) throw new StorageError('KAFKA_STORAGE_ERROR', `log ${this.topic}-${this.partition} is closed`);
  }
}
