// The background log cleaner (Kafka's LogCleaner + LogCleanerManager, one cleaner): every
// log.cleaner.backoff.ms it picks the dirtiest compacted log that qualifies (min.cleanable.dirty.ratio, or
// overdue by max.compaction.lag.ms), cleans it, records the new first dirty offset in the checkpoint, and
// goes on while logs qualify. A log whose clean fails is skipped until restart (Kafka's uncleanable
// partitions). stop() lets the clean in progress end at its next slice.
import type { Cancel, Scheduler } from '../scheduler.js';
import type { SegmentedLog } from '../segmented-log.js';
import type { LogSegment } from '../segment.js';
import { cleanableRange, shouldClean, type LogView } from './cleanable.js';
import { compactionConfigOf, DEFAULT_CLEANER_SETTINGS, type CleanerSettings } from './cleaner-config.js';
import type { CleanerStorage } from './cleaner-storage.js';
import { Cleaner, CleaningAbortedError, type CleanResult, type TxnSource } from './cleaner.js';
import { OffsetMap } from './offset-map.js';
import { Throttler } from './throttler.js';

export interface LogCleanerOptions<S extends LogSegment> {
  logs: () => readonly SegmentedLog<S>[];
  storage: CleanerStorage<S>;
  scheduler: Scheduler;
  settings?: Partial<CleanerSettings>;
  /** Nothing at or past it is cleaned (default: the high watermark). */
  lastStableOffset?: (log: SegmentedLog<S>) => number;
  txnSource?: TxnSource;
  /** How the throttler waits (default: a real timer). */
  sleep?: (ms: number) => Promise<void>;
  warn?: (message: string) => void;
}

export interface CleanedLog {
  topic: string;
  partition: number;
  result: CleanResult;
}

export class LogCleaner<S extends LogSegment> {
  private readonly settings: CleanerSettings;
  private map: OffsetMap | undefined;
  private readonly throttler: Throttler;
  private checkpoints: Map<string, number> | undefined;
  private readonly uncleanable = new Set<string>();
  private timer: Cancel | undefined;
  private running: Promise<void> | undefined;
  private stopping = false;
  /** Every clean done (tests, stats). */
  readonly history: CleanedLog[] = [];

  constructor(private readonly options: LogCleanerOptions<S>) {
    this.settings = { ...DEFAULT_CLEANER_SETTINGS, ...options.settings };
    this.throttler = new Throttler({
      bytesPerSecond: this.settings.ioMaxBytesPerSecond,
      now: () => options.scheduler.now(),
      sleep: options.sleep ?? ((ms) => new Promise((resolve) => options.scheduler.after(ms, resolve))),
    });
  }

  start(): void {
    if (this.timer !== undefined || !this.settings.enable) return;
    this.stopping = false;
    // Timers cannot wait longer than 2^31-1 ms (Node fires a longer one at once).
    this.timer = this.options.scheduler.every(Math.min(Math.max(1, this.settings.backoffMs), 0x7fffffff), () => void this.kick());
  }

  /** Runs the cleaner now unless it is already running; resolves when it has nothing left to do. */
  kick(): Promise<void> {
    this.running ??= (async () => {
      try {
        while (!this.stopping && (await this.cleanFilthiest()) !== undefined) {
          // keep going while logs qualify
        }
      } finally {
        this.running = undefined;
      }
    })();
    return this.running;
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.timer?.();
    this.timer = undefined;
    await this.running?.catch(() => undefined);
  }

