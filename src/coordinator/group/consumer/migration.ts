/**
 * Online upgrade and downgrade between the two group protocols (KIP-848), as Kafka 4.3.1's
 * GroupMetadataManager.convertToConsumerGroup / convertToClassicGroup, ConsumerGroup.fromClassicGroup and
 * ClassicGroup.fromConsumerGroup do it, gated by `group.consumer.migration.policy`.
 */
import { ClassicGroup, CONSUMER_PROTOCOL_TYPE } from '../classic-group.js';
import { ClassicMember } from '../classic-member.js';
import { GroupError } from '../group-error.js';
import { groupMetadataValue } from '../membership.js';
import { groupMetadataRecord, groupTombstone, type GroupRecord } from '../records.js';
import { javaStringHash, javaHashOrder } from '../../runtime/java-hash-map.js';
import { assignmentByTopicId, decodeAssignment, decodeSubscription, encodeAssignment, MalformedConsumerProtocol } from './classic-protocol.js';
import { ConsumerGroup } from './consumer-group.js';
import { newMember, type ConsumerGroupMember } from './member.js';
import { computeMetadataHash } from './metadata-hash.js';
import {
  currentAssignmentRecord,
  groupEpochRecord,
  memberSubscriptionRecord,
  targetAssignmentMetadataRecord,
  targetAssignmentRecord,
  type ConsumerGroupRecord,
} from './records.js';
import { replayConsumerRecord } from './replay.js';
import type { TopicsImage } from './topics-image.js';

/** `group.consumer.migration.policy` (Kafka's ConsumerGroupMigrationPolicy, case-insensitive). */
export type MigrationPolicy = 'disabled' | 'upgrade' | 'downgrade' | 'bidirectional';

export function migrationPolicyOf(value: string): MigrationPolicy {
  const lower = value.trim().toLowerCase();
  return lower === 'disabled' || lower === 'upgrade' || lower === 'downgrade' ? lower : 'bidirectional';
}

export const isUpgradeEnabled = (policy: MigrationPolicy): boolean => policy === 'upgrade' || policy === 'bidirectional';
export const isDowngradeEnabled = (policy: MigrationPolicy): boolean => policy === 'downgrade' || policy === 'bidirectional';

/** Member ids in the order Kafka's HashMap of members yields them (the order its conversion records follow). */
export function memberIdOrder(ids: Iterable<string>): string[] {
  return javaHashOrder([...ids], javaStringHash);
}

/**
 * Kafka's validateOnlineUpgrade: a classic group with members becomes a consumer group only when the policy allows
 * it, the group uses the consumer embedded protocol and fits `group.consumer.max.size`.
 */
export function validateOnlineUpgrade(classic: ClassicGroup, policy: MigrationPolicy, consumerMaxSize: number): void {
  const cannot = (why: string): never => {
    throw new GroupError('GROUP_ID_NOT_FOUND', `Cannot upgrade classic group ${classic.groupId} to consumer group because ${why}.`);
  };
  if (!isUpgradeEnabled(policy)) cannot('online upgrade is disabled');
  if (!classic.usesConsumerProtocol()) cannot('the group does not use the consumer embedded protocol');
  if (classic.size > consumerMaxSize) cannot('the group size exceeds the consumer group maximum size');
}

/**
 * ConsumerGroup.fromClassicGroup and the records of the conversion (the classic group's tombstone, then
 * createConsumerGroupRecords): every member Stable at the classic generation, owning its last classic assignment,
 * which is also its target. The group returned is not registered: replaying the records registers it.
 */
