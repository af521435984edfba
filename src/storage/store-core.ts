// What both stores share: the topic table, one log per partition, config resolution, background tasks.
// Engines open logs and persist topics (FileLogStore) or keep them in memory (MemoryLogStore).

import { silentLog, type Log } from '../log.js';
import type { CleanerStorage } from './cleaner/cleaner-storage.js';
import type { CleanerSettings } from './cleaner/cleaner-config.js';
import { LogCleaner } from './cleaner/log-cleaner.js';
import { forEachBounded, PARTITION_IO_CONCURRENCY } from './bounded.js';
import { StorageError } from './errors.js';
import { defaultBrokerConfig, resolveStoredTopicConfig, type BrokerConfig } from '../config/index.js';
import { logConfigOf, type LogConfig } from './log-config.js';
import type { PartitionLog } from './log.js';
import { DEFAULT_BACKGROUND_INTERVALS, type BackgroundIntervals, type LogStore, type TopicMetadata } from './log-store.js';
import type { ProducerStateSource } from './producer-state.js';
import type { Cancel, Scheduler } from './scheduler.js';
import type { SegmentedLog } from './segmented-log.js';
import type { LogSegment } from './segment.js';
import { SerialQueue } from './serial-queue.js';
import { isUuid, randomUuid } from './topic-id.js';

export interface StoreCoreOptions {
  clusterId: string;
  nodeId: number;
  scheduler: Scheduler;
  /** The live broker config whose log.* values stand under every topic's overrides (Kafka's defaults if absent). */
  broker?: BrokerConfig;
  /** Told of a stored override Kafka's validator refuses (left out; the broker's value stands in). */
  warn?: (message: string) => void;
  /** Where topic creations and deletions are told (info). Default: silent. */
  logger?: Log;
}

/** What the broker lends the log cleaner beyond its settings. */
export interface CleanerHooks {
  /** The partition's last stable offset (producer state): nothing at or past it is cleaned. */
  lastStableOffset?: (log: PartitionLog) => number;
}

const LEGAL_TOPIC = /^[a-zA-Z0-9._-]{1,249}$/;
const MAX_PARTITIONS = 1_000_000;

export abstract class StoreCore<S extends LogSegment> implements LogStore {
  readonly clusterId: string;
  readonly nodeId: number;
  protected readonly scheduler: Scheduler;
  private broker: BrokerConfig;
  private readonly warnInvalid: (message: string) => void;
  /** Frozen entries, handed out as they are: lookups on the request path copy nothing. */
  protected readonly topicTable = new Map<string, TopicMetadata>();
  /** Topic id → name, so topicById is one lookup. */
  private readonly topicNames = new Map<string, string>();
  protected readonly logTable = new Map<string, SegmentedLog<S>>();
  /** Topic-level changes run one at a time. */
  protected readonly adminQueue = new SerialQueue();
  private background: Cancel[] = [];
  private cleaner: LogCleaner<S> | undefined;
  /** What startBackground gave the cleaner, kept so a reconfigured cleaner starts the same way. */
  private cleanerSettings: Partial<CleanerSettings> | undefined;
  private cleanerHooks: CleanerHooks = {};
  private producerState: ProducerStateSource | undefined;
  protected closed = false;
  protected readonly logger: Log;

  constructor(options: StoreCoreOptions) {
    this.logger = options.logger ?? silentLog();
    this.clusterId = options.clusterId;
    this.nodeId = options.nodeId;
    this.scheduler = options.scheduler;
    this.broker = options.broker ?? defaultBrokerConfig();
    this.warnInvalid = options.warn ?? (() => {});
  }

  /**
   * Open (or create) the log of one partition. `created`: the partition is new (CreateTopics, CreatePartitions),
   * so whatever the engine finds stored under its name belongs to something else and must not be served.
   */
  protected abstract openLog(topic: TopicMetadata, partition: number, config: LogConfig, created: boolean): Promise<SegmentedLog<S>>;
  /** Persist a topic's metadata (created or changed). */
  protected abstract saveTopic(topic: TopicMetadata): Promise<void>;
  /** Remove a topic's data once its logs are closed. */
  protected abstract dropTopic(topic: TopicMetadata): Promise<void>;
  /** Write the per-broker checkpoints (file engine). */
  protected async checkpoint(): Promise<void> {}
  /** After a batch of partitions was opened (file engine: make new partition dirs durable at once). */
  protected async afterOpenPartitions(): Promise<void> {}
  /** After every log is closed (file engine: the clean-shutdown marker). */
  protected async afterClose(): Promise<void> {}
  /** Where the log cleaner writes cleaned segments and its checkpoint (undefined: no cleaner). */
  protected cleanerStorage(): CleanerStorage<S> | undefined {
    return undefined;
  }

  /** The log cleaner once startBackground ran with it enabled (tests drive it with kick()). */
  get logCleaner(): LogCleaner<S> | undefined {
    return this.cleaner;
  }

