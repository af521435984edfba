/**
 * The records of streams groups (KIP-1071) in __consumer_offsets, as Kafka 4.3.1's StreamsCoordinatorRecordHelpers
 * writes them: each is its generated value (version 0) under its key, a null value being the tombstone. Task lists
 * are sorted by subtopology id, partitions ascending; client tags by key.
 */
import type { StreamsGroupCurrentMemberAssignmentValue, TaskIds as CurrentTaskIds } from '../../../protocol/generated/internal/group-coordinator/streams-group-current-member-assignment-value.js';
import type { StreamsGroupMemberMetadataValue } from '../../../protocol/generated/internal/group-coordinator/streams-group-member-metadata-value.js';
import type { StreamsGroupMetadataValue } from '../../../protocol/generated/internal/group-coordinator/streams-group-metadata-value.js';
import type { StreamsGroupTargetAssignmentMemberValue, TaskIds } from '../../../protocol/generated/internal/group-coordinator/streams-group-target-assignment-member-value.js';
import type { StreamsGroupTargetAssignmentMetadataValue } from '../../../protocol/generated/internal/group-coordinator/streams-group-target-assignment-metadata-value.js';
import type { StreamsGroupTopologyValue } from '../../../protocol/generated/internal/group-coordinator/streams-group-topology-value.js';
import { STREAMS_MEMBER_STATE_VALUE, type StreamsGroupMember } from './member.js';
import type { TaskEpochs, TaskSets, TasksTuple } from './tasks.js';

export interface StreamsGroupMetadataRecord { readonly type: 'streams-group'; readonly group: string; readonly value: StreamsGroupMetadataValue | null }
export interface StreamsGroupTopologyRecord { readonly type: 'streams-topology'; readonly group: string; readonly value: StreamsGroupTopologyValue | null }
export interface StreamsGroupMemberRecord { readonly type: 'streams-member'; readonly group: string; readonly memberId: string; readonly value: StreamsGroupMemberMetadataValue | null }
export interface StreamsGroupTargetMetadataRecord { readonly type: 'streams-target'; readonly group: string; readonly value: StreamsGroupTargetAssignmentMetadataValue | null }
export interface StreamsGroupTargetMemberRecord { readonly type: 'streams-target-member'; readonly group: string; readonly memberId: string; readonly value: StreamsGroupTargetAssignmentMemberValue | null }
export interface StreamsGroupCurrentAssignmentRecord { readonly type: 'streams-current-member'; readonly group: string; readonly memberId: string; readonly value: StreamsGroupCurrentMemberAssignmentValue | null }

export type StreamsGroupRecord =
  | StreamsGroupMetadataRecord
  | StreamsGroupTopologyRecord
  | StreamsGroupMemberRecord
  | StreamsGroupTargetMetadataRecord
  | StreamsGroupTargetMemberRecord
  | StreamsGroupCurrentAssignmentRecord;

const STREAMS_RECORD_TYPES: ReadonlySet<string> = new Set(['streams-group', 'streams-topology', 'streams-member', 'streams-target', 'streams-target-member', 'streams-current-member']);

export function isStreamsGroupRecord(record: { readonly type: string }): record is StreamsGroupRecord {
  return STREAMS_RECORD_TYPES.has(record.type);
}

/** The identity of a record for "last record per key wins". */
export function streamsRecordKey(record: StreamsGroupRecord): string {
  const member = 'memberId' in record ? record.memberId : '';
  return `${record.type}\u0000${record.group}\u0000${member}`;
}

const byId = <T extends { subtopologyId: string }>(a: T, b: T): number => (a.subtopologyId < b.subtopologyId ? -1 : a.subtopologyId > b.subtopologyId ? 1 : 0);
const ascending = (a: number, b: number): number => a - b;

function taskIds(tasks: TaskSets): TaskIds[] {
  return [...tasks].map(([subtopologyId, parts]) => ({ subtopologyId, partitions: [...parts].sort(ascending) })).sort(byId);
}

function currentTaskIds(tasks: TaskSets): CurrentTaskIds[] {
  return taskIds(tasks).map((t) => ({ ...t, assignmentEpochs: null }));
}

function currentTaskIdsWithEpochs(tasks: TaskEpochs): CurrentTaskIds[] {
  return [...tasks]
    .map(([subtopologyId, epochs]) => {
      const sorted = [...epochs].sort((a, b) => a[0] - b[0]);
      return { subtopologyId, partitions: sorted.map(([p]) => p), assignmentEpochs: sorted.map(([, e]) => e) };
    })
    .sort(byId);
}

