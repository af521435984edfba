// Opening one partition directory (`<log.dir>/<topic>-<partition>/`) as a log: list its segments, trust
// them after a clean shutdown, otherwise recover from the recovery point (CRC-check, rebuild indexes, cut
// a torn tail and drop the segments after it).

import { mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { EpochEntry } from '../leader-epoch.js';
import type { LogConfig } from '../log-config.js';
import { randomRollJitter } from '../roll-policy.js';
import type { Scheduler } from '../scheduler.js';
import { SegmentedLog } from '../segmented-log.js';
import { readCheckpoint, writeCheckpoint } from './checkpoint-file.js';
import { FileSegment, type SegmentContext } from './file-segment.js';
import {
  DELETED_SUFFIX,
  INDEX_SUFFIX,
  LEADER_EPOCH_CHECKPOINT,
  LOG_SUFFIX,
  TIME_INDEX_SUFFIX,
  parseSegmentFileName,
  segmentPaths,
} from './segment-files.js';

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
}

export interface LoadStats {
  segments: number;
  recoveredSegments: number;
  truncatedBytes: number;
}

const LEFTOVER_SUFFIXES = [DELETED_SUFFIX, '.tmp', '.cleaned', '.swap'];

export async function openFileLog(options: OpenFileLogOptions): Promise<{ log: FileLog; stats: LoadStats }> {
  const { dir, scheduler } = options;
  await mkdir(dir, { recursive: true });
  let log: FileLog | undefined;
  const ctx: SegmentContext = { dir, scheduler, config: () => log?.config ?? options.config };

  const names = await readdir(dir);
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
    if (base !== undefined && !bases.includes(base)) await rm(join(dir, name), { force: true });
  }

  const stats: LoadStats = { segments: 0, recoveredSegments: 0, truncatedBytes: 0 };
  const segments: FileSegment[] = [];
  // Segments before the one holding the recovery point were fsynced; the rest are recovered.
  let firstUnflushed = 0;
  for (let i = 0; i < bases.length; i++) if (bases[i]! <= options.recoveryPoint) firstUnflushed = i;
  for (let i = 0; i < bases.length; i++) {
    const trusted = options.clean || i < firstUnflushed;
    const loaded = await FileSegment.load(ctx, bases[i]!, randomRollJitter(options.config), trusted);
    segments.push(loaded.segment);
    if (loaded.recovered) stats.recoveredSegments++;
    stats.truncatedBytes += loaded.truncatedBytes;
    if (loaded.truncatedBytes > 0 && i < bases.length - 1) {
      // A torn or corrupt segment ends the log: whatever followed it cannot be trusted to follow on.
      for (const later of bases.slice(i + 1)) {
        const paths = segmentPaths(dir, later);
        for (const path of [paths.log, paths.index, paths.timeIndex]) await rm(path, { force: true });
      }
      break;
    }
  }
  if (segments.length === 0) {
    segments.push(await FileSegment.create(ctx, options.logStartOffset, scheduler.now(), randomRollJitter(options.config)));
  }
  stats.segments = segments.length;

  const epochPath = join(dir, LEADER_EPOCH_CHECKPOINT);
  const epochs: EpochEntry[] = ((await readCheckpoint(epochPath, 2)) ?? [])
    .map(([epoch, start]) => ({ epoch: Number(epoch), startOffset: Number(start) }))
    .filter((e) => Number.isInteger(e.epoch) && Number.isSafeInteger(e.startOffset));

  log = new SegmentedLog<FileSegment>({
    topic: options.topic,
    partition: options.partition,
    config: options.config,
    scheduler,
    segments,
    logStartOffset: options.logStartOffset,
    recoveryPoint: options.clean ? Number.MAX_SAFE_INTEGER : options.recoveryPoint,
    epochs,
    hooks: {
      newSegment: (baseOffset, now) => FileSegment.create(ctx, baseOffset, now, randomRollJitter(log?.config ?? options.config)),
      saveEpochs: (entries) => writeCheckpoint(epochPath, entries.map((e) => [e.epoch, e.startOffset])),
      logStartChanged: options.logStartChanged === undefined ? undefined : (l) => options.logStartChanged!(l),
    },
  });
  // Recovery may have cut epochs' offsets away: persist what survived.
  if (log.leaderEpochs().length !== epochs.length) {
    await writeCheckpoint(epochPath, log.leaderEpochs().map((e) => [e.epoch, e.startOffset]));
  }
  return { log, stats };
}
