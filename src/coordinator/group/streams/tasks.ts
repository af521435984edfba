/**
 * A streams group's tasks (Kafka's TasksTuple and TasksTupleWithEpochs): by subtopology id, the partitions (task
 * numbers) of its active, standby and warm-up tasks; a member's active tasks carry the epoch each was assigned at
 * (OffsetCommit checks a commit against it). Values are never mutated: each change builds new maps.
 */
import { samePartitionEpochs } from '../consumer/member.js';
import { sameAssignment } from '../consumer/target-assignment.js';
export type TaskSets = ReadonlyMap<string, ReadonlySet<number>>;
export type TaskEpochs = ReadonlyMap<string, ReadonlyMap<number, number>>;

export interface TasksTuple {
  readonly active: TaskSets;
  readonly standby: TaskSets;
  readonly warmup: TaskSets;
}

export interface TasksWithEpochs {
  readonly active: TaskEpochs;
  readonly standby: TaskSets;
  readonly warmup: TaskSets;
}

export const NO_TASKS: TasksTuple = { active: new Map(), standby: new Map(), warmup: new Map() };
export const NO_TASKS_WITH_EPOCHS: TasksWithEpochs = { active: new Map(), standby: new Map(), warmup: new Map() };

export function isEmptyTasks(t: TasksTuple | TasksWithEpochs): boolean {
  return t.active.size === 0 && t.standby.size === 0 && t.warmup.size === 0;
}

/** Subtopology → partitions from a list of task ids (a later entry for the same subtopology replaces, as Java's toMap would refuse). */
export function taskSetsOf(list: readonly { readonly subtopologyId: string; readonly partitions: readonly number[] }[]): Map<string, Set<number>> {
  return new Map(list.map((t) => [t.subtopologyId, new Set(t.partitions)]));
}

/** Same shapes as a consumer group's partitions by topic: the same comparisons. */
export const sameTaskSets: (a: TaskSets, b: TaskSets) => boolean = sameAssignment;
export const sameTaskEpochs: (a: TaskEpochs, b: TaskEpochs) => boolean = samePartitionEpochs;

export function sameTasks(a: TasksTuple, b: TasksTuple): boolean {
  return sameTaskSets(a.active, b.active) && sameTaskSets(a.standby, b.standby) && sameTaskSets(a.warmup, b.warmup);
}

export function sameTasksWithEpochs(a: TasksWithEpochs, b: TasksWithEpochs): boolean {
  return sameTaskEpochs(a.active, b.active) && sameTaskSets(a.standby, b.standby) && sameTaskSets(a.warmup, b.warmup);
}

/** The active tasks without their epochs. */
export function activeTaskSets(t: TasksWithEpochs): Map<string, Set<number>> {
  return new Map([...t.active].map(([id, epochs]) => [id, new Set(epochs.keys())]));
}

function intersects(a: TaskSets, b: (id: string) => Iterable<number> | undefined): boolean {
  for (const [id, parts] of a) {
    const other = b(id);
    if (other === undefined) continue;
    for (const p of other) if (parts.has(p)) return true;
  }
  return false;
}

/** Whether the tasks a member reports owning include any of `pending` (Kafka's TasksTuple.containsAny). */
export function ownsAny(owned: TasksTuple, pending: TasksWithEpochs): boolean {
  return (
    intersects(owned.active, (id) => pending.active.get(id)?.keys()) ||
    intersects(owned.standby, (id) => pending.standby.get(id)) ||
    intersects(owned.warmup, (id) => pending.warmup.get(id))
  );
}

/** Whether every task of `owned` is in `assigned` (Kafka's areOwnedTasksContainedInAssignedTasks). */
export function ownedWithin(owned: readonly { subtopologyId: string; partitions: readonly number[] }[] | null, assigned: (id: string) => { has(p: number): boolean } | undefined): boolean {
  if (owned === null) return true;
  return owned.every((t) => {
    const parts = assigned(t.subtopologyId);
    return parts !== undefined && t.partitions.every((p) => parts.has(p));
  });
}
