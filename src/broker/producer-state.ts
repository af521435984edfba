// SEAM for idempotent and transactional producers (another piece of work): Kafka's ProducerStateManager checks
// each batch with a producer id (epoch fencing, sequence numbers, duplicates answered with the original
// offsets, transaction membership) before it is appended, and records it after. Until that lands, every batch
// is appended as it came, producer id or not.
import type { BatchHeader } from '../protocol/records/index.js';
import type { PartitionLog } from '../storage/log.js';

/** What the producer-state check decides for one batch. */
export type ProducerBatchVerdict =
  | { readonly kind: 'append' }
  /** A retried batch already in the log: answer with its offsets, append nothing. */
  | { readonly kind: 'duplicate'; readonly baseOffset: number; readonly logAppendTime: number }
  | { readonly kind: 'reject'; readonly errorCode: number; readonly message: string };

export interface ProducerStateCheck {
  beforeAppend(log: PartitionLog, header: BatchHeader): ProducerBatchVerdict;
  afterAppend(log: PartitionLog, header: BatchHeader, baseOffset: number): void;
}

/** Today's behaviour: no producer state is kept. */
export const appendEveryBatch: ProducerStateCheck = {
  beforeAppend: () => ({ kind: 'append' }),
  afterAppend: () => {},
};
