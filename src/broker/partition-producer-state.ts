// One partition's producer state (Kafka's ProducerStateManager + ProducerAppendInfo): checks each batch of an
// idempotent or transactional producer before it is appended (epoch fencing, sequence numbers, duplicates),
// tracks open transactions (the last stable offset is the first offset of the oldest one) and decides which
// transaction a marker aborted (the log indexes it: PartitionLog.appendAbortedTxn). snapshotEntries/restore are
// the form the log snapshots the state in (src/storage/producer-state.ts).
import { ErrorCode } from '../protocol/error-codes.js';
import { ControlRecordType, isTransactional, type BatchHeader } from '../protocol/records/index.js';
import { inSequence, lastSequenceOf, NO_EPOCH, ProducerEntry, type BatchMetadata } from './producer-entry.js';
import type { AbortedTxn, SnapshotEntry } from '../storage/producer-state.js';
import type { ProducerBatchVerdict } from './producer-state.js';

export interface MarkerInput {
  readonly producerId: number;
  readonly producerEpoch: number;
  /** ControlRecordType.COMMIT or ABORT. */
  readonly type: number;
  readonly coordinatorEpoch: number;
  /** The transaction's version (WriteTxnMarkers v2, KIP-1228): 2 and up, the marker carries a bumped epoch. */
  readonly transactionVersion?: number;
}

const APPEND: ProducerBatchVerdict = { kind: 'append' };
/** Short.MAX_VALUE, the highest producer epoch. */
const MAX_EPOCH = 32767;

export class PartitionProducerState {
  private readonly producers = new Map<number, ProducerEntry>();
  /** producer id → first offset of its open transaction on this partition. */
  private readonly ongoing = new Map<number, number>();

  constructor(readonly topicPartition: string) {}

  entries(): IterableIterator<ProducerEntry> {
    return this.producers.values();
  }

  entry(producerId: number): ProducerEntry | undefined {
    return this.producers.get(producerId);
  }

  get size(): number {
    return this.producers.size;
  }

  /**
   * Checks a client batch and reserves its sequences (so the next pipelined batch is checked against it).
   * `nextOffset` is the log end offset now: a lower bound of the offset the batch will get.
   */
  checkAndReserve(header: BatchHeader, nextOffset: number): ProducerBatchVerdict {
    const { producerId, producerEpoch: epoch, baseSequence: firstSeq } = header;
    if (producerId < 0) return APPEND;
    const lastSeq = lastSequenceOf(firstSeq, header.lastOffsetDelta);
    const entry = this.producers.get(producerId);
    const duplicate = entry?.findDuplicate(epoch, firstSeq, lastSeq);
    if (duplicate !== undefined) {
      // A retry that overtook its own first attempt: answer retriably, the client tries again.
      if (duplicate.firstOffset < 0) return reject(ErrorCode.REQUEST_TIMED_OUT, `batch ${firstSeq}-${lastSeq} of producer ${producerId} is still being appended`);
      return { kind: 'duplicate', baseOffset: duplicate.firstOffset, logAppendTime: duplicate.timestamp };
    }
    const currentEpoch = entry?.epoch ?? NO_EPOCH;
    if (epoch < currentEpoch) {
      return reject(
        ErrorCode.INVALID_PRODUCER_EPOCH,
        `Epoch of producer ${producerId} at offset ${nextOffset} in ${this.topicPartition} is ${epoch}, which is smaller than the last seen epoch ${currentEpoch}`,
      );
    }
    if (epoch !== currentEpoch) {
      if (firstSeq !== 0 && currentEpoch !== NO_EPOCH) {
        return reject(
          ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER,
          `Invalid sequence number for new epoch of producer ${producerId} at offset ${nextOffset} in partition ${this.topicPartition}: ${epoch} (request epoch), ${firstSeq} (seq. number), ${currentEpoch} (current producer epoch)`,
        );
      }
    } else if (!inSequence(entry!.lastSeq, firstSeq)) {
      return reject(
        ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER,
        `Out of order sequence number for producer ${producerId} at offset ${nextOffset} in partition ${this.topicPartition}: ${firstSeq} (incoming seq. number), ${entry!.lastSeq} (current end sequence number)`,
      );
    }
    const transactional = isTransactional(header.attributes);
    if (entry !== undefined && entry.currentTxnFirstOffset >= 0 && !transactional) {
      return reject(ErrorCode.INVALID_TXN_STATE, `Expected transactional write from producer ${producerId} at offset ${nextOffset} in partition ${this.topicPartition}`);
    }
    const reserved = this.entryFor(producerId);
    reserved.addBatch(epoch, { firstSeq, lastSeq, firstOffset: -1, lastOffset: -1, timestamp: header.maxTimestamp });
    if (transactional && reserved.currentTxnFirstOffset < 0) {
      reserved.currentTxnFirstOffset = nextOffset;
      reserved.txnFirstOffsetProvisional = true;
      this.ongoing.set(producerId, nextOffset);
    }
    return APPEND;
  }

