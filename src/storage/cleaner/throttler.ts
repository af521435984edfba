// Kafka's Throttler for the cleaner's I/O (log.cleaner.io.max.bytes.per.second): bytes are counted, and
// every check interval, when the observed rate is above the desired one, the caller sleeps long enough to
// bring it back down. Clock and sleep are injected so tests need no real time.

export interface ThrottlerOptions {
  bytesPerSecond: number;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  /** Kafka checks every 300 ms. */
  checkIntervalMs?: number;
}

export class Throttler {
  private periodStart: number;
  private observed = 0;
  /** Total time slept (tests and stats). */
  sleptMs = 0;

  constructor(private readonly options: ThrottlerOptions) {
    this.periodStart = options.now();
  }

  async maybeThrottle(bytes: number): Promise<void> {
    const { bytesPerSecond, now, sleep } = this.options;
    if (!Number.isFinite(bytesPerSecond) || bytesPerSecond <= 0) return;
    this.observed += bytes;
    const elapsed = now() - this.periodStart;
    if (elapsed < (this.options.checkIntervalMs ?? 300)) return;
    const rate = (this.observed * 1000) / Math.max(1, elapsed);
    if (rate > bytesPerSecond) {
      const wait = Math.round((this.observed * 1000) / bytesPerSecond - elapsed);
      if (wait > 0) {
        this.sleptMs += wait;
        await sleep(wait);
      }
    }
    this.periodStart = now();
    this.observed = 0;
  }
}
