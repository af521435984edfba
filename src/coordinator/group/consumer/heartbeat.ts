/**
 * ConsumerGroupHeartbeat as Kafka 4.3.1's GroupMetadataManager serves it (KIP-848): a member joins with epoch 0,
 * heartbeats with its epoch and owned partitions, leaves with -1 (a static member with -2). Each heartbeat updates
 * the member, bumps the group epoch when a subscription or the subscribed topics' metadata hash changed, computes the
 * new target assignment when the group epoch is ahead of it, and reconciles the member towards its target. The
 * session and rebalance timeouts fence members through the coordinator's timers. Nothing here mutates a group: the
 * outcome's records do, replayed by the runtime (consumer/replay.ts), so a group loaded from the log is the same.
 */
import {
  createConsumerGroupHeartbeatResponse,
  type ConsumerGroupHeartbeatRequest,
  type ConsumerGroupHeartbeatResponse,
} from '../../../protocol/generated/consumer-group-heartbeat.js';
import { errorCodeOf } from '../../../protocol/kafka-error.js';
import { compileFullMatch, re2SyntaxError } from '../../../protocol/re2-pattern.js';
import type { CoordinatorTimer } from '../../runtime/keyed-timer.js';
import { NOTHING, outcome, type Outcome } from '../../runtime/outcome.js';
import { GroupError } from '../group-error.js';
import { expireMember } from '../member-timeout.js';
import type { GroupRecord } from '../records.js';
import type { Clock, MemberContext } from '../membership.js';
import type { ConsumerGroupAssignor, TopicPartitions } from './assignor.js';
import type { ClassicGroup } from '../classic-group.js';
import { groupTombstone } from '../records.js';
import { ConsumerGroup, subscriptionTypeOf } from './consumer-group.js';
import { canDowngradeWithout, classicGroupFromConsumer, consumerGroupFromClassic, isDowngradeEnabled, validateOnlineUpgrade, type MigrationPolicy } from './migration.js';
import { reconcile, type OwnedTopicPartitions } from './current-assignment.js';
import { newMember, sameMember, samePartitionEpochs, subscribedRegexOrNull, type ConsumerGroupMember, type PartitionEpochs } from './member.js';
import { computeMetadataHash } from './metadata-hash.js';
import {
  currentAssignmentRecord,
  currentAssignmentTombstone,
  groupEpochRecord,
  memberSubscriptionRecord,
  memberSubscriptionTombstone,
  partitionMetadataTombstone,
  regexRecord,
  regexTombstone,
  targetAssignmentRecord,
  targetAssignmentTombstone,
  type ConsumerGroupRecord,
} from './records.js';
import { buildTargetAssignment } from './target-assignment.js';
import type { TopicsImage } from './topics-image.js';

export const LEAVE_GROUP_MEMBER_EPOCH = -1;
export const LEAVE_GROUP_STATIC_MEMBER_EPOCH = -2;
/** ConsumerGroupHeartbeat v1+: the client generates its member id (KIP-1082). */
const CLIENT_GENERATED_MEMBER_ID_VERSION = 1;

/** A consumer group's effective settings (broker configs, overridden per group as Kafka's GroupConfig allows). */
export interface ConsumerGroupSettings {
  readonly sessionTimeoutMs: number;
  readonly heartbeatIntervalMs: number;
  /** Least time between two target assignments (`consumer.assignment.interval.ms`). */
  readonly assignmentIntervalMs: number;
}

export interface ConsumerGroupHeartbeatDeps {
  /** The group registered under that id, of either protocol (at most one is set). */
  readonly groups: (groupId: string) => { readonly consumer?: ConsumerGroup; readonly classic?: ClassicGroup };
  /** A classic group being upgraded: its parked JoinGroup/SyncGroup requests answered REBALANCE_IN_PROGRESS. */
  readonly answerParkedRequests: (classic: ClassicGroup) => void;
  /**
   * Installs the classic group a downgrade built in place of the consumer group (Kafka updates this state directly,
   * the records are not replayed), schedules its members' heartbeats and starts its rebalance when `rebalance`.
   */
  readonly installDowngradedGroup: (classic: ClassicGroup, rebalance: boolean) => readonly GroupRecord[];
  readonly migrationPolicy: MigrationPolicy;
  /** `group.max.size`: a downgraded group must fit it. */
  readonly classicMaxSize: number;
  readonly topics: () => TopicsImage;
  readonly assignors: ReadonlyMap<string, ConsumerGroupAssignor>;
  readonly maxSize: number;
  readonly settings: (groupId: string) => ConsumerGroupSettings;
  readonly timer: CoordinatorTimer<Outcome<void>>;
  readonly clock: Clock;
  readonly newUuid: () => string;
}

