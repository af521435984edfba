// The storage engine's own view of a topic's configs: plain numbers, Kafka's defaults. The config layer maps
// broker defaults (log.*) and topic overrides onto this; logConfigFrom covers the topic-level names.

import type { TimestampType } from './log.js';

export interface LogConfig {
  segmentBytes: number;
  segmentMs: number;
  segmentJitterMs: number;
  indexIntervalBytes: number;
  segmentIndexBytes: number;
  /** -1: unlimited. */
  retentionMs: number;
  /** -1: unlimited. */
  retentionBytes: number;
  /** Infinity: leave flushing to the OS (Kafka's Long.MAX_VALUE default). */
  flushMessages: number;
  flushMs: number;
  fileDeleteDelayMs: number;
  messageTimestampType: TimestampType;
  /** cleanup.policy includes "delete": retention applies. */
  deleteEnabled: boolean;
  /** cleanup.policy includes "compact". */
  compactEnabled: boolean;
  maxMessageBytes: number;
  // Compaction (src/storage/cleaner reads them; optional so a config built elsewhere still type-checks,
  // absent means Kafka's default).
  /** delete.retention.ms: how long a cleaned tombstone (or transaction marker) is kept. */
  deleteRetentionMs?: number;
  /** min.cleanable.dirty.ratio */
  minCleanableDirtyRatio?: number;
  /** min.compaction.lag.ms */
  minCompactionLagMs?: number;
  /** max.compaction.lag.ms (Infinity: no limit). */
  maxCompactionLagMs?: number;
}

export const DEFAULT_LOG_CONFIG: Readonly<LogConfig> = Object.freeze({
  segmentBytes: 1024 * 1024 * 1024,
  segmentMs: 7 * 24 * 60 * 60 * 1000,
  segmentJitterMs: 0,
  indexIntervalBytes: 4096,
  segmentIndexBytes: 10 * 1024 * 1024,
  retentionMs: 7 * 24 * 60 * 60 * 1000,
  retentionBytes: -1,
  flushMessages: Infinity,
  flushMs: Infinity,
  fileDeleteDelayMs: 60_000,
  messageTimestampType: 'CreateTime',
  deleteEnabled: true,
  compactEnabled: false,
  maxMessageBytes: 1024 * 1024 + 12,
  deleteRetentionMs: 24 * 60 * 60 * 1000,
  minCleanableDirtyRatio: 0.5,
  minCompactionLagMs: 0,
  maxCompactionLagMs: Infinity,
});

const LONG_MAX = '9223372036854775807';

function num(value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (value.trim() === LONG_MAX) return Infinity;
  const n = Number(value);
  return Number.isFinite(n) ? n : fallback;
}

/** Topic-level overrides (Kafka names, string values) on top of broker-level defaults. */
export function logConfigFrom(
  overrides: Readonly<Record<string, string | undefined>>,
  defaults: Readonly<LogConfig> = DEFAULT_LOG_CONFIG,
): LogConfig {
  const policy = overrides['cleanup.policy'];
  const policies = policy === undefined ? undefined : policy.split(',').map((p) => p.trim());
  const type = overrides['message.timestamp.type'];
  return {
    segmentBytes: num(overrides['segment.bytes'], defaults.segmentBytes),
    segmentMs: num(overrides['segment.ms'], defaults.segmentMs),
    segmentJitterMs: num(overrides['segment.jitter.ms'], defaults.segmentJitterMs),
    indexIntervalBytes: num(overrides['index.interval.bytes'], defaults.indexIntervalBytes),
    segmentIndexBytes: num(overrides['segment.index.bytes'], defaults.segmentIndexBytes),
    retentionMs: num(overrides['retention.ms'], defaults.retentionMs),
    retentionBytes: num(overrides['retention.bytes'], defaults.retentionBytes),
    flushMessages: num(overrides['flush.messages'], defaults.flushMessages),
    flushMs: num(overrides['flush.ms'], defaults.flushMs),
    fileDeleteDelayMs: num(overrides['file.delete.delay.ms'], defaults.fileDeleteDelayMs),
    messageTimestampType:
      type === 'LogAppendTime' || type === 'CreateTime' ? type : defaults.messageTimestampType,
    deleteEnabled: policies === undefined ? defaults.deleteEnabled : policies.includes('delete'),
    compactEnabled: policies === undefined ? defaults.compactEnabled : policies.includes('compact'),
    maxMessageBytes: num(overrides['max.message.bytes'], defaults.maxMessageBytes),
    deleteRetentionMs: num(overrides['delete.retention.ms'], defaults.deleteRetentionMs ?? DEFAULT_LOG_CONFIG.deleteRetentionMs!),
    minCleanableDirtyRatio: num(overrides['min.cleanable.dirty.ratio'], defaults.minCleanableDirtyRatio ?? DEFAULT_LOG_CONFIG.minCleanableDirtyRatio!),
    minCompactionLagMs: num(overrides['min.compaction.lag.ms'], defaults.minCompactionLagMs ?? DEFAULT_LOG_CONFIG.minCompactionLagMs!),
    maxCompactionLagMs: num(overrides['max.compaction.lag.ms'], defaults.maxCompactionLagMs ?? DEFAULT_LOG_CONFIG.maxCompactionLagMs!),
  };
}
