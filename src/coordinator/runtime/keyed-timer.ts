/**
 * Kafka's CoordinatorTimer: one pending task per key, scheduling a key again replaces its task. Built on
 * the storage's injected Scheduler, so tests drive it with a ManualScheduler and never sleep.
 */
import type { Cancel, Scheduler } from '../../storage/scheduler.js';

export interface CoordinatorTimer<T> {
  /** Run `task` after `delayMs`, replacing any task pending under `key`. */
  schedule(key: string, delayMs: number, task: () => T): void;
  cancel(key: string): void;
  isScheduled(key: string): boolean;
}

export class KeyedTimer<T> implements CoordinatorTimer<T> {
  private readonly pending = new Map<string, Cancel>();

  /** `run` receives what each task returns (the runtime applies it as an event's outcome). */
  constructor(
    private readonly scheduler: Scheduler,
    private readonly run: (result: T) => void,
  ) {}

  schedule(key: string, delayMs: number, task: () => T): void {
    this.cancel(key);
    const cancel = this.scheduler.after(Math.max(0, delayMs), () => {
      if (this.pending.get(key) !== cancel) return;
      this.pending.delete(key);
      this.run(task());
    });
    this.pending.set(key, cancel);
  }

  cancel(key: string): void {
    const cancel = this.pending.get(key);
    if (cancel === undefined) return;
    this.pending.delete(key);
    cancel();
  }

  isScheduled(key: string): boolean {
    return this.pending.has(key);
  }

  cancelAll(): void {
    for (const cancel of this.pending.values()) cancel();
    this.pending.clear();
  }
}