export const consumerSessionKey = (groupId: string, memberId: string): string => `consumer-session-${groupId}-${memberId}`;
const consumerRegexKey = (groupId: string): string => `consumer-regex-${groupId}`;
export const consumerRebalanceKey = (groupId: string, memberId: string): string => `consumer-rebalance-${groupId}-${memberId}`;
/** A classic member's deadlines in a consumer group: to rejoin once told to, to sync once joined. */
export const consumerJoinKey = (groupId: string, memberId: string): string => `consumer-join-${groupId}-${memberId}`;
export const consumerSyncKey = (groupId: string, memberId: string): string => `consumer-sync-${groupId}-${memberId}`;


/** The request checks of Kafka's throwIfConsumerGroupHeartbeatRequestIsInvalid, with its messages. */
function validate(request: ConsumerGroupHeartbeatRequest, apiVersion: number, assignors: ReadonlyMap<string, ConsumerGroupAssignor>): void {
  const invalid = (message: string): never => {
    throw new GroupError('INVALID_REQUEST', message);
  };
  if (request.groupId === '') invalid("GroupId can't be empty.");
  if (request.instanceId === '') invalid("InstanceId can't be empty.");
  if (request.rackId === '') invalid("RackId can't be empty.");
  if (apiVersion >= CLIENT_GENERATED_MEMBER_ID_VERSION || request.memberEpoch !== 0) {
    if (request.memberId === '') invalid("MemberId can't be empty.");
  }
  if (request.memberEpoch === 0) {
    if (request.rebalanceTimeoutMs === -1) invalid('RebalanceTimeoutMs must be provided in first request.');
    if (request.topicPartitions === null || request.topicPartitions.length > 0) invalid('TopicPartitions must be empty when (re-)joining.');
    const hasNames = request.subscribedTopicNames !== null && request.subscribedTopicNames.length > 0;
    const hasRegex = request.subscribedTopicRegex !== null && request.subscribedTopicRegex !== '';
    if (!hasNames && !hasRegex) invalid('SubscribedTopicNames or SubscribedTopicRegex must be set in first request.');
  } else if (request.memberEpoch === LEAVE_GROUP_STATIC_MEMBER_EPOCH) {
    if (request.instanceId === null) invalid("InstanceId can't be null.");
  } else if (request.memberEpoch < LEAVE_GROUP_STATIC_MEMBER_EPOCH) {
    invalid('MemberEpoch is invalid.');
  }
  if (request.subscribedTopicRegex !== null && request.subscribedTopicRegex !== '') {
    const why = re2SyntaxError(request.subscribedTopicRegex);
    if (why !== null) throw new GroupError('INVALID_REGULAR_EXPRESSION', `SubscribedTopicRegex \`${request.subscribedTopicRegex}\` is not a valid regular expression: ${why}.`);
  }
  if (request.serverAssignor !== null && !assignors.has(request.serverAssignor)) {
    throw new GroupError('UNSUPPORTED_ASSIGNOR', `ServerAssignor ${request.serverAssignor} is not supported. Supported assignors: ${[...assignors.keys()].join(', ')}.`);
  }
}

/** Whether every partition the member reports is in its assignment (Kafka's isSubset). */
function isSubset(owned: OwnedTopicPartitions, assigned: PartitionEpochs): boolean {
  if (owned === null) return true;
  return owned.every((t) => {
    const partitions = assigned.get(t.topicId);
    return t.partitions.every((p) => partitions?.has(p) === true);
  });
}

function throwIfEpochInvalid(member: ConsumerGroupMember, received: number, owned: OwnedTopicPartitions): void {
  if (received > member.memberEpoch) {
    throw new GroupError(
      'FENCED_MEMBER_EPOCH',
      `The consumer group member has a greater member epoch (${received}) than the one known by the group coordinator (${member.memberEpoch}). The member must abandon all its partitions and rejoin.`,
    );
  }
  // The previous epoch with a subset of the assignment is accepted: the response that bumped it may have been lost.
  if (received < member.memberEpoch && (received !== member.previousMemberEpoch || !isSubset(owned, member.assignedPartitions))) {
    throw new GroupError(
      'FENCED_MEMBER_EPOCH',
      `The consumer group member has a smaller member epoch (${received}) than the one known by the group coordinator (${member.memberEpoch}). The member must abandon all its partitions and rejoin.`,
    );
  }
}

/** The member's assigned partitions as the response carries them. */
function responseAssignment(member: ConsumerGroupMember): ConsumerGroupHeartbeatResponse['assignment'] {
  return { topicPartitions: [...member.assignedPartitions].map(([topicId, epochs]) => ({ topicId, partitions: [...epochs.keys()] })) };
}

