// The cleaner's settings: broker-wide ones (Kafka's log.cleaner.* names) and the per-topic compaction
// configs read from a log's LogConfig with Kafka's defaults underneath.
import type { LogConfig } from '../log-config.js';

export interface CleanerSettings {
  /** log.cleaner.enable */
  enable: boolean;
  /** log.cleaner.dedupe.buffer.size (one cleaner here, so all of it). */
  dedupeBufferSize: number;
  /** log.cleaner.io.buffer.load.factor: how full the offset map may get. */
  dedupeBufferLoadFactor: number;
  /** log.cleaner.io.buffer.size: bytes read per slice. */
  ioBufferSize: number;
  /** log.cleaner.io.max.bytes.per.second (Infinity: unthrottled). */
  ioMaxBytesPerSecond: number;
  /** log.cleaner.backoff.ms: pause when no log needs cleaning. */
  backoffMs: number;
}

export const DEFAULT_CLEANER_SETTINGS: Readonly<CleanerSettings> = Object.freeze({
  enable: true,
  dedupeBufferSize: 128 * 1024 * 1024,
  dedupeBufferLoadFactor: 0.9,
  // Kafka's default is 512 KiB; one read slice (the cleaner also yields every RECORDS_PER_TURN records).
  ioBufferSize: 512 * 1024,
  ioMaxBytesPerSecond: Infinity,
  backoffMs: 15_000,
});

export interface CompactionConfig {
  deleteRetentionMs: number;
  minCleanableRatio: number;
  minCompactionLagMs: number;
  maxCompactionLagMs: number;
}

export function compactionConfigOf(config: LogConfig): CompactionConfig {
  return {
    deleteRetentionMs: config.deleteRetentionMs ?? 24 * 60 * 60 * 1000,
    minCleanableRatio: config.minCleanableDirtyRatio ?? 0.5,
    minCompactionLagMs: Math.max(0, config.minCompactionLagMs ?? 0),
    maxCompactionLagMs: Math.max(0, config.maxCompactionLagMs ?? Infinity),
  };
}
