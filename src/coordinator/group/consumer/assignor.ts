/**
 * The server-side assignor contract of KIP-848 consumer groups (Kafka's ConsumerGroupPartitionAssignor, GroupSpec,
 * SubscribedTopicDescriber, GroupAssignment): the group coordinator computes each member's target assignment by
 * calling the assignor named in `group.consumer.assignors` (or the member's choice) with these views.
 * Topics are named by id (Kafka's Uuid text form), partitions by index.
 */

/** Partitions by topic id. */
export type TopicPartitions = ReadonlyMap<string, ReadonlySet<number>>;

export type SubscriptionType = 'homogeneous' | 'heterogeneous';

export interface MemberSubscription {
  readonly rackId: string | null;
  /** Topic ids the member is subscribed to (names and regular expressions already resolved to existing topics). */
  readonly subscribedTopicIds: ReadonlySet<string>;
}

/** The group as the assignor sees it. */
export interface GroupSpec {
  /** Member ids, in the order Kafka's GroupSpecImpl map iterates them (where an assignor's result depends on it). */
  readonly memberIds: readonly string[];
  /** Homogeneous when every member subscribes to the same topics. */
  readonly subscriptionType: SubscriptionType;
  memberSubscription(memberId: string): MemberSubscription;
  /** The member's current target assignment (empty for a new member). */
  memberAssignment(memberId: string): TopicPartitions;
  /** Whether the partition is in some member's current target assignment. */
  isPartitionAssigned(topicId: string, partition: number): boolean;
}

/** The subscribed topics' metadata. */
export interface SubscribedTopicDescriber {
  /** The number of partitions of the topic; -1 when it does not exist. */
  numPartitions(topicId: string): number;
  /** Racks of the partition's replicas (empty when unknown). */
  racksForPartition(topicId: string, partition: number): ReadonlySet<string>;
}

/** The target assignment: member id → its partitions. */
export type GroupAssignment = ReadonlyMap<string, TopicPartitions>;

export interface ConsumerGroupAssignor {
  /** The name clients and `group.consumer.assignors` use: `uniform`, `range`. */
  readonly name: string;
  /** Throws a KafkaError (e.g. when the assignment cannot be computed), as Kafka's PartitionAssignorException. */
  assign(group: GroupSpec, topics: SubscribedTopicDescriber): GroupAssignment;
}
