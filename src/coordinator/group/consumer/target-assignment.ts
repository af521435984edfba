/**
 * The target assignment step (Kafka's TargetAssignmentBuilder for consumer groups): the group's members, with this
 * heartbeat's additions, updates and removals, are handed to the assignor; the records are a target record for each
 * member whose target changed (also for a member new to it, even when empty) and the target's metadata at the group
 * epoch. Members are visited in the order of Kafka's HashMap of member specs, which the records follow.
 */
import { KafkaError } from '../../../protocol/kafka-error.js';
import { PartitionAssignorError, type ConsumerGroupAssignor, type GroupAssignment, type GroupSpec, type MemberSubscription, type SubscribedTopicDescriber, type SubscriptionType, type TopicPartitions } from './assignor.js';
import { NO_ASSIGNMENT } from './consumer-group.js';
import { memberTopicIds } from './current-assignment.js';
import { kafkaMemberOrder } from '../../runtime/java-hash-table.js';
import type { ConsumerGroupMember } from './member.js';
import { targetAssignmentMetadataRecord, targetAssignmentRecord, type ConsumerGroupRecord, type ResolvedRegex } from './records.js';
import type { TopicsImage } from './topics-image.js';

export interface TargetAssignmentInput {
  readonly groupId: string;
  /** The epoch the new target is computed for. */
  readonly groupEpoch: number;
  readonly assignor: ConsumerGroupAssignor;
  readonly members: ReadonlyMap<string, ConsumerGroupMember>;
  /** Members added or changed by this event (null: removed). */
  readonly updatedMembers: ReadonlyMap<string, ConsumerGroupMember | null>;
  /** instance id → member id, before this event (a static member rejoining takes its predecessor's target). */
  readonly staticMembers: ReadonlyMap<string, string>;
  readonly subscriptionType: SubscriptionType;
  readonly targetAssignment: ReadonlyMap<string, TopicPartitions>;
  readonly invertedTargetAssignment: ReadonlyMap<string, ReadonlyMap<number, string>>;
  readonly image: TopicsImage;
  readonly resolvedRegularExpressions: ReadonlyMap<string, ResolvedRegex>;
  /** The clock's time, recorded as the assignment's timestamp. */
  readonly now: number;
}

export interface TargetAssignmentResult {
  readonly records: ConsumerGroupRecord[];
  readonly targetAssignment: GroupAssignment;
}

interface MemberSpec extends MemberSubscription {
  readonly assignment: TopicPartitions;
}

/** Runs the assignor; throws what it throws (a KafkaError when the assignment cannot be computed). */
export function buildTargetAssignment(input: TargetAssignmentInput): TargetAssignmentResult {
  const specs = new Map<string, MemberSpec>();
  for (const [memberId, member] of input.members) specs.set(memberId, memberSpec(input, member, input.targetAssignment.get(memberId) ?? NO_ASSIGNMENT));
  for (const [memberId, member] of input.updatedMembers) {
    if (member === null) {
      specs.delete(memberId);
      continue;
    }
    let assignment = input.targetAssignment.get(memberId) ?? NO_ASSIGNMENT;
    const previousId = member.instanceId === null ? undefined : input.staticMembers.get(member.instanceId);
    if (previousId !== undefined && previousId !== memberId) assignment = input.targetAssignment.get(previousId) ?? NO_ASSIGNMENT;
    specs.set(memberId, memberSpec(input, member, assignment));
  }
  const memberIds = kafkaMemberOrder(specs.keys());
  const spec: GroupSpec = {
    memberIds,
    subscriptionType: input.subscriptionType,
    memberSubscription: (memberId) => specOf(specs, memberId),
    memberAssignment: (memberId) => specOf(specs, memberId).assignment,
    isPartitionAssigned: (topicId, partition) => input.invertedTargetAssignment.get(topicId)?.has(partition) === true,
  };
  const topics: SubscribedTopicDescriber = {
    numPartitions: (topicId) => input.image.byId(topicId)?.numPartitions ?? -1,
    racksForPartition: (topicId, partition) => new Set(input.image.byId(topicId)?.racks(partition) ?? []),
  };
  let result: GroupAssignment;
  try {
    result = input.assignor.assign(spec, topics);
  } catch (error) {
    // Kafka's coordinator answers an assignor's failure as UNKNOWN_SERVER_ERROR naming the epoch it computed for.
    if (error instanceof PartitionAssignorError) {
      throw new KafkaError('UNKNOWN_SERVER_ERROR', `Failed to compute a new target assignment for epoch ${input.groupEpoch}: ${error.message}`);
    }
    throw error;
  }
  const records: ConsumerGroupRecord[] = [];
  for (const memberId of memberIds) {
    const next = result.get(memberId) ?? NO_ASSIGNMENT;
    const previous = input.targetAssignment.get(memberId);
    if (previous === undefined || !sameAssignment(previous, next)) records.push(targetAssignmentRecord(input.groupId, memberId, next));
  }
  records.push(targetAssignmentMetadataRecord(input.groupId, input.groupEpoch, input.now));
  return { records, targetAssignment: result };
}

function specOf(specs: ReadonlyMap<string, MemberSpec>, memberId: string): MemberSpec {
  const spec = specs.get(memberId);
  if (spec === undefined) throw new Error(`member ${memberId} is not in the group spec`);
  return spec;
}

function memberSpec(input: TargetAssignmentInput, member: ConsumerGroupMember, assignment: TopicPartitions): MemberSpec {
  return { rackId: member.rackId, instanceId: member.instanceId, subscribedTopicIds: memberTopicIds(member, input.resolvedRegularExpressions, input.image), assignment };
}

/** Whether two assignments are equal as Kafka's Assignment.equals sees them (a topic with no partitions still counts). */
export function sameAssignment(a: TopicPartitions, b: TopicPartitions): boolean {
  if (a.size !== b.size) return false;
  for (const [topicId, pa] of a) {
    const pb = b.get(topicId);
    if (pb === undefined || pb.size !== pa.size) return false;
    for (const p of pa) if (!pb.has(p)) return false;
  }
  return true;
}
