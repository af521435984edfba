// The file engine's side of the log cleaner, as Kafka does it: the copy is written as `<base>.log.cleaned`
// (+ .index/.timeindex/.txnindex), fsynced, renamed to `.swap`, the old segments renamed `.deleted`, then the
// `.swap` files take the final names. openFileLog (file-log.ts) finishes or rolls back whatever a crash
// interrupted. The checkpoint is Kafka's `cleaner-offset-checkpoint` in the log dir.
import { join } from 'node:path';
import type { CheckpointEntry, CleanerStorage } from '../cleaner/cleaner-storage.js';
import type { Scheduler } from '../scheduler.js';
import type { SegmentedLog } from '../segmented-log.js';
import { syncDirectory } from './atomic-file.js';
import { readOffsetCheckpoint, writeCheckpoint } from './checkpoint-file.js';
import { CLEANED_SUFFIX, SWAP_SUFFIX } from './file-log.js';
import { FileSegment } from './file-segment.js';
import type { IoFaults } from './io-faults.js';
import { partitionDirName } from './segment-files.js';

export const CLEANER_CHECKPOINT = 'cleaner-offset-checkpoint';

/** Test hook: called after every step of a file swap (a test may kill the process there). */
export type SwapStepHook = (step: string) => Promise<void> | void;

export class FileCleanerStorage implements CleanerStorage<FileSegment> {
  /** Partition dir of each cleaned copy in flight. */
  private readonly dirs = new WeakMap<FileSegment, string>();

  constructor(
    private readonly logDir: string,
    private readonly scheduler: Scheduler,
    private readonly onStep?: SwapStepHook,
    private readonly faults?: IoFaults,
  ) {}

  async createCleaned(log: SegmentedLog<FileSegment>, baseOffset: number, now: number): Promise<FileSegment> {
    const dir = join(this.logDir, partitionDirName(log.topic, log.partition));
    const cleaned = await FileSegment.create({ dir, scheduler: this.scheduler, config: () => log.config, faults: this.faults }, baseOffset, now, 0, CLEANED_SUFFIX);
    this.dirs.set(cleaned, dir);
    return cleaned;
  }

  async swap(cleaned: FileSegment, old: readonly FileSegment[]): Promise<void> {
    const dir = this.dirs.get(cleaned);
    if (dir === undefined) throw new Error('swap of a segment this storage did not create');
    const step = async (name: string): Promise<void> => {
      await this.onStep?.(name);
    };
    await cleaned.onBecomeInactive();
    await cleaned.flush();
    await cleaned.setLastModified(old[old.length - 1]!.lastModifiedMs);
    await step('cleaned-flushed');
    await cleaned.renameFiles(SWAP_SUFFIX, (path) => step(`renamed ${basename(path)}`));
    await syncDirectory(dir);
    for (const segment of old) {
      await segment.remove();
      await step(`removed ${segment.baseOffset}`);
    }
    await syncDirectory(dir);
    await cleaned.renameFiles('', (path) => step(`renamed ${basename(path)}`));
    await syncDirectory(dir);
    await step('swapped');
  }

  async discard(cleaned: FileSegment): Promise<void> {
    await cleaned.close().catch(() => undefined);
    await cleaned.remove().catch(() => undefined);
  }

  async readCheckpoints(): Promise<Map<string, number>> {
    return readOffsetCheckpoint(join(this.logDir, CLEANER_CHECKPOINT));
  }

  async writeCheckpoints(entries: readonly CheckpointEntry[]): Promise<void> {
    await writeCheckpoint(join(this.logDir, CLEANER_CHECKPOINT), entries.map((e) => [e.topic, e.partition, e.offset]));
    await this.onStep?.('checkpointed');
  }
}

function basename(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}
