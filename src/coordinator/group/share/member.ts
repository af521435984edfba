/**
 * A member of a KIP-932 share group (Kafka's ShareGroupMember): immutable, each change a new value. Unlike a consumer
 * group member it has no instance id, rebalance timeout or assignor, and its partitions carry no epochs: a share
 * partition may be assigned to several members at once, so nothing is revoked before it moves.
 */
import type { TopicPartitions } from '../consumer/assignor.js';
import type { MemberState } from '../consumer/member.js';
import { sameAssignment } from '../consumer/target-assignment.js';

export interface ShareGroupMember {
  readonly memberId: string;
  readonly memberEpoch: number;
  readonly previousMemberEpoch: number;
  readonly state: MemberState;
  readonly rackId: string | null;
  readonly clientId: string;
  readonly clientHost: string;
  readonly subscribedTopicNames: ReadonlySet<string>;
  readonly assignedPartitions: TopicPartitions;
}

export const NO_SHARE_PARTITIONS: TopicPartitions = new Map();

/** A new member as Kafka's ShareGroupMember.Builder(memberId) starts it. */
export function newShareMember(memberId: string): ShareGroupMember {
  return {
    memberId,
    memberEpoch: 0,
    previousMemberEpoch: -1,
    state: 'STABLE',
    rackId: null,
    clientId: '',
    clientHost: '',
    subscribedTopicNames: new Set(),
    assignedPartitions: NO_SHARE_PARTITIONS,
  };
}

/** Whether two members are equal as Kafka's ShareGroupMember.equals sees them (a subscription record is written when not). */
export function sameShareMember(a: ShareGroupMember, b: ShareGroupMember): boolean {
  return (
    a.memberId === b.memberId &&
    a.memberEpoch === b.memberEpoch &&
    a.previousMemberEpoch === b.previousMemberEpoch &&
    a.state === b.state &&
    a.rackId === b.rackId &&
    a.clientId === b.clientId &&
    a.clientHost === b.clientHost &&
    sameSet(a.subscribedTopicNames, b.subscribedTopicNames) &&
    sameAssignment(a.assignedPartitions, b.assignedPartitions)
  );
}

export function sameSet<T>(a: ReadonlySet<T>, b: ReadonlySet<T>): boolean {
  return a.size === b.size && [...a].every((t) => b.has(t));
}
