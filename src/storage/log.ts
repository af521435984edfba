// The narrow partition-log interface every storage engine implements. Kafka semantics (validation,
// idempotence, transactions, ACLs) live above it; an engine stores record batches in offset order, and keeps
// what persists of the broker's producer state (snapshots, the transaction index: producer-state.ts).
// Offsets are plain numbers here (they stay far below 2^53); handlers convert to bigint at the wire.

import type { TimestampTypeValue } from '../protocol/records/batch.js';
import type { LogConfig } from './log-config.js';
import type { EpochEntry } from './leader-epoch.js';
import type { AbortedTxn, LoadedProducerState } from './producer-state.js';

export interface AppendInfo {
  /** Partition leader epoch stamped into every appended batch. */
  leaderEpoch: number;
  /** The topic's message.timestamp.type; LogAppendTime makes the log stamp `now` into each batch. */
  timestampType?: TimestampTypeValue;
  /** Append time in ms (defaults to the log's clock). */
  now?: number;
  /**
   * Called once the batches are in, before any later append or roll of the log: state that follows the log (the
   * broker's producer state) is then up to date whenever the log snapshots it.
   */
  onAppended?: (result: AppendResult) => void;
}

export interface AppendResult {
  baseOffset: number;
  lastOffset: number;
  /** The stamped time when the topic uses LogAppendTime, else -1 (as ProduceResponse reports it). */
  logAppendTime: number;
  logStartOffset: number;
  maxTimestamp: number;
  offsetOfMaxTimestamp: number;
  batchCount: number;
  bytes: number;
}

export interface ReadOptions {
  /** Exclusive upper bound: no batch starting at or after it is returned (high watermark, or LSO). */
  maxOffset?: number;
  /** Return the first batch even when it is larger than maxBytes (Kafka's rule; default true). */
  minOneBatch?: boolean;
  /**
   * Fill maxBytes as Kafka's LogSegment.read does for Fetch: after the whole batches, the bytes of the next batch
   * (below maxOffset) that fit, cut mid-batch; the client discards that partial batch and fetches it whole next.
   * Default false: whole batches only (the coordinators, share partitions and the console parse what they read).
   */
  partialLastBatch?: boolean;
}

export interface ReadResult {
  /**
   * Whole record batches, in offset order; the first contains the requested offset (with partialLastBatch, the
   * last buffer may end in the first bytes of one more batch). A Buffer may hold several
   * batches back to back (the file engine answers with one span of a segment): split it (replayBatches does).
   */
  records: Buffer[];
  bytes: number;
  highWatermark: number;
  logStartOffset: number;
  logEndOffset: number;
}

export interface TimestampAndOffset {
  timestamp: number;
  offset: number;
  /** Leader epoch of the batch holding that offset, -1 when unknown. */
  leaderEpoch: number;
}

/** ListOffsets' special timestamps (Kafka's ListOffsetsRequest constants). */
export const LATEST_TIMESTAMP = -1;
export const EARLIEST_TIMESTAMP = -2;
export const MAX_TIMESTAMP = -3;
export const EARLIEST_LOCAL_TIMESTAMP = -4;

export type AppendListener = (log: PartitionLog) => void;

export interface PartitionLog {
  readonly topic: string;
  readonly partition: number;
  readonly config: LogConfig;
  readonly logStartOffset: number;
  readonly logEndOffset: number;
  /**
   * Single node: the end offset once a batch is in the OS (fsynced first when flush.messages says so). A replicated
   * partition's log (holdHighWatermark) leaves it to its replication: the leader's minimum over the ISR, a
   * follower's the leader's.
   */
  readonly highWatermark: number;
  /** Offset up to which everything is fsynced (and will not be re-scanned after a crash). */
  readonly recoveryPoint: number;

  /**
   * Append already-validated batches (one or more, back to back; or several such buffers, written in order in one
   * write, without joining them first). The log assigns offsets by patching each batch header in place (base
   * offset, partition leader epoch, LogAppendTime when configured). Resolves once the bytes are written to the OS.
   */
  append(batches: Buffer | readonly Buffer[], info: AppendInfo): Promise<AppendResult>;
  /**
   * Whole batches starting with the one containing `offset`, at most `maxBytes` in total except that the
   * first batch is returned whole even if larger (unless minOneBatch is false). Rejects with
   * OffsetOutOfRangeError outside [logStartOffset, logEndOffset].
   */
  read(offset: number, maxBytes: number, options?: ReadOptions): Promise<ReadResult>;
  /** First record with timestamp >= ts; also answers LATEST/EARLIEST/MAX_TIMESTAMP. Null when none. */
  offsetForTimestamp(timestamp: number): Promise<TimestampAndOffset | null>;
  /**
   * A follower's append of batches fetched from the leader: offsets and leader epochs kept as they are; the first
   * must start at the log end (CORRUPT_MESSAGE otherwise, nothing appended).
   */
  appendAsFollower(batches: Buffer): Promise<AppendResult>;
  /** From now on appends do not move the high watermark: the partition's replication does (setHighWatermark). */
  holdHighWatermark(): void;
  /**
   * A follower's log refuses append (NOT_LEADER_OR_FOLLOWER): what it holds comes from its leader alone, so no local
   * writer (a transaction marker from this broker's coordinator, say) can put its own batch between the leader's.
   */
  setFollowing(following: boolean): void;
  /** Sets the high watermark (kept within the log start and end); a move notifies the append listeners. */
  setHighWatermark(offset: number): void;
  /**
   * Empty the log and start it again at `offset` (a follower whose leader no longer holds its fetch offset, Kafka's
   * truncateFullyAndStartAt): every segment goes, the epochs are cleared, log start, end and high watermark are `offset`.
   */
  truncateFullyAndStartAt(offset: number): Promise<void>;
  /** Remove every batch at or after `offset` (whole batches). */
  truncateTo(offset: number): Promise<void>;
  /** Move the log start offset forward (DeleteRecords); whole segments below it go in the background. */
  deleteRecordsBefore(offset: number): Promise<number>;
  /** Apply retention.ms / retention.bytes and the log start offset; returns the number of segments removed. */
  deleteOldSegments(now?: number): Promise<number>;
  /** Leader epoch → start offset entries, ascending. */
  leaderEpochs(): readonly EpochEntry[];
  /** Total bytes held by the log's segments. */
  sizeInBytes(): number;
  updateConfig(config: LogConfig): void;
  /** What recovery found at open: the producer-state snapshot to start from and the offset to replay batches from. */
  producerStateAtOpen(): LoadedProducerState;
  /** Index an aborted transaction in the segment holding its ABORT marker (Kafka's TransactionIndex). */
  appendAbortedTxn(txn: AbortedTxn): void;
  /** The indexed aborted transactions overlapping [fetchOffset, upperBound): what a read_committed Fetch returns. */
  abortedTransactions(fetchOffset: number, upperBound: number): AbortedTxn[];
  /** Called after every append that moves the end offset (wakes Fetch long-polls). Returns an unsubscribe. */
  onAppend(listener: AppendListener): () => void;
  flush(): Promise<void>;
  close(): Promise<void>;
}
