/**
 * A KIP-848 consumer group's state (Kafka's ConsumerGroup and ModernGroup): the group epoch and metadata hash, the
 * members, the target assignment and its epoch, what the members subscribe to (names counted by member, regular
 * expressions with the topics they resolved to), which member owns each partition at which epoch, and the state
 * Kafka derives from them. Mutated only by replaying records (consumer/replay.ts), the same at load and live.
 */
import { javaHashOrder, javaStringHash } from '../../runtime/java-hash-map.js';
import type { TopicPartitions, SubscriptionType } from './assignor.js';
import { isReconciledTo, subscribedRegexOrNull, type ConsumerGroupMember, type PartitionEpochs } from './member.js';
import {
  currentAssignmentTombstone,
  groupEpochTombstone,
  memberSubscriptionTombstone,
  partitionMetadataTombstone,
  regexTombstone,
  targetAssignmentMetadataTombstone,
  targetAssignmentTombstone,
  type ConsumerGroupRecord,
  type ResolvedRegex,
} from './records.js';

export const CONSUMER_GROUP_TYPE = 'consumer';

export type ConsumerGroupState = 'Empty' | 'Assigning' | 'Reconciling' | 'Stable' | 'Dead';

/** How many members subscribe to a topic by name, and how many resolved regular expressions name it. */
export interface SubscriptionCount {
  readonly byName: number;
  readonly byRegex: number;
}

export const NO_ASSIGNMENT: TopicPartitions = new Map();

/** Adds `delta` to a count, dropping the key at zero (Kafka's Utils.incValue/decValue). */
function bump(counts: Map<string, number>, key: string, delta: number): void {
  const next = (counts.get(key) ?? 0) + delta;
  if (next <= 0) counts.delete(key);
  else counts.set(key, next);
}

function bumpSubscription(counts: Map<string, SubscriptionCount>, topic: string, byName: number, byRegex: number): void {
  const old = counts.get(topic) ?? { byName: 0, byRegex: 0 };
  const next = { byName: old.byName + byName, byRegex: old.byRegex + byRegex };
  if (next.byName <= 0 && next.byRegex <= 0) counts.delete(topic);
  else counts.set(topic, next);
}

/**
 * Homogeneous when every member subscribes alike (Kafka's ConsumerGroup.subscriptionType): without regular
 * expressions, every topic by every member's name; with them, one expression for all members and no names.
 */
export function subscriptionTypeOf(
  regexes: ReadonlyMap<string, number>,
  topics: ReadonlyMap<string, SubscriptionCount>,
  members: number,
): SubscriptionType {
  if (regexes.size === 0) {
    for (const count of topics.values()) if (count.byName !== members) return 'heterogeneous';
    return 'homogeneous';
  }
  if (regexes.size > 1 || regexes.values().next().value !== members) return 'heterogeneous';
  for (const count of topics.values()) if (count.byRegex !== 1 || count.byName > 0) return 'heterogeneous';
  return 'homogeneous';
}

export class ConsumerGroup {
  /** A new group starts at epoch 1 with a target assignment at epoch 1 (Kafka 4.3.1), so its first member bumps it to 2. */
  groupEpoch = 1;
  metadataHash = 0n;
  assignmentEpoch = 1;
  assignmentTimestamp = 0;
  /** Whether a ConsumerGroupPartitionMetadata record of an older Kafka is still live (the next epoch bump deletes it). */
  hasSubscriptionMetadataRecord = false;
  readonly members = new Map<string, ConsumerGroupMember>();
  readonly targetAssignment = new Map<string, TopicPartitions>();
  /** topic id → partition → the member whose target holds it. */
  readonly invertedTargetAssignment = new Map<string, Map<number, string>>();
  readonly subscribedTopicNames = new Map<string, SubscriptionCount>();
  readonly staticMembers = new Map<string, string>();
  readonly serverAssignors = new Map<string, number>();
  readonly subscribedRegularExpressions = new Map<string, number>();
  readonly resolvedRegularExpressions = new Map<string, ResolvedRegex>();
  /** topic id → partition → the epoch of the member that owns it (assigned or pending revocation). */
  private readonly partitionEpochs = new Map<string, Map<number, number>>();
  private classicMembers = 0;

