// The broker's producer state: one PartitionProducerState per partition log, the ProducerStateCheck the produce
// path calls, transaction markers written by the coordinator, and the last stable offset and aborted
// transactions Fetch and ListOffsets read. The log owns what persists of it (src/storage/producer-state.ts): it
// snapshots the state when a segment rolls and when it closes, and indexes the aborted transactions this decides.
// At start-up each partition begins from the snapshot its log found at open (none: the memory engine, or no
// snapshot yet) and replays the batch headers after it.
import { ErrorCode } from '../protocol/error-codes.js';
import {
  ControlRecordType,
  encodeControlBatch,
  isControl,
  readBatchHeader,
  splitBatches,
  readTransactionMarker,
  type BatchHeader,
} from '../protocol/records/index.js';
import { StorageError } from '../storage/errors.js';
import type { LogStore } from '../storage/log-store.js';
import type { PartitionLog } from '../storage/log.js';
import type { AbortedTxn } from '../storage/producer-state.js';
import { replayBatches } from '../storage/log-replay.js';
import { PARTITION_LEADER_EPOCH } from './leader-epoch.js';
import { PartitionProducerState, type MarkerInput } from './partition-producer-state.js';
import type { ProducerBatchVerdict, ProducerStateCheck } from './producer-state.js';
import { produceVerificationFailure } from './txn-partition-add.js';

export type { MarkerInput } from './partition-producer-state.js';
export type { AbortedTxn } from '../storage/producer-state.js';

/** The Produce version a verification failure is answered for when the caller names none. */
const LATEST_PRODUCE_VERSION = 12;
/** Bytes read per step while rebuilding a partition's state. */
const LOAD_READ_BYTES = 4 * 1024 * 1024;

