// Opens the broker's LogStore from its configuration: gregor.log.engine picks the engine, log.dirs[0]
// holds the file engine's data (meta.properties keeps cluster.id and node.id across restarts).
import type { BrokerConfig } from '../config/index.js';
import { FileLogStore } from '../storage/file/file-store.js';
import type { BackgroundIntervals, LogStore } from '../storage/log-store.js';
import { MemoryLogStore } from '../storage/memory/memory-store.js';
import { brokerLogDefaults, storeConfigResolver } from './topic-log-config.js';

export async function openLogStore(config: BrokerConfig, warn: (message: string) => void = () => {}): Promise<LogStore> {
  const common = {
    nodeId: config['node.id'],
    defaults: brokerLogDefaults(config),
    resolveConfig: storeConfigResolver(config),
  };
  if (config['gregor.log.engine'] === 'memory') return new MemoryLogStore(common);
  const logDir = config['log.dirs'][0];
  if (logDir === undefined) throw new Error('log.dirs: no log directory configured');
  return FileLogStore.open({ ...common, logDir, warn });
}

/** Kafka's intervals for the store's background work. */
export function backgroundIntervals(config: BrokerConfig): BackgroundIntervals {
  return {
    retentionCheckMs: config['log.retention.check.interval.ms'],
    // Kafka's log flusher wakes every log.flush.scheduler.interval.ms; "never" leaves the store's 1 s check.
    flushCheckMs: Math.min(config['log.flush.scheduler.interval.ms'], 1_000),
    checkpointMs: Math.max(1, config['log.flush.offset.checkpoint.interval.ms']),
  };
}
