/**
 * Kafka's `uniform` server-side assignor (UniformAssignor, the default of group.consumer.assignors): the homogeneous
 * builder when every member subscribes to the same topics, the heterogeneous one otherwise. Kafka 4.3.1's does not
 * use racks.
 */
import type { ConsumerGroupAssignor, GroupAssignment, GroupSpec, SubscribedTopicDescriber } from './assignor.js';
import { assignHeterogeneous } from './uniform-heterogeneous.js';
import { assignHomogeneous } from './uniform-homogeneous.js';

export const uniformAssignor: ConsumerGroupAssignor = {
  name: 'uniform',
  assign(group: GroupSpec, topics: SubscribedTopicDescriber): GroupAssignment {
    if (group.memberIds.length === 0) return new Map();
    return group.subscriptionType === 'homogeneous' ? assignHomogeneous(group, topics) : assignHeterogeneous(group, topics);
  },
};
