// Failed file I/O on a partition's files (a full disk, no descriptor left, a failing device): reported at ERROR
// as Kafka's LogDirFailureChannel does, and answered with KAFKA_STORAGE_ERROR. Kafka takes the log dir offline
// after the first; gregor keeps trying, so a fault that repeats (every produce to a full disk) is logged once
// until the same operation succeeds again, then how many more failed is reported.
import { basename, dirname } from 'node:path';
import { StorageError } from '../errors.js';

/** An operating-system error (ENOSPC, EMFILE, EIO...), not a bug. */
export function isSystemError(err: unknown): err is NodeJS.ErrnoException {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' && /^E[A-Z0-9]+$/.test(code);
}

export class IoFaults {
  /** `<operation> <code>` → failures since the one logged. */
  private readonly failing = new Map<string, number>();

  constructor(
    private readonly error: (message: string) => void = () => {},
    private readonly warn: (message: string) => void = () => {},
  ) {}

  /** `job`, its failure reported (see failed) and its success noted (see succeeded). */
  async run<T>(operation: string, dir: string, job: () => Promise<T>): Promise<T> {
    let result: T;
    try {
      result = await job();
    } catch (err) {
      throw this.failed(operation, dir, err);
    }
    this.succeeded(operation);
    return result;
  }

  /**
   * The error to throw for `err`, raised while `operation` ('appending records to', 'flushing'...) ran on the
   * partition dir `dir`; a system error is logged (unless it repeats) and becomes KAFKA_STORAGE_ERROR.
   */
  failed(operation: string, dir: string, err: unknown): unknown {
    if (!isSystemError(err)) return err;
    const message = `Error while ${operation} ${basename(dir)} in dir ${dirname(dir)}: ${err.message}`;
    const key = `${operation} ${err.code}`;
    const repeated = this.failing.get(key);
    if (repeated === undefined) this.error(message);
    this.failing.set(key, (repeated ?? -1) + 1);
    return new StorageError('KAFKA_STORAGE_ERROR', message);
  }

  /** `operation` succeeded: a failure of it is logged again. */
  succeeded(operation: string): void {
    if (this.failing.size === 0) return;
    for (const [key, more] of this.failing) {
      if (!key.startsWith(`${operation} `)) continue;
      this.failing.delete(key);
      if (more > 0) this.warn(`${operation} a partition succeeds again, after ${more} more failures with ${key.slice(operation.length + 1)} that were not logged`);
    }
  }
}
