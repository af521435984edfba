/**
 * Kafka 4.3.1's SimpleAssignor for share groups (SimpleHomogeneousAssignmentBuilder and
 * SimpleHeterogeneousAssignmentBuilder): a share partition may go to several members. Each partition is shared by
 * ceil(members / partitions) members (its desired sharing), and each member gets its slice of the resulting
 * assignments; a member keeps what it has up to its slice, then overshared partitions lose members, then partitions
 * below their sharing go to members below their slice. Only partitions whose share state is initialized are
 * assignable. Kafka's Java tables decide which partitions a member keeps and which member gets a free partition,
 * so they are modelled (runtime/java-hash-table.ts).
 */
import { PartitionAssignorError, type GroupAssignment, type SubscribedTopicDescriber, type SubscriptionType, type TopicPartitions } from '../consumer/assignor.js';
import { deepCopyAssignment, newPartitionSet, replayedAssignment, toTopicPartitions, type JavaAssignment } from '../consumer/java-assignment.js';
import { JavaHashTable } from '../../runtime/java-hash-table.js';
import { javaIntegerHash, javaUuidHash } from '../../runtime/java-hash.js';

/** The share group as the assignor sees it (Kafka's GroupSpec with isPartitionAssignable). */
export interface ShareGroupSpec {
  /** Member ids in the order Kafka's GroupSpecImpl map iterates them (kafkaMemberOrder). */
  readonly memberIds: readonly string[];
  readonly subscriptionType: SubscriptionType;
  /** The topic ids the member subscribes to, in the order Kafka's set of them iterates. */
  subscribedTopicIds(memberId: string): ReadonlySet<string>;
  /** The member's current target assignment, in its record's order. */
  memberAssignment(memberId: string): TopicPartitions;
  /** Whether the partition's share state is initialized. */
  isPartitionAssignable(topicId: string, partition: number): boolean;
}

export const SIMPLE_ASSIGNOR = 'simple';

export function assignSimple(group: ShareGroupSpec, topics: SubscribedTopicDescriber): GroupAssignment {
  if (group.memberIds.length === 0) return new Map();
  return group.subscriptionType === 'homogeneous' ? homogeneous(group, topics) : heterogeneous(group, topics);
}

/** org.apache.kafka.server.common.TopicIdPartition, a record: its hashCode is 31 * topicId.hashCode() + partition. */
interface TopicIdPartition {
  readonly topicId: string;
  readonly partition: number;
}
const tipHash = (tp: TopicIdPartition): number => (Math.imul(31, javaUuidHash(tp.topicId)) + tp.partition) | 0;

/** One instance per (topic, partition), so tables keyed by it compare them as Java's equals does. */
class TopicIdPartitions {
  private readonly byKey = new Map<string, TopicIdPartition>();
  of(topicId: string, partition: number): TopicIdPartition {
    const key = `${topicId}:${partition}`;
    let tp = this.byKey.get(key);
    if (tp === undefined) this.byKey.set(key, (tp = { topicId, partition }));
    return tp;
  }
}

/** AssignorHelpers.newHashMap / newHashSet: sized for n keys. */
const sizedFor = (n: number): number => Math.trunc((n + 1) / 0.75 + 1);
const intTable = <V>(requested?: number) => new JavaHashTable<number, V>(javaIntegerHash, requested);

/** Kafka's desired assignment count of each of `n` members sharing `targets` partitions `sharing` times. */
function desiredCounts(n: number, sharing: number, targets: number): number[] {
  const precise = (sharing * targets) / n;
  return Array.from({ length: n }, (_, i) => Math.ceil(precise * (i + 1)) - Math.ceil(precise * i));
}

const desiredSharingOf = (members: number, targets: number): number => (targets === 0 ? 0 : Math.trunc((members + targets - 1) / targets));

function numPartitionsOrThrow(topics: SubscribedTopicDescriber, topicId: string): number {
  const n = topics.numPartitions(topicId);
  if (n === -1) throw new PartitionAssignorError(`Members are subscribed to topic ${topicId} which doesn't exist in the topic metadata.`);
  return n;
}

/** The old assignments by member index (Kafka: a HashMap<Integer, ...> sized for the members). */
function oldAssignments(group: ShareGroupSpec): JavaHashTable<number, JavaAssignment> {
  const old = intTable<JavaAssignment>(sizedFor(group.memberIds.length));
  group.memberIds.forEach((memberId, index) => old.set(index, replayedAssignment(group.memberAssignment(memberId))));
  return old;
}

/** The result: each member's new assignment, or its old one when untouched. */
function result(group: ShareGroupSpec, old: JavaHashTable<number, JavaAssignment>, changed: JavaHashTable<number, JavaAssignment>): GroupAssignment {
  const out = new Map<string, TopicPartitions>();
  group.memberIds.forEach((memberId, index) => out.set(memberId, toTopicPartitions(changed.get(index) ?? old.get(index)!)));
  return out;
}

