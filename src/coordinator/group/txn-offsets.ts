/**
 * Transactional offset commits (TxnOffsetCommit) waiting for their transaction's marker, per producer id:
 * written to __consumer_offsets in the producer's transactional batch, applied to the committed offsets
 * only when the COMMIT marker lands on that partition, dropped on ABORT (Kafka's pendingTransactionalOffsets).
 */
import type { OffsetCommitRecord } from './records.js';

interface Pending {
  partition: number;
  /** Latest record per group/topic/partition key. */
  records: Map<string, OffsetCommitRecord>;
}

export class PendingTxnOffsets {
  private readonly byProducer = new Map<number, Pending>();

  add(producerId: number, partition: number, records: readonly OffsetCommitRecord[]): void {
    let pending = this.byProducer.get(producerId);
    if (pending === undefined) this.byProducer.set(producerId, (pending = { partition, records: new Map() }));
    for (const r of records) pending.records.set(keyOf(r.group, r.topic, r.partition), r);
  }

  /** Removes and returns what the producer has pending on this __consumer_offsets partition. */
  take(producerId: number, partition: number): OffsetCommitRecord[] {
    const pending = this.byProducer.get(producerId);
    if (pending === undefined || pending.partition !== partition) return [];
    this.byProducer.delete(producerId);
    return [...pending.records.values()];
  }

  /** Every offset some open transaction holds. */
  *all(): IterableIterator<OffsetCommitRecord> {
    for (const pending of this.byProducer.values()) yield* pending.records.values();
  }

  /** A tombstone for the key drops it from every open transaction, as Kafka's replay of one does. */
  drop(group: string, topic: string, partition: number): void {
    for (const pending of this.byProducer.values()) pending.records.delete(keyOf(group, topic, partition));
  }

  /** Whether some open transaction holds an offset of this group (OffsetFetch require_stable: UNSTABLE_OFFSET_COMMIT). */
  hasPending(groupId: string, topic?: string, partition?: number): boolean {
    for (const pending of this.byProducer.values()) {
      for (const r of pending.records.values()) {
        if (r.group !== groupId) continue;
        if (topic === undefined || (r.topic === topic && (partition === undefined || r.partition === partition))) return true;
      }
    }
    return false;
  }
}

function keyOf(group: string, topic: string, partition: number): string {
  return `${group}\u0000${topic}\u0000${partition}`;
}