export function streamsGroupMetadataRecord(group: string, epoch: number, metadataHash: bigint, validatedTopologyEpoch: number, assignmentConfigs: ReadonlyMap<string, string>): StreamsGroupMetadataRecord {
  return {
    type: 'streams-group',
    group,
    value: { epoch, metadataHash, validatedTopologyEpoch, lastAssignmentConfigs: [...assignmentConfigs].map(([key, value]) => ({ key, value })) },
  };
}

export function streamsMemberRecord(group: string, member: StreamsGroupMember): StreamsGroupMemberRecord {
  return {
    type: 'streams-member',
    group,
    memberId: member.memberId,
    value: {
      rackId: member.rackId,
      instanceId: member.instanceId,
      clientId: member.clientId,
      clientHost: member.clientHost,
      rebalanceTimeoutMs: member.rebalanceTimeoutMs,
      topologyEpoch: member.topologyEpoch,
      processId: member.processId,
      userEndpoint: member.userEndpoint === null ? null : { host: member.userEndpoint.host, port: member.userEndpoint.port },
      clientTags: [...member.clientTags].map(([key, value]) => ({ key, value })).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)),
    },
  };
}

export function streamsTargetAssignmentRecord(group: string, memberId: string, assignment: TasksTuple): StreamsGroupTargetMemberRecord {
  return {
    type: 'streams-target-member',
    group,
    memberId,
    value: { activeTasks: taskIds(assignment.active), standbyTasks: taskIds(assignment.standby), warmupTasks: taskIds(assignment.warmup) },
  };
}

export function streamsTargetMetadataRecord(group: string, assignmentEpoch: number, assignmentTimestamp: number): StreamsGroupTargetMetadataRecord {
  return { type: 'streams-target', group, value: { assignmentEpoch, assignmentTimestamp: BigInt(assignmentTimestamp) } };
}

export function streamsCurrentAssignmentRecord(group: string, member: StreamsGroupMember): StreamsGroupCurrentAssignmentRecord {
  return {
    type: 'streams-current-member',
    group,
    memberId: member.memberId,
    value: {
      memberEpoch: member.memberEpoch,
      previousMemberEpoch: member.previousMemberEpoch,
      state: STREAMS_MEMBER_STATE_VALUE[member.state],
      activeTasks: currentTaskIdsWithEpochs(member.assignedTasks.active),
      standbyTasks: currentTaskIds(member.assignedTasks.standby),
      warmupTasks: currentTaskIds(member.assignedTasks.warmup),
      activeTasksPendingRevocation: currentTaskIdsWithEpochs(member.tasksPendingRevocation.active),
      standbyTasksPendingRevocation: currentTaskIds(member.tasksPendingRevocation.standby),
      warmupTasksPendingRevocation: currentTaskIds(member.tasksPendingRevocation.warmup),
    },
  };
}

export function streamsTopologyRecord(group: string, value: StreamsGroupTopologyValue): StreamsGroupTopologyRecord {
  return { type: 'streams-topology', group, value };
}

export const streamsGroupTombstone = (group: string): StreamsGroupMetadataRecord => ({ type: 'streams-group', group, value: null });
export const streamsTopologyTombstone = (group: string): StreamsGroupTopologyRecord => ({ type: 'streams-topology', group, value: null });
export const streamsMemberTombstone = (group: string, memberId: string): StreamsGroupMemberRecord => ({ type: 'streams-member', group, memberId, value: null });
export const streamsTargetMetadataTombstone = (group: string): StreamsGroupTargetMetadataRecord => ({ type: 'streams-target', group, value: null });
export const streamsTargetAssignmentTombstone = (group: string, memberId: string): StreamsGroupTargetMemberRecord => ({ type: 'streams-target-member', group, memberId, value: null });
export const streamsCurrentAssignmentTombstone = (group: string, memberId: string): StreamsGroupCurrentAssignmentRecord => ({ type: 'streams-current-member', group, memberId, value: null });

/** Kafka's removeStreamsMember: current assignment, target assignment, member, in that order. */
export function removeStreamsMemberRecords(group: string, memberId: string): StreamsGroupRecord[] {
  return [streamsCurrentAssignmentTombstone(group, memberId), streamsTargetAssignmentTombstone(group, memberId), streamsMemberTombstone(group, memberId)];
}
