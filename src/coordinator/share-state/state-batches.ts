/**
 * Kafka's PersisterStateBatchCombiner: the state batches of a share partition after a write. A new batch overrides
 * what the current ones say of its offsets (later batches of the write over earlier ones), nothing below the start
 * offset is kept (a batch crossing it is cut), and neighbouring batches with the same state and delivery count are
 * joined. The result is sorted and without overlaps.
 */
import type { StateBatch } from './records.js';

export function combineStateBatches(current: readonly StateBatch[], incoming: readonly StateBatch[], startOffset: number): StateBatch[] {
  let batches: StateBatch[] = [...current].sort((a, b) => a.firstOffset - b.firstOffset);
  for (const batch of incoming) {
    if (batch.lastOffset < batch.firstOffset) continue;
    const next: StateBatch[] = [];
    for (const b of batches) {
      if (b.lastOffset < batch.firstOffset || b.firstOffset > batch.lastOffset) {
        next.push(b);
        continue;
      }
      if (b.firstOffset < batch.firstOffset) next.push({ ...b, lastOffset: batch.firstOffset - 1 });
      if (b.lastOffset > batch.lastOffset) next.push({ ...b, firstOffset: batch.lastOffset + 1 });
    }
    next.push(batch);
    batches = next.sort((a, b) => a.firstOffset - b.firstOffset);
  }
  const combined: StateBatch[] = [];
  for (const b of batches) {
    if (startOffset >= 0 && b.lastOffset < startOffset) continue;
    const batch = startOffset >= 0 && b.firstOffset < startOffset ? { ...b, firstOffset: startOffset } : b;
    const prev = combined[combined.length - 1];
    if (prev !== undefined && prev.lastOffset + 1 === batch.firstOffset && prev.deliveryState === batch.deliveryState && prev.deliveryCount === batch.deliveryCount) {
      combined[combined.length - 1] = { ...prev, lastOffset: batch.lastOffset };
    } else {
      combined.push(batch);
    }
  }
  return combined;
}
