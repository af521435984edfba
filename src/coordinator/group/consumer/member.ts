/**
 * A member of a KIP-848 consumer group (Kafka's ConsumerGroupMember): immutable, each change a new value, as the
 * coordinator compares the old member with the new one to know which records to write.
 */
import type { ClassicMemberMetadata } from '../../../protocol/generated/internal/group-coordinator/consumer-group-member-metadata-value.js';

/** Where a member is in its reconciliation (Kafka's MemberState), with the byte each is recorded as. */
export type MemberState = 'STABLE' | 'UNREVOKED_PARTITIONS' | 'UNRELEASED_PARTITIONS' | 'UNKNOWN';

export const MEMBER_STATE_VALUE: Readonly<Record<MemberState, number>> = {
  STABLE: 0,
  UNREVOKED_PARTITIONS: 1,
  UNRELEASED_PARTITIONS: 2,
  UNKNOWN: 127,
};

/** A recorded state byte by `values`; one this version does not know is UNKNOWN (the member must rejoin). */
export function stateFromValue<S extends string>(values: Readonly<Record<S, number>>, value: number): S | 'UNKNOWN' {
  for (const [state, v] of Object.entries(values) as [S, number][]) if (v === value) return state;
  return 'UNKNOWN';
}

export const memberStateFromValue = (value: number): MemberState => stateFromValue(MEMBER_STATE_VALUE, value);

/** Partitions by topic id, each with the epoch at which it was assigned to the member (fences zombie commits). */
export type PartitionEpochs = ReadonlyMap<string, ReadonlyMap<number, number>>;

export const NO_PARTITIONS: PartitionEpochs = new Map();

export interface ConsumerGroupMember {
  readonly memberId: string;
  /** The epoch the member must heartbeat with; -1 once its assignment is tombstoned (it is leaving). */
  readonly memberEpoch: number;
  /** The epoch before the last bump: a member whose response was lost may retry with it. */
  readonly previousMemberEpoch: number;
  readonly state: MemberState;
  readonly instanceId: string | null;
  readonly rackId: string | null;
  readonly rebalanceTimeoutMs: number;
  readonly clientId: string;
  readonly clientHost: string;
  readonly subscribedTopicNames: ReadonlySet<string>;
  /** '' (Kafka's default) or null when none. */
  readonly subscribedTopicRegex: string | null;
  readonly serverAssignor: string | null;
  readonly assignedPartitions: PartitionEpochs;
  readonly partitionsPendingRevocation: PartitionEpochs;
  /** Set for a member that joined with the classic protocol (JoinGroup/SyncGroup) into a consumer group. */
  readonly classicMemberMetadata: ClassicMemberMetadata | null;
}

/** A new member as Kafka's ConsumerGroupMember.Builder(memberId) starts it. */
export function newMember(memberId: string): ConsumerGroupMember {
  return {
    memberId,
    memberEpoch: 0,
    previousMemberEpoch: -1,
    state: 'STABLE',
    instanceId: null,
    rackId: null,
    rebalanceTimeoutMs: -1,
    clientId: '',
    clientHost: '',
    subscribedTopicNames: new Set(),
    subscribedTopicRegex: '',
    serverAssignor: null,
    assignedPartitions: NO_PARTITIONS,
    partitionsPendingRevocation: NO_PARTITIONS,
    classicMemberMetadata: null,
  };
}

/** The member with a new epoch; the one it had becomes its previous epoch (Kafka's updateMemberEpoch). */
export function withMemberEpoch(member: ConsumerGroupMember, memberEpoch: number): ConsumerGroupMember {
  return { ...member, memberEpoch, previousMemberEpoch: member.memberEpoch };
}

export function isReconciledTo(member: ConsumerGroupMember, assignmentEpoch: number): boolean {
  return member.state === 'STABLE' && member.memberEpoch === assignmentEpoch;
}

/** The regular expression the member subscribes with, null when none (Kafka's subscribedTopicRegexOrNull). */
export function subscribedRegexOrNull(member: ConsumerGroupMember | undefined): string | null {
  return member === undefined || member.subscribedTopicRegex === null || member.subscribedTopicRegex === '' ? null : member.subscribedTopicRegex;
}

/** Whether the two assignments hold the same partitions at the same epochs. */
export function samePartitionEpochs(a: PartitionEpochs, b: PartitionEpochs): boolean {
  if (a.size !== b.size) return false;
  for (const [topicId, epochs] of a) {
    const other = b.get(topicId);
    if (other === undefined || other.size !== epochs.size) return false;
    for (const [partition, epoch] of epochs) if (other.get(partition) !== epoch) return false;
  }
  return true;
}

/** Whether two members are equal as Kafka's ConsumerGroupMember.equals sees them (a record is written when not). */
export function sameMember(a: ConsumerGroupMember, b: ConsumerGroupMember): boolean {
  if (a === b) return true;
  const scalars = (m: ConsumerGroupMember) => [
    m.memberId,
    m.memberEpoch,
    m.previousMemberEpoch,
    m.state,
    m.instanceId,
    m.rackId,
    m.rebalanceTimeoutMs,
    m.clientId,
    m.clientHost,
    m.subscribedTopicRegex,
    m.serverAssignor,
  ];
  const sa = scalars(a);
  const sb = scalars(b);
  return (
    sa.every((v, i) => v === sb[i]) &&
    a.subscribedTopicNames.size === b.subscribedTopicNames.size &&
    [...a.subscribedTopicNames].every((t) => b.subscribedTopicNames.has(t)) &&
    samePartitionEpochs(a.assignedPartitions, b.assignedPartitions) &&
    samePartitionEpochs(a.partitionsPendingRevocation, b.partitionsPendingRevocation) &&
    sameClassicMetadata(a.classicMemberMetadata, b.classicMemberMetadata)
  );
}

function sameClassicMetadata(a: ClassicMemberMetadata | null, b: ClassicMemberMetadata | null): boolean {
  if (a === null || b === null) return a === b;
  return (
    a.sessionTimeoutMs === b.sessionTimeoutMs &&
    a.supportedProtocols.length === b.supportedProtocols.length &&
    a.supportedProtocols.every((p, i) => p.name === b.supportedProtocols[i]!.name && p.metadata.equals(b.supportedProtocols[i]!.metadata))
  );
}
