/**
 * Replay of the consumer group records (Kafka's GroupMetadataManager.replay for each): the one way a consumer group
 * changes, at load and live, so a group rebuilt from the log (compacted or not) is the group that wrote it.
 * Records out of the order Kafka writes them in (a member deleted before its assignment) are refused with an error.
 */
import { replayTargetMetadata } from '../target-metadata.js';
import type { TopicPartitions } from './assignor.js';
import type { ConsumerGroup } from './consumer-group.js';
import { memberStateFromValue, newMember, NO_PARTITIONS, type ConsumerGroupMember, type PartitionEpochs } from './member.js';
import type { ConsumerGroupRecord } from './records.js';
import type { ConsumerGroupCurrentMemberAssignmentValue } from '../../../protocol/generated/internal/group-coordinator/consumer-group-current-member-assignment-value.js';

/** Where the shard keeps its groups, as replay needs them. */
export interface ConsumerGroupStore {
  /**
   * The consumer group of that id; when absent, a new one if `create` (a "simple" group, only offsets, gives way to
   * it), else undefined. Throws when the id belongs to a group of another type.
   */
  consumerGroup(groupId: string, create: boolean): ConsumerGroup | undefined;
  removeGroup(groupId: string): void;
}

export function replayConsumerRecord(store: ConsumerGroupStore, record: ConsumerGroupRecord): void {
  const group = store.consumerGroup(record.group, record.value !== null);
  if (group === undefined) return; // a tombstone for a group already gone
  switch (record.type) {
    case 'consumer-group': {
      if (record.value !== null) {
        group.groupEpoch = record.value.epoch;
        group.metadataHash = record.value.metadataHash;
        return;
      }
      throwIfNotDeletable(group, 'did not receive ConsumerGroupTargetAssignmentMetadataValue tombstone');
      store.removeGroup(group.groupId);
      return;
    }
    case 'consumer-partition-metadata':
      group.hasSubscriptionMetadataRecord = record.value !== null;
      return;
    case 'consumer-member': {
      const old = group.members.get(record.memberId);
      if (record.value !== null) {
        const v = record.value;
        group.updateMember({
          ...(old ?? newMember(record.memberId)),
          instanceId: v.instanceId,
          rackId: v.rackId,
          clientId: v.clientId,
          clientHost: v.clientHost,
          subscribedTopicNames: new Set(v.subscribedTopicNames),
          subscribedTopicRegex: v.subscribedTopicRegex,
          rebalanceTimeoutMs: v.rebalanceTimeoutMs,
          serverAssignor: v.serverAssignor,
          classicMemberMetadata: v.classicMemberMetadata,
        });
        return;
      }
      if (old === undefined) return;
      if (old.memberEpoch !== -1) {
        throw new Error(`Received a tombstone record to delete member ${record.memberId} but did not receive ConsumerGroupCurrentMemberAssignmentValue tombstone.`);
      }
      if (group.targetAssignment.has(record.memberId)) {
        throw new Error(`Received a tombstone record to delete member ${record.memberId} but did not receive ConsumerGroupTargetAssignmentMetadataValue tombstone.`);
      }
      group.removeMember(record.memberId);
      return;
    }
    case 'consumer-target':
      replayTargetMetadata(group, record.value);
      return;
    case 'consumer-target-member':
      if (record.value === null) group.removeTargetAssignment(record.memberId);
      else group.updateTargetAssignment(record.memberId, assignmentFromRecord(record.value.topicPartitions));
      return;
    case 'consumer-current-member': {
      const old = group.members.get(record.memberId);
      if (record.value !== null) {
        group.updateMember(withCurrentAssignment(old ?? newMember(record.memberId), record.value));
        return;
      }
      // The member leaves: epoch -1 and nothing owned, until its subscription's tombstone removes it.
      if (old === undefined) return;
      group.updateMember({ ...old, memberEpoch: -1, previousMemberEpoch: -1, assignedPartitions: NO_PARTITIONS, partitionsPendingRevocation: NO_PARTITIONS });
      return;
    }
    case 'consumer-regex':
      group.updateResolvedRegex(
        record.regex,
        record.value === null ? null : { topics: new Set(record.value.topics), version: record.value.version, timestamp: Number(record.value.timestamp) },
      );
      return;
  }
}

/** Kafka's checks before a group's epoch tombstone removes it: members, target and its epoch must be gone first. */
export function throwIfNotDeletable(
  group: { readonly groupId: string; readonly members: ReadonlyMap<string, unknown>; readonly targetAssignment: ReadonlyMap<string, unknown>; readonly assignmentEpoch: number },
  epochNotDeleted: string,
): void {
  if (group.members.size > 0) throw new Error(`Received a tombstone record to delete group ${group.groupId} but the group still has ${group.members.size} members.`);
  if (group.targetAssignment.size > 0) {
    throw new Error(`Received a tombstone record to delete group ${group.groupId} but the target assignment still has ${group.targetAssignment.size} members.`);
  }
  if (group.assignmentEpoch !== -1) throw new Error(`Received a tombstone record to delete group ${group.groupId} but ${epochNotDeleted}.`);
}

export function assignmentFromRecord(topics: readonly { topicId: string; partitions: number[] }[]): TopicPartitions {
  return new Map(topics.map((t) => [t.topicId, new Set(t.partitions)] as const));
}

function withCurrentAssignment(member: ConsumerGroupMember, v: ConsumerGroupCurrentMemberAssignmentValue): ConsumerGroupMember {
  return {
    ...member,
    memberEpoch: v.memberEpoch,
    previousMemberEpoch: v.previousMemberEpoch,
    state: memberStateFromValue(v.state),
    assignedPartitions: epochsFromRecord(v.assignedPartitions, v.memberEpoch),
    partitionsPendingRevocation: epochsFromRecord(v.partitionsPendingRevocation, v.memberEpoch),
  };
}

/** Partitions with their assignment epochs; records of Kafka before 4.3 have none: the member epoch stands in (at least 0). */
function epochsFromRecord(topics: ConsumerGroupCurrentMemberAssignmentValue['assignedPartitions'], memberEpoch: number): PartitionEpochs {
  const fallback = Math.max(memberEpoch, 0);
  return new Map(
    topics.map((t) => {
      const epochs = t.assignmentEpochs !== null && t.assignmentEpochs.length === t.partitions.length ? t.assignmentEpochs : null;
      return [t.topicId, new Map(t.partitions.map((p, i) => [p, epochs === null ? fallback : epochs[i]!] as const))] as const;
    }),
  );
}