  topics(): TopicMetadata[] {
    return [...this.topicTable.values()];
  }
  topic(name: string): TopicMetadata | undefined {
    return this.topicTable.get(name);
  }
  topicById(topicId: string): TopicMetadata | undefined {
    const name = this.topicNames.get(topicId);
    return name === undefined ? undefined : this.topicTable.get(name);
  }
  log(topic: string, partition: number): SegmentedLog<S> | undefined {
    return this.logTable.get(logKey(topic, partition));
  }
  setProducerStateSource(source: ProducerStateSource | undefined): void {
    this.producerState = source;
    for (const log of this.logTable.values()) log.setProducerStateSource(source);
  }
  logConfigFor(configs: Readonly<Record<string, string>>): LogConfig {
    return logConfigOf(resolveStoredTopicConfig(configs, this.broker, (name, value, problem) =>
      this.warnInvalid(`stored topic config ${name}=${value} is ignored (${problem}); the broker's value applies`)));
  }

  createTopic(name: string, partitions: number, configs: Record<string, string> = {}, topicId?: string): Promise<TopicMetadata> {
    return this.adminQueue.run(async () => {
      this.ensureOpen();
      if (!LEGAL_TOPIC.test(name) || name === '.' || name === '..') {
        throw new StorageError('INVALID_TOPIC_EXCEPTION', `illegal topic name '${name}'`);
      }
      if (this.topicTable.has(name)) throw new StorageError('TOPIC_ALREADY_EXISTS', `topic '${name}' already exists`);
      if (!Number.isInteger(partitions) || partitions < 1 || partitions > MAX_PARTITIONS) {
        throw new StorageError('INVALID_PARTITIONS', `invalid partition count ${partitions}`);
      }
      if (topicId !== undefined && !isUuid(topicId)) throw new StorageError('INVALID_TOPIC_EXCEPTION', `invalid topic id '${topicId}'`);
      const topic = frozenTopic({ name, topicId: topicId ?? randomUuid(), partitions, configs });
      await this.saveTopic(topic);
      this.setTopic(topic);
      await this.openPartitions(topic, 0, true);
      this.logger.info({ topic: name, topicId: topic.topicId, partitions, configs },
        `Created topic ${name} with topic ID ${topic.topicId} and ${partitions} partition(s)`);
      return topic;
    });
  }

  deleteTopic(name: string): Promise<void> {
    return this.adminQueue.run(async () => {
      this.ensureOpen();
      const topic = this.requireTopic(name);
      this.topicTable.delete(name);
      if (this.topicNames.get(topic.topicId) === name) this.topicNames.delete(topic.topicId);
      for (let p = 0; p < topic.partitions; p++) {
        const key = logKey(name, p);
        await this.logTable.get(key)?.abandon();
        this.logTable.delete(key);
      }
      await this.dropTopic(topic);
      this.logger.info({ topic: name, topicId: topic.topicId, partitions: topic.partitions },
        `Deleted topic ${name} with topic ID ${topic.topicId} and the logs of its ${topic.partitions} partition(s)`);
    });
  }

  setTopicConfigs(name: string, configs: Record<string, string>): Promise<TopicMetadata> {
    return this.adminQueue.run(async () => {
      this.ensureOpen();
      const topic = frozenTopic({ ...this.requireTopic(name), configs });
      await this.saveTopic(topic);
      this.setTopic(topic);
      const config = this.logConfigFor(topic.configs);
      for (let p = 0; p < topic.partitions; p++) this.log(name, p)?.updateConfig(config);
      return topic;
    });
  }

  addPartitions(name: string, total: number): Promise<TopicMetadata> {
    return this.adminQueue.run(async () => {
      this.ensureOpen();
      const current = this.requireTopic(name);
      if (!Number.isInteger(total) || total <= current.partitions || total > MAX_PARTITIONS) {
        throw new StorageError('INVALID_PARTITIONS', `topic '${name}' has ${current.partitions} partitions; cannot change to ${total}`);
      }
      const topic = frozenTopic({ ...current, partitions: total });
      await this.saveTopic(topic);
      this.setTopic(topic);
      await this.openPartitions(topic, current.partitions, true);
      return topic;
    });
  }

  async runRetention(now?: number): Promise<number> {
    let removed = 0;
    for (const log of [...this.logTable.values()]) removed += await log.deleteOldSegments(now ?? this.scheduler.now());
    return removed;
  }