/** Whether what the member subscribes to by name, its assignor and rack are unchanged (a new regular expression bumps the epoch once resolved). */
function sameSubscription(a: ConsumerGroupMember, b: ConsumerGroupMember): boolean {
  return (
    a.subscribedTopicNames.size === b.subscribedTopicNames.size &&
    [...a.subscribedTopicNames].every((t) => b.subscribedTopicNames.has(t)) &&
    a.serverAssignor === b.serverAssignor &&
    a.rackId === b.rackId
  );
}

/** The topic names the regular expression matches in full, sorted. */
function resolve(regex: string, image: TopicsImage): string[] {
  const pattern = compileFullMatch(regex);
  return [...image.names()].filter((name) => pattern.test(name)).sort();
}

function sameTopics(resolved: ReadonlySet<string>, topics: readonly string[]): boolean {
  return resolved.size === topics.length && topics.every((t) => resolved.has(t));
}

/** The topic names the group subscribes to once `removed` members (and `droppedRegex`) are gone and `updated` replaces its old self. */
function subscribedNames(group: ConsumerGroup, updated: ConsumerGroupMember | null, removed: ReadonlySet<string>, droppedRegexes: ReadonlySet<string> = new Set()): Set<string> {
  const names = new Set<string>();
  for (const [memberId, member] of group.members) {
    if (removed.has(memberId) || memberId === updated?.memberId) continue;
    for (const t of member.subscribedTopicNames) names.add(t);
  }
  if (updated !== null) for (const t of updated.subscribedTopicNames) names.add(t);
  for (const [regex, resolved] of group.resolvedRegularExpressions) if (!droppedRegexes.has(regex)) for (const t of resolved.topics) names.add(t);
  return names;
}

export class ConsumerGroupHeartbeats {
  constructor(private readonly deps: ConsumerGroupHeartbeatDeps) {}

  heartbeat(ctx: MemberContext, request: ConsumerGroupHeartbeatRequest): Outcome<ConsumerGroupHeartbeatResponse> {
    try {
      validate(request, ctx.apiVersion, this.deps.assignors);
      if (request.memberEpoch === LEAVE_GROUP_MEMBER_EPOCH || request.memberEpoch === LEAVE_GROUP_STATIC_MEMBER_EPOCH) return this.leave(request);
      return this.join(ctx, request);
    } catch (error) {
      return outcome({ ...createConsumerGroupHeartbeatResponse(), errorCode: errorCodeOf(error), errorMessage: error instanceof GroupError ? error.message : null });
    }
  }

  private join(ctx: MemberContext, request: ConsumerGroupHeartbeatRequest): Outcome<ConsumerGroupHeartbeatResponse> {
    const { groupId, memberEpoch, instanceId } = request;
    const records: GroupRecord[] = [];
    const group = this.consumerGroupOf(groupId, memberEpoch === 0, records);
    const memberId = request.memberId === '' ? this.deps.newUuid() : request.memberId;
    this.throwIfFull(group, memberId);
    const owned = request.topicPartitions;
    const { member, replaced } =
      instanceId === null
        ? { member: this.dynamicMember(group, memberId, memberEpoch === 0, memberEpoch, owned, false), replaced: undefined }
        : this.staticMember(group, memberId, instanceId, memberEpoch === 0, memberEpoch, owned, false);

    // 1. The member with what this heartbeat changes; its subscription change bumps the group epoch.
    const updated: ConsumerGroupMember = {
      ...member,
      instanceId: instanceId ?? member.instanceId,
      rackId: request.rackId ?? member.rackId,
      rebalanceTimeoutMs: request.rebalanceTimeoutMs === -1 ? member.rebalanceTimeoutMs : request.rebalanceTimeoutMs,
      serverAssignor: request.serverAssignor ?? member.serverAssignor,
      subscribedTopicNames: request.subscribedTopicNames === null ? member.subscribedTopicNames : new Set(request.subscribedTopicNames),
      subscribedTopicRegex: request.subscribedTopicRegex ?? member.subscribedTopicRegex,
      clientId: ctx.clientId,
      clientHost: ctx.clientHost,
      classicMemberMetadata: null,
    };
    const reconciled = this.advance(group, member, updated, replaced, owned, records).member;
    this.scheduleSessionTimeout(groupId, reconciled.memberId);

    const full = memberEpoch === 0 || (request.rebalanceTimeoutMs !== -1 && request.subscribedTopicNames !== null && owned !== null);
    const response: ConsumerGroupHeartbeatResponse = {
      ...createConsumerGroupHeartbeatResponse(),
      memberId: reconciled.memberId,
      memberEpoch: reconciled.memberEpoch,
      heartbeatIntervalMs: this.deps.settings(groupId).heartbeatIntervalMs,
      assignment: full || !samePartitionEpochs(member.assignedPartitions, reconciled.assignedPartitions) ? responseAssignment(reconciled) : null,
    };
    return outcome(response, records);
  }

