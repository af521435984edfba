// Clock and timers, injected so retention, flushing and delayed file deletion can be driven by tests
// without sleeping.

export type Cancel = () => void;

export interface Scheduler {
  now(): number;
  /** Run `task` once after `delayMs`. */
  after(delayMs: number, task: () => void): Cancel;
  /** Run `task` every `periodMs`. */
  every(periodMs: number, task: () => void): Cancel;
}

/** Real time; timers are unref'd so they never keep the process alive on their own. */
export const systemScheduler: Scheduler = {
  now: () => Date.now(),
  after(delayMs, task) {
    const t = setTimeout(task, delayMs);
    t.unref();
    return () => clearTimeout(t);
  },
  every(periodMs, task) {
    const t = setInterval(task, periodMs);
    t.unref();
    return () => clearInterval(t);
  },
};

interface Timer {
  due: number;
  period: number;
  task: () => void;
  cancelled: boolean;
}

/** A clock that only moves when told to; `advance` runs the timers that fall due, in time order. */
export class ManualScheduler implements Scheduler {
  private timers: Timer[] = [];

  constructor(private time = 0) {}

  now(): number {
    return this.time;
  }

  after(delayMs: number, task: () => void): Cancel {
    return this.add(delayMs, 0, task);
  }

  every(periodMs: number, task: () => void): Cancel {
    return this.add(periodMs, Math.max(1, periodMs), task);
  }

  /** Move the clock forward, running due timers (and letting the promises they start settle). */
  async advance(ms: number): Promise<void> {
    const end = this.time + ms;
    for (;;) {
      const next = this.timers.filter((t) => !t.cancelled && t.due <= end).sort((a, b) => a.due - b.due)[0];
      if (next === undefined) break;
      this.time = Math.max(this.time, next.due);
      if (next.period > 0) next.due += next.period;
      else next.cancelled = true;
      next.task();
      await settle();
    }
    this.time = end;
    this.timers = this.timers.filter((t) => !t.cancelled);
    await settle();
  }

  private add(delayMs: number, period: number, task: () => void): Cancel {
    const timer: Timer = { due: this.time + Math.max(0, delayMs), period, task, cancelled: false };
    this.timers.push(timer);
    return () => {
      timer.cancelled = true;
    };
  }
}

/** Let pending I/O callbacks and promise chains run. */
function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
