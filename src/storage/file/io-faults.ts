// Failed file I/O on a log dir's files (a full disk, no descriptor left, a failing device): reported at ERROR
// as Kafka's LogDirFailureChannel does, and answered with KAFKA_STORAGE_ERROR. Kafka takes the log dir offline
// after the first; gregor keeps trying, so a fault that repeats (every produce to a full disk) is logged once
// until the same operation succeeds again, which is reported with how many more failed meanwhile.
import { basename, dirname } from 'node:path';
import { StorageError } from '../errors.js';

/** An operating-system error (ENOSPC, EMFILE, EIO...), not a bug nor one already reported. */
export function isSystemError(err: unknown): err is NodeJS.ErrnoException {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return !(err instanceof StorageError) && typeof code === 'string' && /^E[A-Z0-9]+$/.test(code);
}

/** `<topic>-<partition> in dir <log dir>`, as Kafka names a partition in these messages. */
export function partitionPlace(partitionDir: string): string {
  return `${basename(partitionDir)} in dir ${dirname(partitionDir)}`;
}

export class IoFaults {
  /** `<operation> <code>` → failures since the one logged. */
  private readonly failing = new Map<string, number>();

  constructor(
    /** Also the seam for other faults Kafka logs at ERROR (an index file missing where it must be). */
    readonly error: (message: string) => void = () => {},
    readonly warn: (message: string) => void = () => {},
  ) {}

  /** `job`, its failure reported (see failed) and its success noted. */
  async run<T>(operation: string, where: string, job: () => Promise<T>): Promise<T> {
    let result: T;
    try {
      result = await job();
    } catch (err) {
      throw this.failed(operation, where, err);
    }
    if (this.failing.size > 0) this.succeeded(operation, where);
    return result;
  }

  /**
   * The error to throw for `err`, raised while `operation` ('appending records to', 'flushing'...) ran `where`
   * (see partitionPlace); a system error is logged (unless it repeats) and becomes KAFKA_STORAGE_ERROR.
   */
  failed(operation: string, where: string, err: unknown): unknown {
    if (!isSystemError(err)) return err;
    const message = `Error while ${operation} ${where}: ${err.message}`;
    const key = `${operation} ${err.code}`;
    const repeated = this.failing.get(key);
    if (repeated === undefined) this.error(message);
    this.failing.set(key, (repeated ?? -1) + 1);
    return new StorageError('KAFKA_STORAGE_ERROR', message);
  }

  private succeeded(operation: string, where: string): void {
    for (const [key, more] of this.failing) {
      if (!key.startsWith(`${operation} `)) continue;
      this.failing.delete(key);
      if (more > 0) this.warn(`${operation} ${where} succeeded again; ${more} later failures with ${key.slice(operation.length + 1)} were not logged`);
    }
  }
}
