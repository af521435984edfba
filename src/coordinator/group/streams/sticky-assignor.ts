/**
 * Kafka 4.3.1's StickyTaskAssignor ("sticky", the one streams groups use): active tasks stay with their previous
 * member while it is under its quota, then go to a previous standby's member, then to the least loaded process
 * (its least loaded member); standby tasks (num.standby.replicas of each stateful task) prefer the previous active
 * member, then previous standbys, then the least loaded process without the task. Java's PriorityQueue is modelled
 * (java-priority-queue.ts) as its ties decide, and so are the iteration orders of its HashMaps (processes, each
 * process's members; `members` comes in the order of the caller's HashMap).
 */
import { javaStringHashCode } from '../../runtime/java-hash.js';
import { JavaHashTable } from '../../runtime/java-hash-table.js';
import { JavaPriorityQueue } from '../../runtime/java-priority-queue.js';
import type { TaskSets, TasksTuple } from './tasks.js';

export interface AssignmentMember {
  readonly processId: string;
  readonly activeTasks: TaskSets;
  readonly standbyTasks: TaskSets;
}

export interface TopologyDescriber {
  /** Subtopology ids, sorted. */
  readonly subtopologies: readonly string[];
  numTasks(subtopologyId: string): number;
  isStateful(subtopologyId: string): boolean;
}

interface TaskId {
  readonly subtopologyId: string;
  readonly partition: number;
}
const key = (t: TaskId): string => `${t.subtopologyId}\u0000${t.partition}`;
const cmpStr = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

class ProcessState {
  capacity = 0;
  load = Number.MAX_VALUE;
  taskCount = 0;
  readonly memberToTaskCounts = new JavaHashTable<string, number>(javaStringHashCode);
  readonly active = new Map<string, TaskId[]>();
  readonly standby = new Map<string, TaskId[]>();
  readonly assigned = new Set<string>();
  private membersByLoad: JavaPriorityQueue<[string, number]> | null = null;

  addMember(memberId: string): void {
    this.memberToTaskCounts.set(memberId, 0);
    this.capacity++;
    this.computeLoad();
  }

  hasTask(t: TaskId): boolean {
    return this.assigned.has(key(t));
  }

  addTask(memberId: string, t: TaskId, isActive: boolean): number {
    const n = this.addInternal(memberId, t, isActive);
    this.membersByLoad = null;
    return n;
  }

  addTaskToLeastLoadedMember(t: TaskId, isActive: boolean): number {
    if (this.memberToTaskCounts.size === 0) return -1;
    if (this.memberToTaskCounts.size === 1) return this.addInternal(this.memberToTaskCounts.keys()[0]!, t, isActive);
    if (this.membersByLoad === null) {
      this.membersByLoad = new JavaPriorityQueue<[string, number]>((a, b) => a[1] - b[1]);
      for (const [m, c] of this.memberToTaskCounts.entriesInOrder()) this.membersByLoad.add([m, c]);
    }
    const entry = this.membersByLoad.poll()!;
    const n = this.addInternal(entry[0], t, isActive);
    entry[1] = n;
    this.membersByLoad.add(entry);
    return n;
  }

  private addInternal(memberId: string, t: TaskId, isActive: boolean): number {
    this.taskCount++;
    this.assigned.add(key(t));
    const byMember = isActive ? this.active : this.standby;
    let list = byMember.get(memberId);
    if (list === undefined) byMember.set(memberId, (list = []));
    list.push(t);
    const n = this.memberToTaskCounts.get(memberId)! + 1;
    this.memberToTaskCounts.set(memberId, n);
    this.computeLoad();
    return n;
  }

  private computeLoad(): void {
    this.load = this.capacity <= 0 ? -1 : this.taskCount / this.capacity;
  }
}

interface Member {
  readonly processId: string;
  readonly memberId: string;
}