  /**
   * Kafka's getOrMaybeCreateConsumerGroup: a joining member (create) makes a new group, replacing an empty classic
   * group (its tombstone first) or converting a classic group with members (online upgrade, its records first).
   */
  consumerGroupOf(groupId: string, create: boolean, records: GroupRecord[]): ConsumerGroup {
    const existing = this.deps.groups(groupId);
    if (existing.consumer !== undefined) return existing.consumer;
    const classic = existing.classic;
    if (classic === undefined || (classic.is('Empty') && create)) {
      if (!create) throw new GroupError('GROUP_ID_NOT_FOUND', `Consumer group ${groupId} not found.`);
      if (classic !== undefined) records.push(groupTombstone(groupId));
      return new ConsumerGroup(groupId);
    }
    if (!create) throw new GroupError('GROUP_ID_NOT_FOUND', `Group ${groupId} is not a consumer group.`);
    validateOnlineUpgrade(classic, this.deps.migrationPolicy, this.deps.maxSize);
    // Its parked requests are told to rejoin first (as Kafka does, even when the conversion then fails).
    this.deps.answerParkedRequests(classic);
    // Its classic timers go when its tombstone is replayed (a heartbeat failing after this writes nothing).
    const converted = consumerGroupFromClassic(classic, this.deps.topics());
    records.push(...converted.records);
    for (const member of converted.group.members.values()) {
      this.scheduleSessionTimeout(groupId, member.memberId, member.classicMemberMetadata?.sessionTimeoutMs);
    }
    return converted.group;
  }

  /** A member id the coordinator gives (a ConsumerGroupHeartbeat v0 or a classic JoinGroup without one). */
  newMemberId(): string {
    return this.deps.newUuid();
  }

  /** Kafka's throwIfConsumerGroupIsFull: a member not in the group yet is refused at `group.consumer.max.size`. */
  throwIfFull(group: ConsumerGroup, memberId: string): void {
    if (group.members.size >= this.deps.maxSize && !group.members.has(memberId)) {
      throw new GroupError('GROUP_MAX_SIZE_REACHED', `The consumer group has reached its maximum capacity of ${this.deps.maxSize} members.`);
    }
  }

  /** Kafka's getOrMaybeSubscribeDynamicConsumerGroupMember: a classic member's epoch is not checked here. */
  dynamicMember(group: ConsumerGroup, memberId: string, create: boolean, memberEpoch: number, owned: OwnedTopicPartitions, classic: boolean): ConsumerGroupMember {
    const existing = group.members.get(memberId);
    if (create && existing === undefined) return newMember(memberId);
    if (existing === undefined) throw new GroupError('UNKNOWN_MEMBER_ID', `Member ${memberId} is not a member of group ${group.groupId}.`);
    if (classic) return existing;
    if (create) return { ...existing, memberEpoch: 0 };
    throwIfEpochInvalid(existing, memberEpoch, owned);
    return existing;
  }

  /**
   * Kafka's getOrMaybeSubscribeStaticConsumerGroupMember: a joining instance takes over its predecessor's assignment
   * under its new id (a consumer-protocol predecessor must have left with epoch -2 first, unless either speaks classic).
   */
  staticMember(
    group: ConsumerGroup,
    memberId: string,
    instanceId: string,
    create: boolean,
    memberEpoch: number,
    owned: OwnedTopicPartitions,
    classic: boolean,
  ): { member: ConsumerGroupMember; replaced: ConsumerGroupMember | undefined } {
    const staticId = group.staticMemberId(instanceId);
    const existing = staticId === undefined ? undefined : group.members.get(staticId);
    if (create) {
      if (existing === undefined) return { member: newMember(memberId), replaced: undefined };
      if (!classic && existing.classicMemberMetadata === null && existing.memberEpoch !== LEAVE_GROUP_STATIC_MEMBER_EPOCH) {
        throw new GroupError(
          'UNRELEASED_INSTANCE_ID',
          `Static member ${memberId} with instance id ${instanceId} cannot join the group because the instance id is owned by ${existing.memberId} member.`,
        );
      }
      const member = { ...existing, memberId, memberEpoch: 0, previousMemberEpoch: 0, state: 'STABLE' as const, partitionsPendingRevocation: new Map() };
      return { member, replaced: existing };
    }
    if (existing === undefined) throw new GroupError('UNKNOWN_MEMBER_ID', `Instance id ${instanceId} is unknown.`);
    if (existing.memberId !== memberId) {
      throw new GroupError('FENCED_INSTANCE_ID', `Static member ${memberId} with instance id ${instanceId} was fenced by member ${existing.memberId}.`);
    }
    if (!classic) throwIfEpochInvalid(existing, memberEpoch, owned);
    return { member: existing, replaced: undefined };
  }