  constructor(readonly groupId: string) {}

  get state(): ConsumerGroupState {
    if (this.members.size === 0) return 'Empty';
    if (this.groupEpoch > this.assignmentEpoch) return 'Assigning';
    for (const member of this.members.values()) if (!isReconciledTo(member, this.assignmentEpoch)) return 'Reconciling';
    return 'Stable';
  }

  get numClassicProtocolMembers(): number {
    return this.classicMembers;
  }

  get subscriptionType(): SubscriptionType {
    return subscriptionTypeOf(this.subscribedRegularExpressions, this.subscribedTopicNames, this.members.size);
  }

  /** Whether a member subscribes to the topic, by name or through a resolved regular expression (OffsetDelete refuses it). */
  isSubscribedToTopic(topic: string): boolean {
    return this.subscribedTopicNames.has(topic);
  }

  staticMemberId(instanceId: string | null): string | undefined {
    return instanceId === null ? undefined : this.staticMembers.get(instanceId);
  }

  /** The member's target; a static member rejoining under a new id takes its predecessor's. */
  targetAssignmentOf(memberId: string, instanceId: string | null = null): TopicPartitions {
    if (instanceId === null) return this.targetAssignment.get(memberId) ?? NO_ASSIGNMENT;
    const previous = this.staticMembers.get(instanceId);
    return previous === undefined ? NO_ASSIGNMENT : (this.targetAssignment.get(previous) ?? NO_ASSIGNMENT);
  }

  /** The epoch of the member owning the partition, -1 when free. */
  currentPartitionEpoch(topicId: string, partition: number): number {
    return this.partitionEpochs.get(topicId)?.get(partition) ?? -1;
  }

  /** The server assignor most members ask for (ties: the first counted, as Kafka's stream max over its map). */
  preferredServerAssignor(): string | null {
    let best: string | null = null;
    let bestCount = 0;
    for (const [name, count] of this.serverAssignors) if (count > bestCount) [best, bestCount] = [name, count];
    return best;
  }

  updateMember(member: ConsumerGroupMember): void {
    const old = this.members.get(member.memberId);
    this.members.set(member.memberId, member);
    this.countSubscriptions(old, -1);
    this.countSubscriptions(member, 1);
    if (old !== undefined) this.removePartitionEpochs(old);
    this.addPartitionEpochs(member.assignedPartitions, member.memberEpoch);
    this.addPartitionEpochs(member.partitionsPendingRevocation, member.memberEpoch);
    if (member.instanceId !== null) this.staticMembers.set(member.instanceId, member.memberId);
  }

  removeMember(memberId: string): void {
    const old = this.members.get(memberId);
    if (old === undefined) return;
    this.members.delete(memberId);
    this.countSubscriptions(old, -1);
    this.removePartitionEpochs(old);
    if (old.instanceId !== null) this.staticMembers.delete(old.instanceId);
  }

  updateTargetAssignment(memberId: string, assignment: TopicPartitions): void {
    this.updateInverted(memberId, this.targetAssignment.get(memberId) ?? NO_ASSIGNMENT, assignment);
    this.targetAssignment.set(memberId, assignment);
  }

  removeTargetAssignment(memberId: string): void {
    this.updateInverted(memberId, this.targetAssignment.get(memberId) ?? NO_ASSIGNMENT, NO_ASSIGNMENT);
    this.targetAssignment.delete(memberId);
  }

  /** Records the topics a regular expression resolved to (null: forgets it), counted as subscriptions by regex. */
  updateResolvedRegex(regex: string, resolved: ResolvedRegex | null): void {
    const old = this.resolvedRegularExpressions.get(regex);
    if (old !== undefined) {
      this.resolvedRegularExpressions.delete(regex);
      for (const topic of old.topics) bumpSubscription(this.subscribedTopicNames, topic, 0, -1);
    }
    if (resolved !== null) {
      this.resolvedRegularExpressions.set(regex, resolved);
      for (const topic of resolved.topics) bumpSubscription(this.subscribedTopicNames, topic, 0, 1);
    }
  }

