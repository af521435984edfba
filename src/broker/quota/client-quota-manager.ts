/**
 * Kafka 4.3.1's ClientQuotaManager for one quota type (producer_byte_rate, consumer_byte_rate, request_percentage):
 * each client is measured by the rate its resolved entity names (quota-resolution.ts), the value is recorded first,
 * and a rate over the bound answers how long to throttle the client (QuotaUtils.throttleTime). Nothing is measured
 * while no quota of the type exists anywhere (quotasEnabled), as in Kafka.
 */
import { QuotaOverrides, type MetricTags } from './quota-resolution.js';
import { rateThrottleTimeMs, SampledRate, type WindowConfig } from './sampled-rate.js';

/** Kafka: quotaLimit's Long.MAX_VALUE when no quota applies. */
const UNLIMITED = 2 ** 63;
/** ClientQuotaManager.INACTIVE_SENSOR_EXPIRATION_TIME_SECONDS: a client's rate is dropped after an idle hour. */
const INACTIVE_EXPIRY_MS = 3600_000;

const tagsKey = (tags: MetricTags): string => `${tags.user}\u0000${tags.clientId}`;

export class ClientQuotaManager {
  private overrides = new QuotaOverrides();
  private readonly rates = new Map<string, SampledRate>();
  private nextExpiryMs = 0;

  /** `maxThrottleMs`: ClientRequestQuotaManager bounds a throttle by one window; the byte rates do not. */
  constructor(readonly window: WindowConfig, private readonly maxThrottleMs = Infinity) {}

  /** The quotas of this type now in force; rates already measured keep their samples (Kafka updates their bound). */
  update(overrides: QuotaOverrides): void {
    this.overrides = overrides;
  }

  /** ClientQuotaManager.quotasEnabled: some entity has a quota of this type. */
  get enabled(): boolean {
    return this.overrides.enabled;
  }

  /** maybeRecordAndGetThrottleTimeMs: records `value`, then the throttle time if the rate is over its bound (else 0). */
  recordAndGetThrottleTimeMs(user: string, clientId: string, value: number, now: number): number {
    if (!this.enabled) return 0;
    const tags = this.overrides.metricTags(user, clientId);
    const rate = this.rateOf(tags, now);
    rate.record(this.window, value, now);
    const bound = this.overrides.limit(tags) ?? UNLIMITED;
    const measured = rate.measure(this.window, now);
    if (measured <= bound) return 0;
    return Math.min(rateThrottleTimeMs(measured, bound, rate.windowSize(this.window, now)), this.maxThrottleMs);
  }

  /** recordNoThrottle (the request quota's network time); unrecordQuotaSensor with a negative value. */
  recordNoThrottle(user: string, clientId: string, value: number, now: number): void {
    if (!this.enabled) return;
    this.rateOf(this.overrides.metricTags(user, clientId), now).record(this.window, value, now);
  }

  /** maxValueInQuotaWindow: what the bound lets through in samples - 1 windows (a throttled Fetch reads no more). */
  maxValueInQuotaWindow(user: string, clientId: string): number {
    if (!this.enabled) return Number.MAX_VALUE;
    const bound = this.overrides.limit(this.overrides.metricTags(user, clientId));
    return bound === undefined ? Number.MAX_VALUE : bound * (this.window.samples - 1) * (this.window.windowMs / 1000);
  }

  private rateOf(tags: MetricTags, now: number): SampledRate {
    if (now >= this.nextExpiryMs) {
      this.nextExpiryMs = now + 60_000;
      for (const [key, rate] of this.rates) if (now - rate.lastEventMs > INACTIVE_EXPIRY_MS) this.rates.delete(key);
    }
    const key = tagsKey(tags);
    let rate = this.rates.get(key);
    if (rate === undefined) this.rates.set(key, (rate = new SampledRate()));
    return rate;
  }
}
