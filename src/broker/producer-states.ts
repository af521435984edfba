// The broker's producer state: one PartitionProducerState per partition log, the ProducerStateCheck the produce
// path calls, transaction markers written by the coordinator, and the last stable offset and aborted
// transactions Fetch and ListOffsets read. On the file engine the state is kept as Kafka keeps it
// (producer-state-files.ts): a snapshot when a segment rolls and at clean shutdown, .txnindex files of aborted
// transactions; start-up loads the latest snapshot and replays only the batches after it. Without files (the
// memory engine, or no snapshot yet) the state is rebuilt from every batch header of the log.
import { join } from 'node:path';
import { ErrorCode } from '../protocol/error-codes.js';
import {
  ControlRecordType,
  encodeControlBatch,
  isControl,
  readBatchHeader,
  readTransactionMarker,
  type BatchHeader,
} from '../protocol/records/index.js';
import { StorageError } from '../storage/errors.js';
import { FileLogStore } from '../storage/file/file-store.js';
import { partitionDirName } from '../storage/file/segment-files.js';
import type { LogStore } from '../storage/log-store.js';
import type { PartitionLog } from '../storage/log.js';
import { replayBatches } from '../storage/log-replay.js';
import type { LogSegment } from '../storage/segment.js';
import { PARTITION_LEADER_EPOCH } from './leader-epoch.js';
import { PartitionProducerState, type AbortedTxn, type MarkerInput } from './partition-producer-state.js';
import type { ProducerBatchVerdict, ProducerStateCheck } from './producer-state.js';
import { ProducerStateFiles } from './producer-state-files.js';

export type { AbortedTxn, MarkerInput } from './partition-producer-state.js';

/** Bytes read per step while rebuilding a partition's state. */
const LOAD_READ_BYTES = 4 * 1024 * 1024;

/**
 * Asked before a transactional batch opens a transaction on a partition (transaction.partition.verification.enable):
 * NONE when the producer's ongoing transaction includes the partition, else the error the produce gets.
 */
export type TransactionVerifier = (topic: string, partition: number, producerId: number, producerEpoch: number) => number;

/** What start-up did: how many partitions began from a snapshot, and how many batches it had to read. */
export interface ProducerStateLoadStats {
  snapshotsLoaded: number;
  batchesReplayed: number;
}

export class ProducerStates implements ProducerStateCheck {
  readonly loadStats: ProducerStateLoadStats = { snapshotsLoaded: 0, batchesReplayed: 0 };
  private readonly byLog = new WeakMap<PartitionLog, PartitionProducerState>();
  private readonly filesByLog = new WeakMap<PartitionLog, ProducerStateFiles>();
  /** The file engine's log dir (partition files live in `<logDir>/<topic>-<partition>/`); none in memory. */
  private logDir: string | undefined;
  private store: LogStore | undefined;
  /** Logs with state, for expiry (a topic's logs leave when it is deleted: see expire). */
  private readonly tracked = new Set<PartitionLog>();
  private verifier: TransactionVerifier | undefined;

  constructor(
    private readonly now: () => number = Date.now,
    private readonly warn: (message: string) => void = () => {},
  ) {}

  /**
   * Loads every partition's producer ids, open transactions and aborted ones: from its latest snapshot and
   * .txnindex files plus the batches after the snapshot, or from the whole log when there is no snapshot.
   */
  static async load(store: LogStore, now: () => number = Date.now, warn: (message: string) => void = () => {}): Promise<ProducerStates> {
    const states = new ProducerStates(now, warn);
    states.store = store;
    if (store instanceof FileLogStore) states.logDir = store.logDir;
    for (const topic of store.topics()) {
      for (let p = 0; p < topic.partitions; p++) {
        const log = store.log(topic.name, p);
        if (log !== undefined) await states.loadPartition(log);
      }
    }
    return states;
  }

