/**
 * A member's next assignment on its way to the target (Kafka's CurrentAssignmentBuilder): partitions the target
 * takes away are revoked first (UNREVOKED_PARTITIONS, the epoch kept) and only once the member no longer reports
 * owning them does it move on; a partition the target adds is given only once its previous owner has released it
 * (else UNRELEASED_PARTITIONS), each new partition at the target epoch; once nothing is pending the member is
 * STABLE at the target epoch. A member in an UNKNOWN state is fenced unless it reports owning nothing.
 */
import { GroupError } from '../group-error.js';
import type { TopicPartitions } from './assignor.js';
import { withMemberEpoch, NO_PARTITIONS, type ConsumerGroupMember, type PartitionEpochs } from './member.js';
import type { ResolvedRegex } from './records.js';
import { topicIdsOf, type TopicsImage } from './topics-image.js';

/** The partitions a member reports owning in its heartbeat (null: not reported in this heartbeat). */
export type OwnedTopicPartitions = readonly { readonly topicId: string; readonly partitions: readonly number[] }[] | null;

export interface ReconcileInput {
  readonly member: ConsumerGroupMember;
  readonly targetAssignmentEpoch: number;
  readonly targetAssignment: TopicPartitions;
  readonly image: TopicsImage;
  readonly resolvedRegularExpressions: ReadonlyMap<string, ResolvedRegex>;
  /** Whether this heartbeat changed the member's subscription (partitions of topics it left are revoked at once). */
  readonly hasSubscriptionChanged: boolean;
  /** The epoch at which another member owns the partition, -1 when free (ConsumerGroup.currentPartitionEpoch). */
  readonly currentPartitionEpoch: (topicId: string, partition: number) => number;
  readonly ownedTopicPartitions: OwnedTopicPartitions;
}

/** The member after this heartbeat; the same object when nothing changes. Throws FENCED_MEMBER_EPOCH for an UNKNOWN member. */
export function reconcile(input: ReconcileInput): ConsumerGroupMember {
  const { member } = input;
  switch (member.state) {
    case 'STABLE':
      if (member.memberEpoch !== input.targetAssignmentEpoch) return computeNextAssignment(input, member.memberEpoch);
      return input.hasSubscriptionChanged ? updateCurrentAssignment(input) : member;
    case 'UNREVOKED_PARTITIONS':
      if (ownsRevokedPartitions(input.ownedTopicPartitions, member.partitionsPendingRevocation)) {
        return input.hasSubscriptionChanged ? updateCurrentAssignment(input) : member;
      }
      return computeNextAssignment(input, member.memberEpoch);
    case 'UNRELEASED_PARTITIONS':
      return computeNextAssignment(input, member.memberEpoch);
    case 'UNKNOWN':
      if (input.ownedTopicPartitions !== null && input.ownedTopicPartitions.length === 0) return computeNextAssignment(input, input.targetAssignmentEpoch);
      throw new GroupError('FENCED_MEMBER_EPOCH', 'The consumer group member is in a unknown state. The member must abandon all its partitions and rejoin.');
  }
}

/** Whether the member still reports owning one of the partitions pending revocation (unreported: assumed so). */
function ownsRevokedPartitions(owned: OwnedTopicPartitions, pending: PartitionEpochs): boolean {
  if (owned === null) return true;
  return owned.some((t) => {
    const revoking = pending.get(t.topicId);
    return revoking !== undefined && t.partitions.some((p) => revoking.has(p));
  });
}

/** The topic ids the member subscribes to: its names, with the topics of its resolved regular expression. */
export function memberTopicIds(member: ConsumerGroupMember, resolvedRegexes: ReadonlyMap<string, ResolvedRegex>, image: TopicsImage): Set<string> {
  let names: Iterable<string> = member.subscribedTopicNames;
  const regex = member.subscribedTopicRegex;
  if (regex !== null && regex !== '') {
    const resolved = resolvedRegexes.get(regex);
    if (resolved !== undefined) names = new Set([...member.subscribedTopicNames, ...resolved.topics]);
  }
  return topicIdsOf(names, image);
}

