/**
 * The records of KIP-932 share groups in __consumer_offsets, as Kafka 4.3.1's GroupCoordinatorRecordHelpers writes
 * them (record types 10-15): each is its generated value (version 0) under its key, a null value being the
 * tombstone. Topics and partitions follow the Java hash maps and sets Kafka writes them from.
 */
import type { ShareGroupCurrentMemberAssignmentValue } from '../../../protocol/generated/internal/group-coordinator/share-group-current-member-assignment-value.js';
import type { ShareGroupMemberMetadataValue } from '../../../protocol/generated/internal/group-coordinator/share-group-member-metadata-value.js';
import type { ShareGroupMetadataValue } from '../../../protocol/generated/internal/group-coordinator/share-group-metadata-value.js';
import type { ShareGroupStatePartitionMetadataValue } from '../../../protocol/generated/internal/group-coordinator/share-group-state-partition-metadata-value.js';
import type { ShareGroupTargetAssignmentMemberValue } from '../../../protocol/generated/internal/group-coordinator/share-group-target-assignment-member-value.js';
import type { ShareGroupTargetAssignmentMetadataValue } from '../../../protocol/generated/internal/group-coordinator/share-group-target-assignment-metadata-value.js';
import { javaIntegerHash, javaUuidHash } from '../../runtime/java-hash.js';
import { javaHashOrder } from '../../runtime/java-hash-map.js';
import type { TopicPartitions } from '../consumer/assignor.js';
import { MEMBER_STATE_VALUE } from '../consumer/member.js';
import { topicPartitionsInJavaOrder } from '../consumer/records.js';
import type { ShareGroupMember } from './member.js';

interface GroupKeyed<T extends string, V> {
  readonly type: T;
  readonly group: string;
  readonly value: V | null;
}

interface MemberKeyed<T extends string, V> extends GroupKeyed<T, V> {
  readonly memberId: string;
}

/** A member's subscription and identity (type 10). */
export type ShareGroupMemberRecord = MemberKeyed<'share-member', ShareGroupMemberMetadataValue>;
/** The group epoch and the metadata hash it was computed with (type 11). */
export type ShareGroupMetadataRecord = GroupKeyed<'share-group', ShareGroupMetadataValue>;
/** The target assignment's epoch and time (type 12). */
export type ShareGroupTargetMetadataRecord = GroupKeyed<'share-target', ShareGroupTargetAssignmentMetadataValue>;
/** A member's target assignment (type 13). */
export type ShareGroupTargetMemberRecord = MemberKeyed<'share-target-member', ShareGroupTargetAssignmentMemberValue>;
/** A member's current assignment and epochs (type 14). */
export type ShareGroupCurrentAssignmentRecord = MemberKeyed<'share-current-member', ShareGroupCurrentMemberAssignmentValue>;
/** Which topics' share partitions are initializing, initialized or being deleted for the group (type 15). */
export type ShareGroupStatePartitionMetadataRecord = GroupKeyed<'share-state-partitions', ShareGroupStatePartitionMetadataValue>;

export type ShareGroupRecord =
  | ShareGroupMemberRecord
  | ShareGroupMetadataRecord
  | ShareGroupTargetMetadataRecord
  | ShareGroupTargetMemberRecord
  | ShareGroupCurrentAssignmentRecord
  | ShareGroupStatePartitionMetadataRecord;

const SHARE_RECORD_TYPES: ReadonlySet<string> = new Set([
  'share-member',
  'share-group',
  'share-target',
  'share-target-member',
  'share-current-member',
  'share-state-partitions',
]);

export function isShareGroupRecord(record: { readonly type: string }): record is ShareGroupRecord {
  return SHARE_RECORD_TYPES.has(record.type);
}

/** The identity of a share group record for "last record per key wins". */
export function shareRecordKey(record: ShareGroupRecord): string {
  return 'memberId' in record ? `${record.type}\u0000${record.group}\u0000${record.memberId}` : `${record.type}\u0000${record.group}`;
}

// ---- Kafka's GroupCoordinatorRecordHelpers ----

