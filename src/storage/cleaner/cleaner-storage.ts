// What the cleaner needs from an engine: a segment to write the cleaned copy into, the crash-safe swap of
// that copy for the segments it replaces, and where the cleaner checkpoint lives. Each engine implements it in
// its own folder (file/file-cleaner-storage.ts, memory/memory-cleaner-storage.ts).
import type { SegmentedLog } from '../segmented-log.js';
import type { LogSegment } from '../segment.js';

export interface CheckpointEntry {
  topic: string;
  partition: number;
  offset: number;
}

export interface CleanerStorage<S extends LogSegment> {
  /** An empty segment, not yet part of the log, to write the cleaned copy of segments starting at baseOffset. */
  createCleaned(log: SegmentedLog<S>, baseOffset: number, now: number): Promise<S>;
  /** Put `cleaned` in the place of `old` on storage (called under the log's lock; `old` gets removed). */
  swap(cleaned: S, old: readonly S[]): Promise<void>;
  /** Throw an unused cleaned copy away. */
  discard(cleaned: S): Promise<void>;
  /** topic-partition → first dirty offset. */
  readCheckpoints(): Promise<Map<string, number>>;
  writeCheckpoints(entries: readonly CheckpointEntry[]): Promise<void>;
}
