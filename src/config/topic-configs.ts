// Every topic-level config of Kafka 4.x (TopicConfig / LogConfig, checked against Kafka 4.3.1's reference), with its type, default, valid values
// and the broker keys it falls back to (ServerTopicConfigSynonyms), highest precedence first.
// A topic override wins; otherwise the broker's effective value for the first synonym is used.
import type { BrokerConfig } from './broker-config.js';
import { COMPRESSION_TYPES, DEFAULT_MAX_MESSAGE_BYTES, gzipLevel, lz4Level, zstdLevel } from './broker-configs.js';
import { ConfigError, LONG_MAX_VALUE, parseConfigValue, type ConfigDefinition } from './config-types.js';
import {
  atLeast, between, bool, custom, double, eachOneOf, int, list, long, named, oneOf, string,
  type UnnamedDefinition, type ValueOf,
} from './define.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const WEEK_MS = 7 * DAY_MS;
const MiB = 1024 * 1024;

/** "partition:broker,..." or "*", as Kafka's throttled-replicas validator accepts. */
const throttledReplicas = custom<string[]>('[partitionId]:[brokerId],[partitionId]:[brokerId],...',
  (items) => {
    if (items.length === 1 && items[0] === '*') return null;
    return items.every((item) => /^\d+:\d+$/.test(item)) ? null : 'expects partition:broker pairs or *';
  });

type TopicSpec<T> = UnnamedDefinition<T> & { readonly synonyms: readonly string[] };
const withSynonyms = <T>(def: UnnamedDefinition<T>, ...synonyms: string[]): TopicSpec<T> =>
  ({ ...def, synonyms, updateMode: 'cluster-wide' });

