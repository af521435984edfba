/**
 * Kafka's TokenBucket (KIP-599), what controller_mutation_rate measures: tokens refill at `bound` per second up to a
 * burst of samples × window × bound; a mutation takes as many tokens as the partitions it creates or deletes, and the
 * bucket may go negative. A fresh bucket starts full (its first refill covers the time since the epoch).
 */
import { javaRound, type WindowConfig } from './sampled-rate.js';

export class TokenBucket {
  private tokens = 0;
  private lastUpdateMs = 0;

  /** TokenBucket.measure: the tokens left now. */
  measure(config: WindowConfig, bound: number, now: number): number {
    this.refill(bound, burst(config, bound), now);
    return this.tokens;
  }

  record(config: WindowConfig, bound: number, value: number, now: number): void {
    const max = burst(config, bound);
    this.refill(bound, max, now);
    this.tokens = Math.min(max, this.tokens - value);
  }

  private refill(bound: number, max: number, now: number): void {
    this.tokens = Math.min(max, this.tokens + (bound * (now - this.lastUpdateMs)) / 1000);
    this.lastUpdateMs = now;
  }
}

function burst(config: WindowConfig, bound: number): number {
  return config.samples * (config.windowMs / 1000) * bound;
}

/** ControllerMutationQuotaManager.throttleTimeMs: the time for a negative bucket to refill to zero. */
export function tokenThrottleTimeMs(tokens: number, bound: number): number {
  return javaRound((-tokens / bound) * 1000);
}