/** The member's subscription: topic names sorted, as Kafka writes them. */
export function shareMemberRecord(group: string, member: ShareGroupMember): ShareGroupMemberRecord {
  return {
    type: 'share-member',
    group,
    memberId: member.memberId,
    value: { rackId: member.rackId, clientId: member.clientId, clientHost: member.clientHost, subscribedTopicNames: [...member.subscribedTopicNames].sort() },
  };
}

export function shareMemberTombstone(group: string, memberId: string): ShareGroupMemberRecord {
  return { type: 'share-member', group, memberId, value: null };
}

export function shareGroupEpochRecord(group: string, epoch: number, metadataHash: bigint): ShareGroupMetadataRecord {
  return { type: 'share-group', group, value: { epoch, metadataHash } };
}

export function shareGroupEpochTombstone(group: string): ShareGroupMetadataRecord {
  return { type: 'share-group', group, value: null };
}

export function shareTargetMetadataRecord(group: string, assignmentEpoch: number, assignmentTimestamp: number): ShareGroupTargetMetadataRecord {
  return { type: 'share-target', group, value: { assignmentEpoch, assignmentTimestamp: BigInt(assignmentTimestamp) } };
}

export function shareTargetMetadataTombstone(group: string): ShareGroupTargetMetadataRecord {
  return { type: 'share-target', group, value: null };
}

export function shareTargetMemberRecord(group: string, memberId: string, partitions: TopicPartitions): ShareGroupTargetMemberRecord {
  return { type: 'share-target-member', group, memberId, value: { topicPartitions: topicPartitionsInJavaOrder(partitions) } };
}

export function shareTargetMemberTombstone(group: string, memberId: string): ShareGroupTargetMemberRecord {
  return { type: 'share-target-member', group, memberId, value: null };
}

export function shareCurrentAssignmentRecord(group: string, member: ShareGroupMember): ShareGroupCurrentAssignmentRecord {
  return {
    type: 'share-current-member',
    group,
    memberId: member.memberId,
    value: {
      memberEpoch: member.memberEpoch,
      previousMemberEpoch: member.previousMemberEpoch,
      state: MEMBER_STATE_VALUE[member.state],
      assignedPartitions: topicPartitionsInJavaOrder(member.assignedPartitions),
    },
  };
}

export function shareCurrentAssignmentTombstone(group: string, memberId: string): ShareGroupCurrentAssignmentRecord {
  return { type: 'share-current-member', group, memberId, value: null };
}

/** A topic's share partitions in some initialization stage, with the time they entered it (Kafka's InitMapValue). */
export interface InitTopic {
  readonly name: string;
  readonly partitions: ReadonlySet<number>;
  readonly timestamp: number;
}

/** The share partitions' initialization state: topic id → partitions initializing / initialized; deleting: topic id → name. */
export interface StatePartitionMetadata {
  readonly initializing: ReadonlyMap<string, InitTopic>;
  readonly initialized: ReadonlyMap<string, InitTopic>;
  readonly deleting: ReadonlyMap<string, string>;
}

export function statePartitionMetadataRecord(group: string, state: StatePartitionMetadata): ShareGroupStatePartitionMetadataRecord {
  const infos = (topics: ReadonlyMap<string, InitTopic>) =>
    javaHashOrder([...topics.keys()], javaUuidHash).map((topicId) => {
      const topic = topics.get(topicId)!;
      return { topicId, topicName: topic.name, partitions: javaHashOrder([...topic.partitions], javaIntegerHash) };
    });
  return {
    type: 'share-state-partitions',
    group,
    value: {
      initializingTopics: infos(state.initializing),
      initializedTopics: infos(state.initialized),
      deletingTopics: javaHashOrder([...state.deleting.keys()], javaUuidHash).map((topicId) => ({ topicId, topicName: state.deleting.get(topicId)! })),
    },
  };
}

export function statePartitionMetadataTombstone(group: string): ShareGroupStatePartitionMetadataRecord {
  return { type: 'share-state-partitions', group, value: null };
}