export const topicConfigDefinitions = named({
  'cleanup.policy': withSynonyms(list({ default: ['delete'], valid: eachOneOf('compact', 'delete'), doc: 'What happens to old segments: delete, compact by key, or both.' }), 'log.cleanup.policy'),
  'compression.type': withSynonyms(string({ default: 'producer', valid: oneOf(...COMPRESSION_TYPES), doc: 'Compression batches are stored with; producer keeps what the producer sent.' }), 'compression.type'),
  'compression.gzip.level': withSynonyms(int({ default: -1, valid: gzipLevel, doc: 'Level used when compression.type is gzip.' }), 'compression.gzip.level'),
  'compression.lz4.level': withSynonyms(int({ default: 9, valid: lz4Level, doc: 'Level used when compression.type is lz4.' }), 'compression.lz4.level'),
  'compression.zstd.level': withSynonyms(int({ default: 3, valid: zstdLevel, doc: 'Level used when compression.type is zstd.' }), 'compression.zstd.level'),
  'delete.retention.ms': withSynonyms(long({ default: DAY_MS, valid: atLeast(0), doc: 'How long tombstones are kept in a compacted topic.' }), 'log.cleaner.delete.retention.ms'),
  'file.delete.delay.ms': withSynonyms(long({ default: 60000, valid: atLeast(0), doc: 'How long a deleted segment file lingers before removal from disk.' }), 'log.segment.delete.delay.ms'),
  'flush.messages': withSynonyms(long({ default: LONG_MAX_VALUE, valid: atLeast(1), doc: 'Records appended before the log is forced to disk.' }), 'log.flush.interval.messages'),
  'flush.ms': withSynonyms(long({ default: LONG_MAX_VALUE, valid: atLeast(0), doc: 'Longest time data waits before being forced to disk.' }), 'log.flush.interval.ms', 'log.flush.scheduler.interval.ms'),
  'follower.replication.throttled.replicas': withSynonyms(list({ default: [], valid: throttledReplicas, doc: 'Replicas whose follower fetches are throttled.' })),
  'index.interval.bytes': withSynonyms(int({ default: 4096, valid: atLeast(0), doc: 'Bytes between entries in the offset index.' }), 'log.index.interval.bytes'),
  'leader.replication.throttled.replicas': withSynonyms(list({ default: [], valid: throttledReplicas, doc: 'Replicas whose leader-side replication is throttled.' })),
  'local.retention.bytes': withSynonyms(long({ default: -2, valid: atLeast(-2), doc: 'With tiered storage, most local bytes per partition; -2 follows retention.bytes.' }), 'log.local.retention.bytes'),
  'local.retention.ms': withSynonyms(long({ default: -2, valid: atLeast(-2), doc: 'With tiered storage, how long segments stay local; -2 follows retention.ms.' }), 'log.local.retention.ms'),
  'max.compaction.lag.ms': withSynonyms(long({ default: LONG_MAX_VALUE, valid: atLeast(1), doc: 'Oldest a record may get before it must be compacted.' }), 'log.cleaner.max.compaction.lag.ms'),
  'max.message.bytes': withSynonyms(int({ default: DEFAULT_MAX_MESSAGE_BYTES, valid: atLeast(0), doc: 'Largest record batch, in bytes, the topic accepts.' }), 'message.max.bytes'),
  'message.timestamp.after.max.ms': withSynonyms(long({ default: 60 * 60 * 1000, valid: atLeast(0), doc: 'How far in the future a CreateTime timestamp may be before the batch is rejected.' }), 'log.message.timestamp.after.max.ms'),
  'message.timestamp.before.max.ms': withSynonyms(long({ default: LONG_MAX_VALUE, valid: atLeast(0), doc: 'How far in the past a CreateTime timestamp may be before the batch is rejected.' }), 'log.message.timestamp.before.max.ms'),
  'message.timestamp.type': withSynonyms(string({ default: 'CreateTime', valid: oneOf('CreateTime', 'LogAppendTime'), doc: 'Whether record timestamps are the producer\'s (CreateTime) or the broker\'s append time.' }), 'log.message.timestamp.type'),
  'min.cleanable.dirty.ratio': withSynonyms(double({ default: 0.5, valid: between(0, 1), doc: 'Share of the log that must be uncompacted before it is cleaned.' }), 'log.cleaner.min.cleanable.ratio'),
  'min.compaction.lag.ms': withSynonyms(long({ default: 0, valid: atLeast(0), doc: 'Youngest a record may be and still be compacted.' }), 'log.cleaner.min.compaction.lag.ms'),
  'min.insync.replicas': withSynonyms(int({ default: 1, valid: atLeast(1), doc: 'Replicas that must hold a write before acks=all succeeds.' }), 'min.insync.replicas'),
  'preallocate': withSynonyms(bool({ default: false, doc: 'Allocate a new segment file at full size when it is created.' }), 'log.preallocate'),
  'remote.log.copy.disable': withSynonyms(bool({ default: false, doc: 'With tiered storage, stop copying new segments to remote storage.' })),
  'remote.log.delete.on.disable': withSynonyms(bool({ default: false, doc: 'With tiered storage, delete remote data when tiering is turned off.' })),
  'remote.storage.enable': withSynonyms(bool({ default: false, doc: 'Keep older segments in remote (tiered) storage; not supported by gregor.' })),
  'retention.bytes': withSynonyms(long({ default: -1, doc: 'Most bytes a partition keeps before old segments are deleted; -1 for no limit.' }), 'log.retention.bytes'),
  'retention.ms': withSynonyms(long({ default: WEEK_MS, valid: atLeast(-1), doc: 'How long a segment is kept; -1 keeps it forever.' }), 'log.retention.ms', 'log.retention.minutes', 'log.retention.hours'),
  'segment.bytes': withSynonyms(int({ default: 1024 * MiB, valid: atLeast(MiB), doc: 'Size at which a new segment is started.' }), 'log.segment.bytes'),
  'segment.index.bytes': withSynonyms(int({ default: 10 * MiB, valid: atLeast(4), doc: 'Largest offset index file; a full index starts a new segment.' }), 'log.index.size.max.bytes'),
  'segment.jitter.ms': withSynonyms(long({ default: 0, valid: atLeast(0), doc: 'Most random time taken off segment.ms.' }), 'log.roll.jitter.ms', 'log.roll.jitter.hours'),
  'segment.ms': withSynonyms(long({ default: WEEK_MS, valid: atLeast(1), doc: 'Age at which a new segment is started.' }), 'log.roll.ms', 'log.roll.hours'),
  'unclean.leader.election.enable': withSynonyms(bool({ default: false, doc: 'Allow an out-of-sync replica to become leader, losing data.' }), 'unclean.leader.election.enable'),
});

export type TopicConfigKey = keyof typeof topicConfigDefinitions;
type Definitions = typeof topicConfigDefinitions;

/** A topic's effective configuration, keyed by Kafka's topic config names. */
export type TopicConfig = { readonly [K in TopicConfigKey]: ValueOf<Definitions[K]> };

export type TopicConfigDefinition = ConfigDefinition & { readonly synonyms: readonly string[] };

/** Looks up a topic config definition (undefined for a name Kafka does not have). */
export function topicConfigDefinition(name: string): TopicConfigDefinition | undefined {
  return Object.hasOwn(topicConfigDefinitions, name)
    ? (topicConfigDefinitions[name as TopicConfigKey] as unknown as TopicConfigDefinition)
    : undefined;
}

