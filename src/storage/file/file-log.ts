// Opening one partition directory (`<log.dir>/<topic>-<partition>/`) as a log: list its segments, trust
// them after a clean shutdown, otherwise recover from the recovery point, within its segment (CRC-check,
// rebuild indexes, cut a torn tail and drop the unflushed segments after it). Kafka's LogLoader rules: only a
// segment recovered as unflushed ends the log; a trusted one found torn loses its torn tail alone (a gap in the
// offsets), the segments after it stay. Then the producer state's files: each segment's .txnindex, and the newest
// usable snapshot (index entries from its offset on are cut: the broker's replay of the batches after the snapshot
// indexes those markers again).

import { mkdir, open, readdir, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { EpochEntry } from '../leader-epoch.js';
import type { LogConfig } from '../log-config.js';
import { randomRollJitter } from '../roll-policy.js';
import type { Scheduler } from '../scheduler.js';
import { SegmentedLog } from '../segmented-log.js';
import { syncDirectory } from './atomic-file.js';
import { walkBatches } from './batch-walker.js';
import { readCheckpoint, writeCheckpoint } from './checkpoint-file.js';
import { FileSegment, type SegmentContext } from './file-segment.js';
import { IoFaults, partitionPlace } from './io-faults.js';
import { ProducerSnapshotFiles } from './producer-snapshot-files.js';
import {
  DELETED_SUFFIX,
  INDEX_SUFFIX,
  LEADER_EPOCH_CHECKPOINT,
  LOG_SUFFIX,
  TIME_INDEX_SUFFIX,
  TXN_INDEX_SUFFIX,
  parseSegmentFileName,
  segmentPaths,
  txnIndexPath,
} from './segment-files.js';
import { decodeTxnIndex } from './txn-index.js';

export type FileLog = SegmentedLog<FileSegment>;

export interface OpenFileLogOptions {
  dir: string;
  topic: string;
  partition: number;
  config: LogConfig;
  scheduler: Scheduler;
  /** The broker shut down cleanly: trust every segment. */
  clean: boolean;
  /** From recovery-point-offset-checkpoint (0 when unknown: recover everything). */
  recoveryPoint: number;
  /** From log-start-offset-checkpoint (0 when unknown). */
  logStartOffset: number;
  logStartChanged?: (log: FileLog) => void;
  /** The caller just created the (empty) dir: nothing to list or recover. */
  fresh?: boolean;
  /** What loading cut or removed (Kafka logs it at WARN); an unreadable producer snapshot, a failed snapshot write. */
  warn?: (message: string) => void;
  /** Where failed I/O on the partition's files is reported. */
  faults?: IoFaults;
}

export interface LoadStats {
  segments: number;
  recoveredSegments: number;
  truncatedBytes: number;
  /** Bytes CRC-checked by recovery (0 after a clean shutdown). */
  validatedBytes: number;
}

export const CLEANED_SUFFIX = '.cleaned';
export const SWAP_SUFFIX = '.swap';
const LEFTOVER_SUFFIXES = [DELETED_SUFFIX, '.tmp'];
const SEGMENT_SUFFIXES = [LOG_SUFFIX, INDEX_SUFFIX, TIME_INDEX_SUFFIX, TXN_INDEX_SUFFIX];

export async function openFileLog(options: OpenFileLogOptions): Promise<{ log: FileLog; stats: LoadStats }> {
  const { dir, scheduler } = options;
  const fresh = options.fresh ?? (await mkdir(dir, { recursive: true })) !== undefined;
  let log: FileLog | undefined;
  const faults = options.faults ?? new IoFaults();
  const ctx: SegmentContext = { dir, scheduler, config: () => log?.config ?? options.config, faults };

  const listed = fresh ? [] : await readdir(dir);
  // The listing is read again only when an interrupted clean or swap changed it.
  const names = !fresh && (await finishInterruptedSwaps(dir, listed)) ? await readdir(dir) : listed;
  const bases: number[] = [];
  for (const name of names) {
    if (LEFTOVER_SUFFIXES.some((suffix) => name.endsWith(suffix))) {
      await rm(join(dir, name), { force: true });
      continue;
    }
    const base = parseSegmentFileName(name, LOG_SUFFIX);
    if (base !== undefined) bases.push(base);
  }
  bases.sort((a, b) => a - b);
  // Index files whose .log is gone are leftovers of an interrupted delete.
  for (const name of names) {
    const base = parseSegmentFileName(name, INDEX_SUFFIX) ?? parseSegmentFileName(name, TIME_INDEX_SUFFIX);
    if (base === undefined || bases.includes(base)) continue;
    options.warn?.(`Found an orphaned index file ${join(dir, name)}, with no corresponding log file.`);
    await rm(join(dir, name), { force: true });
  }

  const stats: LoadStats = { segments: 0, recoveredSegments: 0, truncatedBytes: 0, validatedBytes: 0 };
  const segments: FileSegment[] = [];
  // Segments before the one holding the recovery point were fsynced; that one is recovered from the recovery
  // point on, the ones after it whole.
  let firstUnflushed = 0;
  for (let i = 0; i < bases.length; i++) if (bases[i]! <= options.recoveryPoint) firstUnflushed = i;
  const name = `${options.topic}-${options.partition}`;
  for (let i = 0; i < bases.length; i++) {
    const unflushed = !options.clean && i >= firstUnflushed;
    const flushedBelow = unflushed ? (i === firstUnflushed ? options.recoveryPoint : 0) : Infinity;
    const loaded = await FileSegment.load(ctx, bases[i]!, randomRollJitter(options.config), flushedBelow);
    const segment = loaded.segment;
    segments.push(segment);
    if (loaded.recovered) stats.recoveredSegments++;
    stats.truncatedBytes += loaded.truncatedBytes;
    stats.validatedBytes += loaded.validatedBytes;
    if (loaded.truncatedBytes === 0) continue;
    // The cut is made durable now: a trusted segment is below the recovery point, no later flush would sync it.
    await segment.flush();
    const later = bases.slice(i + 1);
    options.warn?.(
      `${name}: corruption found in segment ${segment.baseOffset}, ${loaded.truncatedBytes} bytes of a torn or corrupt tail cut; ` +
        `it now ends at offset ${segment.nextOffset}` +
        (later.length === 0 ? '' : unflushed ? `; the unflushed segments after it are deleted: ${later.join(', ')}` : `; the segments after it are kept (from ${later[0]})`),
    );
    if (!unflushed || later.length === 0) continue;
    // A torn unflushed segment ends the log: the unflushed segments after it cannot be trusted to follow on.
    for (const base of later) {
      const paths = segmentPaths(dir, base);
      for (const path of [paths.log, paths.index, paths.timeIndex, txnIndexPath(dir, base)]) await rm(path, { force: true });
    }
    break;
  }
  if (segments.length === 0) {
    segments.push(await FileSegment.create(ctx, options.logStartOffset, scheduler.now(), randomRollJitter(options.config)));
  }
  stats.segments = segments.length;

  const epochPath = join(dir, LEADER_EPOCH_CHECKPOINT);
  const epochs: EpochEntry[] = ((fresh ? undefined : await readCheckpoint(epochPath, 2)) ?? [])
    .map(([epoch, start]) => ({ epoch: Number(epoch), startOffset: Number(start) }))
    .filter((e) => Number.isInteger(e.epoch) && Number.isSafeInteger(e.startOffset));

  await loadTxnIndexes(dir, names, segments);
  const snapshots = new ProducerSnapshotFiles(dir, options.warn);

  log = new SegmentedLog<FileSegment>({
    topic: options.topic,
    partition: options.partition,
    config: options.config,
    scheduler,
    segments,
    logStartOffset: options.logStartOffset,
    recoveryPoint: options.clean ? Number.MAX_SAFE_INTEGER : options.recoveryPoint,
    epochs,
    producerSnapshots: snapshots,
    hooks: {
      newSegment: (baseOffset, now) => FileSegment.create(ctx, baseOffset, now, randomRollJitter(log?.config ?? options.config)),
      saveEpochs: (entries) => faults.run('writing the leader epoch checkpoint of', partitionPlace(dir), () => writeCheckpoint(epochPath, entries.map((e) => [e.epoch, e.startOffset]))),
      logStartChanged: options.logStartChanged === undefined ? undefined : (l) => options.logStartChanged!(l),
    },
  });
  if (!fresh) {
    const loaded = await snapshots.load(names, log.logStartOffset, log.logEndOffset);
    for (const segment of segments) segment.txnIndex.truncateTo(loaded.replayFrom);
    log.setLoadedProducerState(loaded);
  }
  // Recovery may have cut epochs' offsets away: persist what survived.
  if (log.leaderEpochs().length !== epochs.length) {
    await writeCheckpoint(epochPath, log.leaderEpochs().map((e) => [e.epoch, e.startOffset]));
  }
  return { log, stats };
}

/**
 * Each segment's .txnindex. One whose segment is gone (a data dir from before the cleaner carried the index of the
 * segments it merged) gives its entries to the segment now holding their markers, and goes.
 */
async function loadTxnIndexes(dir: string, names: readonly string[], segments: readonly FileSegment[]): Promise<void> {
  const bases = names.map((n) => parseSegmentFileName(n, TXN_INDEX_SUFFIX)).filter((b): b is number => b !== undefined).sort((a, b) => a - b);
  if (bases.length === 0) return;
  const byBase = new Map(segments.map((s) => [s.baseOffset, s]));
  for (const base of bases) {
    const path = txnIndexPath(dir, base);
    const bytes = await readFile(path);
    const { entries, valid } = decodeTxnIndex(bytes);
    const own = byBase.get(base);
    if (own !== undefined) {
      own.txnIndex.restore(entries, valid !== bytes.length);
      continue;
    }
    for (const txn of entries) {
      const holder = [...segments].reverse().find((s) => s.baseOffset <= txn.lastOffset && txn.lastOffset < s.nextOffset);
      holder?.appendAbortedTxn(txn);
    }
    await rm(path, { force: true });
  }
}

/** Base offset of a segment file name (.log/.index/.timeindex) once `suffix` is taken off, else undefined. */
function segmentBase(name: string, suffix = ''): number | undefined {
  if (!name.endsWith(suffix)) return undefined;
  const stem = name.slice(0, name.length - suffix.length);
  for (const s of SEGMENT_SUFFIXES) {
    const base = parseSegmentFileName(stem, s);
    if (base !== undefined) return base;
  }
  return undefined;
}

/**
 * The log cleaner's crash recovery, Kafka's LogLoader rules: `.cleaned` files are an unfinished clean (dropped,
 * the old segments stay). `.swap` files at or above the lowest `.cleaned` offset belong to that unfinished
 * step and go too. The remaining `.swap` files are a finished clean whose swap was interrupted: the old
 * segment files in the offset range they cover are deleted and the `.swap` files take their names.
 */
async function finishInterruptedSwaps(dir: string, names: readonly string[]): Promise<boolean> {
  let minCleaned = Infinity;
  for (const name of names) {
    const base = segmentBase(name, CLEANED_SUFFIX);
    if (base === undefined) continue;
    minCleaned = Math.min(minCleaned, base);
    await rm(join(dir, name), { force: true });
  }
  const swaps: string[] = [];
  for (const name of names) {
    const base = segmentBase(name, SWAP_SUFFIX);
    if (base === undefined) continue;
    if (base >= minCleaned) await rm(join(dir, name), { force: true });
    else swaps.push(name);
  }
  if (swaps.length === 0) {
    if (minCleaned === Infinity) return false;
    await syncDirectory(dir);
    return true;
  }
  let from = Infinity;
  let to = -Infinity;
  for (const name of swaps) {
    const base = parseSegmentFileName(name.slice(0, -SWAP_SUFFIX.length), LOG_SUFFIX);
    if (base === undefined) continue;
    from = Math.min(from, base);
    // An empty cleaned segment still replaces the old one of its base offset.
    to = Math.max(to, base + 1, await nextOffsetOf(join(dir, name), base));
  }
  for (const name of names) {
    const base = segmentBase(name);
    if (base !== undefined && base >= from && base < to) await rm(join(dir, name), { force: true });
  }
  for (const name of swaps) await rename(join(dir, name), join(dir, name.slice(0, -SWAP_SUFFIX.length)));
  await syncDirectory(dir);
  return true;
}

/** One past the last offset in a .log file (its base offset when it holds no batch). */
async function nextOffsetOf(path: string, baseOffset: number): Promise<number> {
  const file = await open(path, 'r');
  try {
    const size = (await file.stat()).size;
    let next = baseOffset;
    const walk = walkBatches(file, 0, size);
    for await (const chunk of walk) {
      const last = chunk.batches[chunk.batches.length - 1];
      if (last !== undefined) next = last.lastOffset + 1;
    }
    return next;
  } finally {
    await file.close();
  }
}
