/**
 * Kafka's `range` server-side assignor (RangeAssignor of the group coordinator): for each topic, its subscribers
 * (static members first by group.instance.id, then the others by member id) get consecutive ranges of
 * partitions / subscribers partitions, the first partitions % subscribers of them one more. Members subscribed to the
 * same topics with the same partition counts thus get the same partition numbers (co-partitioning). Kafka 4.3.1's
 * range assignor ignores the current assignment and racks: the ranges follow from the member order alone.
 */
import { type ConsumerGroupAssignor, type GroupAssignment, type GroupSpec, PartitionAssignorError, type SubscribedTopicDescriber, type TopicPartitions } from './assignor.js';
import { JavaHashTable, presizedRequest } from '../../runtime/java-hash-table.js';
import { javaUuidHash } from '../../runtime/java-hash.js';

interface TopicRanges {
  readonly partitions: number;
  subscribers: number;
  /** Set on first use: the range size, and how many of the next ranges get one more. */
  minQuota: number;
  extra: number;
  nextStart: number;
}

function missingTopic(): never {
  throw new PartitionAssignorError('Member is subscribed to a non-existent topic');
}

/** Static members first (by instance id), then by member id: Java's String.compareTo, as JS compares strings. */
function sortedMembers(group: GroupSpec): string[] {
  const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
  return [...group.memberIds].sort((a, b) => {
    const instanceA = group.memberSubscription(a).instanceId;
    const instanceB = group.memberSubscription(b).instanceId;
    if (instanceA !== null && instanceB !== null) return compare(instanceA, instanceB);
    if (instanceA !== null) return -1;
    if (instanceB !== null) return 1;
    return compare(a, b);
  });
}

function nextRange(topic: TopicRanges): [number, number] {
  if (topic.minQuota === -1) {
    topic.minQuota = Math.floor(topic.partitions / topic.subscribers);
    topic.extra = topic.partitions % topic.subscribers;
  }
  let size = topic.minQuota;
  if (topic.extra > 0) {
    size++;
    topic.extra--;
  }
  const start = topic.nextStart;
  const end = Math.min(start + size, topic.partitions);
  topic.nextStart = end;
  return [start, end];
}

/** One member's ranges, topics in the order of Kafka's result map (sized for `topicCount` topics). */
function memberRanges(topicIds: Iterable<string>, topicCount: number, ranges: ReadonlyMap<string, TopicRanges>): TopicPartitions {
  const assigned = new JavaHashTable<string, ReadonlySet<number>>(javaUuidHash, presizedRequest(topicCount));
  for (const topicId of topicIds) {
    const [start, end] = nextRange(ranges.get(topicId)!);
    if (start < end) assigned.set(topicId, new Set(Array.from({ length: end - start }, (_, i) => start + i)));
  }
  return new Map(assigned.entriesInOrder());
}

export const rangeAssignor: ConsumerGroupAssignor = {
  name: 'range',
  assign(group: GroupSpec, topics: SubscribedTopicDescriber): GroupAssignment {
    if (group.memberIds.length === 0) return new Map();
    const members = sortedMembers(group);
    const ranges = new Map<string, TopicRanges>();
    const homogeneous = group.subscriptionType === 'homogeneous';
    for (const memberId of homogeneous ? members.slice(0, 1) : members) {
      for (const topicId of group.memberSubscription(memberId).subscribedTopicIds) {
        let topic = ranges.get(topicId);
        if (topic === undefined) {
          const partitions = topics.numPartitions(topicId);
          if (partitions === -1) missingTopic();
          topic = { partitions, subscribers: 0, minQuota: -1, extra: -1, nextStart: 0 };
          ranges.set(topicId, topic);
        }
        topic.subscribers += homogeneous ? members.length : 1;
      }
    }
    const result = new Map<string, TopicPartitions>();
    for (const memberId of members) {
      const subscribed = homogeneous ? group.memberSubscription(members[0]!).subscribedTopicIds : group.memberSubscription(memberId).subscribedTopicIds;
      result.set(memberId, memberRanges(subscribed, subscribed.size, ranges));
    }
    return result;
  },
};
