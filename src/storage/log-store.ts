// The broker's storage: topics (id, partition count, config overrides) and one PartitionLog per partition.
// Engines: FileLogStore (src/storage/file/file-store.ts) and MemoryLogStore (src/storage/memory/memory-store.ts).

import type { CleanerSettings } from './cleaner/cleaner-config.js';
import type { BrokerConfig } from '../config/index.js';
import type { LogConfig } from './log-config.js';
import type { PartitionLog } from './log.js';
import type { ProducerStateSource } from './producer-state.js';

export interface TopicMetadata {
  name: string;
  /** Kafka Uuid text form (22 chars). */
  topicId: string;
  partitions: number;
  /** Topic-level config overrides, Kafka names → string values. */
  configs: Record<string, string>;
}

export interface LogStore {
  readonly clusterId: string;
  readonly nodeId: number;
  topics(): TopicMetadata[];
  topic(name: string): TopicMetadata | undefined;
  topicById(topicId: string): TopicMetadata | undefined;
  /** Rejects with StorageError TOPIC_ALREADY_EXISTS; `topicId` defaults to a random one. */
  createTopic(name: string, partitions: number, configs?: Record<string, string>, topicId?: string): Promise<TopicMetadata>;
  /** Closes the topic's logs and removes its data (files asynchronously). UNKNOWN_TOPIC_OR_PARTITION if absent. */
  deleteTopic(name: string): Promise<void>;
  /** Replace the topic's overrides; its logs pick up the new effective config at once. */
  setTopicConfigs(name: string, configs: Record<string, string>): Promise<TopicMetadata>;
  /** Grow the topic to `total` partitions (INVALID_PARTITIONS when not larger). */
  addPartitions(name: string, total: number): Promise<TopicMetadata>;
  log(topic: string, partition: number): PartitionLog | undefined;
  /** The broker's producer state, which every log (and every log opened later) snapshots at roll and at close. */
  setProducerStateSource(source: ProducerStateSource | undefined): void;
  /** Effective LogConfig for a set of topic overrides (broker defaults underneath). */
  logConfigFor(configs: Readonly<Record<string, string>>): LogConfig;
  /** Run retention on every log now; returns segments removed. */
  runRetention(now?: number): Promise<number>;
  /** New broker-level defaults under every topic's overrides; every log picks up its new config. */
  reconfigureLogs(broker: BrokerConfig): Promise<void>;
  /** Restarts the log cleaner with new log.cleaner.* settings (no-op before startBackground). */
  reconfigureCleaner(settings: Partial<CleanerSettings>): Promise<void>;
  /** Start background retention, flush.ms and checkpoint tasks on the store's scheduler. */
  startBackground(intervals?: Partial<BackgroundIntervals>): void;
  /** Flush and close every log; the file engine then marks the shutdown clean. */
  close(): Promise<void>;
}

/** Kafka's broker settings for the background tasks. */
export interface BackgroundIntervals {
  /** log.retention.check.interval.ms */
  retentionCheckMs: number;
  /** How often logs with a finite flush.ms are checked. */
  flushCheckMs: number;
  /** log.flush.offset.checkpoint.interval.ms */
  checkpointMs: number;
  /** The log cleaner (log.cleaner.*); Kafka's defaults when absent. */
  cleaner?: Partial<CleanerSettings>;
}

export const DEFAULT_BACKGROUND_INTERVALS: BackgroundIntervals = {
  retentionCheckMs: 300_000,
  flushCheckMs: 1_000,
  checkpointMs: 60_000,
};
