/**
 * The records of KIP-848 consumer groups in __consumer_offsets, as Kafka 4.3.1's GroupCoordinatorRecordHelpers
 * writes them: each is its generated value (version 0) under its key, a null value being the tombstone.
 * ConsumerGroupPartitionMetadata is only read (and deleted) by 4.3.1: the metadata hash replaced it.
 */
import type { ConsumerGroupCurrentMemberAssignmentValue } from '../../../protocol/generated/internal/group-coordinator/consumer-group-current-member-assignment-value.js';
import type { ConsumerGroupMemberMetadataValue } from '../../../protocol/generated/internal/group-coordinator/consumer-group-member-metadata-value.js';
import type { ConsumerGroupMetadataValue } from '../../../protocol/generated/internal/group-coordinator/consumer-group-metadata-value.js';
import type { ConsumerGroupPartitionMetadataValue } from '../../../protocol/generated/internal/group-coordinator/consumer-group-partition-metadata-value.js';
import type { ConsumerGroupRegularExpressionValue } from '../../../protocol/generated/internal/group-coordinator/consumer-group-regular-expression-value.js';
import type { ConsumerGroupTargetAssignmentMemberValue } from '../../../protocol/generated/internal/group-coordinator/consumer-group-target-assignment-member-value.js';
import type { ConsumerGroupTargetAssignmentMetadataValue } from '../../../protocol/generated/internal/group-coordinator/consumer-group-target-assignment-metadata-value.js';
import type { TopicPartitions } from './assignor.js';
import { javaIntegerHash, javaUuidHash } from '../../runtime/java-hash.js';
import { javaHashOrder } from '../../runtime/java-hash-map.js';
import { MEMBER_STATE_VALUE, type ConsumerGroupMember, type PartitionEpochs } from './member.js';

/** The group epoch and the metadata hash it was computed with (record type 3). */
export interface ConsumerGroupMetadataRecord {
  readonly type: 'consumer-group';
  readonly group: string;
  readonly value: ConsumerGroupMetadataValue | null;
}

/** The subscribed topics' metadata of Kafka before 4.1 (type 4): 4.3.1 only notes it exists and deletes it. */
export interface ConsumerGroupPartitionMetadataRecord {
  readonly type: 'consumer-partition-metadata';
  readonly group: string;
  readonly value: ConsumerGroupPartitionMetadataValue | null;
}

/** A member's subscription and identity (type 5). */
export interface ConsumerGroupMemberRecord {
  readonly type: 'consumer-member';
  readonly group: string;
  readonly memberId: string;
  readonly value: ConsumerGroupMemberMetadataValue | null;
}

/** The target assignment's epoch and time (type 6). */
export interface ConsumerGroupTargetMetadataRecord {
  readonly type: 'consumer-target';
  readonly group: string;
  readonly value: ConsumerGroupTargetAssignmentMetadataValue | null;
}

/** A member's target assignment (type 7). */
export interface ConsumerGroupTargetMemberRecord {
  readonly type: 'consumer-target-member';
  readonly group: string;
  readonly memberId: string;
  readonly value: ConsumerGroupTargetAssignmentMemberValue | null;
}

/** A member's current assignment, epochs and reconciliation state (type 8). */
export interface ConsumerGroupCurrentAssignmentRecord {
  readonly type: 'consumer-current-member';
  readonly group: string;
  readonly memberId: string;
  readonly value: ConsumerGroupCurrentMemberAssignmentValue | null;
}

/** A regular expression subscription resolved to topic names (type 16). */
export interface ConsumerGroupRegexRecord {
  readonly type: 'consumer-regex';
  readonly group: string;
  readonly regex: string;
  readonly value: ConsumerGroupRegularExpressionValue | null;
}

export type ConsumerGroupRecord =
  | ConsumerGroupMetadataRecord
  | ConsumerGroupPartitionMetadataRecord
  | ConsumerGroupMemberRecord
  | ConsumerGroupTargetMetadataRecord
  | ConsumerGroupTargetMemberRecord
  | ConsumerGroupCurrentAssignmentRecord
  | ConsumerGroupRegexRecord;

const CONSUMER_RECORD_TYPES: ReadonlySet<string> = new Set([
  'consumer-group',
  'consumer-partition-metadata',
  'consumer-member',
  'consumer-target',
  'consumer-target-member',
  'consumer-current-member',
  'consumer-regex',
]);

export function isConsumerGroupRecord(record: { readonly type: string }): record is ConsumerGroupRecord {
  return CONSUMER_RECORD_TYPES.has(record.type);
}

/** The identity of a consumer group record for "last record per key wins". */
export function consumerRecordKey(record: ConsumerGroupRecord): string {
  switch (record.type) {
    case 'consumer-member':
    case 'consumer-target-member':
    case 'consumer-current-member':
      return `${record.type}\u0000${record.group}\u0000${record.memberId}`;
    case 'consumer-regex':
      return `${record.type}\u0000${record.group}\u0000${record.regex}`;
    default:
      return `${record.type}\u0000${record.group}`;
  }
}

