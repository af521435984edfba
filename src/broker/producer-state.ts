// The seam between the produce path and producer state: Kafka's ProducerStateManager checks each batch with a
// producer id (epoch fencing, sequence numbers, duplicates answered with the original offsets, transaction
// membership) before it is appended, and records it after. The broker's implementation is ProducerStates
// (producer-states.ts); appendEveryBatch keeps no state (tests of the plain data path).
import type { BatchHeader } from '../protocol/records/index.js';
import type { PartitionLog } from '../storage/log.js';

/** What the producer-state check decides for one batch. */
export type ProducerBatchVerdict =
  | { readonly kind: 'append' }
  /** A retried batch already in the log: answer with its offsets, append nothing. */
  | { readonly kind: 'duplicate'; readonly baseOffset: number; readonly logAppendTime: number }
  /** `unverified`: the transaction coordinator refused the batch before it reached the log (no log start offset). */
  | { readonly kind: 'reject'; readonly errorCode: number; readonly message: string | null; readonly unverified?: boolean };

export interface ProducerStateCheck {
  /** `apiVersion`: the Produce version (how a failed transaction verification is answered); absent for replays. */
  beforeAppend(log: PartitionLog, header: BatchHeader, apiVersion?: number): ProducerBatchVerdict;
  afterAppend(log: PartitionLog, header: BatchHeader, baseOffset: number): void;
  /** The append of a batch that beforeAppend let through failed: forget what it reserved. */
  appendFailed?(log: PartitionLog, header: BatchHeader): void;
  /** Kafka's UnifiedLog.hasOngoingTransaction: the producer has a transaction open on the partition at this epoch. */
  hasOngoingTransaction?(log: PartitionLog, producerId: number, producerEpoch: number): boolean;
}

/** Today's behaviour: no producer state is kept. */
export const appendEveryBatch: ProducerStateCheck = {
  beforeAppend: () => ({ kind: 'append' }),
  afterAppend: () => {},
};