/**
 * Asked before a transactional batch opens a transaction on a partition (transaction.partition.verification.enable):
 * NONE when the producer's ongoing transaction includes the partition, else the coordinator's code
 * (produceVerificationFailure turns it into what the producer gets).
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
  /** Logs with state, for expiry (a topic's logs leave when it is deleted: see expire). */
  private readonly tracked = new Set<PartitionLog>();
  private verifier: TransactionVerifier | undefined;

  constructor(private readonly now: () => number = Date.now) {}

  /**
   * Loads every partition's producer ids and open transactions: from the snapshot its log found at open plus the
   * batches after it, or from the whole log. From then on the store's logs snapshot this state.
   */
  static async load(store: LogStore, now: () => number = Date.now): Promise<ProducerStates> {
    const states = new ProducerStates(now);
    for (const topic of store.topics()) {
      for (let p = 0; p < topic.partitions; p++) {
        const log = store.log(topic.name, p);
        if (log !== undefined) await states.loadPartition(log);
      }
    }
    store.setProducerStateSource((log, endOffset) => states.byLog.get(log)?.snapshotEntries(endOffset) ?? []);
    return states;
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

  beforeAppend(log: PartitionLog, header: BatchHeader, apiVersion = LATEST_PRODUCE_VERSION): ProducerBatchVerdict {
    if (header.producerId < 0) return { kind: 'append' };
    const state = this.forLog(log);
    const entry = state.entry(header.producerId);
    const opensTxn = (header.attributes & 0x10) !== 0 && (entry === undefined || entry.currentTxnFirstOffset < 0);
    if (opensTxn && this.verifier !== undefined) {
      const error = this.verifier(log.topic, log.partition, header.producerId, header.producerEpoch);
      if (error !== ErrorCode.NONE) {
        const failure = produceVerificationFailure(error, apiVersion);
        return { kind: 'reject', errorCode: failure.errorCode, message: failure.message, unverified: true };
      }
    }
    return state.checkAndReserve(header, log.logEndOffset);
  }

  hasOngoingTransaction(log: PartitionLog, producerId: number, producerEpoch: number): boolean {
    const entry = this.byLog.get(log)?.entry(producerId);
    return entry !== undefined && entry.currentTxnFirstOffset >= 0 && entry.epoch === producerEpoch;
  }

  afterAppend(log: PartitionLog, header: BatchHeader, baseOffset: number): void {
    if (header.producerId >= 0) this.byLog.get(log)?.appended(header, baseOffset);
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
      await log.append(batch, {
        leaderEpoch: PARTITION_LEADER_EPOCH,
        timestampType: log.config.messageTimestampType,
        now,
        // Inside the append: a roll right after it snapshots the transaction as ended.
        onAppended: (result) => {
          const aborted = state.markerAppended(marker, result.baseOffset, now, log.highWatermark);
          if (aborted !== undefined) log.appendAbortedTxn(aborted);
        },
      });
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

  /** From the log's transaction index. */
  abortedTransactions(log: PartitionLog, fetchOffset: number, upperBound: number): AbortedTxn[] {
    return log.abortedTransactions(fetchOffset, upperBound);
  }

  /** Forgets producers idle for longer than producer.id.expiration.ms on every partition. */
  expire(expirationMs: number): number {
    const cutoff = this.now() - expirationMs;
    let removed = 0;
    for (const log of this.tracked) {
      const state = this.byLog.get(log);
      if (state === undefined) continue;
      removed += state.expireBefore(cutoff);
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

  private async loadPartition(log: PartitionLog): Promise<void> {
    const loaded = log.producerStateAtOpen();
    if (loaded.snapshot !== undefined) {
      this.loadStats.snapshotsLoaded++;
      for (const entry of loaded.snapshot) this.forLog(log).restore(entry);
    }
    await this.replay(log, loaded.replayFrom);
  }

  // ---- a follower's log (cluster mode) ----

  /**
   * A follower appended batches fetched from its leader: the state follows them as the leader's did (Kafka's
   * appendAsFollower), the aborts indexed in the follower's log as in the leader's.
   */
  followerAppended(log: PartitionLog, batches: Buffer): void {
    for (const span of splitBatches(batches).batches) this.applyBatch(log, batches.subarray(span.pos, span.pos + span.size), true);
  }

  /**
   * A follower's log was truncated: its state is read again from the log (Kafka's truncateAndReload); the log's own
   * truncation already dropped the index entries of the markers it cut.
   */
  async followerTruncated(log: PartitionLog): Promise<void> {
    this.byLog.delete(log);
    this.tracked.delete(log);
    for await (const batch of replayBatches(log, log.logStartOffset, LOAD_READ_BYTES, log.logEndOffset)) this.applyBatch(log, batch, false);
  }

  /** Reads the batch headers from `from` to the log end into the state (the log indexes the aborts it finds). */
  private async replay(log: PartitionLog, from: number): Promise<void> {
    for await (const batch of replayBatches(log, from, LOAD_READ_BYTES)) {
      this.loadStats.batchesReplayed++;
      this.applyBatch(log, batch, true);
    }
  }

  /** One batch already in the log: a data batch's producer, or a marker ending its transaction (an abort indexed). */
  private applyBatch(log: PartitionLog, batch: Buffer, indexAborts: boolean): void {
    const header = readBatchHeader(batch);
    if (header.producerId < 0) return;
    const state = this.forLog(log);
    if (!isControl(header.attributes)) {
      state.replayData(header);
      return;
    }
    try {
      const { type, coordinatorEpoch } = readTransactionMarker(batch);
      if (type === ControlRecordType.ABORT || type === ControlRecordType.COMMIT) {
        const marker = { producerId: header.producerId, producerEpoch: header.producerEpoch, type, coordinatorEpoch };
        const aborted = state.markerAppended(marker, header.baseOffset, header.maxTimestamp, header.baseOffset + 1);
        if (aborted !== undefined && indexAborts) log.appendAbortedTxn(aborted);
      }
    } catch {
      // A control batch that holds no marker (cleaned away) changes nothing.
    }
  }
}