  /**
   * Steps 1-3 of a member's heartbeat or classic join: the member's records (replacing a static predecessor), a new
   * group epoch when its subscription or the metadata hash changed, a new target assignment when the group epoch is
   * ahead of it, and the member reconciled towards its target. Returns the reconciled member. A static member replacing
   * one before the group downgrades (`downgrading`) gets no new target assignment, and no reconciliation when its
   * subscription changed (the classic group rebalances then), as in Kafka's classicGroupJoinToConsumerGroup.
   */
  advance(
    group: ConsumerGroup,
    member: ConsumerGroupMember,
    updatedMember: ConsumerGroupMember,
    replaced: ConsumerGroupMember | undefined,
    owned: OwnedTopicPartitions,
    records: GroupRecord[],
    downgrading = false,
  ): { member: ConsumerGroupMember; subscriptionChanged: boolean } {
    const groupId = group.groupId;
    const now = this.deps.clock.now();
    let updated = updatedMember;
    if (replaced !== undefined) {
      records.push(...removeMemberRecords(groupId, replaced.memberId));
      records.push(memberSubscriptionRecord(groupId, updated));
      records.push(targetAssignmentRecord(groupId, updated.memberId, group.targetAssignmentOf(replaced.memberId)));
      records.push(currentAssignmentRecord(groupId, updated));
    }
    const isNew = replaced === undefined && !group.members.has(updated.memberId);
    const regexChanged = subscribedRegexOrNull(member) !== subscribedRegexOrNull(updated);
    // A regular expression bumps the epoch here only when already resolved; a new one does once resolved (resolveRegexes).
    const newRegex = subscribedRegexOrNull(updated);
    const subscriptionChanged = !sameSubscription(member, updated) || (regexChanged && newRegex !== null && group.resolvedRegularExpressions.has(newRegex));
    const memberChanged = replaced === undefined && (isNew || !sameMember(member, updated));
    if (memberChanged) records.push(memberSubscriptionRecord(groupId, updated));

    let groupEpoch = group.groupEpoch;
    const image = this.deps.topics();
    // A regular expression no member uses any more is deleted, its topics with it.
    const droppedRegex = regexChanged ? subscribedRegexOrNull(member) : null;
    const dropped = droppedRegex !== null && group.subscribedRegularExpressions.get(droppedRegex) === 1 && group.resolvedRegularExpressions.has(droppedRegex);
    if (dropped) records.push(regexTombstone(groupId, droppedRegex));
    const metadataHash = computeMetadataHash(
      subscribedNames(group, updated, new Set(replaced === undefined ? [] : [replaced.memberId]), new Set(dropped ? [droppedRegex] : [])),
      image,
    );
    if (subscriptionChanged || dropped || metadataHash !== group.metadataHash) {
      groupEpoch += 1;
      records.push(groupEpochRecord(groupId, groupEpoch, metadataHash));
      // 4.3.1 deletes the partition metadata record an older Kafka wrote once the epoch moves on.
      if (group.hasSubscriptionMetadataRecord) records.push(partitionMetadataTombstone(groupId));
    }

    // 2. A new target assignment when the group epoch is ahead of the target's, at most one per assignment interval
    // (as Kafka 4.3.1: a heartbeat within it reconciles towards the previous target; the first one after computes it).
    let targetEpoch = group.assignmentEpoch;
    let target: TopicPartitions;
    if (!downgrading && groupEpoch > group.assignmentEpoch && now - group.assignmentTimestamp >= this.deps.settings(groupId).assignmentIntervalMs) {
      const members = new Map(group.members);
      if (replaced !== undefined) members.delete(replaced.memberId);
      const numMembers = members.size + (members.has(updated.memberId) ? 0 : 1);
      const assignor = this.assignorFor(group, updated);
      const built = buildTargetAssignment({
        groupId,
        groupEpoch,
        assignor,
        members,
        updatedMembers: new Map([[updated.memberId, updated]]),
        staticMembers: group.staticMembers,
        subscriptionType: subscriptionTypeOf(group.subscribedRegularExpressions, countNames(members, updated), numMembers),
        targetAssignment: group.targetAssignment,
        invertedTargetAssignment: group.invertedTargetAssignment,
        image,
        resolvedRegularExpressions: group.resolvedRegularExpressions,
        now,
      });
      records.push(...built.records);
      targetEpoch = groupEpoch;
      target = built.targetAssignment.get(updated.memberId) ?? new Map();
    } else {
      target = replaced === undefined ? group.targetAssignmentOf(updated.memberId) : group.targetAssignmentOf(replaced.memberId);
    }

    // 3. Reconcile the member towards its target.
    if (downgrading && subscriptionChanged) return { member: updated, subscriptionChanged };
    const before = updated;
    updated = reconcile({
      member: updated,
      targetAssignmentEpoch: targetEpoch,
      targetAssignment: target,
      image,
      resolvedRegularExpressions: group.resolvedRegularExpressions,
      hasSubscriptionChanged: subscriptionChanged || regexChanged,
      currentPartitionEpoch: (topicId, partition) => {
        const epoch = group.currentPartitionEpoch(topicId, partition);
        // The replaced static member's partitions are this member's own.
        if (replaced !== undefined && replaced.assignedPartitions.get(topicId)?.has(partition) === true) return -1;
        return epoch;
      },
      ownedTopicPartitions: owned as OwnedTopicPartitions,
    });
    if (updated !== before || isNew || replaced !== undefined) {
      const recorded = group.members.get(updated.memberId);
      if (recorded === undefined || !sameCurrentAssignment(recorded, updated)) records.push(currentAssignmentRecord(groupId, updated));
      this.scheduleRebalanceTimeout(groupId, updated);
    }
    this.maybeResolveRegex(groupId, updated, this.deps.topics(), group);
    return { member: updated, subscriptionChanged };
  }

