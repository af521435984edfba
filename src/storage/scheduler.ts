// Clock and timers, injected so retention, flushing and delayed file deletion can be driven by tests
// without sleeping. The broker has one Clock (gregor.clock): every timer and every reading of broker time
// (coordinators, retention, the cleaner, fetch long polls, quotas' windows, token expiry) goes through it.

export type Cancel = () => void;

export interface Scheduler {
  now(): number;
  /** Run `task` once after `delayMs`. */
  after(delayMs: number, task: () => void): Cancel;
  /** Run `task` every `periodMs`. */
  every(periodMs: number, task: () => void): Cancel;
}

/** The broker's clock: a Scheduler that a manual one lets a test move forward. */
export interface Clock extends Scheduler {
  /** Time moves only through advance (gregor.clock=manual), as Kafka's MockTime. */
  readonly manual: boolean;
  /** Moves a manual clock forward by `ms`, running the timers that fall due; the system clock refuses. */
  advance(ms: number): Promise<void>;
}

/** Real time; timers are unref'd so they never keep the process alive on their own. */
export const systemScheduler: Clock = {
  manual: false,
  advance: () => Promise.reject(new Error('the system clock cannot be advanced (start the broker with gregor.clock=manual)')),
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
export class ManualScheduler implements Clock {
  readonly manual = true;
  private timers: Timer[] = [];
  /** Advances run one after another: a second caller's time starts where the first one's ends. */
  private advancing: Promise<void> = Promise.resolve();

  /**
   * `runDueTimers`: a timer due now (delay 0: "at once, behind what is queued") runs on the next turn of the event
   * loop without an advance, as it would on the system clock (the broker's manual clock; unit tests leave it off to
   * step even those by hand).
   */
  constructor(private time = 0, private readonly runDueTimers = false) {}

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
  advance(ms: number): Promise<void> {
    if (!Number.isSafeInteger(ms) || ms < 0) return Promise.reject(new RangeError(`advance: ${ms} is not a whole number of milliseconds >= 0`));
    const run = this.advancing.then(() => this.advanceNow(ms));
    this.advancing = run.catch(() => undefined);
    return run;
  }

  private async advanceNow(ms: number): Promise<void> {
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
    // Long polls add and cancel a timer each: the cancelled ones go before the list grows without bound.
    if (this.timers.length >= 1024 && this.timers.length % 1024 === 0) this.timers = this.timers.filter((t) => !t.cancelled);
    this.timers.push(timer);
    if (this.runDueTimers && timer.due <= this.time) setImmediate(() => void this.advance(0));
    return () => {
      timer.cancelled = true;
    };
  }
}

/** Let pending I/O callbacks and promise chains run. */
function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
