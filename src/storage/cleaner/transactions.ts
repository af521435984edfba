// Transactions as the cleaner sees them (Kafka's CleanedTransactionMetadata): which data batches belong to
// aborted transactions (dropped), when a COMMIT/ABORT marker may go (once no batch of its transaction is
// left), and which batch holds each producer's last state (kept, even empty, so idempotence and fencing
// survive compaction). The aborted transactions and producers' last records come from a TxnSource: the
// broker's transaction index when it provides one, else a scan of the log's batch headers.
import { ControlRecordType, readControlRecordType } from '../../protocol/records/control.js';
import type { CleanerBatch } from './batch-view.js';

/** One aborted transaction: its producer, first data offset and the offset of its ABORT marker. */
export interface AbortedTxn {
  producerId: number;
  firstOffset: number;
  lastOffset: number;
}

/** Kafka's LastRecord: the producer's last data offset (when it has data) and epoch. */
export interface ProducerLastRecord {
  lastDataOffset?: number;
  producerEpoch: number;
}

export interface TxnSummary {
  /** Sorted by firstOffset. */
  aborted: AbortedTxn[];
  lastRecords: Map<number, ProducerLastRecord>;
  /** First offset of the earliest transaction without a marker below the scanned end (-1: none). */
  firstOpenTxnOffset: number;
}

/** Builds a TxnSummary from the batches of a range, read in offset order. */
export class TxnScanner {
  private readonly aborted: AbortedTxn[] = [];
  private readonly lastRecords = new Map<number, ProducerLastRecord>();
  /** Producer → first offset of its transaction in progress. */
  private readonly open = new Map<number, number>();

  onBatch(batch: CleanerBatch): void {
    const { producerId } = batch.header;
    if (producerId < 0) return;
    if (batch.isControl) {
      const type = controlType(batch);
      const first = this.open.get(producerId);
      this.open.delete(producerId);
      if (type === ControlRecordType.ABORT && first !== undefined) {
        this.aborted.push({ producerId, firstOffset: first, lastOffset: batch.lastOffset });
      }
      const previous = this.lastRecords.get(producerId);
      this.lastRecords.set(producerId, { ...(previous?.lastDataOffset === undefined ? {} : { lastDataOffset: previous.lastDataOffset }), producerEpoch: batch.header.producerEpoch });
      return;
    }
    if (batch.isTransactional && !this.open.has(producerId)) this.open.set(producerId, batch.header.baseOffset);
    this.lastRecords.set(producerId, { lastDataOffset: batch.lastOffset, producerEpoch: batch.header.producerEpoch });
  }

  summary(): TxnSummary {
    let firstOpen = -1;
    for (const offset of this.open.values()) if (firstOpen < 0 || offset < firstOpen) firstOpen = offset;
    return { aborted: [...this.aborted].sort((a, b) => a.firstOffset - b.firstOffset), lastRecords: new Map(this.lastRecords), firstOpenTxnOffset: firstOpen };
  }
}

/** The marker type of a control batch (-1 when it holds no record: an already cleaned marker). */
export function controlType(batch: CleanerBatch): number {
  const first = batch.records()[0];
  if (first === undefined) return -1;
  return readControlRecordType(first.key);
}

/** Tracks transactions while the cleaner walks a log in offset order (Kafka's CleanedTransactionMetadata). */
export class CleanedTransactions {
  private readonly pending: AbortedTxn[];
  private next = 0;
  private readonly ongoingCommitted = new Set<number>();
  /** Producer → whether a batch of its aborted transaction was seen. */
  private readonly ongoingAborted = new Map<number, { seenBatch: boolean }>();

  constructor(aborted: readonly AbortedTxn[]) {
    this.pending = [...aborted].sort((a, b) => a.firstOffset - b.firstOffset);
  }

  /** A data batch: true when it belongs to an aborted transaction (its records can all go). */
  onBatchRead(batch: CleanerBatch): boolean {
    this.consumeUpTo(batch.lastOffset);
    if (!batch.isTransactional) return false;
    const aborted = this.ongoingAborted.get(batch.header.producerId);
    if (aborted !== undefined) {
      aborted.seenBatch = true;
      return true;
    }
    this.ongoingCommitted.add(batch.header.producerId);
    return false;
  }

  /** A control batch: true when the marker may be discarded (no batch of its transaction remains before it). */
  onControlBatchRead(batch: CleanerBatch): boolean {
    this.consumeUpTo(batch.lastOffset);
    const producerId = batch.header.producerId;
    switch (controlType(batch)) {
      case -1:
        return true;
      case ControlRecordType.ABORT: {
        const aborted = this.ongoingAborted.get(producerId);
        this.ongoingAborted.delete(producerId);
        return !(aborted?.seenBatch ?? false);
      }
      case ControlRecordType.COMMIT:
        return !this.ongoingCommitted.delete(producerId);
      default:
        return false;
    }
  }

  private consumeUpTo(offset: number): void {
    while (this.next < this.pending.length && this.pending[this.next]!.firstOffset <= offset) {
      const txn = this.pending[this.next++]!;
      if (!this.ongoingAborted.has(txn.producerId)) this.ongoingAborted.set(txn.producerId, { seenBatch: false });
    }
  }
}
