// The file engine's producer-state snapshots: `<offset>.snapshot` files (producer-snapshot.ts) in the partition
// directory, written when the log rolls a segment and when it closes. At open the newest usable one is loaded
// (Kafka's ProducerStateManager + LogLoader): one past the log end (a tail lost in a crash), below the log start,
// or unreadable is deleted, and the broker replays only the batches from its offset on.
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { LoadedProducerState, ProducerSnapshotStore, SnapshotEntry } from '../producer-state.js';
import { decodeProducerSnapshot, encodeProducerSnapshot } from './producer-snapshot.js';
import { offsetFileName, parseSegmentFileName, SNAPSHOT_SUFFIX } from './segment-files.js';

/** Snapshots kept per partition (the newest ones; older ones are deleted when a new one is written). */
const SNAPSHOTS_KEPT = 2;

export class ProducerSnapshotFiles implements ProducerSnapshotStore {
  /** Offsets of the snapshots on disk, ascending. */
  private offsets: number[] = [];
  private queue: Promise<void> = Promise.resolve();

  constructor(readonly dir: string, private readonly warn: (message: string) => void = () => {}) {}

  get latestOffset(): number {
    return this.offsets.at(-1) ?? -1;
  }

  /**
   * Picks the newest snapshot in [logStartOffset, logEndOffset] that reads back (from the partition dir's
   * listing `names`); the ones out of that range or unreadable are deleted.
   */
  async load(names: readonly string[], logStartOffset: number, logEndOffset: number): Promise<LoadedProducerState> {
    const found = names.map((n) => parseSegmentFileName(n, SNAPSHOT_SUFFIX)).filter((b): b is number => b !== undefined).sort((a, b) => b - a);
    let loaded: LoadedProducerState | undefined;
    for (const offset of found) {
      const path = this.path(offset);
      if (offset < logStartOffset || (loaded === undefined && offset > logEndOffset)) {
        await rm(path, { force: true });
        continue;
      }
      if (loaded !== undefined) {
        this.offsets.unshift(offset);
        continue;
      }
      try {
        loaded = { snapshot: decodeProducerSnapshot(await readFile(path)), replayFrom: offset };
        this.offsets.unshift(offset);
      } catch (error) {
        this.warn(`deleting producer snapshot ${path}: ${(error as Error).message}`);
        await rm(path, { force: true });
      }
    }
    return loaded ?? { snapshot: undefined, replayFrom: logStartOffset };
  }

  /** Writes `<offset>.snapshot` (temp file, then rename) and deletes all but the newest snapshots. */
  write(offset: number, entries: readonly SnapshotEntry[]): Promise<void> {
    const bytes = encodeProducerSnapshot(entries);
    return this.enqueue(async () => {
      const path = this.path(offset);
      await writeFile(`${path}.tmp`, bytes);
      await rename(`${path}.tmp`, path);
      this.offsets = [...this.offsets.filter((o) => o !== offset), offset].sort((a, b) => a - b);
      const older = this.offsets.filter((o) => o < offset);
      const stale = older.slice(0, Math.max(0, older.length - (SNAPSHOTS_KEPT - 1)));
      await this.drop(stale);
    });
  }

  deleteAbove(offset: number): void {
    void this.enqueue(() => this.drop(this.offsets.filter((o) => o > offset)));
  }

  deleteBelow(offset: number): void {
    void this.enqueue(() => this.drop(this.offsets.filter((o) => o < offset)));
  }

  idle(): Promise<void> {
    return this.queue;
  }

  private async drop(offsets: readonly number[]): Promise<void> {
    if (offsets.length === 0) return;
    this.offsets = this.offsets.filter((o) => !offsets.includes(o));
    for (const offset of offsets) await rm(this.path(offset), { force: true });
  }

  private enqueue(job: () => Promise<void>): Promise<void> {
    const run = this.queue.then(job).catch((error: unknown) => {
      // The partition directory is gone (topic deleted) or the disk failed: the broker's state stays in memory.
      this.warn(`producer snapshot write in ${this.dir} failed: ${(error as Error).message}`);
    });
    this.queue = run;
    return run;
  }

  private path(offset: number): string {
    return join(this.dir, offsetFileName(offset) + SNAPSHOT_SUFFIX);
  }
}
