/**
 * Kafka's Rate over a WindowedSum (org.apache.kafka.common.metrics.stats.Rate, SampledStat): what a client quota
 * measures. Values are summed into `samples` windows of `windowMs` each (one more kept for the window that overlaps
 * the start of the measured span); the rate is their sum over the time they span, which is never taken as less than
 * samples - 1 whole windows, so a new client is measured as if idle before it started.
 */

/** MetricConfig's samples() and timeWindowMs(). */
export interface WindowConfig {
  readonly samples: number;
  readonly windowMs: number;
}

interface Sample {
  value: number;
  eventCount: number;
  startTimeMs: number;
  lastEventMs: number;
}

const newSample = (now: number): Sample => ({ value: 0, eventCount: 0, startTimeMs: now, lastEventMs: now });

function reset(sample: Sample, now: number): void {
  sample.value = 0;
  sample.eventCount = 0;
  sample.startTimeMs = now;
  sample.lastEventMs = now;
}

export class SampledRate {
  private readonly samples: Sample[] = [];
  private current = 0;

  /** SampledStat.record: into the current sample, a new one once it has lasted a window. */
  record(config: WindowConfig, value: number, now: number): void {
    let sample = this.currentSample(now);
    if (now - sample.startTimeMs >= config.windowMs) sample = this.advance(config, now);
    sample.value += value;
    sample.eventCount += 1;
    sample.lastEventMs = now;
  }

  /** Rate.measure in units per second. */
  measure(config: WindowConfig, now: number): number {
    this.purgeObsolete(config, now);
    let sum = 0;
    for (const sample of this.samples) sum += sample.value;
    return sum / (this.windowSize(config, now) / 1000);
  }

  /** Rate.windowSize: the span the samples cover, at least samples - 1 whole windows, at least 1 ms. */
  windowSize(config: WindowConfig, now: number): number {
    this.purgeObsolete(config, now);
    let elapsed = now - this.oldest(now).startTimeMs;
    const fullWindows = Math.trunc(elapsed / config.windowMs);
    const minFullWindows = config.samples - 1;
    if (fullWindows < minFullWindows) elapsed += (minFullWindows - fullWindows) * config.windowMs;
    return Math.max(elapsed, 1);
  }

  /** The latest event recorded; the owner drops a rate nobody has used for long. */
  get lastEventMs(): number {
    let last = -Infinity;
    for (const sample of this.samples) last = Math.max(last, sample.lastEventMs);
    return last;
  }

  private currentSample(now: number): Sample {
    if (this.samples.length === 0) this.samples.push(newSample(now));
    return this.samples[this.current]!;
  }

  private advance(config: WindowConfig, now: number): Sample {
    this.current = (this.current + 1) % (config.samples + 1);
    if (this.current >= this.samples.length) {
      const sample = newSample(now);
      this.samples.push(sample);
      return sample;
    }
    const sample = this.samples[this.current]!;
    reset(sample, now);
    return sample;
  }

  private oldest(now: number): Sample {
    if (this.samples.length === 0) this.samples.push(newSample(now));
    let oldest = this.samples[0]!;
    for (const sample of this.samples) if (sample.startTimeMs < oldest.startTimeMs) oldest = sample;
    return oldest;
  }

  /** Samples without an event in the last samples × window are emptied (those overlapping the span are kept). */
  private purgeObsolete(config: WindowConfig, now: number): void {
    const expireAge = config.samples * config.windowMs;
    for (const sample of this.samples) if (now - sample.lastEventMs >= expireAge) reset(sample, now);
  }
}

/**
 * QuotaUtils.throttleTime: how long the client must stay away for the rate over the measured span to fall back to
 * the bound, `(rate - bound) / bound × window`, rounded as Java's Math.round.
 */
export function rateThrottleTimeMs(rate: number, bound: number, windowSizeMs: number): number {
  return javaRound(((rate - bound) / bound) * windowSizeMs);
}

/** Math.round(double): the closest long, halves up. */
export function javaRound(value: number): number {
  return Math.floor(value + 0.5);
}
