// Which leading segments retention removes (Kafka's UnifiedLog.deleteOldSegments): segments past
// retention.ms, then enough to get under retention.bytes, then segments wholly below the log start
// offset. A segment is only removable once the high watermark has passed its end, and an empty last
// segment never is. Engines remove the segments; the choice lives here once.

import type { LogConfig } from './log-config.js';

export interface SegmentSummary {
  baseOffset: number;
  size: number;
  /** Max timestamp in the segment, or its last-modified time when it holds none. */
  largestTimestamp: number;
}

export interface RetentionInput {
  segments: readonly SegmentSummary[];
  logEndOffset: number;
  highWatermark: number;
  logStartOffset: number;
  config: LogConfig;
  now: number;
}

/** Number of leading segments to delete. */
export function deletableSegmentCount(input: RetentionInput): number {
  const { segments, config } = input;
  let deleted = 0;
  const take = (predicate: (segment: SegmentSummary, next: SegmentSummary | undefined) => boolean): void => {
    while (deleted < segments.length) {
      const segment = segments[deleted]!;
      const next = segments[deleted + 1];
      const upperBound = next === undefined ? input.logEndOffset : next.baseOffset;
      const lastAndEmpty = next === undefined && segment.size === 0;
      if (lastAndEmpty || input.highWatermark < upperBound || !predicate(segment, next)) return;
      deleted++;
    }
  };
  if (config.deleteEnabled) {
    if (config.retentionMs >= 0) take((s) => input.now - s.largestTimestamp > config.retentionMs);
    if (config.retentionBytes >= 0) {
      let excess = segments.reduce((sum, s) => sum + s.size, 0) - config.retentionBytes;
      for (let i = 0; i < deleted; i++) excess -= segments[i]!.size;
      take((s) => {
        if (excess - s.size < 0) return false;
        excess -= s.size;
        return true;
      });
    }
  }
  take((_, next) => next !== undefined && next.baseOffset <= input.logStartOffset);
  return deleted;
}
