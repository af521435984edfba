// Cleans one log (Kafka's Cleaner.doClean): build the key → latest offset map over the dirty section, then
// copy every segment below the end of that map into cleaned segments (merged up to segment.bytes), keeping
// the latest record per key at its original offset, tombstones until their delete horizon, and each
// producer's last batch, and the transaction index entry of each ABORT marker it keeps (as Kafka's
// CleanedTransactionMetadata writes the cleaned segment's index); then swap each cleaned segment in. Work happens in slices of at most
// ioBufferSize bytes, throttled, with the event loop served between slices, and at most
// RECORDS_PER_TURN records between two turns (a slice of small records costs its records, not its bytes).
import { ControlRecordType } from '../../protocol/records/control.js';
import { scanBatches, type AssignedAppend } from '../batches.js';
import type { AbortedTxn as IndexedAbortedTxn } from '../producer-state.js';
import type { SegmentedLog } from '../segmented-log.js';
import type { LogSegment } from '../segment.js';
import { filterBatch, type BatchDecision } from './batch-filter.js';
import { segmentBatches, type CleanerBatch } from './batch-view.js';
import { groupSegmentsBySize } from './cleanable.js';
import type { CompactionConfig } from './cleaner-config.js';
import type { CleanerStorage } from './cleaner-storage.js';
import type { OffsetMap } from './offset-map.js';
import { CleanedTransactions, controlType, TxnScanner, type TxnSummary } from './transactions.js';

/**
 * Records the cleaner handles (decode, MD5, map) before it lets the event loop turn: a few ms of work.
 * 512 KiB of 100-byte records is ~5,000 records per read slice, which kept the loop for tens of ms alone.
 */
export const RECORDS_PER_TURN = 1_000;

/** Thrown when a clean stops early (shutdown, or the log changed under it); nothing was swapped for the group. */
export class CleaningAbortedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CleaningAbortedError';
  }
}

/** Where the broker's transaction state can answer for the cleaner (else it scans the log). */
export interface TxnSource {
  summary(log: SegmentedLog<LogSegment>, upTo: number): Promise<TxnSummary>;
}

export interface CleanerStats {
  bytesRead: number;
  bytesWritten: number;
  recordsRead: number;
  recordsRetained: number;
  mapRecords: number;
  groups: number;
}

export interface CleanerDeps<S extends LogSegment> {
  storage: CleanerStorage<S>;
  map: OffsetMap;
  /** How full the map may get (log.cleaner.io.buffer.load.factor). */
  loadFactor: number;
  ioBufferSize: number;
  /** Called with the bytes of every slice read or written: throttling, yielding, abort checks. */
  onSlice: (bytes: number) => Promise<void>;
  now: () => number;
  txnSource?: TxnSource;
}

export interface CleanRequest {
  firstDirtyOffset: number;
  firstUncleanableOffset: number;
  config: CompactionConfig;
}

export interface CleanResult {
  /** The new first dirty offset (checkpoint). */
  endOffset: number;
  stats: CleanerStats;
}

export class Cleaner<S extends LogSegment> {
  /** Records handled since the event loop last turned. */
  private recordsThisTurn = 0;

  constructor(private readonly deps: CleanerDeps<S>) {}

  /** Cleans `log`; undefined when nothing could be cleaned this time (an open transaction at the start of the dirty section). */
  async clean(log: SegmentedLog<S>, request: CleanRequest): Promise<CleanResult | undefined> {
    const now = this.deps.now();
    const stats: CleanerStats = { bytesRead: 0, bytesWritten: 0, recordsRead: 0, recordsRetained: 0, mapRecords: 0, groups: 0 };
    const segments = [...log.segments];
    let upper = request.firstUncleanableOffset;
    const txns = await this.transactions(log, segments, upper, stats);
    if (txns.firstOpenTxnOffset >= 0 && txns.firstOpenTxnOffset < upper) {
      // Nothing from an undecided transaction on may be cleaned (Kafka's last stable offset).
      upper = baseOfSegmentHolding(segments, txns.firstOpenTxnOffset);
    }
    if (upper <= request.firstDirtyOffset) return undefined;

    await this.buildOffsetMap(segments, request.firstDirtyOffset, upper, txns, stats);
    const map = this.deps.map;
    if (map.latestOffset < request.firstDirtyOffset) return undefined;
    const endOffset = map.latestOffset + 1;

    const toClean = segments.slice(0, -1).filter((s) => s.baseOffset < endOffset);
    const groups = groupSegmentsBySize(toClean, log.config.segmentBytes, upper);
    const transactions = new CleanedTransactions(txns.aborted);
    for (const group of groups) {
      await this.cleanGroup(log, group, { now, upper, txns, transactions, config: request.config }, stats);
      stats.groups++;
    }
    return { endOffset, stats };
  }