// ---- Kafka's GroupCoordinatorRecordHelpers ----

export function groupEpochRecord(group: string, epoch: number, metadataHash: bigint): ConsumerGroupMetadataRecord {
  return { type: 'consumer-group', group, value: { epoch, metadataHash } };
}

export function groupEpochTombstone(group: string): ConsumerGroupMetadataRecord {
  return { type: 'consumer-group', group, value: null };
}

export function partitionMetadataTombstone(group: string): ConsumerGroupPartitionMetadataRecord {
  return { type: 'consumer-partition-metadata', group, value: null };
}

/** The member's subscription: topic names sorted, as Kafka writes them. */
export function memberSubscriptionRecord(group: string, member: ConsumerGroupMember): ConsumerGroupMemberRecord {
  return {
    type: 'consumer-member',
    group,
    memberId: member.memberId,
    value: {
      instanceId: member.instanceId,
      rackId: member.rackId,
      clientId: member.clientId,
      clientHost: member.clientHost,
      subscribedTopicNames: [...member.subscribedTopicNames].sort(),
      subscribedTopicRegex: member.subscribedTopicRegex,
      rebalanceTimeoutMs: member.rebalanceTimeoutMs,
      serverAssignor: member.serverAssignor,
      classicMemberMetadata: member.classicMemberMetadata,
    },
  };
}

export function memberSubscriptionTombstone(group: string, memberId: string): ConsumerGroupMemberRecord {
  return { type: 'consumer-member', group, memberId, value: null };
}

export function targetAssignmentMetadataRecord(group: string, assignmentEpoch: number, assignmentTimestamp: number): ConsumerGroupTargetMetadataRecord {
  return { type: 'consumer-target', group, value: { assignmentEpoch, assignmentTimestamp: BigInt(assignmentTimestamp) } };
}

export function targetAssignmentMetadataTombstone(group: string): ConsumerGroupTargetMetadataRecord {
  return { type: 'consumer-target', group, value: null };
}

/** A member's target assignment, topics and partitions in the order of the Java hash map Kafka writes it from. */
export function targetAssignmentRecord(group: string, memberId: string, partitions: TopicPartitions): ConsumerGroupTargetMemberRecord {
  return { type: 'consumer-target-member', group, memberId, value: { topicPartitions: topicPartitionsInJavaOrder(partitions) } };
}

/** Topics and partitions in the order of the Java hash map and sets Kafka writes an assignment from (consumer and share groups). */
export function topicPartitionsInJavaOrder(partitions: TopicPartitions): { topicId: string; partitions: number[] }[] {
  return javaHashOrder([...partitions.keys()], javaUuidHash).map((topicId) => ({
    topicId,
    partitions: javaHashOrder([...partitions.get(topicId)!], javaIntegerHash),
  }));
}

export function targetAssignmentTombstone(group: string, memberId: string): ConsumerGroupTargetMemberRecord {
  return { type: 'consumer-target-member', group, memberId, value: null };
}

export function currentAssignmentRecord(group: string, member: ConsumerGroupMember): ConsumerGroupCurrentAssignmentRecord {
  return {
    type: 'consumer-current-member',
    group,
    memberId: member.memberId,
    value: {
      memberEpoch: member.memberEpoch,
      previousMemberEpoch: member.previousMemberEpoch,
      state: MEMBER_STATE_VALUE[member.state],
      assignedPartitions: withEpochs(member.assignedPartitions),
      partitionsPendingRevocation: withEpochs(member.partitionsPendingRevocation),
    },
  };
}

export function currentAssignmentTombstone(group: string, memberId: string): ConsumerGroupCurrentAssignmentRecord {
  return { type: 'consumer-current-member', group, memberId, value: null };
}

/** The resolved regular expression: topic names sorted. */
export function regexRecord(group: string, regex: string, resolved: ResolvedRegex): ConsumerGroupRegexRecord {
  return { type: 'consumer-regex', group, regex, value: { topics: [...resolved.topics].sort(), version: resolved.version, timestamp: BigInt(resolved.timestamp) } };
}

export function regexTombstone(group: string, regex: string): ConsumerGroupRegexRecord {
  return { type: 'consumer-regex', group, regex, value: null };
}

/** A regular expression resolved against the topics of metadata image `version` at `timestamp` (ms). */
export interface ResolvedRegex {
  readonly topics: ReadonlySet<string>;
  readonly version: bigint;
  readonly timestamp: number;
}

/** Each partition with the epoch it was assigned at (assignmentEpochs, 4.3's tagged field). */
function withEpochs(assignment: PartitionEpochs): { topicId: string; partitions: number[]; assignmentEpochs: number[] }[] {
  return javaHashOrder([...assignment.keys()], javaUuidHash).map((topicId) => {
    const epochs = assignment.get(topicId)!;
    const partitions = javaHashOrder([...epochs.keys()], javaIntegerHash);
    return { topicId, partitions, assignmentEpochs: partitions.map((p) => epochs.get(p)!) };
  });
}
