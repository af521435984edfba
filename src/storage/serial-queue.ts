// Runs async jobs one at a time, in order: a log's mutations (append, roll, truncate, retention) must not
// interleave, while reads run freely alongside them.

export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(job: () => Promise<T>): Promise<T> {
    const result = this.tail.then(job, job);
    // The queue continues whether or not this job failed; the caller sees the failure.
    this.tail = result.catch(() => undefined);
    return result;
  }

  /** Resolves once every job queued so far has finished. */
  idle(): Promise<void> {
    return this.tail.then(() => undefined);
  }
}