  /** The assignor named by the members most (a member's own choice counts), else the first configured. */
  private assignorFor(group: ConsumerGroup, updated: ConsumerGroupMember): ConsumerGroupAssignor {
    const counts = new Map(group.serverAssignors);
    const old = group.members.get(updated.memberId)?.serverAssignor ?? null;
    if (old !== null) counts.set(old, (counts.get(old) ?? 1) - 1);
    if (updated.serverAssignor !== null) counts.set(updated.serverAssignor, (counts.get(updated.serverAssignor) ?? 0) + 1);
    let best: string | null = null;
    let bestCount = 0;
    for (const [name, count] of counts) if (count > bestCount) [best, bestCount] = [name, count];
    const byName = best === null ? undefined : this.deps.assignors.get(best);
    return byName ?? this.deps.assignors.values().next().value!;
  }

  /** -1 leaves (the member's records are deleted, the group epoch bumped); -2 keeps a static member's assignment until its session expires. */
  private leave(request: ConsumerGroupHeartbeatRequest): Outcome<ConsumerGroupHeartbeatResponse> {
    const { groupId, memberId, instanceId } = request;
    // Kafka's consumerGroup(groupId): a missing group is "Group ... not found." here.
    const found = this.deps.groups(groupId);
    if (found.consumer === undefined) {
      throw new GroupError('GROUP_ID_NOT_FOUND', found.classic === undefined ? `Group ${groupId} not found.` : `Group ${groupId} is not a consumer group.`);
    }
    const group = found.consumer;
    let member: ConsumerGroupMember | undefined;
    if (instanceId === null) {
      member = group.members.get(memberId);
      if (member === undefined) throw new GroupError('UNKNOWN_MEMBER_ID', `Member ${memberId} is not a member of group ${groupId}.`);
    } else {
      const staticId = group.staticMemberId(instanceId);
      member = staticId === undefined ? undefined : group.members.get(staticId);
      if (member === undefined) throw new GroupError('UNKNOWN_MEMBER_ID', `Instance id ${instanceId} is unknown.`);
      if (member.memberId !== memberId) {
        throw new GroupError('FENCED_INSTANCE_ID', `Static member ${memberId} with instance id ${instanceId} was fenced by member ${member.memberId}.`);
      }
    }
    const response = { ...createConsumerGroupHeartbeatResponse(), memberId, memberEpoch: request.memberEpoch };
    if (request.memberEpoch === LEAVE_GROUP_STATIC_MEMBER_EPOCH) {
      const leaving: ConsumerGroupMember = { ...member, memberEpoch: LEAVE_GROUP_STATIC_MEMBER_EPOCH, partitionsPendingRevocation: new Map() };
      this.deps.timer.cancel(consumerRebalanceKey(groupId, memberId));
      return outcome(response, [currentAssignmentRecord(groupId, leaving)]);
    }
    return this.fence(group, [member], response);
  }

