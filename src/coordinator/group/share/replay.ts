/**
 * Replay of the share group records (Kafka's GroupMetadataManager.replay for each): the one way a share group
 * changes, at load and live. Records out of the order Kafka writes them in are refused with Kafka's error.
 */
import { replayTargetMetadata } from '../target-metadata.js';
import type { ShareGroupCurrentMemberAssignmentValue } from '../../../protocol/generated/internal/group-coordinator/share-group-current-member-assignment-value.js';
import type { ShareGroupStatePartitionMetadataValue } from '../../../protocol/generated/internal/group-coordinator/share-group-state-partition-metadata-value.js';
import { memberStateFromValue } from '../consumer/member.js';
import { assignmentFromRecord, throwIfNotDeletable } from '../consumer/replay.js';
import { NO_SHARE_PARTITIONS } from './member.js';
import type { InitTopic, ShareGroupRecord, StatePartitionMetadata } from './records.js';
import type { ShareGroup } from './share-group.js';

/** Where the shard keeps its share groups, as replay needs them. */
export interface ShareGroupStore {
  /** The share group of that id; a new one when absent and `create`, else undefined. Throws for a group of another type. */
  shareGroup(groupId: string, create: boolean): ShareGroup | undefined;
  removeGroup(groupId: string): void;
}

const LEAVE_GROUP_MEMBER_EPOCH = -1;

/** `now`: the replay time, which Kafka records as the initialization stages' timestamp. */
export function replayShareRecord(store: ShareGroupStore, record: ShareGroupRecord, now: number): void {
  const group = store.shareGroup(record.group, record.value !== null);
  if (group === undefined) return; // a tombstone for a group already gone
  switch (record.type) {
    case 'share-group':
      if (record.value !== null) {
        group.groupEpoch = record.value.epoch;
        group.metadataHash = record.value.metadataHash;
        return;
      }
      throwIfNotDeletable(group, 'target assignment epoch in invalid');
      store.removeGroup(group.groupId);
      return;
    case 'share-member': {
      const old = group.members.get(record.memberId);
      if (record.value !== null) {
        const v = record.value;
        group.updateMember({ ...group.memberOrNew(record.memberId), rackId: v.rackId, clientId: v.clientId, clientHost: v.clientHost, subscribedTopicNames: new Set(v.subscribedTopicNames) });
        return;
      }
      if (old === undefined) return;
      if (old.memberEpoch !== LEAVE_GROUP_MEMBER_EPOCH) throw new Error(`Received a tombstone record to delete member ${record.memberId} with invalid leave group epoch.`);
      if (group.targetAssignment.has(record.memberId)) throw new Error(`Received a tombstone record to delete member ${record.memberId} but member exists in target assignment.`);
      group.removeMember(record.memberId);
      return;
    }
    case 'share-target':
      replayTargetMetadata(group, record.value);
      return;
    case 'share-target-member':
      if (record.value === null) group.targetAssignment.delete(record.memberId);
      else group.targetAssignment.set(record.memberId, assignmentFromRecord(record.value.topicPartitions));
      return;
    case 'share-current-member': {
      const old = group.members.get(record.memberId);
      if (record.value !== null) {
        group.updateMember(withCurrentAssignment(group.memberOrNew(record.memberId), record.value));
        return;
      }
      // The member leaves: epoch -1 and nothing assigned, until its subscription's tombstone removes it.
      if (old === undefined) return;
      group.updateMember({ ...old, memberEpoch: LEAVE_GROUP_MEMBER_EPOCH, previousMemberEpoch: LEAVE_GROUP_MEMBER_EPOCH, assignedPartitions: NO_SHARE_PARTITIONS });
      return;
    }
    case 'share-state-partitions':
      group.statePartitions = record.value === null ? null : statePartitionsFromRecord(record.value, now);
      return;
  }
}

function withCurrentAssignment<M extends { memberEpoch: number }>(member: M, v: ShareGroupCurrentMemberAssignmentValue): M {
  return {
    ...member,
    memberEpoch: v.memberEpoch,
    previousMemberEpoch: v.previousMemberEpoch,
    state: memberStateFromValue(v.state),
    assignedPartitions: assignmentFromRecord(v.assignedPartitions),
  };
}

function statePartitionsFromRecord(v: ShareGroupStatePartitionMetadataValue, now: number): StatePartitionMetadata {
  const topics = (infos: ShareGroupStatePartitionMetadataValue['initializedTopics']) =>
    new Map(infos.map((t) => [t.topicId, { name: t.topicName, partitions: new Set(t.partitions), timestamp: now } satisfies InitTopic] as const));
  return {
    initializing: topics(v.initializingTopics),
    initialized: topics(v.initializedTopics),
    deleting: new Map(v.deletingTopics.map((t) => [t.topicId, t.topicName] as const)),
  };
}
