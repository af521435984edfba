/**
 * Kafka 4.3.1's PersisterStateBatchCombiner: the state batches of a share partition after a write, computed as Kafka
 * computes them (the same result, batch for batch, in the same order). The current and new batches are pooled;
 * what lies below the start offset is dropped (a batch crossing it is cut); then, in (first, last, count, state)
 * order, the first pair that overlaps, or touches with the same delivery count and state, is resolved (same count and
 * state: joined; otherwise the one with the higher delivery count, then state, keeps the overlap) and the walk starts
 * again. Batches the walk passed without a pair are final at once, so two equal neighbours separated by a resolved
 * pair may stay apart, as in Kafka.
 */
import type { StateBatch } from './records.js';

/** PersisterStateBatch.compareTo: first offset, last offset, delivery count, state. */
function order(a: StateBatch, b: StateBatch): number {
  return a.firstOffset - b.firstOffset || a.lastOffset - b.lastOffset || a.deliveryCount - b.deliveryCount || a.deliveryState - b.deliveryState;
}

/** compareBatchDeliveryInfo: delivery count, then state. */
function deliveryInfo(a: StateBatch, b: StateBatch): number {
  return a.deliveryCount - b.deliveryCount || a.deliveryState - b.deliveryState;
}

const batch = (firstOffset: number, lastOffset: number, like: StateBatch): StateBatch => ({ firstOffset, lastOffset, deliveryState: like.deliveryState, deliveryCount: like.deliveryCount });

/** A TreeSet of batches: sorted, without equal elements. */
class SortedBatches {
  items: StateBatch[] = [];

  add(b: StateBatch): void {
    let lo = 0;
    let hi = this.items.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (order(this.items[mid]!, b) < 0) lo = mid + 1;
      else hi = mid;
    }
    if (lo < this.items.length && order(this.items[lo]!, b) === 0) return;
    this.items.splice(lo, 0, b);
  }

  remove(b: StateBatch): void {
    const i = this.items.findIndex((x) => order(x, b) === 0);
    if (i >= 0) this.items.splice(i, 1);
  }
}

export function combineStateBatches(current: readonly StateBatch[], incoming: readonly StateBatch[], startOffset: number): StateBatch[] {
  let combined = [...current, ...incoming];
  if (startOffset !== -1) {
    combined = combined.filter((b) => b.lastOffset >= startOffset).map((b) => (b.firstOffset >= startOffset ? b : batch(startOffset, b.lastOffset, b)));
  }
  if (combined.length < 2) return combined;
  const sorted = new SortedBatches();
  for (const b of combined) sorted.add(b);
  const final: StateBatch[] = [];
  for (;;) {
    const pair = candidatePair(sorted, final);
    if (pair === undefined) break;
    const [prev, candidate] = pair;
    sorted.remove(prev);
    sorted.remove(candidate);
    if (deliveryInfo(candidate, prev) === 0) sorted.add(batch(prev.firstOffset, Math.max(candidate.lastOffset, prev.lastOffset), prev));
    else for (const b of resolveOverlap(prev, candidate)) sorted.add(b);
  }
  final.push(...sorted.items);
  return final;
}

/** getMergeCandidatePair: the first pair to resolve; the batches walked past before it become final. */
function candidatePair(sorted: SortedBatches, final: StateBatch[]): [StateBatch, StateBatch] | undefined {
  const items = sorted.items;
  if (items.length === 0) return undefined;
  let prev = items[0]!;
  const passed: StateBatch[] = [];
  for (let i = 1; i < items.length; i++) {
    const candidate = items[i]!;
    if (candidate.firstOffset <= prev.lastOffset || (prev.lastOffset + 1 === candidate.firstOffset && deliveryInfo(prev, candidate) === 0)) {
      for (const b of passed) sorted.remove(b);
      final.push(...passed);
      return [prev, candidate];
    }
    passed.push(prev);
    prev = candidate;
  }
  for (const b of passed) sorted.remove(b);
  final.push(...passed);
  return undefined;
}

/** handleDiffStateOverlap: two overlapping batches of different delivery count or state (prev starts first). */
function resolveOverlap(prev: StateBatch, candidate: StateBatch): StateBatch[] {
  const candidateLower = deliveryInfo(candidate, prev) < 0;
  if (candidate.firstOffset === prev.firstOffset) {
    if (candidate.lastOffset === prev.lastOffset) return [candidate];
    return candidateLower ? [prev, batch(prev.lastOffset + 1, candidate.lastOffset, candidate)] : [candidate];
  }
  if (candidate.lastOffset < prev.lastOffset) {
    return candidateLower ? [prev] : [batch(prev.firstOffset, candidate.firstOffset - 1, prev), candidate, batch(candidate.lastOffset + 1, prev.lastOffset, prev)];
  }
  if (candidate.lastOffset === prev.lastOffset) {
    return candidateLower ? [prev] : [batch(prev.firstOffset, candidate.firstOffset - 1, prev), candidate];
  }
  return candidateLower ? [prev, batch(prev.lastOffset + 1, candidate.lastOffset, candidate)] : [batch(prev.firstOffset, candidate.firstOffset - 1, prev), candidate];
}
