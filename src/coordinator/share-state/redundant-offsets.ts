/**
 * Which records of one __share_group_state partition newer snapshots made redundant, as Kafka 4.3.1's
 * ShareCoordinatorOffsetsManager: the log offset of the latest ShareSnapshot of every share partition the partition
 * holds; everything below the smallest of them is redundant (each share partition's state is its latest snapshot
 * plus the ShareUpdates after it). A tombstone counts once, then its share partition is forgotten. ShareUpdates do
 * not move anything: only a snapshot replaces what came before.
 */
import { coordinatorKey, type SharePartitionKey } from './records.js';

export class RedundantOffsets {
  private readonly latest = new Map<string, number>();
  /** Kafka starts at Long.MAX_VALUE "for easy application of Math.min". */
  private redundantBelow = Number.MAX_SAFE_INTEGER;

  /** A ShareSnapshot (or its tombstone, `deleted`) of `key` was written at `offset`. */
  update(key: SharePartitionKey, offset: number, deleted: boolean): void {
    const id = coordinatorKey(key);
    this.redundantBelow = Math.min(this.redundantBelow, offset);
    this.latest.set(id, offset);
    let min = Number.MAX_SAFE_INTEGER;
    for (const o of this.latest.values()) min = Math.min(min, o);
    this.redundantBelow = min;
    if (deleted) this.latest.delete(id);
  }

  /** The offset the partition can be pruned to (DeleteRecords before it); undefined when nothing is redundant. */
  lastRedundantOffset(): number | undefined {
    const value = this.redundantBelow;
    return value <= 0 || value === Number.MAX_SAFE_INTEGER ? undefined : value;
  }
}
