// The memory engine's partition log (--in-memory and tests): SegmentedLog over MemorySegments.

import type { LogConfig } from '../log-config.js';
import { randomRollJitter } from '../roll-policy.js';
import type { Scheduler } from '../scheduler.js';
import { SegmentedLog } from '../segmented-log.js';
import { MemorySegment } from './memory-segment.js';

export type MemoryLog = SegmentedLog<MemorySegment>;

export function createMemoryLog(topic: string, partition: number, config: LogConfig, scheduler: Scheduler): MemoryLog {
  let log: MemoryLog | undefined;
  const newSegment = async (baseOffset: number, now: number): Promise<MemorySegment> =>
    new MemorySegment(baseOffset, now, randomRollJitter(log?.config ?? config));
  const first = new MemorySegment(0, scheduler.now(), randomRollJitter(config));
  log = new SegmentedLog({
    topic,
    partition,
    config,
    scheduler,
    segments: [first],
    logStartOffset: 0,
    recoveryPoint: 0,
    epochs: [],
    hooks: { newSegment },
  });
  return log;
}
