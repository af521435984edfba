// Opens the broker's LogStore from its configuration: logEngine is the one place the engine is chosen,
// log.dirs[0] holds the file engine's data (meta.properties keeps cluster.id and node.id across restarts).
import { silentLog, type Log } from '../log.js';
import type { BrokerConfig, LogEngine } from '../config/index.js';
import { FileLogStore, type StoreLoadStats } from '../storage/file/file-store.js';
import type { CleanerSettings } from '../storage/cleaner/cleaner-config.js';
import type { BackgroundIntervals, LogStore } from '../storage/log-store.js';
import type { PartitionLog } from '../storage/log.js';
import type { CleanerHooks } from '../storage/store-core.js';
import { MemoryLogStore } from '../storage/memory/memory-store.js';
import { systemScheduler, type Scheduler } from '../storage/scheduler.js';

/**
 * gregor.log.engine (config resolution fills it in when unset: memory in-process, file for the command), except that a broker serving a test's own topic catalog keeps its data in memory (the test
 * must not write to the configured log.dirs).
 */
export function logEngine(config: BrokerConfig, servesTestCatalog = false): LogEngine {
  return servesTestCatalog || config['gregor.log.engine'] === 'memory' ? 'memory' : 'file';
}

/**
 * `clock`: the broker's (retention, flush, the cleaner). `clusterId`: the cluster's (cluster mode), which a log dir's
 * meta.properties must hold; else the log dir's own.
 */
export async function openLogStore(config: BrokerConfig, log: Log = silentLog(), engine: LogEngine = logEngine(config), clock: Scheduler = systemScheduler, clusterId?: string): Promise<LogStore> {
  const common = { logger: log, nodeId: config['node.id'], broker: config, warn: (message: string) => log.warn(message), scheduler: clock, ...(clusterId === undefined ? {} : { clusterId }) };
  if (engine === 'memory') return new MemoryLogStore(common);
  const logDir = config['log.dirs'][0];
  if (logDir === undefined) throw new Error('log.dirs: no log directory configured');
  const startedMs = performance.now();
  const store = await FileLogStore.open({ ...common, logDir, error: (message: string) => log.error(message) });
  logLoad(log, logDir, store.loadStats, Math.round(performance.now() - startedMs));
  return store;
}

/** What loading a log dir found and, after an unclean shutdown, what recovery did (Kafka's LogManager says both at info). */
function logLoad(log: Log, logDir: string, stats: StoreLoadStats, ms: number): void {
  const { topics, partitions, segments, cleanShutdown } = stats;
  log.info({ logDir, topics, partitions, segments, cleanShutdown, ms },
    `Loaded ${partitions} partition log(s) of ${topics} topic(s), ${segments} segment(s), from ${logDir} in ${ms} ms`);
  if (cleanShutdown || partitions === 0) return;
  const { recoveredSegments, validatedBytes, truncatedBytes } = stats;
  log.info({ logDir, segmentsChecked: recoveredSegments, bytesChecked: validatedBytes, bytesTruncated: truncatedBytes },
    `Recovered ${logDir} after an unclean shutdown: ${recoveredSegments} segment(s) checked from their recovery point ` +
      `(${validatedBytes} bytes), ${truncatedBytes} invalid bytes truncated`);
}

/**
 * Kafka's intervals for the store's background work, and the log cleaner's log.cleaner.* settings. The
 * topic-level compaction settings (log.cleaner.min.cleanable.ratio, delete.retention.ms, min/max compaction lag)
 * reach each log's config as synonyms (src/config/topic-configs.ts), not through here. `lastStableOffset`
 * (the producer state's) keeps the cleaner's dirty ratio and range below open transactions.
 */
export function backgroundIntervals(config: BrokerConfig, lastStableOffset?: (log: PartitionLog) => number): BackgroundIntervals & CleanerHooks {
  return {
    retentionCheckMs: config['log.retention.check.interval.ms'],
    // Kafka's log flusher wakes every log.flush.scheduler.interval.ms; "never" leaves the store's 1 s check.
    flushCheckMs: Math.min(config['log.flush.scheduler.interval.ms'], 1_000),
    checkpointMs: Math.max(1, config['log.flush.offset.checkpoint.interval.ms']),
    cleaner: cleanerSettings(config),
    ...(lastStableOffset === undefined ? {} : { lastStableOffset }),
  };
}

/** log.cleaner.* for the one cleaner (Kafka splits the buffers over log.cleaner.threads; one thread here). */
export function cleanerSettings(config: BrokerConfig): CleanerSettings {
  const maxRate = config['log.cleaner.io.max.bytes.per.second'];
  return {
    // Kafka starts no cleaner with log.cleaner.threads=0 either.
    enable: config['log.cleaner.enable'] && config['log.cleaner.threads'] > 0,
    // Kafka caps one cleaner's map at Int.MaxValue bytes.
    dedupeBufferSize: Math.min(config['log.cleaner.dedupe.buffer.size'], 2 ** 31 - 1),
    dedupeBufferLoadFactor: config['log.cleaner.io.buffer.load.factor'],
    // A slice must hold at least one batch header; 0 would never advance.
    ioBufferSize: Math.max(4096, config['log.cleaner.io.buffer.size']),
    ioMaxBytesPerSecond: maxRate >= Number.MAX_VALUE ? Infinity : maxRate,
    backoffMs: config['log.cleaner.backoff.ms'],
  };
}
