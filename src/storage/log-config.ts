// The storage engine's view of a topic's effective config (plain numbers, Infinity for Kafka's "never"),
// mapped from the one resolution in src/config/topic-configs.ts (resolveStoredTopicConfig): Produce, Fetch and
// the engine see the same values, and Kafka's defaults live only in the config definitions.
import { LONG_MAX_VALUE, defaultBrokerConfig, resolveTopicConfig, type TopicConfig } from '../config/index.js';
import { TimestampType, type TimestampTypeValue } from '../protocol/records/batch.js';

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
  messageTimestampType: TimestampTypeValue;
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

/** Long.MAX_VALUE means "never" to Kafka; the engine spells that Infinity. */
function unbounded(value: number): number {
  return value >= LONG_MAX_VALUE ? Infinity : value;
}

/** The engine's LogConfig for a topic's effective config. */
export function logConfigOf(topic: TopicConfig): LogConfig {
  const policy = topic['cleanup.policy'];
  return {
    segmentBytes: topic['segment.bytes'],
    segmentMs: unbounded(topic['segment.ms']),
    segmentJitterMs: topic['segment.jitter.ms'],
    indexIntervalBytes: topic['index.interval.bytes'],
    segmentIndexBytes: topic['segment.index.bytes'],
    retentionMs: topic['retention.ms'],
    retentionBytes: topic['retention.bytes'],
    flushMessages: unbounded(topic['flush.messages']),
    flushMs: unbounded(topic['flush.ms']),
    fileDeleteDelayMs: topic['file.delete.delay.ms'],
    messageTimestampType: topicTimestampType(topic),
    deleteEnabled: policy.includes('delete'),
    compactEnabled: policy.includes('compact'),
    maxMessageBytes: topic['max.message.bytes'],
    deleteRetentionMs: topic['delete.retention.ms'],
    minCleanableDirtyRatio: topic['min.cleanable.dirty.ratio'],
    minCompactionLagMs: topic['min.compaction.lag.ms'],
    maxCompactionLagMs: unbounded(topic['max.compaction.lag.ms']),
  };
}

/** message.timestamp.type as the record batch attribute it means. */
export function topicTimestampType(topic: TopicConfig): TimestampTypeValue {
  return topic['message.timestamp.type'] === 'LogAppendTime' ? TimestampType.LOG_APPEND_TIME : TimestampType.CREATE_TIME;
}

/** A topic without overrides on a broker with gregor's defaults (for tests and tools that open a log directly). */
export function defaultLogConfig(): LogConfig {
  return logConfigOf(resolveTopicConfig({}, defaultBrokerConfig()));
}
