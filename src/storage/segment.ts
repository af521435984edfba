// What a log needs from one of its segments. Each engine implements it (file: .log/.index/.timeindex;
// memory: an array of batches; each keeps its transaction index); SegmentedLog does everything above it once for both.

import type { AssignedAppend } from './batches.js';
import type { TimestampAndOffset } from './log.js';
import type { AbortedTxn } from './producer-state.js';
import type { RollCandidate } from './roll-policy.js';

export interface LogSegment {
  readonly baseOffset: number;
  /** Bytes of batches held. */
  readonly size: number;
  /** One past the last offset held (the base offset when empty). */
  readonly nextOffset: number;
  /** Largest batch max timestamp held, -1 when none. */
  readonly maxTimestamp: number;
  rollCandidate(): RollCandidate;
  /** Max timestamp, or the time the segment was last written when it holds none (retention.ms). */
  largestTimestamp(): number;
  /** Store the batches of `parts` (in order, as one run of bytes), already given their offsets; resolves once they are in the OS. */
  append(parts: readonly Buffer[], assigned: AssignedAppend, now: number): Promise<void>;
  /** Whole batches from the one holding `offset`, below `maxOffset`, within maxBytes (see PartitionLog.read). */
  read(offset: number, maxBytes: number, maxOffset: number, minOneBatch: boolean, partialLastBatch?: boolean): Promise<Buffer[]>;
  /** First record at or after `startingOffset` whose timestamp is >= `timestamp`. */
  findByTimestamp(timestamp: number, startingOffset: number): Promise<TimestampAndOffset | null>;
  /** Its transaction index: the aborted transactions whose ABORT marker it holds, in marker order. */
  readonly abortedTxns: readonly AbortedTxn[];
  /** Index an aborted transaction whose marker this segment holds. */
  appendAbortedTxn(txn: AbortedTxn): void;
  /** Drop every batch holding an offset >= `offset` (and the transaction index entries of markers there). */
  truncateTo(offset: number): Promise<void>;
  /** The log rolled past this segment: finish its indexes. */
  onBecomeInactive(): Promise<void>;
  /** Make everything written so far durable. */
  flush(): Promise<void>;
  close(): Promise<void>;
  /** Remove from storage (the file engine does so after file.delete.delay.ms). */
  remove(): Promise<void>;
}