  startBackground(intervals: Partial<BackgroundIntervals> & CleanerHooks = {}): void {
    if (this.background.length > 0 || this.closed) return;
    const every = { ...DEFAULT_BACKGROUND_INTERVALS, ...intervals };
    const quietly = (job: () => Promise<unknown>) => () => void job().catch(() => undefined);
    this.background.push(
      this.scheduler.every(every.retentionCheckMs, quietly(() => this.runRetention())),
      this.scheduler.every(every.flushCheckMs, quietly(async () => {
        const now = this.scheduler.now();
        for (const log of [...this.logTable.values()]) if (Number.isFinite(log.config.flushMs)) await log.maybeFlush(now);
      })),
      this.scheduler.every(every.checkpointMs, quietly(() => this.checkpoint())),
    );
    this.cleanerSettings = every.cleaner ?? {};
    this.cleanerHooks = intervals.lastStableOffset === undefined ? {} : { lastStableOffset: intervals.lastStableOffset };
    this.startCleaner();
  }

  private startCleaner(): void {
    const storage = this.cleanerStorage();
    const settings = this.cleanerSettings ?? {};
    if (storage === undefined || !(settings.enable ?? true)) return;
    this.cleaner = new LogCleaner<S>({
      logs: () => this.allLogs(),
      storage,
      scheduler: this.scheduler,
      settings,
      ...(this.cleanerHooks.lastStableOffset === undefined ? {} : { lastStableOffset: this.cleanerHooks.lastStableOffset }),
    });
    this.cleaner.start();
  }

  /**
   * New broker-level log defaults (dynamic log.* broker configs): every log without its own override takes
   * the new effective config at once, as Kafka's DynamicLogConfig updates every log.
   */
  reconfigureLogs(broker: BrokerConfig): Promise<void> {
    return this.adminQueue.run(async () => {
      this.broker = broker;
      for (const topic of this.topicTable.values()) {
        const config = this.logConfigFor(topic.configs);
        for (let p = 0; p < topic.partitions; p++) this.log(topic.name, p)?.updateConfig(config);
      }
    });
  }

  /**
   * New log.cleaner.* settings: as Kafka's LogCleaner.reconfigure, the cleaner stops (its clean in progress ends
   * at the next slice) and a new one starts with them. Nothing to do before startBackground or after close.
   */
  reconfigureCleaner(settings: Partial<CleanerSettings>): Promise<void> {
    return this.adminQueue.run(async () => {
      if (this.closed || this.cleanerSettings === undefined) return;
      this.cleanerSettings = settings;
      await this.cleaner?.stop();
      this.cleaner = undefined;
      this.startCleaner();
    });
  }

  close(): Promise<void> {
    return this.adminQueue.run(async () => {
      if (this.closed) return;
      this.closed = true;
      for (const cancel of this.background) cancel();
      this.background = [];
      // The clean in progress stops at its next slice; its unfinished copy is discarded.
      await this.cleaner?.stop();
      // Logs close in parallel; each flushes only what was written since its last flush.
      await forEachBounded(this.allLogs(), PARTITION_IO_CONCURRENCY, (log) => log.close());
      await this.checkpoint();
      await this.afterClose();
    });
  }

  /** Put a loaded topic and its logs in the tables (engines loading at startup). */
  protected async register(loaded: TopicMetadata): Promise<void> {
    const topic = frozenTopic(loaded);
    this.setTopic(topic);
    await this.openPartitions(topic, 0, false);
  }

  private setTopic(topic: TopicMetadata): void {
    this.topicTable.set(topic.name, topic);
    this.topicNames.set(topic.topicId, topic.name);
  }

  protected allLogs(): SegmentedLog<S>[] {
    return [...this.logTable.values()];
  }

  private async openPartitions(topic: TopicMetadata, from: number, created: boolean): Promise<void> {
    const config = this.logConfigFor(topic.configs);
    const partitions = Array.from({ length: topic.partitions - from }, (_, i) => from + i);
    const opened: (SegmentedLog<S> | undefined)[] = [];
    try {
      await forEachBounded(partitions, PARTITION_IO_CONCURRENCY, async (p, i) => {
        opened[i] = await this.openLog(topic, p, config, created);
      });
    } finally {
      // In partition order, whichever opened (the table's order is the checkpoints' order).
      partitions.forEach((p, i) => {
        const log = opened[i];
        if (log === undefined) return;
        log.setProducerStateSource(this.producerState);
        this.logTable.set(logKey(topic.name, p), log);
      });
      await this.afterOpenPartitions();
    }
  }

  private requireTopic(name: string): TopicMetadata {
    const topic = this.topicTable.get(name);
    if (topic === undefined) throw new StorageError('UNKNOWN_TOPIC_OR_PARTITION', `unknown topic '${name}'`);
    return topic;
  }

  protected ensureOpen(): void {
    if (this.closed) throw new StorageError('KAFKA_STORAGE_ERROR', 'the log store is closed');
  }
}

function logKey(topic: string, partition: number): string {
  return `${topic}-${partition}`;
}

/** A private copy that cannot change under the store: callers share it. */
function frozenTopic(t: TopicMetadata): TopicMetadata {
  return Object.freeze({ ...t, configs: Object.freeze({ ...t.configs }) });
}