  /** Cleans the dirtiest log that qualifies; undefined when none does (or it made no progress). */
  async cleanFilthiest(): Promise<CleanedLog | undefined> {
    const checkpoints = await this.loadCheckpoints();
    const now = this.options.scheduler.now();
    let best: { log: SegmentedLog<S>; ratio: number; firstDirty: number; firstUncleanable: number } | undefined;
    let reset = false;
    for (const log of this.options.logs()) {
      const key = keyOf(log);
      if (!log.config.compactEnabled || this.uncleanable.has(key)) continue;
      const config = compactionConfigOf(log.config);
      const range = cleanableRange(this.viewOf(log), checkpoints.get(key), config, now);
      if (range.checkpointReset) {
        checkpoints.set(key, range.firstDirtyOffset);
        reset = true;
      }
      if (!shouldClean(range, config)) continue;
      if (best === undefined || range.cleanableRatio > best.ratio) {
        best = { log, ratio: range.cleanableRatio, firstDirty: range.firstDirtyOffset, firstUncleanable: range.firstUncleanableOffset };
      }
    }
    if (reset) await this.saveCheckpoints();
    if (best === undefined) return undefined;
    const { log } = best;
    let result: CleanResult | undefined;
    try {
      result = await this.cleaner().clean(log, {
        firstDirtyOffset: best.firstDirty,
        firstUncleanableOffset: best.firstUncleanable,
        config: compactionConfigOf(log.config),
      });
    } catch (err) {
      if (this.stopping) return undefined;
      if (!(err instanceof CleaningAbortedError)) {
        this.uncleanable.add(keyOf(log));
        this.options.warn?.(`log cleaner: ${keyOf(log)} marked uncleanable: ${(err as Error).message}`);
      }
      return undefined;
    }
    if (result === undefined) return undefined;
    checkpoints.set(keyOf(log), result.endOffset);
    await this.saveCheckpoints();
    const cleaned = { topic: log.topic, partition: log.partition, result };
    this.history.push(cleaned);
    return cleaned;
  }

  /** The first dirty offset recorded for a log (tests, DescribeLogDirs-style stats). */
  async checkpointOf(topic: string, partition: number): Promise<number | undefined> {
    return (await this.loadCheckpoints()).get(`${topic}-${partition}`);
  }

  private cleaner(): Cleaner<S> {
    // Allocated on first use: a broker with no compacted data never pays for the map.
    this.map ??= new OffsetMap(this.settings.dedupeBufferSize);
    return new Cleaner<S>({
      storage: this.options.storage,
      map: this.map,
      loadFactor: this.settings.dedupeBufferLoadFactor,
      ioBufferSize: this.settings.ioBufferSize,
      now: () => this.options.scheduler.now(),
      ...(this.options.txnSource === undefined ? {} : { txnSource: this.options.txnSource }),
      onSlice: async (bytes) => {
        if (this.stopping) throw new CleaningAbortedError('the log cleaner is stopping');
        await this.throttler.maybeThrottle(bytes);
        // One slice per event-loop turn: requests are served between slices.
        await new Promise<void>((resolve) => setImmediate(resolve));
      },
    });
  }

  private viewOf(log: SegmentedLog<S>): LogView {
    return {
      segments: log.segments.map((s) => ({
        baseOffset: s.baseOffset,
        size: s.size,
        largestTimestamp: s.largestTimestamp(),
        firstBatchTimestamp: s.rollCandidate().rollingBasedTimestamp,
      })),
      logStartOffset: log.logStartOffset,
      logEndOffset: log.logEndOffset,
      lastStableOffset: this.options.lastStableOffset?.(log) ?? log.highWatermark,
    };
  }

  private async loadCheckpoints(): Promise<Map<string, number>> {
    this.checkpoints ??= await this.options.storage.readCheckpoints();
    return this.checkpoints;
  }

  private async saveCheckpoints(): Promise<void> {
    const checkpoints = await this.loadCheckpoints();
    const entries = [];
    for (const log of this.options.logs()) {
      const offset = checkpoints.get(keyOf(log));
      if (offset !== undefined) entries.push({ topic: log.topic, partition: log.partition, offset });
    }
    await this.options.storage.writeCheckpoints(entries);
  }
}

function keyOf(log: { topic: string; partition: number }): string {
  return `${log.topic}-${log.partition}`;
}