  /** Aborted transactions, producers' last batches and open transactions below `upTo`. */
  private async transactions(log: SegmentedLog<S>, segments: readonly S[], upTo: number, stats: CleanerStats): Promise<TxnSummary> {
    if (this.deps.txnSource !== undefined) return this.deps.txnSource.summary(log, upTo);
    const scanner = new TxnScanner();
    for (const segment of segments.slice(0, -1)) {
      if (segment.baseOffset >= upTo) break;
      for await (const batch of this.batches(segment, segment.baseOffset, stats)) {
        if (batch.lastOffset >= upTo) break;
        scanner.onBatch(batch);
      }
    }
    return scanner.summary();
  }

  private async buildOffsetMap(segments: readonly S[], start: number, end: number, txns: TxnSummary, stats: CleanerStats): Promise<void> {
    const map = this.deps.map;
    map.clear();
    const maxEntries = Math.floor(map.slots * this.deps.loadFactor);
    const transactions = new CleanedTransactions(txns.aborted);
    for (let i = 0; i < segments.length - 1; i++) {
      const segment = segments[i]!;
      const nextBase = segments[i + 1]!.baseOffset;
      if (segment.baseOffset >= end) break;
      if (nextBase <= start) continue;
      for await (const batch of this.batches(segment, start, stats)) {
        if (batch.header.baseOffset >= end) break;
        if (batch.isControl) {
          transactions.onControlBatchRead(batch);
        } else if (!transactions.onBatchRead(batch)) {
          const records = batch.records();
          for (const record of records) {
            if (record.key === null || record.offset < start) continue;
            // Full: stop here; what lies beyond the map's latest offset is kept as it is.
            if (map.size >= maxEntries) return;
            map.put(record.key, record.offset);
            stats.mapRecords++;
          }
          await this.paced(records.length);
        }
        if (batch.lastOffset >= start) map.updateLatestOffset(batch.lastOffset);
      }
      map.updateLatestOffset(Math.min(nextBase, end) - 1);
    }
  }

  private async cleanGroup(
    log: SegmentedLog<S>,
    group: readonly S[],
    round: { now: number; upper: number; txns: TxnSummary; transactions: CleanedTransactions; config: CompactionConfig },
    stats: CleanerStats,
  ): Promise<void> {
    const { storage, map } = this.deps;
    const cleaned = await storage.createCleaned(log, group[0]!.baseOffset, round.now);
    const horizon = { now: round.now, deleteRetentionMs: round.config.deleteRetentionMs };
    // The group's index entries by marker offset: those of the markers kept go to the cleaned segment's index.
    const indexed = new Map<number, IndexedAbortedTxn>();
    for (const segment of group) for (const txn of segment.abortedTxns) indexed.set(txn.lastOffset, txn);
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    const flush = async (): Promise<void> => {
      if (pendingBytes === 0) return;
      const buf = pending.length === 1 ? pending[0]! : Buffer.concat(pending, pendingBytes);
      pending = [];
      pendingBytes = 0;
      await cleaned.append([buf], assignedOf(buf), round.now);
      stats.bytesWritten += buf.length;
      await this.deps.onSlice(buf.length);
    };
    try {
      for (const segment of group) {
        for await (const batch of this.batches(segment, segment.baseOffset, stats)) {
          const decision = this.decide(batch, round);
          if (batch.isControl && !decision.markerForEmptyTxn && controlType(batch) === ControlRecordType.ABORT) {
            const txn = indexed.get(batch.header.baseOffset);
            if (txn !== undefined) cleaned.appendAbortedTxn(txn);
          }
          const out = filterBatch(batch, decision, (record) => {
            if (decision.discardRecords) return false;
            if (batch.isControl) return true;
            if (record.offset > map.latestOffset) return true;
            if (record.key === null) return false;
            const latest = record.offset >= map.get(record.key);
            const horizonMs = batch.deleteHorizonMs;
            const keepTombstone = horizonMs === undefined || round.now < horizonMs;
            return latest && (record.value !== null || keepTombstone);
          }, horizon);
          stats.recordsRead += out.recordsRead;
          stats.recordsRetained += out.recordsRetained;
          await this.paced(out.recordsRead);
          if (out.bytes === null) continue;
          pending.push(out.bytes);
          pendingBytes += out.bytes.length;
          if (pendingBytes >= this.deps.ioBufferSize) await flush();
        }
      }
      await flush();
      const swapped = await log.replaceSegments(group, cleaned, () => storage.swap(cleaned, group));
      if (!swapped) throw new CleaningAbortedError(`log ${log.topic}-${log.partition} changed while it was being cleaned`);
    } catch (err) {
      await storage.discard(cleaned);
      throw err;
    }
  }