/** newGroupAssignment.get(m), created as a deep copy of the old one when absent. */
function changedOf(changed: JavaHashTable<number, JavaAssignment>, old: JavaHashTable<number, JavaAssignment>, member: number): JavaAssignment {
  let assignment = changed.get(member);
  if (assignment === undefined) changed.set(member, (assignment = deepCopyAssignment(old.get(member)!)));
  return assignment;
}

function homogeneous(group: ShareGroupSpec, topics: SubscribedTopicDescriber): GroupAssignment {
  const subscribed = group.subscribedTopicIds(group.memberIds[0]!);
  if (subscribed.size === 0) return new Map();
  const tips = new TopicIdPartitions();
  const n = group.memberIds.length;
  const targets: TopicIdPartition[] = [];
  for (const topicId of subscribed) {
    const count = numPartitionsOrThrow(topics, topicId);
    for (let p = 0; p < count; p++) if (group.isPartitionAssignable(topicId, p)) targets.push(tips.of(topicId, p));
  }
  const sharing = desiredSharingOf(n, targets.length);
  const desired = desiredCounts(n, sharing, targets.length);
  const old = oldAssignments(group);
  const changed = intTable<JavaAssignment>(sizedFor(n));
  const byPartition = new JavaHashTable<TopicIdPartition, JavaHashTable<number, true>>(tipHash, sizedFor(targets.length));
  const byMember = intTable<JavaHashTable<TopicIdPartition, true>>(sizedFor(n));
  const unfilled = intTable<true>(sizedFor(n));
  const overfilled = intTable<true>(sizedFor(n));

  // Revoke what is no longer subscribed; count what each member keeps.
  for (const [member, assignment] of old.entriesInOrder()) {
    let copied = false;
    let assigned = 0;
    for (const [topicId, partitions] of assignment.entriesInOrder()) {
      if (subscribed.has(topicId)) {
        for (const p of partitions.keys()) {
          const tp = tips.of(topicId, p);
          assigned++;
          byPartition.computeIfAbsent(tp, () => intTable<true>()).set(member, true);
          byMember.computeIfAbsent(member, () => new JavaHashTable<TopicIdPartition, true>(tipHash)).set(tp, true);
          if (assigned >= desired[member]! && !copied) {
            changed.set(member, deepCopyAssignment(assignment));
            copied = true;
          }
        }
      } else {
        if (!copied) {
          changed.set(member, deepCopyAssignment(assignment));
          copied = true;
        }
        changed.get(member)!.delete(topicId);
      }
    }
    if (assigned < desired[member]!) unfilled.set(member, true);
    else if (assigned > desired[member]!) overfilled.set(member, true);
  }

  // Overfilled members give up partitions, in their set's order, down to their count.
  for (const member of overfilled.keys()) {
    const held = byMember.get(member)!;
    if (held.size <= desired[member]!) continue;
    for (const tp of held.keys()) {
      changed.get(member)!.get(tp.topicId)!.delete(tp.partition);
      byPartition.get(tp)!.delete(member);
      held.delete(tp);
      if (held.size === desired[member]!) break;
    }
  }

  // Overshared partitions lose members down to the desired sharing.
  for (const [tp, members] of byPartition.entriesInOrder()) {
    let count = members.size;
    if (count <= sharing) continue;
    for (const member of members.keys()) {
      const partitions = changedOf(changed, old, member).get(tp.topicId);
      if (partitions?.has(tp.partition) === true) {
        partitions.delete(tp.partition);
        count--;
        members.delete(member);
        byMember.get(member)!.delete(tp);
        unfilled.set(member, true);
      }
      if (count <= sharing) break;
    }
  }

  for (const tp of targets) byPartition.computeIfAbsent(tp, () => intTable<true>());
  assignRemaining(byPartition.entriesInOrder(), sharing, unfilled, (member, tp) => {
    const assignment = changedOf(changed, old, member);
    assignment.computeIfAbsent(tp.topicId, () => newPartitionSet()).set(tp.partition, true);
    const held = byMember.computeIfAbsent(member, () => new JavaHashTable<TopicIdPartition, true>(tipHash));
    held.set(tp, true);
    return held.size >= desired[member]!;
  });
  return result(group, old, changed);
}

/**
 * Kafka's assignRemainingPartitions: partitions below their sharing, in table order, go to the unfilled members in
 * their set's order, round after round while a round assigns something. `assign` returns whether the member is full.
 */