/**
 * The message for a bad topic config (what CreateTopics/AlterConfigs return with INVALID_CONFIG),
 * or null when the name is known and the value parses and passes Kafka's validator.
 */
export function validateTopicConfig(name: string, value: string): string | null {
  const def = topicConfigDefinition(name);
  if (def === undefined) return `Unknown topic config name: ${name}`;
  try {
    parseConfigValue(def, value);
    return null;
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
}

/**
 * Checks a whole set of overrides as Kafka does before creating or altering a topic: every entry,
 * then the rules across keys. Returns the first problem's message, or null.
 */
export function validateTopicConfigs(overrides: Record<string, string>, broker: BrokerConfig): string | null {
  for (const [name, value] of Object.entries(overrides)) {
    const problem = validateTopicConfig(name, value);
    if (problem !== null) return problem;
  }
  const effective = resolveTopicConfig(overrides, broker);
  if (effective['min.compaction.lag.ms'] > effective['max.compaction.lag.ms']) {
    return `conflict topic config setting min.compaction.lag.ms (${effective['min.compaction.lag.ms']}) > ` +
      `max.compaction.lag.ms (${effective['max.compaction.lag.ms']})`;
  }
  if (effective['remote.storage.enable'] && !broker['remote.log.storage.system.enable']) {
    return 'Tiered Storage functionality is disabled in the broker. Topic cannot be configured with remote log storage.';
  }
  return null;
}

/**
 * A topic's effective values: each override (parsed and checked; a bad one throws ConfigError),
 * else the broker's value for the topic config's first broker synonym, else Kafka's topic default.
 * Unknown names are ignored (a config Kafka has since removed must not stop a topic from loading).
 */
export function resolveTopicConfig(overrides: Record<string, string>, broker: BrokerConfig): TopicConfig {
  const values: Record<string, unknown> = {};
  const brokerValues = broker as unknown as Record<string, unknown>;
  for (const name of Object.keys(topicConfigDefinitions)) {
    const def = topicConfigDefinition(name)!;
    if (Object.hasOwn(overrides, name)) {
      values[name] = parseConfigValue(def, overrides[name]!);
      continue;
    }
    const synonym = def.synonyms[0];
    const fromBroker = synonym === undefined ? undefined : brokerValues[synonym];
    values[name] = fromBroker === undefined || fromBroker === null ? def.default : fromBroker;
  }
  return Object.freeze(values) as unknown as TopicConfig;
}

/**
 * Kafka's internal.segment.bytes (LogConfig.INTERNAL_SEGMENT_BYTES_CONFIG, defineInternal: an int, no validator,
 * "for testing only"): when stored, it is the segment size instead of segment.bytes, whose 1 MiB minimum it
 * escapes. Clients cannot set it (CreateTopics and AlterConfigs call it unknown); tests write it to the store.
 */
export const INTERNAL_SEGMENT_BYTES = 'internal.segment.bytes';

/**
 * The one resolution of a stored topic's effective config, for Produce, Fetch and the storage engine alike:
 * resolveTopicConfig, except that an override Kafka's validator refuses (written by hand or by an older
 * version; CreateTopics and AlterConfigs refuse it) is left out and reported, so the live broker value
 * stands in for it. Kafka's LogConfig.fromProps throws on such a value and its broker does not start; one bad
 * override here costs only that override.
 */
export function resolveStoredTopicConfig(
  overrides: Readonly<Record<string, string>>,
  broker: BrokerConfig,
  onInvalid: (name: string, value: string, problem: string) => void = () => {},
): TopicConfig {
  let usable: Record<string, string> | undefined;
  let internalSegmentBytes: number | undefined;
  for (const [name, value] of Object.entries(overrides)) {
    let problem: string | null = null;
    if (name === INTERNAL_SEGMENT_BYTES) {
      const parsed = Number(value.trim());
      if (Number.isInteger(parsed) && parsed >= -(2 ** 31) && parsed < 2 ** 31) internalSegmentBytes = parsed;
      else problem = `Invalid value ${value} for configuration ${name}: Not a number of type INT`;
    } else if (topicConfigDefinition(name) !== undefined) {
      problem = validateTopicConfig(name, value);
    }
    if (problem === null) continue;
    usable ??= { ...overrides };
    delete usable[name];
    onInvalid(name, value, problem);
  }
  const resolved = resolveTopicConfig(usable ?? { ...overrides }, broker);
  return internalSegmentBytes === undefined ? resolved : Object.freeze({ ...resolved, 'segment.bytes': internalSegmentBytes });
}
