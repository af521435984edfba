// The files one partition's producer state is kept in, inside the partition directory: `<offset>.snapshot`
// (producer-snapshot.ts) written when the log rolls a segment and at clean shutdown, and `<segmentBase>.txnindex`
// (txn-index.ts) appended when a transaction is aborted. At start-up the latest usable snapshot is loaded and
// only the batches from its offset on are replayed (Kafka's ProducerStateManager + LogLoader); the .txnindex
// entries below that offset are kept and those at or above it are cut, as the replay writes them again.
import { open, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { LOG_SUFFIX, offsetFileName, parseSegmentFileName } from '../storage/file/segment-files.js';
import type { AbortedTxn } from './partition-producer-state.js';
import { decodeProducerSnapshot, encodeProducerSnapshot, SNAPSHOT_SUFFIX, type SnapshotEntry } from './producer-snapshot.js';
import { decodeTxnIndex, encodeAbortedTxn, TXN_INDEX_ENTRY_BYTES, TXN_INDEX_SUFFIX } from './txn-index.js';

/** Snapshots kept per partition (the newest ones; older ones are deleted when a new one is written). */
const SNAPSHOTS_KEPT = 2;

export interface LoadedProducerFiles {
  /** Offset the replay starts from: the snapshot's, or the log start offset when there is none. */
  readonly replayFrom: number;
  readonly snapshot: readonly SnapshotEntry[] | undefined;
  /** Aborted transactions from the .txnindex files, below replayFrom, in offset order. */
  readonly aborted: readonly AbortedTxn[];
}

export class ProducerStateFiles {
  /** Base offset of the segment the log was appending to when last looked at (a change is a roll). */
  activeSegment = -1;
  /** Offset of the newest snapshot on disk (loaded or written), -1 when none. */
  latestSnapshot = -1;
  private queue: Promise<void> = Promise.resolve();

  constructor(readonly dir: string, private readonly warn: (message: string) => void = () => {}) {}

  /**
   * Picks the newest snapshot at or below the log end offset that reads back (corrupt or out-of-range ones are
   * deleted), reads the .txnindex entries below its offset and cuts the rest.
   */
  async load(logStartOffset: number, logEndOffset: number): Promise<LoadedProducerFiles> {
    const names = await readdir(this.dir);
    const segments = new Set(names.map((n) => parseSegmentFileName(n, LOG_SUFFIX)).filter((b): b is number => b !== undefined));
    const snapshots = names.map((n) => parseSegmentFileName(n, SNAPSHOT_SUFFIX)).filter((b): b is number => b !== undefined).sort((a, b) => b - a);
    let replayFrom = logStartOffset;
    let snapshot: SnapshotEntry[] | undefined;
    for (const offset of snapshots) {
      const path = this.snapshotPath(offset);
      if (snapshot !== undefined || offset > logEndOffset || offset < logStartOffset) {
        // Past the end (the tail was lost in a crash) or below the start: useless from now on.
        if (snapshot === undefined || offset < logStartOffset) await rm(path, { force: true });
        continue;
      }
      try {
        snapshot = decodeProducerSnapshot(await readFile(path));
        replayFrom = offset;
        this.latestSnapshot = offset;
      } catch (error) {
        this.warn(`deleting producer snapshot ${path}: ${(error as Error).message}`);
        await rm(path, { force: true });
      }
    }
    const aborted: AbortedTxn[] = [];
    const indexes = names.map((n) => parseSegmentFileName(n, TXN_INDEX_SUFFIX)).filter((b): b is number => b !== undefined).sort((a, b) => a - b);
    for (const base of indexes) {
      const path = this.txnIndexPath(base);
      // Entries below the log start can no longer be fetched; those from replayFrom on are written again by the
      // replay. An index whose segment is gone may still hold live entries (the cleaner merged its segment away).
      const bytes = await readFile(path);
      const { entries } = decodeTxnIndex(bytes);
      const kept = entries.filter((t) => t.lastOffset < replayFrom && t.lastOffset >= logStartOffset);
      if (kept.length === 0 && !segments.has(base)) await rm(path, { force: true });
      else if (kept.length !== entries.length || bytes.length !== kept.length * TXN_INDEX_ENTRY_BYTES) {
        await writeFile(path, Buffer.concat(kept.map(encodeAbortedTxn)));
      }
      aborted.push(...kept);
    }
    aborted.sort((a, b) => a.lastOffset - b.lastOffset);
    return { replayFrom, snapshot, aborted };
  }

  /** Appends an aborted transaction to the .txnindex of the segment holding its marker. */
  appendAborted(segmentBase: number, txn: AbortedTxn): void {
    this.enqueue(async () => {
      const handle = await open(this.txnIndexPath(segmentBase), 'a');
      try {
        await handle.write(encodeAbortedTxn(txn));
      } finally {
        await handle.close();
      }
    });
  }

  /** Writes `<offset>.snapshot` (temp file, then rename) and deletes all but the newest snapshots. */
  writeSnapshot(offset: number, entries: readonly SnapshotEntry[]): Promise<void> {
    return this.enqueue(async () => {
      const path = this.snapshotPath(offset);
      await writeFile(`${path}.tmp`, encodeProducerSnapshot(entries));
      await rename(`${path}.tmp`, path);
      this.latestSnapshot = Math.max(this.latestSnapshot, offset);
      const names = await readdir(this.dir);
      const older = names.map((n) => parseSegmentFileName(n, SNAPSHOT_SUFFIX)).filter((b): b is number => b !== undefined && b < offset);
      for (const stale of older.sort((a, b) => b - a).slice(SNAPSHOTS_KEPT - 1)) await rm(this.snapshotPath(stale), { force: true });
    });
  }

  /** Resolves once every queued file write is done. */
  idle(): Promise<void> {
    return this.queue;
  }

  private enqueue(job: () => Promise<void>): Promise<void> {
    const run = this.queue.then(job).catch((error: unknown) => {
      // The partition directory is gone (topic deleted) or the disk failed: the state stays in memory.
      this.warn(`producer state file write in ${this.dir} failed: ${(error as Error).message}`);
    });
    this.queue = run;
    return run;
  }

  private snapshotPath(offset: number): string {
    return join(this.dir, offsetFileName(offset) + SNAPSHOT_SUFFIX);
  }

  private txnIndexPath(base: number): string {
    return join(this.dir, offsetFileName(base) + TXN_INDEX_SUFFIX);
  }
}