  /** Fills in the offsets of a batch reserved by checkAndReserve once the log assigned them. */
  appended(header: BatchHeader, baseOffset: number): void {
    const entry = this.producers.get(header.producerId);
    if (entry === undefined) return;
    const lastSeq = lastSequenceOf(header.baseSequence, header.lastOffsetDelta);
    const batch = entry.findDuplicate(header.producerEpoch, header.baseSequence, lastSeq);
    if (batch !== undefined) {
      batch.firstOffset = baseOffset;
      batch.lastOffset = baseOffset + header.lastOffsetDelta;
    }
    if (entry.txnFirstOffsetProvisional && isTransactional(header.attributes)) {
      entry.txnFirstOffsetProvisional = false;
      entry.currentTxnFirstOffset = baseOffset;
      this.ongoing.set(header.producerId, baseOffset);
    }
  }

  /** Forgets a reserved batch whose append failed. */
  appendFailed(header: BatchHeader): void {
    const entry = this.producers.get(header.producerId);
    if (entry === undefined) return;
    entry.batches = entry.batches.filter((b) => b.firstOffset >= 0 || b.firstSeq !== header.baseSequence);
    if (entry.txnFirstOffsetProvisional) {
      entry.txnFirstOffsetProvisional = false;
      entry.currentTxnFirstOffset = -1;
      this.ongoing.delete(header.producerId);
    }
  }

  /**
   * Kafka's checks on a transaction marker from the coordinator (ProducerAppendInfo.checkProducerEpoch); NONE
   * when it may be appended. Transaction version 2 bumps the epoch for the marker, so it must be above the
   * producer's, except a retry of a marker already written (the transaction ended, or the epoch is at its maximum).
   */
  checkMarker(marker: MarkerInput): number {
    const entry = this.producers.get(marker.producerId);
    if (entry === undefined) return ErrorCode.NONE;
    if ((marker.transactionVersion ?? 0) >= 2) {
      const retry = marker.producerEpoch === entry.epoch && (entry.currentTxnFirstOffset < 0 || marker.producerEpoch === MAX_EPOCH);
      if (marker.producerEpoch <= entry.epoch && !retry) return ErrorCode.INVALID_PRODUCER_EPOCH;
    } else if (marker.producerEpoch < entry.epoch) return ErrorCode.INVALID_PRODUCER_EPOCH;
    if (entry.coordinatorEpoch > marker.coordinatorEpoch) return ErrorCode.TRANSACTION_COORDINATOR_FENCED;
    return ErrorCode.NONE;
  }

  /**
   * Records a marker written at `offset`: ends the producer's transaction here. Returns the transaction it
   * aborted, if it aborted one (the caller has the log index it).
   */
  markerAppended(marker: MarkerInput, offset: number, timestamp: number, highWatermark: number): AbortedTxn | undefined {
    const entry = this.entryFor(marker.producerId);
    let aborted: AbortedTxn | undefined;
    if (entry.currentTxnFirstOffset >= 0) {
      this.ongoing.delete(marker.producerId);
      if (marker.type === ControlRecordType.ABORT) {
        const lastStableOffset = this.firstUnstableOffset() ?? Math.max(offset + 1, highWatermark);
        aborted = { producerId: marker.producerId, firstOffset: entry.currentTxnFirstOffset, lastOffset: offset, lastStableOffset };
      }
    }
    entry.updateEpoch(marker.producerEpoch);
    entry.coordinatorEpoch = marker.coordinatorEpoch;
    entry.currentTxnFirstOffset = -1;
    entry.txnFirstOffsetProvisional = false;
    entry.lastTimestamp = timestamp;
    return aborted;
  }