  /** Clean shutdown: a snapshot at the end of every log (the next start reads no batch), then waits for the files. */
  async snapshotAll(): Promise<void> {
    if (this.store === undefined) return;
    for (const topic of this.store.topics()) {
      for (let p = 0; p < topic.partitions; p++) {
        const log = this.store.log(topic.name, p);
        const files = log === undefined ? undefined : this.filesFor(log);
        if (log === undefined || files === undefined) continue;
        // As Kafka: no new snapshot at an offset already snapshotted, nor for an empty log (nothing to replay).
        await files.idle();
        const state = this.byLog.get(log);
        if (log.logEndOffset === files.latestSnapshot || (log.logEndOffset === log.logStartOffset && state === undefined)) continue;
        await files.writeSnapshot(log.logEndOffset, state?.snapshotEntries(log.logEndOffset) ?? []);
      }
    }
  }

  setVerifier(verifier: TransactionVerifier | undefined): void {
    this.verifier = verifier;
  }

  /** The partition's state, if it has seen any producer id. */
  peek(log: PartitionLog): PartitionProducerState | undefined {
    return this.byLog.get(log);
  }

  forLog(log: PartitionLog): PartitionProducerState {
    let state = this.byLog.get(log);
    if (state === undefined) {
      state = new PartitionProducerState(`${log.topic}-${log.partition}`);
      this.byLog.set(log, state);
      this.tracked.add(log);
    }
    return state;
  }

  // ---- ProducerStateCheck (the produce path) ----

  beforeAppend(log: PartitionLog, header: BatchHeader): ProducerBatchVerdict {
    if (header.producerId < 0) return { kind: 'append' };
    const state = this.forLog(log);
    const entry = state.entry(header.producerId);
    const opensTxn = (header.attributes & 0x10) !== 0 && (entry === undefined || entry.currentTxnFirstOffset < 0);
    if (opensTxn && this.verifier !== undefined) {
      const error = this.verifier(log.topic, log.partition, header.producerId, header.producerEpoch);
      if (error !== ErrorCode.NONE) {
        return { kind: 'reject', errorCode: error, message: `Partition ${log.topic}-${log.partition} is not part of the transaction of producer ${header.producerId}` };
      }
    }
    return state.checkAndReserve(header, log.logEndOffset);
  }

  afterAppend(log: PartitionLog, header: BatchHeader, baseOffset: number): void {
    if (header.producerId >= 0) this.byLog.get(log)?.appended(header, baseOffset);
    this.snapshotIfRolled(log, baseOffset + header.lastOffsetDelta + 1);
  }

  appendFailed(log: PartitionLog, header: BatchHeader): void {
    if (header.producerId >= 0) this.byLog.get(log)?.appendFailed(header);
  }

  // ---- transaction markers ----

  /**
   * Writes a COMMIT or ABORT marker for the producer to the partition, as the partition leader does for
   * WriteTxnMarkers. Resolves with Kafka's error code (NONE once the marker is in the log).
   */
  async writeMarker(log: PartitionLog, marker: MarkerInput): Promise<number> {
    const state = this.forLog(log);
    const check = state.checkMarker(marker);
    if (check !== ErrorCode.NONE) return check;
    const now = this.now();
    const batch = encodeControlBatch({
      baseOffset: 0,
      producerId: marker.producerId,
      producerEpoch: marker.producerEpoch,
      type: marker.type,
      coordinatorEpoch: marker.coordinatorEpoch,
      timestamp: now,
    });
    try {
      const result = await log.append(batch, { leaderEpoch: PARTITION_LEADER_EPOCH, timestampType: log.config.messageTimestampType, now });
      const aborted = state.markerAppended(marker, result.baseOffset, now, log.highWatermark);
      if (aborted !== undefined) this.filesFor(log)?.appendAborted(segmentBaseOf(log, aborted.lastOffset), aborted);
      this.snapshotIfRolled(log, result.baseOffset + 1);
      return ErrorCode.NONE;
    } catch (error) {
      if (error instanceof StorageError) return ErrorCode[error.code];
      throw error;
    }
  }

  // ---- what Fetch and ListOffsets read ----

  lastStableOffset(log: PartitionLog, highWatermark = log.highWatermark): number {
    return this.byLog.get(log)?.lastStableOffset(highWatermark) ?? highWatermark;
  }

  abortedTransactions(log: PartitionLog, fetchOffset: number, upperBound: number): AbortedTxn[] {
    return this.byLog.get(log)?.abortedTransactions(fetchOffset, upperBound) ?? [];
  }

