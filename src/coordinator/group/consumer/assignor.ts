/**
 * The server-side assignor contract of KIP-848 consumer groups (Kafka's ConsumerGroupPartitionAssignor, GroupSpec,
 * SubscribedTopicDescriber, GroupAssignment): the group coordinator computes each member's target assignment by
 * calling the assignor named in `group.consumer.assignors` (or the member's choice) with these views.
 * Topics are named by id (Kafka's Uuid text form), partitions by index.
 */
import { KafkaError } from '../../../protocol/kafka-error.js';

/** Partitions by topic id. */
export type TopicPartitions = ReadonlyMap<string, ReadonlySet<number>>;

export type SubscriptionType = 'homogeneous' | 'heterogeneous';

export interface MemberSubscription {
  readonly rackId: string | null;
  /** The static member's group.instance.id (the range assignor orders static members first, by it). */
  readonly instanceId: string | null;
  /**
   * Topic ids the member is subscribed to (names and regular expressions already resolved to existing topics), in
   * the order Kafka's set iterates them (it breaks ties between topics that share a Java hash bucket).
   */
  readonly subscribedTopicIds: ReadonlySet<string>;
}

/** The group as the assignor sees it. */
export interface GroupSpec {
  /**
   * Member ids, in the order Kafka's GroupSpecImpl map iterates them (the uniform assignor's result depends on it):
   * java-hash-order.ts's kafkaMemberOrder gives it.
   */
  readonly memberIds: readonly string[];
  /** Homogeneous when every member subscribes to the same topics. */
  readonly subscriptionType: SubscriptionType;
  memberSubscription(memberId: string): MemberSubscription;
  /**
   * The member's current target assignment (empty for a new member), topics and partitions in the order of its
   * ConsumerGroupTargetAssignmentMember record (the order this module's assignors return them in); the assignors
   * re-read it in the order of the Java tables Kafka rebuilds from that record.
   */
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

/**
 * The target assignment: member id → its partitions, topics and partitions in the order Kafka's result iterates them
 * (the order its records list them in). A member may be absent (the uniform assignor returns no member when the
 * group subscribes to nothing): it has no partitions.
 */
export type GroupAssignment = ReadonlyMap<string, TopicPartitions>;

export interface ConsumerGroupAssignor {
  /** The name clients and `group.consumer.assignors` use: `uniform`, `range`. */
  readonly name: string;
  /**
   * Throws PartitionAssignorError (a KafkaError, UNKNOWN_SERVER_ERROR) with Kafka's PartitionAssignorException
   * message when the assignment cannot be computed; the coordinator reports it as Kafka does, prefixed with
   * "Failed to compute a new target assignment for epoch <epoch>: ".
   */
  assign(group: GroupSpec, topics: SubscribedTopicDescriber): GroupAssignment;
}

/** Kafka's PartitionAssignorException: the coordinator answers UNKNOWN_SERVER_ERROR. */
export class PartitionAssignorError extends KafkaError {
  constructor(message: string) {
    super('UNKNOWN_SERVER_ERROR', message);
  }
}
