// Kafka's replication-offset-checkpoint: each replicated partition's high watermark, saved in the log dir every
// replica.high.watermark.checkpoint.interval.ms and at shutdown, read once at start-up; a replicated log starts from
// it (never past its log end; 0 when the file does not name it), not from its log end, so a restarted leader does not
// serve as committed what its followers never acknowledged. The memory engine keeps none.
import { join } from 'node:path';
import { readOffsetCheckpoint, writeCheckpoint } from '../storage/file/checkpoint-file.js';
import type { LogStore } from '../storage/log-store.js';
import type { PartitionLog } from '../storage/log.js';
import { SerialQueue } from '../storage/serial-queue.js';

export const REPLICATION_OFFSET_CHECKPOINT = 'replication-offset-checkpoint';

export class HighWatermarkCheckpoint {
  private readonly queue = new SerialQueue();

  private constructor(private readonly path: string | undefined, private readonly saved: ReadonlyMap<string, number>) {}

  static async open(store: LogStore): Promise<HighWatermarkCheckpoint> {
    const logDir = (store as { logDir?: unknown }).logDir;
    if (typeof logDir !== 'string') return new HighWatermarkCheckpoint(undefined, new Map());
    const path = join(logDir, REPLICATION_OFFSET_CHECKPOINT);
    return new HighWatermarkCheckpoint(path, await readOffsetCheckpoint(path));
  }

  /** The log becomes replicated: its high watermark is the one saved (within its log). */
  restore(log: PartitionLog): void {
    if (this.path === undefined) return;
    log.setHighWatermark(Math.min(this.saved.get(`${log.topic}-${log.partition}`) ?? 0, log.logEndOffset));
  }

  /** Saves the logs' high watermarks (the file replaced atomically, one write at a time). */
  save(logs: Iterable<PartitionLog>): Promise<void> {
    const path = this.path;
    if (path === undefined) return Promise.resolve();
    const entries = [...logs].map((l) => [l.topic, l.partition, l.highWatermark] as const);
    return this.queue.run(() => writeCheckpoint(path, entries));
  }
}
