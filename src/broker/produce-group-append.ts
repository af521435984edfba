// Group commit for produced batches. A partition's log runs one append at a time (one file write each); while
// one is in flight, the validated batches of later Produce requests wait here and then go to the log together,
// in arrival order, as one append: one write, one offset assignment, one wake-up of fetchers. A pipelining
// producer on one partition (librdkafka keeps many requests in flight) then costs a file write per burst rather
// than per request. Each batch keeps its own offsets, as if appended alone; a failed append fails its whole group.
import { LAST_OFFSET_DELTA_OFFSET } from '../protocol/records/index.js';
import type { TimestampTypeValue } from '../protocol/records/batch.js';
import type { AppendResult, PartitionLog } from '../storage/log.js';
import { logLeaderEpoch } from './leader-epoch.js';

/** Most bytes one grouped append carries (a lone larger batch still goes alone). */
export const MAX_GROUP_BYTES = 1024 * 1024;

export interface GroupedAppend {
  /** One record batch, validated and ready for the log (its base offset is assigned there). */
  readonly batch: Buffer;
  readonly timestampType: TimestampTypeValue;
  /** The topic's segment.bytes: a group never grows past it. */
  readonly segmentBytes: number;
  readonly now: number;
  /** Called inside the log's append with the batch's base offset (the producer state records it there). */
  readonly onAppended?: (baseOffset: number) => void;
}

/** What the log assigned to one batch of a group. */
export type GroupedAppendResult = Pick<AppendResult, 'baseOffset' | 'logAppendTime' | 'logStartOffset'>;

interface Waiting extends GroupedAppend {
  resolve(result: GroupedAppendResult): void;
  reject(error: unknown): void;
}

interface LogAppends {
  busy: boolean;
  waiting: Waiting[];
}

/** Per log, forgotten with it. */
const appendsByLog = new WeakMap<PartitionLog, LogAppends>();

/**
 * Appends `append.batch` to `log` after every batch handed in before it. When the log is idle the append starts
 * before this returns, so other writers that append to the log afterwards (synchronously) come after it.
 */
export function appendGrouped(log: PartitionLog, append: GroupedAppend): Promise<GroupedAppendResult> {
  let state = appendsByLog.get(log);
  if (state === undefined) {
    state = { busy: false, waiting: [] };
    appendsByLog.set(log, state);
  }
  const appends = state;
  return new Promise((resolve, reject) => {
    appends.waiting.push({ ...append, resolve, reject });
    if (!appends.busy) startNext(log, appends);
  });
}

function startNext(log: PartitionLog, state: LogAppends): void {
  const group = takeGroup(state.waiting);
  if (group.length === 0) {
    state.busy = false;
    return;
  }
  state.busy = true;
  const first = group[0]!;
  // The group's batches go to the log as they are, written with one writev: no joined copy of a megabyte per group.
  const payload = group.length === 1 ? first.batch : group.map((g) => g.batch);
  const now = group[group.length - 1]!.now;
  let appended: Promise<AppendResult>;
  try {
    appended = log.append(payload, {
      leaderEpoch: logLeaderEpoch(log),
      timestampType: first.timestampType,
      now,
      onAppended: (result) => eachBaseOffset(group, result.baseOffset, (g, baseOffset) => g.onAppended?.(baseOffset)),
    });
  } catch (error) {
    // A log that throws rather than rejects must not leave the queue stuck.
    appended = Promise.reject(error);
  }
  appended.then(
    (result) => {
      eachBaseOffset(group, result.baseOffset, (g, baseOffset) => g.resolve({ baseOffset, logAppendTime: result.logAppendTime, logStartOffset: result.logStartOffset }));
      startNext(log, state);
    },
    (error: unknown) => {
      for (const g of group) g.reject(error);
      startNext(log, state);
    },
  );
}

/** Each batch of a group with the base offset it got: the group's, then one past the previous batch's last. */
function eachBaseOffset(group: readonly Waiting[], first: number, each: (g: Waiting, baseOffset: number) => void): void {
  let baseOffset = first;
  for (const g of group) {
    each(g, baseOffset);
    baseOffset += g.batch.readInt32BE(LAST_OFFSET_DELTA_OFFSET) + 1;
  }
}

/** The longest run from the head that shares one timestamp type and fits the size limits. */
function takeGroup(waiting: Waiting[]): Waiting[] {
  if (waiting.length === 0) return [];
  const first = waiting[0]!;
  const limit = Math.min(MAX_GROUP_BYTES, first.segmentBytes);
  let bytes = first.batch.length;
  let count = 1;
  while (count < waiting.length) {
    const next = waiting[count]!;
    if (next.timestampType !== first.timestampType || bytes + next.batch.length > Math.min(limit, next.segmentBytes)) break;
    bytes += next.batch.length;
    count += 1;
  }
  return waiting.splice(0, count);
}