  /**
   * Kafka's consumerGroupFenceMembers: when only classic members would remain, the group is downgraded to a classic
   * group instead (its records not replayed: the state is installed directly); otherwise the members' records are
   * deleted and the group epoch bumped without them.
   */
  fence<T>(group: ConsumerGroup, members: readonly ConsumerGroupMember[], response: T): Outcome<T> {
    if (members.length === 0) return outcome(response);
    const groupId = group.groupId;
    const leaving = new Set(members.map((m) => m.memberId));
    for (const id of leaving) this.cancelTimers(groupId, id);
    if (canDowngradeWithout(group, leaving, this.deps.migrationPolicy, this.deps.classicMaxSize)) {
      const downgraded = classicGroupFromConsumer(group, leaving, this.deps.topics(), this.deps.clock.now());
      for (const id of group.members.keys()) this.cancelTimers(groupId, id);
      const more = this.deps.installDowngradedGroup(downgraded.classic, true);
      return outcome(response, [...downgraded.records, ...more], false);
    }
    const records: ConsumerGroupRecord[] = [];
    for (const id of leaving) records.push(...removeMemberRecords(groupId, id));
    const droppedRegexes = new Set<string>();
    const leavingByRegex = new Map<string, number>();
    for (const m of members) {
      const regex = subscribedRegexOrNull(m);
      if (regex !== null) leavingByRegex.set(regex, (leavingByRegex.get(regex) ?? 0) + 1);
    }
    for (const [regex, count] of leavingByRegex) {
      if (group.subscribedRegularExpressions.get(regex) === count && group.resolvedRegularExpressions.has(regex)) {
        droppedRegexes.add(regex);
        records.push(regexTombstone(groupId, regex));
      }
    }
    const hash = computeMetadataHash(subscribedNames(group, null, leaving, droppedRegexes), this.deps.topics());
    records.push(groupEpochRecord(groupId, group.groupEpoch + 1, hash));
    return outcome(response, records);
  }

  /**
   * Kafka's validateOnlineDowngradeWithReplacedMember: a classic static member replacing the group's only
   * consumer-protocol member downgrades the group, when the policy allows it and the group fits `group.max.size`.
   */
  downgradesReplacing(group: ConsumerGroup, replaced: ConsumerGroupMember): boolean {
    return (
      replaced.classicMemberMetadata === null &&
      group.numClassicProtocolMembers === group.members.size - 1 &&
      isDowngradeEnabled(this.deps.migrationPolicy) &&
      group.members.size <= this.deps.classicMaxSize
    );
  }

  /**
   * Kafka's convertToClassicGroup for a static member replacement: the consumer group's tombstones (the joining member's
   * in place of the one it replaces), then the classic group's record; the classic group installed directly, rebalancing
   * when the joining member's subscription changed. Returns the records, not to be replayed.
   */
  downgradeReplacing(group: ConsumerGroup, replaced: ConsumerGroupMember, joining: ConsumerGroupMember, subscriptionChanged: boolean, records: GroupRecord[]): void {
    const downgraded = classicGroupFromConsumer(group, new Set(), this.deps.topics(), this.deps.clock.now(), joining);
    for (const id of group.members.keys()) this.cancelTimers(group.groupId, id);
    records.push(...group.tombstoneRecords({ memberId: replaced.memberId, by: joining.memberId }), downgraded.records.at(-1)!);
    records.push(...this.deps.installDowngradedGroup(downgraded.classic, subscriptionChanged));
  }

  /** Every timer of a member of a consumer group (Kafka's cancelTimers). */
  cancelTimers(groupId: string, memberId: string): void {
    for (const key of [consumerSessionKey, consumerRebalanceKey, consumerJoinKey, consumerSyncKey]) this.deps.timer.cancel(key(groupId, memberId));
  }

  /**
   * A regular expression not resolved yet, or whose matches changed with the topics, is resolved after this request
   * (Kafka resolves them off the request path): its record, and a new group epoch, are written then.
   */
  private maybeResolveRegex(groupId: string, member: ConsumerGroupMember, image: TopicsImage, group: ConsumerGroup): void {
    const regex = subscribedRegexOrNull(member);
    if (regex === null) return;
    const resolved = group.resolvedRegularExpressions.get(regex);
    if (resolved !== undefined && sameTopics(resolved.topics, resolve(regex, image))) return;
    this.deps.timer.schedule(consumerRegexKey(groupId), 0, () => this.resolveRegexes(groupId));
  }

