/**
 * Replay of the streams group records (Kafka's GroupMetadataManager.replay for each): the one way a streams group
 * changes, at load and live. Records out of Kafka's order (a member deleted before its assignment) are refused.
 */
import { replayTargetMetadata } from '../target-metadata.js';
import type { TaskIds } from '../../../protocol/generated/internal/group-coordinator/streams-group-current-member-assignment-value.js';
import { newStreamsMember, streamsMemberStateFromValue } from './member.js';
import type { StreamsGroupRecord } from './records.js';
import type { StreamsGroup } from './streams-group.js';
import { taskSetsOf, type TasksWithEpochs } from './tasks.js';

export interface StreamsGroupStore {
  /** The streams group of that id; when absent a new one if `create`, else undefined. Throws for a group of another type. */
  streamsGroup(groupId: string, create: boolean): StreamsGroup | undefined;
  removeGroup(groupId: string): void;
}

/** Active tasks with their epochs; a record without epochs (or with a wrong count) takes the member's epoch, as Kafka. */
function tasksWithEpochs(active: readonly TaskIds[], standby: readonly TaskIds[], warmup: readonly TaskIds[], memberEpoch: number): TasksWithEpochs {
  return {
    active: new Map(
      active.map((t) => {
        const epochs = t.assignmentEpochs;
        const withEpochs = epochs !== null && epochs.length === t.partitions.length;
        return [t.subtopologyId, new Map(t.partitions.map((p, i) => [p, withEpochs ? epochs[i]! : memberEpoch]))];
      }),
    ),
    standby: taskSetsOf(standby),
    warmup: taskSetsOf(warmup),
  };
}

export function replayStreamsRecord(store: StreamsGroupStore, record: StreamsGroupRecord): void {
  const group = store.streamsGroup(record.group, record.value !== null);
  if (group === undefined) return;
  switch (record.type) {
    case 'streams-group': {
      if (record.value !== null) {
        group.groupEpoch = record.value.epoch;
        group.metadataHash = record.value.metadataHash;
        group.validatedTopologyEpoch = record.value.validatedTopologyEpoch;
        group.lastAssignmentConfigs = new Map((record.value.lastAssignmentConfigs ?? []).map((c) => [c.key, c.value]));
        return;
      }
      if (group.members.size > 0) throw new Error(`Received a tombstone record to delete group ${group.groupId} but the group still has ${group.members.size} members.`);
      if (group.assignmentEpoch !== -1) {
        throw new Error(`Received a tombstone record to delete group ${group.groupId} but did not receive StreamsGroupTargetAssignmentMetadataValue tombstone.`);
      }
      store.removeGroup(group.groupId);
      return;
    }
    case 'streams-topology':
      // The configured topology stays: the heartbeat that wrote this record configured it (Kafka's setTopology).
      group.topology = record.value ?? undefined;
      return;
    case 'streams-member': {
      const old = group.members.get(record.memberId);
      if (record.value !== null) {
        const v = record.value;
        group.updateMember({
          ...(old ?? newStreamsMember(record.memberId)),
          instanceId: v.instanceId,
          rackId: v.rackId,
          clientId: v.clientId,
          clientHost: v.clientHost,
          rebalanceTimeoutMs: v.rebalanceTimeoutMs,
          topologyEpoch: v.topologyEpoch,
          processId: v.processId,
          userEndpoint: v.userEndpoint === null ? null : { host: v.userEndpoint.host, port: v.userEndpoint.port },
          clientTags: new Map(v.clientTags.map((t) => [t.key, t.value])),
        });
        return;
      }
      if (old === undefined) return;
      if (old.memberEpoch !== -1) {
        throw new Error(`Received a tombstone record to delete member ${record.memberId} but did not receive StreamsGroupCurrentMemberAssignmentValue tombstone.`);
      }
      if (group.targetAssignment.has(record.memberId)) {
        throw new Error(`Received a tombstone record to delete member ${record.memberId} but did not receive StreamsGroupTargetAssignmentMetadataValue tombstone.`);
      }
      group.removeMember(record.memberId);
      return;
    }
    case 'streams-target':
      replayTargetMetadata(group, record.value);
      return;
    case 'streams-target-member':
      if (record.value === null) group.targetAssignment.delete(record.memberId);
      else {
        const v = record.value;
        group.targetAssignment.set(record.memberId, { active: taskSetsOf(v.activeTasks), standby: taskSetsOf(v.standbyTasks), warmup: taskSetsOf(v.warmupTasks) });
      }
      return;
    case 'streams-current-member': {
      const old = group.members.get(record.memberId);
      if (record.value !== null) {
        const v = record.value;
        group.updateMember({
          ...(old ?? newStreamsMember(record.memberId)),
          memberEpoch: v.memberEpoch,
          previousMemberEpoch: v.previousMemberEpoch,
          state: streamsMemberStateFromValue(v.state),
          assignedTasks: tasksWithEpochs(v.activeTasks, v.standbyTasks, v.warmupTasks, v.memberEpoch),
          tasksPendingRevocation: tasksWithEpochs(v.activeTasksPendingRevocation, v.standbyTasksPendingRevocation, v.warmupTasksPendingRevocation, v.memberEpoch),
        });
        return;
      }
      // The member stays until its metadata tombstone, at epoch -1 with nothing assigned.
      if (old === undefined) return;
      group.updateMember({ ...old, memberEpoch: -1, previousMemberEpoch: -1, assignedTasks: { active: new Map(), standby: new Map(), warmup: new Map() }, tasksPendingRevocation: { active: new Map(), standby: new Map(), warmup: new Map() } });
      return;
    }
  }
}
