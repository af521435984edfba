/**
 * Kafka's CoordinatorTimer: one pending task per key, scheduling a key again replaces its task. Built on
 * the storage's injected Scheduler, so tests drive it with a ManualScheduler and never sleep.
 *
 * A task that falls due does not run inside the timer callback. Kafka's timer turns an expiry into a write
 * event at the back of the coordinator's event queue (CoordinatorTimerImpl), so requests already received
 * are handled first and a task cancelled or replaced meanwhile never runs. Here the back of the queue is the
 * event loop's check phase (setImmediate): a timers phase runs before the poll phase that reads sockets, so
 * without this a new group's 0 ms join timer (group.initial.rebalance.delay.ms=0) would complete the join
 * ahead of a second member's JoinGroup that had already arrived.
 */
import type { Cancel, Scheduler } from '../../storage/scheduler.js';

export interface CoordinatorTimer<T> {
  /** Run `task` after `delayMs`, replacing any task pending under `key`. */
  schedule(key: string, delayMs: number, task: () => T): void;
  cancel(key: string): void;
  isScheduled(key: string): boolean;
}

/** A task under its key: waiting for its delay, then for its turn; `cancel` stops whichever is current. */
interface Pending {
  cancel: Cancel;
}

export class KeyedTimer<T> implements CoordinatorTimer<T> {
  private readonly pending = new Map<string, Pending>();

  /** `run` receives what each task returns (the runtime applies it as an event's outcome). */
  constructor(
    private readonly scheduler: Scheduler,
    private readonly run: (result: T) => void,
  ) {}

  schedule(key: string, delayMs: number, task: () => T): void {
    this.cancel(key);
    const entry: Pending = { cancel: () => undefined };
    const current = (): boolean => this.pending.get(key) === entry;
    entry.cancel = this.scheduler.after(Math.max(0, delayMs), () => {
      if (!current()) return;
      const turn = setImmediate(() => {
        if (!current()) return;
        this.pending.delete(key);
        this.run(task());
      });
      entry.cancel = () => clearImmediate(turn);
    });
    this.pending.set(key, entry);
  }

  /** Cancels every task whose key `pick` chooses (a coordinator resigning groups). */
  cancelWhere(pick: (key: string) => boolean): void {
    for (const key of [...this.pending.keys()]) if (pick(key)) this.cancel(key);
  }

  cancel(key: string): void {
    const entry = this.pending.get(key);
    if (entry === undefined) return;
    this.pending.delete(key);
    entry.cancel();
  }

  /** True until the task has run (also while it waits for its turn), as Kafka's timer keeps it until its event runs. */
  isScheduled(key: string): boolean {
    return this.pending.has(key);
  }

  cancelAll(): void {
    for (const entry of this.pending.values()) entry.cancel();
    this.pending.clear();
  }
}
