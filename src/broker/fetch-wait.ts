// Fetch long polling (Kafka's DelayedFetch purgatory): a fetch waits until one of its logs is appended to,
// max_wait_ms passes, the broker starts closing, or the client's connection closes (nobody is left to answer: the
// wait must not keep its reads alive until max_wait_ms). Appends wake a waiter through PartitionLog.onAppend; the
// only timer is the one for max_wait_ms. Shutdown wakes every waiter from this one set: no listener per waiter on a
// shared signal or emitter (Node warns past 10 listeners, as plain text in the middle of the JSON log); a
// connection's own signal has one waiter at most (Fetch is served one at a time per connection). max_wait_ms is
// measured on the broker's clock, as Kafka's purgatory on its Time: a manual clock ends an idle long poll only when
// advanced past its deadline.
import type { Scheduler } from '../storage/scheduler.js';

export type WakeReason = 'append' | 'timeout' | 'shutdown' | 'closed';

/** What wakes a long poll: a log's appends, or anything else that calls its listeners (a share partition's releases). */
export interface WakeSource {
  onAppend(listener: () => void): () => void;
}

export class DelayedFetches {
  private readonly waiting = new Set<(reason: WakeReason) => void>();
  private closed = false;

  constructor(private readonly clock: Scheduler) {}

  /** Long polls waiting now (Kafka's DelayedFetch purgatory size). */
  get size(): number {
    return this.waiting.size;
  }

  wait(logs: readonly WakeSource[], waitMs: number, abandoned?: AbortSignal): Promise<WakeReason> {
    if (this.closed) return Promise.resolve('shutdown');
    if (abandoned?.aborted) return Promise.resolve('closed');
    if (waitMs <= 0) return Promise.resolve('timeout');
    return new Promise<WakeReason>((resolve) => {
      const unsubscribes: (() => void)[] = [];
      const finish = (reason: WakeReason) => {
        if (!this.waiting.delete(finish)) return;
        cancelTimer();
        abandoned?.removeEventListener('abort', onAbandoned);
        for (const unsubscribe of unsubscribes) unsubscribe();
        resolve(reason);
      };
      const onAbandoned = () => finish('closed');
      this.waiting.add(finish);
      const cancelTimer = this.clock.after(waitMs, () => finish('timeout'));
      abandoned?.addEventListener('abort', onAbandoned, { once: true });
      for (const log of new Set(logs)) unsubscribes.push(log.onAppend(() => finish('append')));
    });
  }

  /** The broker is closing: every long poll answers now with what it has, and later ones do not wait. */
  shutdown(): void {
    this.closed = true;
    for (const finish of [...this.waiting]) finish('shutdown');
  }
}
