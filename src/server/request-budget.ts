/**
 * queued.max.requests: how many requests the whole broker works on at once. Kafka queues requests between
 * its network threads and its handler threads, and a full queue stops every network thread from reading;
 * gregor handles a request as soon as it is read, so its "queue" is the requests taken off the wire whose
 * handler has not finished. At the bound, connections stop taking requests and wait here, woken in
 * arrival order as handlers finish. A connection with nothing in flight may always take one: a request
 * parked for long (a Fetch long poll, a JoinGroup) sits in Kafka's purgatory, outside its queue, and must
 * not stop other clients.
 */
export class RequestBudget {
  private inProgress = 0;
  private readonly waiting = new Set<() => void>();
  private waking = false;

  constructor(private readonly max: number) {}

  /** Requests taken and not yet finished, broker-wide. */
  get requestsInProgress(): number {
    return this.inProgress;
  }

  hasRoom(): boolean {
    return this.inProgress < this.max;
  }

  take(): void {
    this.inProgress += 1;
  }

  finish(): void {
    this.inProgress -= 1;
    this.wakeWaiting();
  }

  /** Calls `wake` once there is room (it must then take or wait again). */
  wait(wake: () => void): void {
    this.waiting.add(wake);
  }

  forget(wake: () => void): void {
    this.waiting.delete(wake);
  }

  private wakeWaiting(): void {
    // A woken connection takes requests at once, and a synchronous handler finishes inside it: one loop wakes.
    if (this.waking) return;
    this.waking = true;
    try {
      for (const wake of this.waiting) {
        if (!this.hasRoom()) break;
        this.waiting.delete(wake);
        wake();
      }
    } finally {
      this.waking = false;
    }
  }
}

/** No bound: for a Connection used on its own (tests). */
export const UNBOUNDED_REQUESTS = new RequestBudget(Number.POSITIVE_INFINITY);