const subscribedTopicIds = (input: ReconcileInput): Set<string> => memberTopicIds(input.member, input.resolvedRegularExpressions, input.image);

/** The subscription changed at the target epoch: partitions of topics no longer subscribed are revoked. */
function updateCurrentAssignment(input: ReconcileInput): ConsumerGroupMember {
  const { member } = input;
  const subscribed = subscribedTopicIds(input);
  const assigned = member.assignedPartitions;
  let newAssigned: Map<string, ReadonlyMap<number, number>>;
  let newPending: Map<string, ReadonlyMap<number, number>>;
  if (subscribed.size === 0 && member.partitionsPendingRevocation.size === 0) {
    if (assigned.size === 0) return member;
    newAssigned = new Map();
    newPending = new Map(assigned);
  } else {
    const leaving = [...assigned.keys()].filter((topicId) => !subscribed.has(topicId));
    if (leaving.length === 0) return member;
    newAssigned = new Map(assigned);
    newPending = new Map(member.partitionsPendingRevocation);
    for (const topicId of leaving) {
      newAssigned.delete(topicId);
      newPending.set(topicId, new Map([...(newPending.get(topicId) ?? []), ...assigned.get(topicId)!]));
    }
  }
  if (newPending.size > 0 && ownsRevokedPartitions(input.ownedTopicPartitions, newPending)) {
    return { ...withMemberEpoch(member, member.memberEpoch), state: 'UNREVOKED_PARTITIONS', assignedPartitions: newAssigned, partitionsPendingRevocation: newPending };
  }
  return { ...withMemberEpoch(member, member.memberEpoch), assignedPartitions: newAssigned };
}

function computeNextAssignment(input: ReconcileInput, memberEpoch: number): ConsumerGroupMember {
  const { member, targetAssignment, targetAssignmentEpoch } = input;
  const subscribed = subscribedTopicIds(input);
  let hasUnreleased = false;
  const newAssigned = new Map<string, Map<number, number>>();
  const newPending = new Map<string, Map<number, number>>();
  const toAssign = new Map<string, number[]>();
  for (const topicId of new Set([...targetAssignment.keys(), ...member.assignedPartitions.keys()])) {
    const target = subscribed.has(topicId) ? (targetAssignment.get(topicId) ?? new Set<number>()) : new Set<number>();
    const current = member.assignedPartitions.get(topicId) ?? new Map<number, number>();
    // Kept: still in the target, with the epoch each was assigned at.
    const kept = new Map([...current].filter(([p]) => target.has(p)));
    const revoking = new Map([...current].filter(([p]) => !kept.has(p)));
    const wasRevoking = member.partitionsPendingRevocation.get(topicId);
    // New ones wait while another member still owns them (unless this member was the one revoking them).
    const adding = [...target].filter((p) => !kept.has(p));
    const free = adding.filter((p) => input.currentPartitionEpoch(topicId, p) === -1 || wasRevoking?.has(p) === true);
    if (free.length < adding.length) hasUnreleased = true;
    if (kept.size > 0) newAssigned.set(topicId, kept);
    if (revoking.size > 0) newPending.set(topicId, revoking);
    if (free.length > 0) toAssign.set(topicId, free);
  }
  if (newPending.size > 0 && ownsRevokedPartitions(input.ownedTopicPartitions, newPending)) {
    return { ...withMemberEpoch(member, memberEpoch), state: 'UNREVOKED_PARTITIONS', assignedPartitions: newAssigned, partitionsPendingRevocation: newPending };
  }
  for (const [topicId, partitions] of toAssign) {
    let epochs = newAssigned.get(topicId);
    if (epochs === undefined) newAssigned.set(topicId, (epochs = new Map()));
    for (const p of partitions) epochs.set(p, targetAssignmentEpoch);
  }
  return {
    ...withMemberEpoch(member, targetAssignmentEpoch),
    state: hasUnreleased ? 'UNRELEASED_PARTITIONS' : 'STABLE',
    assignedPartitions: newAssigned,
    partitionsPendingRevocation: NO_PARTITIONS,
  };
}