  /**
   * The records that delete the group, in Kafka's order (ConsumerGroup.createGroupTombstoneRecords); with `replaced`,
   * a static member's records go under the id of the member replacing it (createGroupTombstoneRecordsWithReplacedMember).
   */
  tombstoneRecords(replaced?: { readonly memberId: string; readonly by: string }): ConsumerGroupRecord[] {
    // Kafka walks its members' HashMap: Java's iteration order of the ids.
    const ids = javaHashOrder([...this.members.keys()], javaStringHash).map((id) => (id === replaced?.memberId ? replaced.by : id));
    return [
      ...ids.map((id) => currentAssignmentTombstone(this.groupId, id)),
      ...ids.map((id) => targetAssignmentTombstone(this.groupId, id)),
      targetAssignmentMetadataTombstone(this.groupId),
      ...ids.map((id) => memberSubscriptionTombstone(this.groupId, id)),
      ...[...this.resolvedRegularExpressions.keys()].map((regex) => regexTombstone(this.groupId, regex)),
      partitionMetadataTombstone(this.groupId),
      groupEpochTombstone(this.groupId),
    ];
  }

  private countSubscriptions(member: ConsumerGroupMember | undefined, delta: number): void {
    if (member === undefined) return;
    for (const topic of member.subscribedTopicNames) bumpSubscription(this.subscribedTopicNames, topic, delta, 0);
    if (member.serverAssignor !== null) bump(this.serverAssignors, member.serverAssignor, delta);
    const regex = subscribedRegexOrNull(member);
    if (regex !== null) bump(this.subscribedRegularExpressions, regex, delta);
    if (member.classicMemberMetadata !== null) this.classicMembers += delta;
  }

  private addPartitionEpochs(assignment: PartitionEpochs, epoch: number): void {
    for (const [topicId, partitions] of assignment) {
      let owned = this.partitionEpochs.get(topicId);
      if (owned === undefined) this.partitionEpochs.set(topicId, (owned = new Map()));
      for (const partition of partitions.keys()) {
        const previous = owned.get(partition);
        // Two members never own a partition at once: the replay of such records is refused, as in Kafka.
        if (previous !== undefined && previous >= epoch) {
          throw new Error(`Cannot set the epoch of ${topicId}-${partition} to ${epoch} because the partition is still owned at epoch ${previous}`);
        }
        owned.set(partition, epoch);
      }
    }
  }

  private removePartitionEpochs(member: ConsumerGroupMember): void {
    for (const assignment of [member.assignedPartitions, member.partitionsPendingRevocation]) {
      for (const [topicId, partitions] of assignment) {
        const owned = this.partitionEpochs.get(topicId);
        if (owned === undefined) continue;
        // A partition already taken at another epoch stays with its new owner.
        for (const partition of partitions.keys()) if (owned.get(partition) === member.memberEpoch) owned.delete(partition);
        if (owned.size === 0) this.partitionEpochs.delete(topicId);
      }
    }
  }

  private updateInverted(memberId: string, oldAssignment: TopicPartitions, newAssignment: TopicPartitions): void {
    for (const topicId of new Set([...oldAssignment.keys(), ...newAssignment.keys()])) {
      const oldPartitions = oldAssignment.get(topicId) ?? new Set<number>();
      const newPartitions = newAssignment.get(topicId) ?? new Set<number>();
      let owners = this.invertedTargetAssignment.get(topicId);
      if (owners === undefined) this.invertedTargetAssignment.set(topicId, (owners = new Map()));
      for (const p of oldPartitions) if (!newPartitions.has(p) && owners.get(p) === memberId) owners.delete(p);
      for (const p of newPartitions) if (!oldPartitions.has(p)) owners.set(p, memberId);
      if (owners.size === 0) this.invertedTargetAssignment.delete(topicId);
    }
  }
}