  private resolveRegexes(groupId: string): Outcome<void> {
    const group = this.deps.groups(groupId).consumer;
    if (group === undefined) return NOTHING;
    const image = this.deps.topics();
    const records: ConsumerGroupRecord[] = [];
    const names = new Set<string>();
    for (const member of group.members.values()) for (const t of member.subscribedTopicNames) names.add(t);
    for (const regex of group.subscribedRegularExpressions.keys()) {
      const topics = resolve(regex, image);
      for (const t of topics) names.add(t);
      const old = group.resolvedRegularExpressions.get(regex);
      if (old === undefined || !sameTopics(old.topics, topics)) {
        records.push(regexRecord(groupId, regex, { topics: new Set(topics), version: 0n, timestamp: this.deps.clock.now() }));
      }
    }
    if (records.length === 0) return NOTHING;
    records.push(groupEpochRecord(groupId, group.groupEpoch + 1, computeMetadataHash(names, image)));
    return outcome(undefined, records);
  }

  /**
   * After load (Kafka's onLoaded): every member's session starts now, with the group's session timeout (a classic
   * member too, until its next heartbeat), and a member revoking partitions has its rebalance timeout again.
   */
  onLoaded(group: ConsumerGroup): void {
    for (const member of group.members.values()) {
      this.scheduleSessionTimeout(group.groupId, member.memberId);
      if (member.state === 'UNREVOKED_PARTITIONS') this.scheduleRebalanceTimeout(group.groupId, member);
    }
  }

  /** A classic member's session timeout is its own (JoinGroup's); a consumer-protocol member's is the group's. */
  scheduleSessionTimeout(groupId: string, memberId: string, sessionTimeoutMs = this.deps.settings(groupId).sessionTimeoutMs): void {
    this.deps.timer.schedule(consumerSessionKey(groupId, memberId), sessionTimeoutMs, () => this.expire(groupId, memberId, null));
  }

  /** A classic member told to rejoin has its rebalance timeout to do so (Kafka's scheduleConsumerGroupJoinTimeoutIfAbsent). */
  scheduleJoinTimeoutIfAbsent(groupId: string, memberId: string, rebalanceTimeoutMs: number): void {
    const key = consumerJoinKey(groupId, memberId);
    if (!this.deps.timer.isScheduled(key)) this.deps.timer.schedule(key, rebalanceTimeoutMs, () => this.expire(groupId, memberId, null));
  }

  /** A classic member that joined has its rebalance timeout to send SyncGroup. */
  scheduleSyncTimeout(groupId: string, memberId: string, rebalanceTimeoutMs: number): void {
    this.deps.timer.schedule(consumerSyncKey(groupId, memberId), rebalanceTimeoutMs, () => this.expire(groupId, memberId, null));
  }

  /** A member that must revoke partitions has its rebalance timeout to do so (from each change); otherwise the timer goes. */
  private scheduleRebalanceTimeout(groupId: string, updated: ConsumerGroupMember): void {
    const key = consumerRebalanceKey(groupId, updated.memberId);
    if (updated.state === 'UNREVOKED_PARTITIONS') this.deps.timer.schedule(key, updated.rebalanceTimeoutMs, () => this.expire(groupId, updated.memberId, updated.memberEpoch));
    else this.deps.timer.cancel(key);
  }

  /** A session (epoch null) or rebalance (at that epoch) timeout fell due: the member is fenced if still there. */
  private expire(groupId: string, memberId: string, epoch: number | null): Outcome<void> {
    return expireMember<ConsumerGroup, ConsumerGroupMember>(() => this.deps.groups(groupId).consumer, memberId, epoch, (group, member) => this.fence(group, [member], undefined));
  }
}

/** Kafka's removeMember: current assignment, target and subscription tombstones, in that order. */
function removeMemberRecords(groupId: string, memberId: string): ConsumerGroupRecord[] {
  return [currentAssignmentTombstone(groupId, memberId), targetAssignmentTombstone(groupId, memberId), memberSubscriptionTombstone(groupId, memberId)];
}

function sameCurrentAssignment(a: ConsumerGroupMember, b: ConsumerGroupMember): boolean {
  return (
    a.memberEpoch === b.memberEpoch &&
    a.previousMemberEpoch === b.previousMemberEpoch &&
    a.state === b.state &&
    samePartitionEpochs(a.assignedPartitions, b.assignedPartitions) &&
    samePartitionEpochs(a.partitionsPendingRevocation, b.partitionsPendingRevocation)
  );
}

/** Topic-name subscription counts of the members with `updated` in its place (for the subscription type). */
function countNames(members: ReadonlyMap<string, ConsumerGroupMember>, updated: ConsumerGroupMember): Map<string, { byName: number; byRegex: number }> {
  const counts = new Map<string, { byName: number; byRegex: number }>();
  for (const member of [...[...members.values()].filter((m) => m.memberId !== updated.memberId), updated]) {
    for (const t of member.subscribedTopicNames) counts.set(t, { byName: (counts.get(t)?.byName ?? 0) + 1, byRegex: 0 });
  }
  return counts;
}