function assignRemaining<P>(
  partitions: readonly [P, JavaHashTable<number, true>][],
  sharing: number,
  unfilled: JavaHashTable<number, true>,
  assign: (member: number, partition: P) => boolean,
): void {
  if (unfilled.size === 0) return;
  let round = unfilled.keys();
  let next = 0;
  let assignedThisRound = false;
  const hasNext = () => {
    while (next < round.length && !unfilled.has(round[next]!)) next++;
    return next < round.length;
  };
  for (const [partition, members] of partitions) {
    let toMake = sharing - members.size;
    while (toMake > 0) {
      if (!hasNext()) {
        if (!assignedThisRound) break;
        round = unfilled.keys();
        next = 0;
        assignedThisRound = false;
        // A fresh iterator over an empty set: Java's next() would throw; Kafka breaks out before (unfilled is empty).
        if (!hasNext()) break;
      }
      const member = round[next++]!;
      if (members.has(member)) continue;
      // As in Kafka, the partition's own member set is not updated here: a later round may pick the member again.
      toMake--;
      assignedThisRound = true;
      if (assign(member, partition)) unfilled.delete(member);
    }
    if (unfilled.size === 0) break;
  }
}

function heterogeneous(group: ShareGroupSpec, topics: SubscribedTopicDescriber): GroupAssignment {
  const n = group.memberIds.length;
  const subscribed = new JavaHashTable<string, true>(javaUuidHash);
  for (const memberId of group.memberIds) for (const topicId of group.subscribedTopicIds(memberId)) subscribed.set(topicId, true);
  if (subscribed.size === 0) return new Map();
  const topicOrder = subscribed.keys();
  const targetsByTopic = new Map<string, number[]>();
  for (const topicId of topicOrder) {
    const count = numPartitionsOrThrow(topics, topicId);
    const targets: number[] = [];
    for (let p = 0; p < count; p++) if (group.isPartitionAssignable(topicId, p)) targets.push(p);
    targetsByTopic.set(topicId, targets);
  }
  const membersByTopic = new Map<string, number[]>();
  group.memberIds.forEach((memberId, index) => {
    for (const topicId of group.subscribedTopicIds(memberId)) {
      let members = membersByTopic.get(topicId);
      if (members === undefined) membersByTopic.set(topicId, (members = []));
      members.push(index);
    }
  });
  const old = oldAssignments(group);
  const changed = intTable<JavaAssignment>(sizedFor(n));

  for (const topicId of topicOrder) {
    const targets = targetsByTopic.get(topicId)!;
    const members = membersByTopic.get(topicId)!;
    const sharing = desiredSharingOf(members.length, targets.length);
    const desired = new Array<number>(n).fill(0);
    const precise = (sharing * targets.length) / members.length;
    members.forEach((member, i) => (desired[member] = Math.ceil(precise * (i + 1)) - Math.ceil(precise * i)));
    const byPartition = intTable<JavaHashTable<number, true>>(sizedFor(targets.length));
    const byMember = intTable<JavaHashTable<number, true>>(sizedFor(members.length));

    for (const [member, assignment] of old.entriesInOrder()) {
      if (assignment.size === 0) continue;
      const partitions = assignment.get(topicId);
      if (partitions === undefined) continue;
      // Every topic here is subscribed by someone (Kafka's check that removes the topic otherwise never fires).
      for (const p of partitions.keys()) {
        byPartition.computeIfAbsent(p, () => intTable<true>()).set(member, true);
        byMember.computeIfAbsent(member, () => intTable<true>()).set(p, true);
      }
    }

    for (const [member, held] of byMember.entriesInOrder()) {
      if (held.size <= desired[member]!) continue;
      for (const p of held.keys()) {
        if (held.size <= desired[member]!) break;
        byPartition.get(p)!.delete(member);
        held.delete(p);
        changedOf(changed, old, member).get(topicId)!.delete(p);
      }
    }

    for (const [p, assigned] of byPartition.entriesInOrder()) {
      let count = assigned.size;
      if (count <= sharing) continue;
      for (const member of assigned.keys()) {
        const partitions = changedOf(changed, old, member).get(topicId);
        if (partitions?.has(p) === true) {
          partitions.delete(p);
          count--;
          assigned.delete(member);
          byMember.get(member)!.delete(p);
        }
        if (count <= sharing) break;
      }
    }

    for (const p of targets) byPartition.computeIfAbsent(p, () => intTable<true>(sizedFor(members.length)));
    const unfilled = intTable<true>(sizedFor(n));
    for (const member of members) if ((byMember.get(member)?.size ?? 0) < desired[member]!) unfilled.set(member, true);
    assignRemaining(byPartition.entriesInOrder(), sharing, unfilled, (member, p) => {
      changedOf(changed, old, member).computeIfAbsent(topicId, () => newPartitionSet()).set(p, true);
      const held = byMember.computeIfAbsent(member, () => intTable<true>());
      held.set(p, true);
      return held.size >= desired[member]!;
    });
  }
  return result(group, old, changed);
}
