/**
 * The live tail: Server-Sent Events of a topic's new records. Each partition log's append listener only marks the
 * tail due; a tick TICK_MS later reads what arrived since (browse from the last positions, filter applied). A tick
 * sends at most TICK_RECORDS; a partition further behind than that skips ahead to its newest records and says
 * how many it skipped, so a fast producer costs the tail a bounded read per tick.
 */
import type { PartitionLog } from '../../storage/log.js';
import type { Scheduler } from '../../storage/scheduler.js';
import { browse, type MessageFilter, type ShownRecord } from './messages.js';

const TICK_MS = 100;
const TICK_RECORDS = 200;
const KEEP_ALIVE_MS = 15_000;

export type TailEvent =
  | { readonly type: 'records'; readonly records: readonly ShownRecord[] }
  | { readonly type: 'skipped'; readonly partition: number; readonly count: number };

/** Starts tailing from each log's high watermark; returns the stop function. */
export function startTail(logs: ReadonlyMap<number, PartitionLog>, filter: MessageFilter, scheduler: Scheduler,
  send: (event: TailEvent | null) => void): () => void {
  const positions: Record<number, number> = {};
  for (const [partition, log] of logs) positions[partition] = log.highWatermark;
  let stopped = false;
  let due: (() => void) | undefined;
  let reading = false;

  const tick = async (): Promise<void> => {
    due = undefined;
    if (stopped) return;
    // Appends during a read are read by the next tick.
    if (reading) return schedule();
    reading = true;
    try {
      for (const [partition, log] of logs) {
        const behind = log.highWatermark - positions[partition]!;
        if (behind > TICK_RECORDS) {
          send({ type: 'skipped', partition, count: behind - TICK_RECORDS });
          positions[partition] = log.highWatermark - TICK_RECORDS;
        }
        if (positions[partition]! < log.logStartOffset) positions[partition] = log.logStartOffset;
      }
      const page = await browse(logs, { partitions: [...logs.keys()], from: { kind: 'offset', offset: positions }, limit: TICK_RECORDS, filter });
      if (stopped) return;
      Object.assign(positions, page.next);
      if (page.records.length > 0) send({ type: 'records', records: page.records });
      if (!page.done) schedule();
    } catch {
      // A partition deleted under the tail: it ends.
      stop();
      send(null);
    } finally {
      reading = false;
    }
  };
  const schedule = (): void => {
    if (due === undefined && !stopped) due = scheduler.after(TICK_MS, () => void tick());
  };
  const unsubscribe = [...logs.values()].map((log) => log.onAppend(schedule));
  const keepAlive = scheduler.every(KEEP_ALIVE_MS, () => send({ type: 'records', records: [] }));
  const stop = (): void => {
    if (stopped) return;
    stopped = true;
    due?.();
    keepAlive();
    for (const off of unsubscribe) off();
  };
  return stop;
}