  /** Kafka's checkBatchRetention for the cleaner's filter. */
  private decide(
    batch: CleanerBatch,
    round: { now: number; upper: number; txns: TxnSummary; transactions: CleanedTransactions },
  ): BatchDecision {
    const canDiscard = batch.isControl ? round.transactions.onControlBatchRead(batch) : round.transactions.onBatchRead(batch);
    const horizon = batch.deleteHorizonMs;
    const discardRecords = batch.isControl ? canDiscard && horizon !== undefined && horizon <= round.now : canDiscard;
    // The round's last batch stays even if empty, so the log keeps its last offset information.
    const retainEmpty = this.isProducersLastBatch(batch, round.txns) || batch.lastOffset + 1 === round.upper;
    return {
      retention: retainEmpty ? 'retain-empty' : discardRecords ? 'delete' : 'delete-empty',
      discardRecords,
      markerForEmptyTxn: canDiscard && batch.isControl,
    };
  }

  private isProducersLastBatch(batch: CleanerBatch, txns: TxnSummary): boolean {
    if (batch.header.producerId < 0) return false;
    const last = txns.lastRecords.get(batch.header.producerId);
    if (last === undefined) return false;
    if (last.lastDataOffset !== undefined) return batch.lastOffset === last.lastDataOffset;
    return batch.isControl && batch.header.producerEpoch === last.producerEpoch;
  }

  private batches(segment: S, from: number, stats: CleanerStats): AsyncGenerator<CleanerBatch> {
    return segmentBatches(segment, from, {
      chunkBytes: this.deps.ioBufferSize,
      onChunk: async (bytes) => {
        stats.bytesRead += bytes;
        this.recordsThisTurn = 0;
        await this.deps.onSlice(bytes);
      },
    });
  }

  /** Counts records handled; past RECORDS_PER_TURN the event loop gets a turn (onSlice with no new bytes). */
  private async paced(records: number): Promise<void> {
    this.recordsThisTurn += records;
    if (this.recordsThisTurn < RECORDS_PER_TURN) return;
    this.recordsThisTurn = 0;
    await this.deps.onSlice(0);
  }
}

function baseOfSegmentHolding(segments: readonly LogSegment[], offset: number): number {
  let base = segments[0]!.baseOffset;
  for (const s of segments) if (s.baseOffset <= offset) base = s.baseOffset;
  return base;
}

/** The AssignedAppend a segment needs for batches that already carry their offsets. */
function assignedOf(buf: Buffer): AssignedAppend {
  const { batches } = scanBatches(buf, 0, buf.length);
  let maxTimestamp = -1;
  let offsetOfMaxTimestamp = -1;
  for (const b of batches) {
    if (b.maxTimestamp > maxTimestamp) {
      maxTimestamp = b.maxTimestamp;
      offsetOfMaxTimestamp = b.lastOffset;
    }
  }
  return { batches, baseOffset: batches[0]!.baseOffset, lastOffset: batches[batches.length - 1]!.lastOffset, maxTimestamp, offsetOfMaxTimestamp };
}
