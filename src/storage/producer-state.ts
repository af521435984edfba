// Producer state as the log keeps it. In Kafka the ProducerStateManager, its snapshot files and each segment's
// TransactionIndex live with the log; here the broker computes the state (sequence checks, open transactions, the
// last stable offset: src/broker/producer-states.ts) and the log owns what persists of it: a snapshot of every
// producer when a segment rolls and when the log closes, the aborted transactions indexed per segment (deleted,
// truncated and compacted with their segments), and what recovery finds at open (the snapshot to start from and
// the offset the broker replays batches from).
import type { PartitionLog } from './log.js';

/** One producer's state in a snapshot (Kafka's ProducerSnapshot entry). */
export interface SnapshotEntry {
  readonly producerId: number;
  readonly epoch: number;
  /** -1 when the producer has no batch in the log (only markers). */
  readonly lastSequence: number;
  readonly lastOffset: number;
  readonly offsetDelta: number;
  readonly timestamp: number;
  readonly coordinatorEpoch: number;
  readonly currentTxnFirstOffset: number;
}

/** One aborted transaction (Kafka's AbortedTxn): indexed in the segment holding its ABORT marker. */
export interface AbortedTxn {
  readonly producerId: number;
  readonly firstOffset: number;
  /** Offset of the ABORT marker. */
  readonly lastOffset: number;
  /** The partition's last stable offset once the marker was in: a search can stop at the first entry at or past its bound. */
  readonly lastStableOffset: number;
}

/** The broker's producer state of `log` as of `endOffset` (only batches and transactions below it). */
export type ProducerStateSource = (log: PartitionLog, endOffset: number) => readonly SnapshotEntry[];

/** What recovery found at open. */
export interface LoadedProducerState {
  /** The state below `replayFrom`; undefined when no usable snapshot was found. */
  readonly snapshot: readonly SnapshotEntry[] | undefined;
  /**
   * The offset from which the broker replays batch headers into the state: the snapshot's, else the log start. The
   * transaction index holds no entry at or above it (the replay indexes those markers again).
   */
  readonly replayFrom: number;
}

/** Where an engine persists a log's producer-state snapshots (file engine: `<offset>.snapshot` files). */
export interface ProducerSnapshotStore {
  /** Offset of the newest snapshot, -1 when none. */
  readonly latestOffset: number;
  /** Queues `<offset>.snapshot`; older snapshots beyond the few kept go. */
  write(offset: number, entries: readonly SnapshotEntry[]): Promise<void>;
  /** Truncation: snapshots above the new end describe batches that are gone. */
  deleteAbove(offset: number): void;
  /** The log start moved: snapshots below it can no longer be replayed from. */
  deleteBelow(offset: number): void;
  /** Resolves once every queued write is done. */
  idle(): Promise<void>;
}