export function consumerGroupFromClassic(classic: ClassicGroup, image: TopicsImage): { group: ConsumerGroup; records: GroupRecord[] } {
  const groupId = classic.groupId;
  const generation = classic.generationId;
  const members: ConsumerGroupMember[] = [];
  const subscribed = new Set<string>();
  try {
    for (const m of classic.members.values()) {
      let assigned = new Map<string, Set<number>>();
      if (m.assignment.length > 0) {
        const assignment = decodeAssignment(m.assignment);
        if (assignment.userData !== null && assignment.userData.length > 0) {
          throw new GroupError(
            'GROUP_ID_NOT_FOUND',
            `Cannot upgrade classic group ${groupId} to consumer group because an unsupported custom assignor is in use. Please refer to the documentation or switch to a default assignor before re-attempting the upgrade.`,
          );
        }
        assigned = assignmentByTopicId(assignment, image);
      }
      // Kafka reads the chosen protocol's subscription (Optional.get(): a group that never chose one fails unexpectedly).
      if (classic.protocolName === null) throw new Error(`Classic group ${groupId} has no protocol selected yet`);
      const subscription = decodeSubscription(m.metadata(classic.protocolName) ?? Buffer.alloc(0));
      for (const t of subscription.topics) subscribed.add(t);
      members.push({
        ...newMember(m.memberId),
        memberEpoch: generation,
        previousMemberEpoch: generation,
        state: 'STABLE',
        instanceId: m.groupInstanceId,
        rackId: subscription.rackId === '' ? null : subscription.rackId,
        rebalanceTimeoutMs: m.rebalanceTimeoutMs,
        clientId: m.clientId,
        clientHost: m.clientHost,
        subscribedTopicNames: new Set(subscription.topics),
        assignedPartitions: new Map([...assigned].map(([topicId, ps]) => [topicId, new Map([...ps].map((p) => [p, generation] as const))] as const)),
        classicMemberMetadata: { sessionTimeoutMs: m.sessionTimeoutMs, supportedProtocols: m.protocols.map((p) => ({ name: p.name, metadata: p.metadata })) },
      });
    }
  } catch (error) {
    if (!(error instanceof MalformedConsumerProtocol)) throw error;
    throw new GroupError('GROUP_ID_NOT_FOUND', `Cannot upgrade classic group ${groupId} to consumer group because the embedded consumer protocol is malformed.`);
  }
  const byId = new Map(members.map((m) => [m.memberId, m] as const));
  const order = memberIdOrder(byId.keys()).map((id) => byId.get(id)!);
  const targetOf = (m: ConsumerGroupMember): Map<string, Set<number>> => new Map([...m.assignedPartitions].map(([t, ps]) => [t, new Set(ps.keys())] as const));
  const consumerRecords: ConsumerGroupRecord[] = [
    ...order.map((m) => memberSubscriptionRecord(groupId, m)),
    groupEpochRecord(groupId, generation, computeMetadataHash(subscribed, image)),
    ...order.map((m) => targetAssignmentRecord(groupId, m.memberId, targetOf(m))),
    targetAssignmentMetadataRecord(groupId, generation, 0),
    ...order.map((m) => currentAssignmentRecord(groupId, m)),
  ];
  // The group the heartbeat goes on with: these records replayed into a fresh group, as the log will have it.
  const group = new ConsumerGroup(groupId);
  const store = { consumerGroup: () => group, removeGroup: () => undefined };
  for (const record of consumerRecords) replayConsumerRecord(store, record);
  return { group, records: [groupTombstone(groupId), ...consumerRecords] };
}

/**
 * Kafka's validateOnlineDowngradeWithFencedMembers: once the members leaving are gone, the group downgrades when the
 * rest all use the classic protocol, there is a rest, the policy allows it and it fits `group.max.size`.
 */
export function canDowngradeWithout(group: ConsumerGroup, leaving: ReadonlySet<string>, policy: MigrationPolicy, classicMaxSize: number): boolean {
  let remaining = 0;
  for (const member of group.members.values()) {
    if (leaving.has(member.memberId)) continue;
    if (member.classicMemberMetadata === null) return false;
    remaining++;
  }
  return remaining > 0 && isDowngradeEnabled(policy) && remaining <= classicMaxSize;
}

/**
 * ClassicGroup.fromConsumerGroup and the records of the downgrade (the consumer group's tombstones, then the classic
 * group's GroupMetadata): a Stable group at the consumer group's epoch whose members hold their target assignments
 * in ConsumerProtocol bytes. The caller installs it and starts a rebalance.
 */
export function classicGroupFromConsumer(
  group: ConsumerGroup,
  leaving: ReadonlySet<string>,
  image: TopicsImage,
  now: number,
  joining?: ConsumerGroupMember,
): { classic: ClassicGroup; records: GroupRecord[] } {
  const classic = new ClassicGroup(group.groupId, 'Stable', now, group.groupEpoch, CONSUMER_PROTOCOL_TYPE);
  const add = (m: ConsumerGroupMember): void => {
    const classicMetadata = m.classicMemberMetadata!;
    classic.add(
      new ClassicMember(m.memberId, m.instanceId, m.clientId, m.clientHost, m.rebalanceTimeoutMs, classicMetadata.sessionTimeoutMs, CONSUMER_PROTOCOL_TYPE, classicMetadata.supportedProtocols),
      null,
    );
  };
  for (const id of memberIdOrder(group.members.keys())) {
    const m = group.members.get(id)!;
    // The static member a joining one replaces is left out; the joining one comes last.
    if (leaving.has(id) || (joining !== undefined && joining.instanceId !== null && m.instanceId === joining.instanceId)) continue;
    add(m);
  }
  const replacedId = joining === undefined ? undefined : group.staticMemberId(joining.instanceId);
  if (joining !== undefined) add(joining);
  classic.protocolName = classic.selectProtocol();
  classic.subscribedTopics = classic.computeSubscribedTopics();
  const assignments = new Map<string, Buffer>();
  try {
    for (const m of classic.members.values()) {
      const chosen = m.protocols.filter((p) => p.name === classic.protocolName);
      // The joining static member takes the assignment of the one it replaces.
      const targetId = joining !== undefined && m.memberId === joining.memberId ? (replacedId ?? m.memberId) : m.memberId;
      m.assignment = encodeAssignment(group.targetAssignment.get(targetId) ?? new Map(), image, chosen);
      assignments.set(m.memberId, m.assignment);
    }
  } catch (error) {
    if (!(error instanceof MalformedConsumerProtocol)) throw error;
    throw new GroupError('GROUP_ID_NOT_FOUND', `Cannot downgrade the classic group ${group.groupId}: ${error.message}.`);
  }
  return { classic, records: [...group.tombstoneRecords(), groupMetadataRecord(group.groupId, groupMetadataValue(classic, assignments))] };
}
