// What one partition remembers of one producer id (Kafka's ProducerStateEntry): its epoch, the last five
// batches it wrote (sequence range and offsets, so a retried batch is answered with its original offsets),
// the first offset of its open transaction, and the epoch of the coordinator that last ended one.

/** Kafka's ProducerStateEntry.NUM_BATCHES_TO_RETAIN: a producer has at most five requests in flight. */
export const BATCHES_TO_RETAIN = 5;
export const NO_EPOCH = -1;
export const NO_SEQUENCE = -1;
const INT32_MAX = 2147483647;

export interface BatchMetadata {
  readonly firstSeq: number;
  readonly lastSeq: number;
  /** -1 while the batch is being appended (its offsets are not known yet). */
  firstOffset: number;
  lastOffset: number;
  /** The batch's max timestamp (what a duplicate is answered with as log append time). */
  readonly timestamp: number;
}

export class ProducerEntry {
  epoch = NO_EPOCH;
  batches: BatchMetadata[] = [];
  /** First offset of the transaction this producer has open on the partition, -1 when none. */
  currentTxnFirstOffset = -1;
  /** Whether currentTxnFirstOffset is still the log end offset seen before the append (a lower bound). */
  txnFirstOffsetProvisional = false;
  coordinatorEpoch = -1;
  lastTimestamp = -1;

  constructor(readonly producerId: number) {}

  get lastSeq(): number {
    return this.batches.at(-1)?.lastSeq ?? NO_SEQUENCE;
  }

  get lastOffset(): number {
    return this.batches.at(-1)?.lastOffset ?? -1;
  }

  /** A new epoch forgets the old epoch's batches (their sequences start again from 0). */
  updateEpoch(epoch: number): void {
    if (epoch === this.epoch) return;
    this.epoch = epoch;
    this.batches = [];
  }

  addBatch(epoch: number, batch: BatchMetadata): void {
    this.updateEpoch(epoch);
    if (this.batches.length === BATCHES_TO_RETAIN) this.batches.shift();
    this.batches.push(batch);
    this.lastTimestamp = batch.timestamp;
  }

  findDuplicate(epoch: number, firstSeq: number, lastSeq: number): BatchMetadata | undefined {
    if (epoch !== this.epoch) return undefined;
    return this.batches.find((b) => b.firstSeq === firstSeq && b.lastSeq === lastSeq);
  }
}

/** The sequence of the last record of a batch (DefaultRecordBatch.incrementSequence: wraps past Integer.MAX_VALUE). */
export function lastSequenceOf(baseSequence: number, lastOffsetDelta: number): number {
  if (baseSequence === NO_SEQUENCE) return NO_SEQUENCE;
  if (baseSequence > INT32_MAX - lastOffsetDelta) return lastOffsetDelta - (INT32_MAX - baseSequence) - 1;
  return baseSequence + lastOffsetDelta;
}

/** Whether `next` directly follows `last` (sequence 0 follows Integer.MAX_VALUE). */
export function inSequence(last: number, next: number): boolean {
  return next === last + 1 || (next === 0 && last === INT32_MAX);
}
