/**
 * ShareGroupDescribe's view of a share group (Kafka's ShareGroup.asDescribedGroup and
 * ShareGroupMember.asShareGroupDescribeMember): epochs, state, the assignor, and each member's assignment with topic
 * names (a topic gone from the image is left out).
 */
import { ErrorCode } from '../../../protocol/error-codes.js';
import { createDescribedGroup, type DescribedGroup } from '../../../protocol/generated/share-group-describe.js';
import type { TopicsImage } from '../consumer/topics-image.js';
import type { ShareGroup } from './share-group.js';
import { SIMPLE_ASSIGNOR } from './simple-assignor.js';

/** `isOtherType`: the id belongs to a group of another type. */
export function describeShareGroup(groupId: string, group: ShareGroup | undefined, isOtherType: boolean, image: TopicsImage): DescribedGroup {
  // The generated defaults: no error, empty, authorized operations omitted (INT32_MIN) until asked for.
  const base: DescribedGroup = { ...createDescribedGroup(), groupId };
  if (group === undefined) {
    return { ...base, errorCode: ErrorCode.GROUP_ID_NOT_FOUND, errorMessage: isOtherType ? `Group ${groupId} is not a share group.` : `Group ${groupId} not found.` };
  }
  return {
    ...base,
    groupState: group.state,
    groupEpoch: group.groupEpoch,
    assignmentEpoch: group.assignmentEpoch,
    assignorName: SIMPLE_ASSIGNOR,
    members: [...group.members.values()].map((m) => ({
      memberId: m.memberId,
      rackId: m.rackId,
      memberEpoch: m.memberEpoch,
      clientId: m.clientId,
      clientHost: m.clientHost,
      subscribedTopicNames: [...m.subscribedTopicNames],
      assignment: {
        topicPartitions: [...m.assignedPartitions].flatMap(([topicId, partitions]) => {
          const topic = image.byId(topicId);
          return topic === undefined ? [] : [{ topicId, topicName: topic.name, partitions: [...partitions] }];
        }),
      },
    })),
  };
}
