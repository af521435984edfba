// Fetch long polling (Kafka's DelayedFetch): wait until one of the fetched logs is appended to, max_wait_ms
// passes, the broker starts closing, or the client's connection closes (nobody is left to answer: the wait
// must not keep its reads alive until max_wait_ms). Appends wake the waiter through PartitionLog.onAppend;
// the only timer is the one for max_wait_ms.
import type { PartitionLog } from '../storage/log.js';

export type WakeReason = 'append' | 'timeout' | 'shutdown' | 'closed';

export function waitForAppend(logs: readonly PartitionLog[], waitMs: number, shutdown: AbortSignal, connectionClosed: AbortSignal): Promise<WakeReason> {
  if (shutdown.aborted) return Promise.resolve('shutdown');
  if (connectionClosed.aborted) return Promise.resolve('closed');
  if (waitMs <= 0) return Promise.resolve('timeout');
  return new Promise<WakeReason>((resolve) => {
    const unsubscribes: (() => void)[] = [];
    const finish = (reason: WakeReason) => {
      clearTimeout(timer);
      shutdown.removeEventListener('abort', onShutdown);
      connectionClosed.removeEventListener('abort', onClosed);
      for (const unsubscribe of unsubscribes) unsubscribe();
      resolve(reason);
    };
    const onShutdown = () => finish('shutdown');
    const onClosed = () => finish('closed');
    const timer = setTimeout(() => finish('timeout'), waitMs);
    shutdown.addEventListener('abort', onShutdown, { once: true });
    connectionClosed.addEventListener('abort', onClosed, { once: true });
    for (const log of new Set(logs)) unsubscribes.push(log.onAppend(() => finish('append')));
  });
}
