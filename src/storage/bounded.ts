// Many partitions' file work (open at start-up or creation, close at shutdown) runs a bounded number at a
// time, as Kafka does on num.recovery.threads.per.data.dir threads: overlapped I/O, bounded open files.

/** How many partitions are opened or closed at once. */
export const PARTITION_IO_CONCURRENCY = 16;

/**
 * Run `job` for every item with at most `limit` running at once. Every job runs even when one fails; the
 * first failure is thrown once all have finished.
 */
export async function forEachBounded<T>(items: readonly T[], limit: number, job: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      try {
        await job(items[index]!, index);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(limit, 1), items.length) }, worker));
  if (failure !== undefined) throw failure.error;
}
