// Kafka's `<log.dir>/.lock`: while a store has a log dir open it holds an exclusive OS lock on this file, so a
// second broker on the same dir (in another process or this one) is refused before it reads anything. The lock is
// the kernel's (fcntl open-file-description lock on Linux, as Java's FileChannel.tryLock takes a fcntl lock for
// Kafka; flock on macOS, LockFileEx on Windows): it goes with the process, so a SIGKILLed broker leaves none
// behind. The file itself stays after release, as Kafka 4.3.1 leaves it.

import { open, type FileHandle } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { onFirstUse } from '../../lazy-modules.js';
import { StorageError } from '../errors.js';
import { LOCK_FILE } from './segment-files.js';

/** The part of fs-native-extensions' native binding used here (offset 0, length 0: the whole file). */
interface LockBinding {
  tryLock(fd: number, offset: number, length: number, exclusive: boolean): void;
  unlock(fd: number, offset: number, length: number): void;
}

/**
 * fs-native-extensions' prebuilt addon for this platform, loaded by its path in the package. The package's
 * own entry finds the same file through a resolver of its own (require-addon and three more modules) that
 * costs ~4.5 MB of idle RSS and ~8 ms of start-up; the addon alone ~0.1 MB and ~1 ms.
 */
const lockBinding = onFirstUse<LockBinding>(`fs-native-extensions/prebuilds/${process.platform}-${process.arch}/fs-native-extensions.node`);

/** What the binding throws when another open file holds the lock: fcntl and flock say EAGAIN (fcntl may say
 * EACCES), Windows' lock violation reaches libuv as EBUSY. */
const HELD_ELSEWHERE = new Set(['EAGAIN', 'EACCES', 'EBUSY']);

/** A second broker on a log dir whose lock is held. */
export class LogDirInUseError extends StorageError {
  constructor(readonly lockFile: string) {
    super('KAFKA_STORAGE_ERROR', `Failed to acquire lock on file ${lockFile}: another broker (in this process or another) is using this log dir`);
    this.name = 'LogDirInUseError';
  }
}

export class LogDirLock {
  private released: Promise<void> | undefined;

  private constructor(
    readonly file: string,
    private readonly handle: FileHandle,
  ) {}

  /** Locks `<dir>/.lock` (created if missing), or throws LogDirInUseError when another holder has it. */
  static async acquire(dir: string): Promise<LogDirLock> {
    const file = resolve(join(dir, LOCK_FILE));
    const handle = await open(file, 'a+');
    try {
      lockBinding().tryLock(handle.fd, 0, 0, true);
    } catch (err) {
      await handle.close();
      if (HELD_ELSEWHERE.has((err as NodeJS.ErrnoException).code ?? '')) throw new LogDirInUseError(file);
      throw err;
    }
    return new LogDirLock(file, handle);
  }

  /** Unlocks and closes the file (closing alone would release it; unlocking first says so). Idempotent. */
  release(): Promise<void> {
    this.released ??= (async () => {
      lockBinding().unlock(this.handle.fd, 0, 0);
      await this.handle.close();
    })();
    return this.released;
  }
}
