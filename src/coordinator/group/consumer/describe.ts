/**
 * ConsumerGroupDescribe's view of a consumer group (Kafka's ConsumerGroup.asDescribedGroup and
 * ConsumerGroupMember.asConsumerGroupDescribeMember): epochs, state, the assignor in use, and each member's
 * current and target assignment with topic names (a topic gone from the image is left out).
 */
import { ErrorCode } from '../../../protocol/error-codes.js';
import { createDescribedGroup, type DescribedGroup, type TopicPartitions as DescribedTopicPartitions } from '../../../protocol/generated/consumer-group-describe.js';
import type { TopicPartitions } from './assignor.js';
import type { ConsumerGroup } from './consumer-group.js';
import type { PartitionEpochs } from './member.js';
import type { TopicsImage } from './topics-image.js';

/** ConsumerGroupDescribe v1's MemberType. */
const MEMBER_TYPE_CLASSIC = 0;
const MEMBER_TYPE_CONSUMER = 1;

function named(partitions: TopicPartitions | PartitionEpochs, image: TopicsImage): DescribedTopicPartitions[] {
  const result: DescribedTopicPartitions[] = [];
  for (const [topicId, set] of partitions) {
    const topic = image.byId(topicId);
    if (topic !== undefined) result.push({ topicId, topicName: topic.name, partitions: [...set.keys()] });
  }
  return result;
}

/** `isOtherType`: the id belongs to a group of another type (GROUP_ID_NOT_FOUND, as Kafka answers). */
export function describeConsumerGroup(groupId: string, group: ConsumerGroup | undefined, isOtherType: boolean, image: TopicsImage, defaultAssignor: string): DescribedGroup {
  // The generated defaults: no error, empty, authorized operations omitted (INT32_MIN) until asked for.
  const base: DescribedGroup = { ...createDescribedGroup(), groupId };
  if (group === undefined) {
    const message = isOtherType ? `Group ${groupId} is not a consumer group.` : `Group ${groupId} not found.`;
    return { ...base, errorCode: ErrorCode.GROUP_ID_NOT_FOUND, errorMessage: message };
  }
  return {
    ...base,
    groupState: group.state,
    groupEpoch: group.groupEpoch,
    assignmentEpoch: group.assignmentEpoch,
    assignorName: group.preferredServerAssignor() ?? defaultAssignor,
    members: [...group.members.values()].map((m) => ({
      memberId: m.memberId,
      instanceId: m.instanceId,
      rackId: m.rackId,
      memberEpoch: m.memberEpoch,
      clientId: m.clientId,
      clientHost: m.clientHost,
      subscribedTopicNames: [...m.subscribedTopicNames],
      subscribedTopicRegex: m.subscribedTopicRegex,
      assignment: { topicPartitions: named(m.assignedPartitions, image) },
      targetAssignment: { topicPartitions: named(group.targetAssignment.get(m.memberId) ?? new Map(), image) },
      memberType: m.classicMemberMetadata === null ? MEMBER_TYPE_CONSUMER : MEMBER_TYPE_CLASSIC,
    })),
  };
}