  /** Forgets producers idle for longer than producer.id.expiration.ms on every partition. */
  expire(expirationMs: number): number {
    const cutoff = this.now() - expirationMs;
    let removed = 0;
    for (const log of this.tracked) {
      const state = this.byLog.get(log);
      if (state === undefined) continue;
      removed += state.expireBefore(cutoff);
      state.truncateAbortedBefore(log.logStartOffset);
      if (state.size === 0 && state.ongoingTransactions().size === 0) {
        this.tracked.delete(log);
        this.byLog.delete(log);
      }
    }
    return removed;
  }

  /** Every partition with producer state (DescribeProducers and ListTransactions read it). */
  *partitions(): Generator<[PartitionLog, PartitionProducerState]> {
    for (const log of this.tracked) {
      const state = this.byLog.get(log);
      if (state !== undefined) yield [log, state];
    }
  }

  /** The partition's state files, on the file engine. */
  private filesFor(log: PartitionLog): ProducerStateFiles | undefined {
    if (this.logDir === undefined) return undefined;
    let files = this.filesByLog.get(log);
    if (files === undefined) {
      files = new ProducerStateFiles(join(this.logDir, partitionDirName(log.topic, log.partition)), this.warn);
      files.activeSegment = segmentBaseOf(log, log.logEndOffset);
      this.filesByLog.set(log, files);
    }
    return files;
  }

  /** Kafka snapshots producer state when the log rolls a new segment: here once the batch ending at `end` is in. */
  private snapshotIfRolled(log: PartitionLog, end: number): void {
    const files = this.filesFor(log);
    if (files === undefined) return;
    const active = segmentBaseOf(log, end - 1);
    if (active === files.activeSegment) return;
    files.activeSegment = active;
    void files.writeSnapshot(end, this.byLog.get(log)?.snapshotEntries(end) ?? []);
  }

  private async loadPartition(log: PartitionLog): Promise<void> {
    const files = this.filesFor(log);
    let from = log.logStartOffset;
    if (files !== undefined) {
      const loaded = await files.load(log.logStartOffset, log.logEndOffset);
      if (loaded.snapshot !== undefined) {
        this.loadStats.snapshotsLoaded++;
        if (loaded.snapshot.length > 0) for (const entry of loaded.snapshot) this.forLog(log).restore(entry);
      }
      if (loaded.aborted.length > 0) this.forLog(log).restoreAborted(loaded.aborted);
      from = Math.max(from, loaded.replayFrom);
    }
    await this.replay(log, from);
  }

  /** Reads the batch headers from `from` to the log end into the state (markers write their .txnindex entries). */
  private async replay(log: PartitionLog, from: number): Promise<void> {
    for await (const batch of replayBatches(log, from, LOAD_READ_BYTES)) {
      const header = readBatchHeader(batch);
      this.loadStats.batchesReplayed++;
      if (header.producerId < 0) continue;
      const state = this.forLog(log);
      if (!isControl(header.attributes)) {
        state.replayData(header);
        continue;
      }
      try {
        const { type, coordinatorEpoch } = readTransactionMarker(batch);
        if (type === ControlRecordType.ABORT || type === ControlRecordType.COMMIT) {
          const marker = { producerId: header.producerId, producerEpoch: header.producerEpoch, type, coordinatorEpoch };
          const aborted = state.markerAppended(marker, header.baseOffset, header.maxTimestamp, header.baseOffset + 1);
          if (aborted !== undefined) this.filesFor(log)?.appendAborted(segmentBaseOf(log, aborted.lastOffset), aborted);
        }
      } catch {
        // A control batch that holds no marker (cleaned away) changes nothing.
      }
    }
  }
}

/** Base offset of the segment holding `offset` (0 for a log that does not show its segments). */
function segmentBaseOf(log: PartitionLog, offset: number): number {
  const segments = (log as Partial<{ segments: readonly LogSegment[] }>).segments;
  if (segments === undefined) return 0;
  let base = segments[0]?.baseOffset ?? 0;
  for (let i = segments.length - 1; i >= 0; i--) {
    if (segments[i]!.baseOffset <= offset) {
      base = segments[i]!.baseOffset;
      break;
    }
  }
  return base;
}
