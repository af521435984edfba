// Which part of a compacted log is cleanable, and how dirty it is (Kafka's LogCleanerManager.cleanableOffsets,
// calculateCleanableBytes, maxCompactionDelay and LogToClean). Pure functions over segment summaries.
import type { CompactionConfig } from './cleaner-config.js';

export interface SegmentView {
  baseOffset: number;
  size: number;
  /** Max timestamp, or last-modified time when the segment holds none. */
  largestTimestamp: number;
  /** Max timestamp of the first batch, -1 when unknown. */
  firstBatchTimestamp: number;
}

export interface LogView {
  /** Oldest first; the last one is the active segment. */
  segments: readonly SegmentView[];
  logStartOffset: number;
  logEndOffset: number;
  /** Nothing at or above it may be cleaned: Kafka's last stable offset (the high watermark without transactions). */
  lastStableOffset: number;
}

export interface CleanableRange {
  firstDirtyOffset: number;
  /** Exclusive end of the cleanable range: a segment's base offset. */
  firstUncleanableOffset: number;
  /** The checkpoint was unusable and was reset to the log start. */
  checkpointReset: boolean;
  cleanBytes: number;
  cleanableBytes: number;
  /** cleanableBytes / (cleanBytes + cleanableBytes). */
  cleanableRatio: number;
  /** max.compaction.lag.ms has passed for a dirty segment: clean whatever the ratio. */
  needCompactionNow: boolean;
}

export function cleanableRange(log: LogView, checkpoint: number | undefined, config: CompactionConfig, now: number): CleanableRange {
  const { segments } = log;
  const active = segments[segments.length - 1]!;
  let firstDirty = checkpoint ?? log.logStartOffset;
  let checkpointReset = false;
  if (firstDirty < log.logStartOffset || firstDirty > log.logEndOffset) {
    firstDirty = log.logStartOffset;
    checkpointReset = checkpoint !== undefined;
  }
  const dirtyInactive = segments.slice(0, -1).filter((s, i) => nextBase(segments, i) > firstDirty);

  let uncleanable = Math.min(log.lastStableOffset, active.baseOffset);
  if (config.minCompactionLagMs > 0) {
    const young = dirtyInactive.find((s) => s.largestTimestamp > now - config.minCompactionLagMs);
    if (young !== undefined) uncleanable = Math.min(uncleanable, young.baseOffset);
  }
  uncleanable = Math.max(firstDirty, uncleanable);
  // Round down to the segment holding it: cleaning stops at a segment boundary.
  const firstUncleanable = segmentContaining(segments, uncleanable, true).baseOffset;

  let cleanBytes = 0;
  let cleanableBytes = 0;
  const lowest = Math.min(firstDirty, firstUncleanable);
  for (let i = 0; i < segments.length; i++) {
    const s = segments[i]!;
    if (s.baseOffset < firstDirty) cleanBytes += s.size;
    if (s.baseOffset < firstUncleanable && nextBase(segments, i) > lowest) cleanableBytes += s.size;
  }
  const total = cleanBytes + cleanableBytes;

  let earliestDirty = Infinity;
  for (const s of dirtyInactive) if (s.firstBatchTimestamp > 0) earliestDirty = Math.min(earliestDirty, s.firstBatchTimestamp);
  const needCompactionNow = Number.isFinite(config.maxCompactionLagMs) && earliestDirty < now - config.maxCompactionLagMs;

  return {
    firstDirtyOffset: firstDirty,
    firstUncleanableOffset: firstUncleanable,
    checkpointReset,
    cleanBytes,
    cleanableBytes,
    cleanableRatio: total === 0 ? 0 : cleanableBytes / total,
    needCompactionNow,
  };
}

/** Kafka's selection rule: dirty enough, or overdue by max.compaction.lag.ms. */
export function shouldClean(range: CleanableRange, config: CompactionConfig): boolean {
  if (range.cleanBytes + range.cleanableBytes === 0) return false;
  return (range.needCompactionNow && range.cleanableBytes > 0) || range.cleanableRatio > config.minCleanableRatio;
}

/**
 * Kafka's groupSegmentsBySize: consecutive segments merged while their bytes fit segment.bytes and their
 * offsets fit a segment's 32-bit relative offsets; each group becomes one cleaned segment.
 */
export function groupSegmentsBySize<T extends { baseOffset: number; size: number }>(segments: readonly T[], maxBytes: number, upperBound: number): T[][] {
  const groups: T[][] = [];
  let i = 0;
  while (i < segments.length) {
    const group = [segments[i]!];
    let bytes = segments[i]!.size;
    i++;
    while (i < segments.length) {
      const next = segments[i]!;
      const lastOffsetOfNext = (i + 1 < segments.length ? segments[i + 1]!.baseOffset : upperBound) - 1;
      const fits = bytes + next.size <= maxBytes && (next.size === 0 || lastOffsetOfNext - group[0]!.baseOffset <= 0x7fffffff);
      if (!fits) break;
      group.push(next);
      bytes += next.size;
      i++;
    }
    groups.push(group);
  }
  return groups;
}

function nextBase(segments: readonly SegmentView[], i: number): number {
  return i + 1 < segments.length ? segments[i + 1]!.baseOffset : Infinity;
}

function segmentContaining(segments: readonly SegmentView[], offset: number, inactiveOnly: boolean): SegmentView {
  const limit = inactiveOnly ? segments.length - 1 : segments.length;
  for (let i = 0; i < limit; i++) {
    if (segments[i]!.baseOffset <= offset && nextBase(segments, i) > offset) return segments[i]!;
  }
  return segments[segments.length - 1]!;
}
