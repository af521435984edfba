/**
 * A streams group's state (Kafka's StreamsGroup): the group epoch, metadata hash, validated topology epoch and last
 * assignment configs; the topology and its configuration over the broker's topics; the members; the target
 * assignment and its epoch; which process owns each task now; the state Kafka derives from them. Mutated only by
 * replaying records (streams/replay.ts), the same at load and live, but for the configured topology, recomputed
 * from the topics (and never persisted, as in Kafka).
 */
import { isReconciledTo, type StreamsGroupMember } from './member.js';
import type { StreamsGroupTopologyValue } from '../../../protocol/generated/internal/group-coordinator/streams-group-topology-value.js';
import {
  streamsCurrentAssignmentTombstone,
  streamsGroupTombstone,
  streamsMemberTombstone,
  streamsTargetAssignmentTombstone,
  streamsTargetMetadataTombstone,
  streamsTopologyTombstone,
  type StreamsGroupRecord,
} from './records.js';
import { NO_TASKS, type TaskSets, type TasksTuple, type TasksWithEpochs } from './tasks.js';
import type { ConfiguredTopology } from './topology.js';

export const STREAMS_GROUP_TYPE = 'streams';

export type StreamsGroupState = 'Empty' | 'NotReady' | 'Assigning' | 'Reconciling' | 'Stable' | 'Dead';

export class StreamsGroup {
  groupEpoch = 1;
  metadataHash = 0n;
  validatedTopologyEpoch = 0;
  assignmentEpoch = 1;
  assignmentTimestamp = 0;
  lastAssignmentConfigs = new Map<string, string>();
  topology: StreamsGroupTopologyValue | undefined;
  /** Not persisted: recomputed from the topics after a load (Kafka's configuredTopology). */
  configuredTopology: ConfiguredTopology | undefined;
  /** The member that asked the whole application to shut down (until the group is empty). */
  shutdownRequestMemberId: string | null = null;
  endpointInformationEpoch = 0;
  readonly members = new Map<string, StreamsGroupMember>();
  readonly targetAssignment = new Map<string, TasksTuple>();
  readonly staticMembers = new Map<string, string>();
  /** subtopology → partition → the process owning the active task. */
  private readonly activeProcess = new Map<string, Map<number, string>>();
  private readonly standbyProcesses = new Map<string, Map<number, Set<string>>>();
  private readonly warmupProcesses = new Map<string, Map<number, Set<string>>>();

  constructor(readonly groupId: string) {}

  get state(): StreamsGroupState {
    if (this.members.size === 0) return 'Empty';
    if (this.topology === undefined || this.topology.epoch !== this.validatedTopologyEpoch) return 'NotReady';
    if (this.groupEpoch > this.assignmentEpoch) return 'Assigning';
    for (const member of this.members.values()) if (!isReconciledTo(member, this.assignmentEpoch)) return 'Reconciling';
    return 'Stable';
  }

  targetAssignmentOf(memberId: string): TasksTuple {
    return this.targetAssignment.get(memberId) ?? NO_TASKS;
  }

  currentActiveTaskProcessId(subtopologyId: string, partition: number): string | undefined {
    return this.activeProcess.get(subtopologyId)?.get(partition);
  }

  currentStandbyTaskProcessIds(subtopologyId: string, partition: number): ReadonlySet<string> {
    return this.standbyProcesses.get(subtopologyId)?.get(partition) ?? new Set();
  }

  currentWarmupTaskProcessIds(subtopologyId: string, partition: number): ReadonlySet<string> {
    return this.warmupProcesses.get(subtopologyId)?.get(partition) ?? new Set();
  }

  /** Whether the group's topology reads the topic while it has members (OffsetDelete refuses it). */
  isSubscribedToTopic(topic: string): boolean {
    if (this.members.size === 0 || this.topology === undefined) return false;
    return this.topology.subtopologies.some((s) => s.sourceTopics.includes(topic) || s.repartitionSourceTopics.some((t) => t.name === topic));
  }

  updateMember(member: StreamsGroupMember): void {
    const old = this.members.get(member.memberId);
    this.members.set(member.memberId, member);
    if (old !== undefined) this.removeProcess(old);
    this.addProcess(member.assignedTasks, member.processId);
    this.addProcess(member.tasksPendingRevocation, member.processId);
    if (member.instanceId !== null) this.staticMembers.set(member.instanceId, member.memberId);
  }

  removeMember(memberId: string): void {
    const old = this.members.get(memberId);
    if (old === undefined) return;
    this.members.delete(memberId);
    this.removeProcess(old);
    if (old.instanceId !== null) this.staticMembers.delete(old.instanceId);
    if (this.members.size === 0) this.shutdownRequestMemberId = null;
  }

  /** The records that delete the group, in Kafka's order (StreamsGroup.createGroupTombstoneRecords). */
  tombstoneRecords(): StreamsGroupRecord[] {
    const ids = [...this.members.keys()];
    return [
      ...ids.map((id) => streamsCurrentAssignmentTombstone(this.groupId, id)),
      ...ids.map((id) => streamsTargetAssignmentTombstone(this.groupId, id)),
      streamsTargetMetadataTombstone(this.groupId),
      ...ids.map((id) => streamsMemberTombstone(this.groupId, id)),
      streamsGroupTombstone(this.groupId),
      streamsTopologyTombstone(this.groupId),
    ];
  }

  private addProcess(tasks: TasksWithEpochs, processId: string): void {
    for (const [id, epochs] of tasks.active) {
      let parts = this.activeProcess.get(id);
      if (parts === undefined) this.activeProcess.set(id, (parts = new Map()));
      for (const p of epochs.keys()) parts.set(p, processId);
    }
    addToSets(this.standbyProcesses, tasks.standby, processId);
    addToSets(this.warmupProcesses, tasks.warmup, processId);
  }

  private removeProcess(member: StreamsGroupMember): void {
    for (const tasks of [member.assignedTasks, member.tasksPendingRevocation]) {
      for (const [id, epochs] of tasks.active) {
        const parts = this.activeProcess.get(id);
        if (parts === undefined) continue;
        // A task already taken by another process stays with it.
        for (const p of epochs.keys()) if (parts.get(p) === member.processId) parts.delete(p);
        if (parts.size === 0) this.activeProcess.delete(id);
      }
      removeFromSets(this.standbyProcesses, tasks.standby, member.processId);
      removeFromSets(this.warmupProcesses, tasks.warmup, member.processId);
    }
  }
}

function addToSets(index: Map<string, Map<number, Set<string>>>, tasks: TaskSets, processId: string): void {
  for (const [id, parts] of tasks) {
    let byPartition = index.get(id);
    if (byPartition === undefined) index.set(id, (byPartition = new Map()));
    for (const p of parts) {
      let set = byPartition.get(p);
      if (set === undefined) byPartition.set(p, (set = new Set()));
      set.add(processId);
    }
  }
}

function removeFromSets(index: Map<string, Map<number, Set<string>>>, tasks: TaskSets, processId: string): void {
  for (const [id, parts] of tasks) {
    const byPartition = index.get(id);
    if (byPartition === undefined) continue;
    for (const p of parts) {
      const set = byPartition.get(p);
      set?.delete(processId);
      if (set !== undefined && set.size === 0) byPartition.delete(p);
    }
    if (byPartition.size === 0) index.delete(id);
  }
}
