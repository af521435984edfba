/**
 * Kafka 4.3.1's ControllerMutationQuotaManager (KIP-599): controller_mutation_rate counts the partitions a client
 * creates or deletes (CreateTopics, CreatePartitions, DeleteTopics) in a token bucket per resolved entity. From the
 * version each API names on (strict), a mutation asked while the bucket is empty is refused with
 * THROTTLING_QUOTA_EXCEEDED and the throttle time; before it (permissive) it is done, and the client throttled.
 */
import { KafkaError } from '../../protocol/kafka-error.js';
import { QuotaOverrides, type MetricTags } from './quota-resolution.js';
import type { WindowConfig } from './sampled-rate.js';
import { TokenBucket, tokenThrottleTimeMs } from './token-bucket.js';

/** One request's view of its client's bucket. */
export interface ControllerMutationQuota {
  /** Takes `permits` partitions; a strict quota over its bound throws THROTTLING_QUOTA_EXCEEDED instead. */
  record(permits: number): void;
  /** The throttle time left from the last violation, 0 if none. */
  throttleTimeMs(): number;
}

const UNBOUNDED: ControllerMutationQuota = { record: () => undefined, throttleTimeMs: () => 0 };

const tagsKey = (tags: MetricTags): string => `${tags.user}\u0000${tags.clientId}`;

export class ControllerMutationQuotaManager {
  private overrides = new QuotaOverrides();
  private readonly buckets = new Map<string, TokenBucket>();

  constructor(readonly window: WindowConfig, private readonly clock: () => number = Date.now) {}

  update(overrides: QuotaOverrides): void {
    this.overrides = overrides;
  }

  /** newQuotaFor: strict from `strictSinceVersion` on, unbounded while no controller_mutation_rate is set anywhere. */
  newQuotaFor(user: string, clientId: string, version: number, strictSinceVersion: number): ControllerMutationQuota {
    if (!this.overrides.enabled) return UNBOUNDED;
    const tags = this.overrides.metricTags(user, clientId);
    const bound = this.overrides.limit(tags);
    if (bound === undefined) return UNBOUNDED;
    const key = tagsKey(tags);
    let bucket = this.buckets.get(key);
    if (bucket === undefined) this.buckets.set(key, (bucket = new TokenBucket()));
    return new BucketQuota(bucket, bound, this.window, version >= strictSinceVersion, this.clock);
  }
}

class BucketQuota implements ControllerMutationQuota {
  private lastThrottleTimeMs = 0;
  private lastRecordedTimeMs = 0;

  constructor(
    private readonly bucket: TokenBucket,
    private readonly bound: number,
    private readonly window: WindowConfig,
    private readonly strict: boolean,
    private readonly clock: () => number,
  ) {}

  record(permits: number): void {
    const now = this.clock();
    if (this.strict) {
      // StrictControllerMutationQuota: refused while the bucket is below zero, else taken (it may go below).
      const tokens = this.bucket.measure(this.window, this.bound, now);
      if (tokens < 0) {
        this.violated(tokens, now);
        throw new KafkaError('THROTTLING_QUOTA_EXCEEDED');
      }
      this.bucket.record(this.window, this.bound, permits, now);
      return;
    }
    this.bucket.record(this.window, this.bound, permits, now);
    const tokens = this.bucket.measure(this.window, this.bound, now);
    if (tokens < 0) this.violated(tokens, now);
  }

  throttleTimeMs(): number {
    if (this.lastThrottleTimeMs <= 0) return 0;
    return Math.max(0, this.lastThrottleTimeMs - (this.clock() - this.lastRecordedTimeMs));
  }

  private violated(tokens: number, now: number): void {
    this.lastThrottleTimeMs = tokenThrottleTimeMs(tokens, this.bound);
    this.lastRecordedTimeMs = now;
  }
}
