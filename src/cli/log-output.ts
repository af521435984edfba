// Where the command's log lines go: stdout, in the order written, never holding up the broker or its exit.
//
// process.stdout writes a line at once when it can and queues it behind the pending ones when the reader is
// behind (a pipe), so lines keep their order. A write error (EPIPE once the reader is gone, as after
// `gregor | head -1`) ends the log there: the broker runs on and shuts down as usual, as Kafka's console
// appender does. pino's own destination (sonic-boom) is not used: its flush at exit retried a broken pipe
// for ever (the process never exited, and being stuck in that loop it heard no second signal), and lines
// still in flight when it flushed at exit were overtaken by later ones.

export interface LogOutput {
  write(line: string): void;
  /** Resolves once every line written so far has left the process, or never can (the stream failed). */
  flushed(): Promise<void>;
}

export function streamLogOutput(stream: NodeJS.WriteStream): LogOutput {
  let failed = false;
  stream.on('error', () => {
    failed = true;
  });
  return {
    write(line) {
      if (!failed && !stream.destroyed) stream.write(line);
    },
    flushed() {
      if (failed || stream.destroyed || stream.writableLength === 0) return Promise.resolve();
      // The callback of an empty write runs once everything before it is written, or on an error.
      return new Promise((resolve) => stream.write('', () => resolve()));
    },
  };
}

/**
 * A closed stderr (`gregor 2>&1 | head -1`) must not crash the broker either: its write errors are dropped
 * (an 'error' event without a listener would be thrown).
 */
export function ignoreStderrErrors(): void {
  process.stderr.on('error', () => {});
}
