/**
 * A streams member's next assignment on its way to its target (Kafka's streams CurrentAssignmentBuilder): tasks the
 * target takes away are revoked first (UNREVOKED_TASKS) and only once the member no longer reports owning them does
 * it move on; a task the target adds waits while another process still owns it (UNRELEASED_TASKS); new active tasks
 * carry the target epoch. A member in an UNKNOWN state is fenced unless it reports owning nothing.
 */
import { GroupError } from '../group-error.js';
import type { StreamsGroupMember } from './member.js';
import type { StreamsGroup } from './streams-group.js';
import { isEmptyTasks, NO_TASKS_WITH_EPOCHS, ownsAny, type TaskEpochs, type TaskSets, type TasksTuple, type TasksWithEpochs } from './tasks.js';

export interface StreamsReconcileInput {
  readonly member: StreamsGroupMember;
  readonly targetAssignmentEpoch: number;
  readonly targetAssignment: TasksTuple;
  readonly group: StreamsGroup;
  /** What the member reports owning; null when it did not report all three kinds. */
  readonly owned: TasksTuple | null;
}

export function reconcileStreamsMember(input: StreamsReconcileInput): StreamsGroupMember {
  const { member } = input;
  switch (member.state) {
    case 'STABLE':
      return member.memberEpoch !== input.targetAssignmentEpoch ? next(input, member.memberEpoch) : member;
    case 'UNREVOKED_TASKS':
      return input.owned !== null && !ownsAny(input.owned, member.tasksPendingRevocation) ? next(input, member.memberEpoch + 1) : member;
    case 'UNRELEASED_TASKS':
      return next(input, member.memberEpoch);
    case 'UNKNOWN':
      if (input.owned !== null && isEmptyTasks(input.owned)) return next(input, input.targetAssignmentEpoch);
      throw new GroupError('FENCED_MEMBER_EPOCH', 'The streams group member is in a unknown state. The member must abandon all its tasks and rejoin.');
  }
}

interface Diff {
  readonly assigned: Map<string, Map<number, number>>;
  readonly revoking: Map<string, Map<number, number>>;
  readonly adding: Map<string, Map<number, number>>;
  unreleased: boolean;
}

/** Kept (with their epochs), revoked and added tasks of one kind; an added task another process still holds waits. */
function diff(current: TaskEpochs, target: TaskSets, epoch: number, unreleased: (s: string, p: number) => boolean): Diff {
  const d: Diff = { assigned: new Map(), revoking: new Map(), adding: new Map(), unreleased: false };
  for (const s of new Set([...target.keys(), ...current.keys()])) {
    const cur = current.get(s) ?? new Map<number, number>();
    const tgt = target.get(s) ?? new Set<number>();
    const kept = new Map([...cur].filter(([p]) => tgt.has(p)));
    const revoking = new Map([...cur].filter(([p]) => !kept.has(p)));
    const adding = new Map([...tgt].filter((p) => !kept.has(p)).map((p) => [p, epoch] as const));
    for (const p of [...adding.keys()]) {
      if (!unreleased(s, p)) continue;
      adding.delete(p);
      d.unreleased = true;
    }
    if (kept.size > 0) d.assigned.set(s, kept);
    if (revoking.size > 0) d.revoking.set(s, revoking);
    if (adding.size > 0) d.adding.set(s, adding);
  }
  return d;
}

const withEpochs = (tasks: TaskSets): TaskEpochs => new Map([...tasks].map(([s, parts]) => [s, new Map([...parts].map((p) => [p, 0]))]));
const withoutEpochs = (tasks: TaskEpochs): TaskSets => new Map([...tasks].map(([s, epochs]) => [s, new Set(epochs.keys())]));

function next(input: StreamsReconcileInput, memberEpoch: number): StreamsGroupMember {
  const { member, group, targetAssignment, targetAssignmentEpoch } = input;
  const own = member.processId;
  const heldHere = (s: string, p: number): boolean => group.currentStandbyTaskProcessIds(s, p).has(own) || group.currentWarmupTaskProcessIds(s, p).has(own);
  const active = diff(member.assignedTasks.active, targetAssignment.active, targetAssignmentEpoch, (s, p) => group.currentActiveTaskProcessId(s, p) !== undefined || heldHere(s, p));
  const otherUnreleased = (s: string, p: number): boolean => group.currentActiveTaskProcessId(s, p) === own || heldHere(s, p);
  const standby = diff(withEpochs(member.assignedTasks.standby), targetAssignment.standby, 0, otherUnreleased);
  const warmup = diff(withEpochs(member.assignedTasks.warmup), targetAssignment.warmup, 0, otherUnreleased);
  const tuple = (kind: 'revoking' | 'assigned' | 'adding'): TasksWithEpochs => ({ active: active[kind], standby: withoutEpochs(standby[kind]), warmup: withoutEpochs(warmup[kind]) });
  const pending = tuple('revoking');
  const assigned = tuple('assigned');
  const adding = tuple('adding');
  const unreleased = active.unreleased || standby.unreleased || warmup.unreleased;
  const withEpoch = (epoch: number): StreamsGroupMember => ({ ...member, memberEpoch: epoch, previousMemberEpoch: member.memberEpoch });
  if (!isEmptyTasks(pending) && (input.owned === null || ownsAny(input.owned, pending))) {
    return { ...withEpoch(memberEpoch), state: 'UNREVOKED_TASKS', assignedTasks: assigned, tasksPendingRevocation: pending };
  }
  return {
    ...withEpoch(targetAssignmentEpoch),
    state: unreleased ? 'UNRELEASED_TASKS' : 'STABLE',
    assignedTasks: isEmptyTasks(adding) ? assigned : merge(assigned, adding),
    tasksPendingRevocation: NO_TASKS_WITH_EPOCHS,
  };
}

function merge(a: TasksWithEpochs, b: TasksWithEpochs): TasksWithEpochs {
  const mergeMaps = <V>(x: ReadonlyMap<string, Iterable<V>>, y: ReadonlyMap<string, Iterable<V>>, make: (items: V[]) => unknown) => {
    const out = new Map<string, V[]>();
    for (const [s, v] of x) out.set(s, [...v]);
    for (const [s, v] of y) out.set(s, [...(out.get(s) ?? []), ...v]);
    return new Map([...out].map(([s, v]) => [s, make(v)]));
  };
  return {
    active: mergeMaps(a.active, b.active, (v: [number, number][]) => new Map(v)) as TaskEpochs,
    standby: mergeMaps(a.standby, b.standby, (v: number[]) => new Set(v)) as TaskSets,
    warmup: mergeMaps(a.warmup, b.warmup, (v: number[]) => new Set(v)) as TaskSets,
  };
}
