// The memory engine's side of the log cleaner: the cleaned copy is a new MemorySegment, the swap just drops the
// old ones, and the checkpoint lives as long as the process.
import type { CheckpointEntry, CleanerStorage } from '../cleaner/cleaner-storage.js';
import type { SegmentedLog } from '../segmented-log.js';
import { MemorySegment } from './memory-segment.js';

export class MemoryCleanerStorage implements CleanerStorage<MemorySegment> {
  private checkpoints = new Map<string, number>();

  async createCleaned(_log: SegmentedLog<MemorySegment>, baseOffset: number, now: number): Promise<MemorySegment> {
    return new MemorySegment(baseOffset, now, 0);
  }
  async swap(_cleaned: MemorySegment, old: readonly MemorySegment[]): Promise<void> {
    for (const segment of old) await segment.remove();
  }
  async discard(): Promise<void> {}
  async readCheckpoints(): Promise<Map<string, number>> {
    return new Map(this.checkpoints);
  }
  async writeCheckpoints(entries: readonly CheckpointEntry[]): Promise<void> {
    this.checkpoints = new Map(entries.map((e) => [`${e.topic}-${e.partition}`, e.offset]));
  }
}
