// The file engine's descriptors, bounded. A partition's .log is opened when it is used and stays open until the
// process holds as many as its budget allows, then the least recently used idle one is closed (it opens again on
// its next use). Short-lived files (checkpoints, index files written or read whole) are opened a bounded number
// at a time. Kafka keeps every segment's .log open and needs a descriptor limit above its segment count; here a
// broker with more partitions than descriptors serves them all, and keeps descriptors for its connections.
// One pool per process, as the limit is the process's.
import { open, type FileHandle } from 'node:fs/promises';
import { fileBudget } from './descriptor-limit.js';

/** The process has no descriptor left (EMFILE) or the system none (ENFILE). */
export function isOutOfDescriptors(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return code === 'EMFILE' || code === 'ENFILE';
}

export class SegmentFilePool {
  /** Open files, least recently used first. */
  private readonly lru = new Set<PooledFile>();
  /** Descriptors held or being opened. */
  private slots = 0;
  private readonly waiters: (() => void)[] = [];
  private shortLived = 0;
  private readonly shortLivedWaiters: (() => void)[] = [];

  constructor(
    readonly capacity: number,
    readonly shortLivedCapacity = Infinity,
  ) {}

  /** A file opened with `flags` the first time, then 'r+' (a new segment's 'w+' must not truncate it twice). */
  file(path: () => string, flags = 'r+'): PooledFile {
    return new PooledFile(this, path, flags);
  }

  /** Descriptors held by the pool's files. */
  get openFiles(): number {
    return this.slots;
  }

  /**
   * Runs `job`, which opens one file at a time with openShortLived and closes it before it returns, once fewer than
   * shortLivedCapacity such jobs run. A job must not wait for a pooled file nor run another: it then always ends.
   */
  async shortLivedFile<T>(job: () => Promise<T>): Promise<T> {
    while (this.shortLived >= this.shortLivedCapacity) await new Promise<void>((resolve) => this.shortLivedWaiters.push(resolve));
    this.shortLived++;
    try {
      return await job();
    } finally {
      this.shortLived--;
      this.shortLivedWaiters.shift()?.();
    }
  }

  /** @internal A descriptor for `file`: a free one, an idle file's, or the next one released. */
  async takeSlot(): Promise<void> {
    for (;;) {
      if (this.slots < this.capacity) {
        this.slots++;
        return;
      }
      const victim = this.idleVictim();
      // The victim's descriptor passes to the caller: slots is unchanged.
      if (victim !== undefined) return victim.evict();
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  /** @internal */
  freeSlot(): void {
    this.slots--;
    this.wake();
  }

  /** @internal */
  touch(file: PooledFile): void {
    this.lru.delete(file);
    this.lru.add(file);
  }

  /** @internal */
  forget(file: PooledFile): void {
    this.lru.delete(file);
  }

  /** @internal A file's last user left: a waiter may take its descriptor. */
  wake(): void {
    this.waiters.shift()?.();
  }

  /** Opens, closing idle pooled files while the process is out of descriptors. */
  async openShedding(path: string, flags: string | number, mode?: number): Promise<FileHandle> {
    for (;;) {
      try {
        return await open(path, flags, mode);
      } catch (err) {
        const victim = isOutOfDescriptors(err) ? this.idleVictim() : undefined;
        if (victim === undefined) throw err;
        await victim.evict();
        this.slots--;
      }
    }
  }

  private idleVictim(): PooledFile | undefined {
    for (const file of this.lru) if (file.idle) return file;
    return undefined;
  }
}

/** One segment's .log: `use` lends its handle, opening it (within the pool's budget) when it is closed. */
export class PooledFile {
  private handle: FileHandle | undefined;
  private opening: Promise<FileHandle> | undefined;
  private users = 0;
  private idleWaiters: (() => void)[] = [];

  constructor(
    private readonly pool: SegmentFilePool,
    private readonly path: () => string,
    private flags: string,
  ) {}

  get idle(): boolean {
    return this.users === 0 && this.handle !== undefined;
  }

  get isOpen(): boolean {
    return this.handle !== undefined;
  }

  /** Runs `job` with the open handle; the handle is not closed while a job runs. */
  async use<T>(job: (file: FileHandle) => Promise<T>): Promise<T> {
    const handle = await this.acquire();
    try {
      return await job(handle);
    } finally {
      this.release();
    }
  }

  /** Closes the handle once no job uses it; a later `use` opens it again. */
  async close(): Promise<void> {
    while (this.users > 0 || this.opening !== undefined) {
      await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
    }
    const handle = this.handle;
    if (handle === undefined) return;
    this.handle = undefined;
    this.pool.forget(this);
    try {
      await handle.close();
    } finally {
      this.pool.freeSlot();
    }
  }

  /** @internal The pool takes this idle file's descriptor. */
  async evict(): Promise<void> {
    const handle = this.handle!;
    this.handle = undefined;
    this.pool.forget(this);
    await handle.close().catch(() => undefined);
  }

  private async acquire(): Promise<FileHandle> {
    this.users++;
    try {
      while (this.handle === undefined) {
        if (this.opening !== undefined) {
          await this.opening.catch(() => undefined);
          continue;
        }
        this.opening = this.openInSlot();
        try {
          this.handle = await this.opening;
        } finally {
          this.opening = undefined;
        }
      }
      this.pool.touch(this);
      return this.handle;
    } catch (err) {
      this.release();
      throw err;
    }
  }

  private release(): void {
    this.users--;
    if (this.users > 0) return;
    for (const resolve of this.idleWaiters.splice(0)) resolve();
    this.pool.wake();
  }

  private async openInSlot(): Promise<FileHandle> {
    await this.pool.takeSlot();
    try {
      const handle = await this.pool.openShedding(this.path(), this.flags);
      this.flags = 'r+';
      return handle;
    } catch (err) {
      this.pool.freeSlot();
      throw err;
    }
  }
}

let shared: SegmentFilePool | undefined;

/** The process's pool, its capacities from the descriptor limit (read once). */
export function segmentFilePool(): SegmentFilePool {
  if (shared === undefined) {
    const budget = fileBudget();
    shared = new SegmentFilePool(budget.segments, budget.shortLived);
  }
  return shared;
}

/** A short-lived file, opened within the process's budget (see shortLivedFile): `job` runs with it, then it closes. */
export function withShortLivedFile<T>(path: string, flags: string | number, job: (file: FileHandle) => Promise<T>, mode?: number): Promise<T> {
  const pool = segmentFilePool();
  return pool.shortLivedFile(async () => {
    const file = await pool.openShedding(path, flags, mode);
    try {
      return await job(file);
    } finally {
      await file.close();
    }
  });
}
