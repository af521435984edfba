// The storage engine's LogConfig for a topic, resolved the way Kafka resolves it: the topic's override,
// else the broker's log.* synonym, else Kafka's default (src/config/topic-configs.ts does the resolving).
import { ConfigError, LONG_MAX_VALUE, resolveTopicConfig, type BrokerConfig, type TopicConfig } from '../config/index.js';
import { logConfigFrom, type LogConfig } from '../storage/log-config.js';

/** Long.MAX_VALUE means "never" to Kafka; the engine spells that Infinity. */
function unbounded(value: number): number {
  return value >= LONG_MAX_VALUE ? Infinity : value;
}

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
    messageTimestampType: topic['message.timestamp.type'] === 'LogAppendTime' ? 'LogAppendTime' : 'CreateTime',
    deleteEnabled: policy.includes('delete'),
    compactEnabled: policy.includes('compact'),
    maxMessageBytes: topic['max.message.bytes'],
    deleteRetentionMs: topic['delete.retention.ms'],
    minCleanableDirtyRatio: topic['min.cleanable.dirty.ratio'],
    minCompactionLagMs: topic['min.compaction.lag.ms'],
    maxCompactionLagMs: unbounded(topic['max.compaction.lag.ms']),
  };
}

/**
 * The store's resolveConfig: a stored override that no longer parses (written by an older version, or by
 * hand) must not keep the topic from loading, so the engine's lenient reading takes over for it.
 */
export function storeConfigResolver(broker: BrokerConfig): (overrides: Readonly<Record<string, string>>, defaults: LogConfig) => LogConfig {
  return (overrides, defaults) => {
    try {
      return logConfigOf(resolveTopicConfig({ ...overrides }, broker));
    } catch (error) {
      if (error instanceof ConfigError) return logConfigFrom(overrides, defaults);
      throw error;
    }
  };
}

/** The broker's defaults as a LogConfig (topics without overrides). */
export function brokerLogDefaults(broker: BrokerConfig): LogConfig {
  return logConfigOf(resolveTopicConfig({}, broker));
}