const tasksPerMember = (tasks: number, members: number): number => (members === 0 ? 0 : Math.ceil(tasks / members));

/** The new target assignment of every member (warm-up tasks: none, as Kafka 4.3.1). */
export function stickyAssign(members: ReadonlyMap<string, AssignmentMember>, topology: TopologyDescriber, numStandbyReplicas: number): Map<string, TasksTuple> {
  let totalActiveTasks = 0;
  let totalTasks = 0;
  for (const s of topology.subtopologies) {
    const n = topology.numTasks(s);
    totalTasks += n;
    totalActiveTasks += n;
    if (topology.isStateful(s)) totalTasks += n * numStandbyReplicas;
  }
  let membersWithActiveCapacity = members.size;
  let membersWithCapacity = members.size;
  let activePerMember = tasksPerMember(totalActiveTasks, membersWithActiveCapacity);
  let totalPerMember = tasksPerMember(totalTasks, membersWithCapacity);
  const processes = new JavaHashTable<string, ProcessState>(javaStringHashCode, members.size);
  const activeToPrev = new Map<string, Member>();
  const standbyToPrev = new Map<string, Member[]>();
  for (const [memberId, spec] of members) {
    const member = { processId: spec.processId, memberId };
    let process = processes.get(spec.processId);
    if (process === undefined) processes.set(spec.processId, (process = new ProcessState()));
    process.addMember(memberId);
    for (const [s, parts] of spec.activeTasks) for (const p of parts) activeToPrev.set(key({ subtopologyId: s, partition: p }), member);
    for (const [s, parts] of spec.standbyTasks) {
      for (const p of parts) {
        const k = key({ subtopologyId: s, partition: p });
        let list = standbyToPrev.get(k);
        if (list === undefined) standbyToPrev.set(k, (list = []));
        list.push(member);
      }
    }
  }
  const onActive = (n: number): void => {
    if (n === activePerMember) {
      membersWithActiveCapacity--;
      totalActiveTasks -= n;
      activePerMember = tasksPerMember(totalActiveTasks, membersWithActiveCapacity);
    }
  };
  const onTotal = (n: number): void => {
    if (n === totalPerMember) {
      membersWithCapacity--;
      totalTasks -= n;
      totalPerMember = tasksPerMember(totalTasks, membersWithCapacity);
    }
  };
  const count = (m: Member): number => processes.get(m.processId)!.memberToTaskCounts.get(m.memberId)!;
  const prevWithLeastLoad = (candidates: readonly Member[] | undefined, task: TaskId | null): Member | null => {
    if (candidates === undefined || candidates.length === 0) return null;
    let candidate = candidates[0]!;
    const candidateProcess = processes.get(candidate.processId)!;
    let candidateProcessLoad = candidateProcess.load;
    let candidateMemberLoad = count(candidate);
    for (const m of candidates.slice(1)) {
      const process = processes.get(m.processId)!;
      if (process.load < candidateProcessLoad && (task === null || !process.hasTask(task))) {
        const memberLoad = count(m);
        if (memberLoad < candidateMemberLoad) {
          candidateProcessLoad = process.load;
          candidateMemberLoad = memberLoad;
          candidate = m;
        }
      }
    }
    // As Kafka: the first candidate's process is the one checked.
    return task !== null && candidateProcess.hasTask(task) ? null : candidate;
  };
  const taskIds = (activeOnly: boolean): TaskId[] =>
    topology.subtopologies.flatMap((s) => (activeOnly || topology.isStateful(s) ? Array.from({ length: topology.numTasks(s) }, (_, p) => ({ subtopologyId: s, partition: p })) : []));

  // Active tasks.
  let active = taskIds(true).sort((a, b) => a.partition - b.partition || cmpStr(a.subtopologyId, b.subtopologyId));
  const keepActive = (prev: Member | null | undefined, t: TaskId): boolean => {
    if (prev === null || prev === undefined) return false;
    const process = processes.get(prev.processId)!;
    if (count(prev) >= activePerMember) return false;
    const n = process.addTask(prev.memberId, t, true);
    onActive(n);
    onTotal(n);
    return true;
  };
  active = active.filter((t) => !keepActive(activeToPrev.get(key(t)), t));
  active = active.filter((t) => !keepActive(prevWithLeastLoad(standbyToPrev.get(key(t)), null), t));
  active.sort((a, b) => cmpStr(a.subtopologyId, b.subtopologyId) || a.partition - b.partition);
  const byLoad = (): JavaPriorityQueue<ProcessState> => {
    const q = new JavaPriorityQueue<ProcessState>((a, b) => (a.load < b.load ? -1 : a.load > b.load ? 1 : 0));
    for (const [, p] of processes.entriesInOrder()) q.add(p);
    return q;
  };
  const activeQueue = byLoad();
  for (const t of active) {
    const process = activeQueue.poll();
    if (process === undefined) throw new Error(`No process available to assign active task ${t.subtopologyId}_${t.partition}.`);
    const n = process.addTaskToLeastLoadedMember(t, true);
    if (n === -1) throw new Error(`No member available to assign active task ${t.subtopologyId}_${t.partition}.`);
    onActive(n);
    onTotal(n);
    activeQueue.add(process);
  }

  // Standby tasks.
  if (numStandbyReplicas > 0) {
    const standby = taskIds(false).sort((a, b) => b.partition - a.partition || cmpStr(b.subtopologyId, a.subtopologyId));
    const toLeastLoaded: { task: TaskId; remaining: number }[] = [];
    for (const t of standby) {
      let i = 0;
      for (; i < numStandbyReplicas; i++) {
        const prevActive = activeToPrev.get(key(t));
        if (prevActive !== undefined) {
          const process = processes.get(prevActive.processId)!;
          if (!process.hasTask(t) && count(prevActive) < totalPerMember) {
            onTotal(process.addTask(prevActive.memberId, t, false));
            continue;
          }
        }
        const prevStandby = prevWithLeastLoad(standbyToPrev.get(key(t)), t);
        if (prevStandby === null) break;
        const process = processes.get(prevStandby.processId)!;
        if (count(prevStandby) >= totalPerMember) break;
        onTotal(process.addTask(prevStandby.memberId, t, false));
      }
      toLeastLoaded.push({ task: t, remaining: numStandbyReplicas - i });
    }
    toLeastLoaded.sort((a, b) => cmpStr(b.task.subtopologyId, a.task.subtopologyId) || b.task.partition - a.task.partition);
    const standbyQueue = byLoad();
    const assignToLeastLoaded = (t: TaskId): boolean => {
      const process = standbyQueue.poll();
      if (process === undefined) return false;
      let found = false;
      if (!process.hasTask(t)) {
        const n = process.addTaskToLeastLoadedMember(t, false);
        if (n !== -1) {
          found = true;
          onTotal(n);
        }
      } else if (standbyQueue.size > 0) found = assignToLeastLoaded(t);
      standbyQueue.add(process);
      return found;
    };
    for (const { task, remaining } of toLeastLoaded) for (let i = 0; i < remaining; i++) if (!assignToLeastLoaded(task)) break;
  }

  const result = new Map<string, TasksTuple>();
  const compact = (tasks: readonly TaskId[] | undefined): Map<string, Set<number>> => {
    const m = new Map<string, Set<number>>();
    for (const t of tasks ?? []) {
      let s = m.get(t.subtopologyId);
      if (s === undefined) m.set(t.subtopologyId, (s = new Set()));
      s.add(t.partition);
    }
    return m;
  };
  for (const [memberId, spec] of members) {
    const process = processes.get(spec.processId)!;
    result.set(memberId, { active: compact(process.active.get(memberId)), standby: compact(process.standby.get(memberId)), warmup: new Map() });
  }
  return result;
}
