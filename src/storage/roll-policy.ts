// When a log rolls to a new segment (Kafka's LogSegment.shouldRoll): the segment would outgrow
// segment.bytes, it has waited segment.ms (minus its jitter), its index is full, or the offsets would no
// longer fit the index's 32-bit relative offsets.

import type { LogConfig } from './log-config.js';

export interface RollCandidate {
  baseOffset: number;
  size: number;
  /** Creation time of the segment (ms). */
  created: number;
  /** Max timestamp of the segment's first batch, -1 when none is known. */
  rollingBasedTimestamp: number;
  rollJitterMs: number;
  indexFull: boolean;
}

export interface IncomingAppend {
  bytes: number;
  maxTimestamp: number;
  lastOffset: number;
}

const INT32_MAX = 0x7fffffff;

export function shouldRoll(segment: RollCandidate, config: LogConfig, now: number, append: IncomingAppend): boolean {
  // With timestamps, Kafka measures segment age in record time; without, in wall time since creation.
  const waited =
    segment.rollingBasedTimestamp >= 0 ? append.maxTimestamp - segment.rollingBasedTimestamp : now - segment.created;
  return (
    segment.size > config.segmentBytes - append.bytes ||
    (segment.size > 0 && waited > maxSegmentMs(config) - segment.rollJitterMs) ||
    segment.indexFull ||
    append.lastOffset - segment.baseOffset > INT32_MAX
  );
}

/**
 * Kafka's LogConfig.maxSegmentMs: a compacted topic also rolls by max.compaction.lag.ms, so records in the
 * active segment (which is never cleaned) get compacted within that lag.
 */
export function maxSegmentMs(config: LogConfig): number {
  const lag = config.maxCompactionLagMs ?? Infinity;
  return config.compactEnabled && lag > 0 ? Math.min(lag, config.segmentMs) : config.segmentMs;
}

/** Kafka's randomSegmentJitter: uniform in [0, min(segment.jitter.ms, segment.ms)). */
export function randomRollJitter(config: LogConfig): number {
  if (config.segmentJitterMs <= 0) return 0;
  return Math.floor(Math.random() * Math.min(config.segmentJitterMs, config.segmentMs));
}
