// Fetch long polling (Kafka's DelayedFetch): wait until one of the fetched logs is appended to, max_wait_ms
// passes, or the broker starts closing. Appends wake the waiter through PartitionLog.onAppend; the only timer
// is the one for max_wait_ms.
import type { PartitionLog } from '../storage/log.js';

export type WakeReason = 'append' | 'timeout' | 'shutdown';

export function waitForAppend(logs: readonly PartitionLog[], waitMs: number, shutdown: AbortSignal): Promise<WakeReason> {
  if (shutdown.aborted) return Promise.resolve('shutdown');
  if (waitMs <= 0) return Promise.resolve('timeout');
  return new Promise<WakeReason>((resolve) => {
    const unsubscribes: (() => void)[] = [];
    const finish = (reason: WakeReason) => {
      clearTimeout(timer);
      shutdown.removeEventListener('abort', onShutdown);
      for (const unsubscribe of unsubscribes) unsubscribe();
      resolve(reason);
    };
    const onShutdown = () => finish('shutdown');
    const timer = setTimeout(() => finish('timeout'), waitMs);
    shutdown.addEventListener('abort', onShutdown, { once: true });
    for (const log of new Set(logs)) unsubscribes.push(log.onAppend(() => finish('append')));
  });
}
