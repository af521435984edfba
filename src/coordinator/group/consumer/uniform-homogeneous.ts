/**
 * The uniform assignor when every member subscribes to the same topics (Kafka's UniformHomogeneousAssignmentBuilder):
 * each member gets total / members partitions and total % members of them one more; a member keeps what it has up to
 * its quota, and the partitions nobody holds fill the members below quota in group order. The extra partitions go, in
 * group order, to members already holding that many; a member with room passes its extra on while the members left
 * outnumber the extras left (so with no current holders the last members get them).
 */
import { type GroupAssignment, type GroupSpec, PartitionAssignorError, type SubscribedTopicDescriber } from './assignor.js';
import { deepCopyAssignment, type JavaAssignment, newPartitionSet, replayedAssignment, toTopicPartitions } from './java-assignment.js';
import { copyCapacity, JavaHashTable } from '../../runtime/java-hash-table.js';
import { javaUuidHash } from '../../runtime/java-hash.js';

export function assignHomogeneous(group: GroupSpec, topics: SubscribedTopicDescriber): GroupAssignment {
  const firstMember = group.memberIds[0]!;
  const subscribed = group.memberSubscription(firstMember).subscribedTopicIds;
  if (subscribed.size === 0) return new Map();
  // Kafka copies the subscription into a HashSet: its order decides which topic's free partitions go first.
  const subscribedCopy = new JavaHashTable<string, true>(javaUuidHash, copyCapacity(subscribed.size));
  for (const topicId of subscribed) subscribedCopy.set(topicId, true);
  const topicOrder = subscribedCopy.keys();

  const unassignedTopics: string[] = [];
  const unassignedPartitions: number[] = [];
  let totalPartitions = 0;
  for (const topicId of topicOrder) {
    const count = topics.numPartitions(topicId);
    if (count === -1) throw new PartitionAssignorError(`Members are subscribed to topic ${topicId} which doesn't exist in the topic metadata.`);
    for (let partition = 0; partition < count; partition++) {
      if (!group.isPartitionAssigned(topicId, partition)) {
        unassignedTopics.push(topicId);
        unassignedPartitions.push(partition);
      }
    }
    totalPartitions += count;
  }

  const memberCount = group.memberIds.length;
  const minQuota = Math.floor(totalPartitions / memberCount);
  let membersOwedExtra = totalPartitions % memberCount;

  const target = new Map<string, JavaAssignment>();
  const unfilled: { memberId: string; quota: number; copied: boolean }[] = [];
  group.memberIds.forEach((memberId, index) => {
    const current = replayedAssignment(group.memberAssignment(memberId));
    let kept: JavaAssignment | null = null;
    let quota = minQuota;
    let takesExtra = membersOwedExtra > 0;
    if (takesExtra) quota++;
    for (const [topicId, partitions] of current.entriesInOrder()) {
      if (!subscribed.has(topicId)) {
        kept ??= deepCopyAssignment(current);
        kept.delete(topicId);
      } else if (partitions.size <= quota) {
        quota -= partitions.size;
      } else {
        for (const partition of partitions.keys()) {
          if (quota > 0) {
            quota--;
            continue;
          }
          kept ??= deepCopyAssignment(current);
          const keptPartitions = kept.get(topicId)!;
          keptPartitions.delete(partition);
          if (keptPartitions.size === 0) kept.delete(topicId);
          unassignedTopics.push(topicId);
          unassignedPartitions.push(partition);
        }
      }
    }
    // A member that does not already hold its extra partition leaves it to a later member (which may hold one)
    // while enough members remain to take all the extras.
    if (quota > 0 && takesExtra && memberCount - index > membersOwedExtra) {
      quota--;
      takesExtra = false;
    }
    if (quota > 0) unfilled.push({ memberId, quota, copied: kept !== null });
    if (takesExtra) membersOwedExtra--;
    target.set(memberId, kept ?? current);
  });

  let next = 0;
  for (const member of unfilled) {
    let assignment = target.get(member.memberId)!;
    if (!member.copied) {
      assignment = deepCopyAssignment(assignment);
      target.set(member.memberId, assignment);
    }
    for (let i = 0; i < member.quota && next < unassignedPartitions.length; i++, next++) {
      assignment.computeIfAbsent(unassignedTopics[next]!, () => newPartitionSet()).set(unassignedPartitions[next]!, true);
    }
  }
  if (next < unassignedPartitions.length) throw new PartitionAssignorError('Partitions were left unassigned');

  const result = new Map<string, ReturnType<typeof toTopicPartitions>>();
  for (const [memberId, assignment] of target) result.set(memberId, toTopicPartitions(assignment));
  return result;
}