  /**
   * The state as of `endOffset` for a snapshot: each producer with its last batch below that offset and its
   * open transaction if it started below it (batches still being appended are left out: they lie beyond).
   */
  snapshotEntries(endOffset: number): SnapshotEntry[] {
    const out: SnapshotEntry[] = [];
    for (const entry of this.producers.values()) {
      const last = [...entry.batches].reverse().find((b) => b.firstOffset >= 0 && b.lastOffset < endOffset);
      const txnFirst = !entry.txnFirstOffsetProvisional && entry.currentTxnFirstOffset < endOffset ? entry.currentTxnFirstOffset : -1;
      out.push({
        producerId: entry.producerId,
        epoch: entry.epoch,
        lastSequence: last?.lastSeq ?? -1,
        lastOffset: last?.lastOffset ?? -1,
        offsetDelta: last === undefined ? 0 : last.lastOffset - last.firstOffset,
        timestamp: entry.lastTimestamp,
        coordinatorEpoch: entry.coordinatorEpoch,
        currentTxnFirstOffset: txnFirst,
      });
    }
    return out;
  }

  /** Takes a producer back from a snapshot entry (its last batch is the one duplicate it can answer). */
  restore(saved: SnapshotEntry): void {
    const entry = this.entryFor(saved.producerId);
    entry.epoch = saved.epoch;
    entry.batches = [];
    if (saved.lastOffset >= 0) {
      entry.batches.push({
        firstSeq: firstSequenceOf(saved.lastSequence, saved.offsetDelta),
        lastSeq: saved.lastSequence,
        firstOffset: saved.lastOffset - saved.offsetDelta,
        lastOffset: saved.lastOffset,
        timestamp: saved.timestamp,
      });
    }
    entry.coordinatorEpoch = saved.coordinatorEpoch;
    entry.lastTimestamp = saved.timestamp;
    entry.currentTxnFirstOffset = saved.currentTxnFirstOffset;
    if (saved.currentTxnFirstOffset >= 0) this.ongoing.set(saved.producerId, saved.currentTxnFirstOffset);
  }

  /** Rebuilds state from a data batch read back from the log (no checks: it is already there). */
  replayData(header: BatchHeader): void {
    if (header.producerId < 0) return;
    const entry = this.entryFor(header.producerId);
    const batch: BatchMetadata = {
      firstSeq: header.baseSequence,
      lastSeq: lastSequenceOf(header.baseSequence, header.lastOffsetDelta),
      firstOffset: header.baseOffset,
      lastOffset: header.baseOffset + header.lastOffsetDelta,
      timestamp: header.maxTimestamp,
    };
    entry.addBatch(header.producerEpoch, batch);
    if (isTransactional(header.attributes) && entry.currentTxnFirstOffset < 0) {
      entry.currentTxnFirstOffset = header.baseOffset;
      this.ongoing.set(header.producerId, header.baseOffset);
    }
  }

  /** The first offset of the oldest open transaction, if any. */
  firstUnstableOffset(): number | undefined {
    let first: number | undefined;
    for (const offset of this.ongoing.values()) if (first === undefined || offset < first) first = offset;
    return first;
  }

  /** Kafka's last stable offset: the high watermark, or the start of the oldest open transaction before it. */
  lastStableOffset(highWatermark: number): number {
    const first = this.firstUnstableOffset();
    return first === undefined ? highWatermark : Math.min(first, highWatermark);
  }

  /** Open transactions: producer id → first offset (DescribeProducers, kafka-transactions find-hanging). */
  ongoingTransactions(): ReadonlyMap<number, number> {
    return this.ongoing;
  }

  /** Forgets producers idle since before `cutoff` with no open transaction (producer.id.expiration.ms). */
  expireBefore(cutoff: number): number {
    let removed = 0;
    for (const [id, entry] of this.producers) {
      if (entry.currentTxnFirstOffset >= 0 || entry.lastTimestamp >= cutoff) continue;
      if (entry.batches.some((b) => b.firstOffset < 0)) continue;
      this.producers.delete(id);
      removed++;
    }
    return removed;
  }

  private entryFor(producerId: number): ProducerEntry {
    let entry = this.producers.get(producerId);
    if (entry === undefined) this.producers.set(producerId, (entry = new ProducerEntry(producerId)));
    return entry;
  }
}

/** The first sequence of a batch from its last one (DefaultRecordBatch.decrementSequence: wraps below 0). */
function firstSequenceOf(lastSeq: number, delta: number): number {
  return lastSeq - delta < 0 ? lastSeq - delta + 2147483648 : lastSeq - delta;
}

function reject(errorCode: number, message: string): ProducerBatchVerdict {
  return { kind: 'reject', errorCode, message };
}
