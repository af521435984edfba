/**
 * Classic members of a consumer group (KIP-848's mixed groups), as Kafka 4.3.1's GroupMetadataManager serves
 * JoinGroup, SyncGroup, Heartbeat and LeaveGroup to a non-empty consumer group: the broker's assignor decides, a
 * JoinGroup is a member update plus reconciliation (the member's epoch is its generation), SyncGroup returns the
 * member's current assignment in ConsumerProtocol bytes, and a Heartbeat answers REBALANCE_IN_PROGRESS when the member
 * must rejoin (a newer target assignment, partitions to revoke, or partitions it waited for now free).
 */
import { ErrorCode } from '../../../protocol/error-codes.js';
import { errorCodeOf } from '../../../protocol/kafka-error.js';
import type { HeartbeatRequest, HeartbeatResponse } from '../../../protocol/generated/heartbeat.js';
import { createJoinGroupResponse, type JoinGroupRequest, type JoinGroupResponse } from '../../../protocol/generated/join-group.js';
import type { MemberIdentity, MemberResponse } from '../../../protocol/generated/leave-group.js';
import { createSyncGroupResponse, type SyncGroupRequest, type SyncGroupResponse } from '../../../protocol/generated/sync-group.js';
import { NOTHING, outcome, type Outcome } from '../../runtime/outcome.js';
import { CONSUMER_PROTOCOL_TYPE } from '../classic-group.js';
import type { Responder } from '../classic-member.js';
import { GroupError } from '../group-error.js';
import type { MemberContext } from '../membership.js';
import type { GroupRecord } from '../records.js';
import { decodeSubscription, encodeAssignment, MalformedConsumerProtocol, ownedByTopicId } from './classic-protocol.js';
import type { ConsumerGroup } from './consumer-group.js';
import { consumerJoinKey, consumerSyncKey, type ConsumerGroupHeartbeats } from './heartbeat.js';
import type { ConsumerGroupMember } from './member.js';
import type { TopicsImage } from './topics-image.js';

/** JoinGroup v4+: a dynamic member without an id is given one and asked to rejoin with it. */
const requiresKnownMemberId = (apiVersion: number, memberId: string, instanceId: string | null): boolean =>
  apiVersion >= 4 && memberId === '' && instanceId === null;

/** Kafka's ConsumerGroup.supportsClassicProtocols: one of the protocols every classic member supports (any, when it is the first). */
function supportsClassicProtocols(group: ConsumerGroup, protocolType: string, names: readonly string[]): boolean {
  if (protocolType !== CONSUMER_PROTOCOL_TYPE) return false;
  if (group.members.size === 0) return names.length > 0;
  const counts = new Map<string, number>();
  let classicMembers = 0;
  for (const member of group.members.values()) {
    if (member.classicMemberMetadata === null) continue;
    classicMembers++;
    for (const name of new Set(member.classicMemberMetadata.supportedProtocols.map((p) => p.name))) counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return names.some((name) => (counts.get(name) ?? 0) === classicMembers);
}

function throwIfNotClassic(member: ConsumerGroupMember): void {
  if (member.classicMemberMetadata === null) throw new GroupError('UNKNOWN_MEMBER_ID', `Member ${member.memberId} does not use the classic protocol.`);
}

function throwIfGenerationUnmatched(member: ConsumerGroupMember, generationId: number): void {
  if (member.memberEpoch !== generationId) {
    throw new GroupError(
      'ILLEGAL_GENERATION',
      `The request generation id ${generationId} is not equal to the member epoch ${member.memberEpoch} of member ${member.memberId}.`,
    );
  }
}

/** The protocol a classic member of a consumer group uses: its first (the JoinGroup response names it). */
function protocolNameOf(member: ConsumerGroupMember): string {
  return member.classicMemberMetadata?.supportedProtocols[0]?.name ?? '';
}

export class ClassicMembersOfConsumerGroups {
  constructor(
    private readonly heartbeats: ConsumerGroupHeartbeats,
    private readonly topics: () => TopicsImage,
    private readonly timer: { cancel(key: string): void },
  ) {}

  /** Kafka's classicGroupJoinToConsumerGroup; the response once the records are written. */
  join(ctx: MemberContext, group: ConsumerGroup, request: JoinGroupRequest, respond: Responder<JoinGroupResponse>): Outcome<void> {
    const fail = (error: unknown): Outcome<void> => {
      respond({ ...createJoinGroupResponse(), memberId: request.memberId, errorCode: errorCodeOf(error) });
      return NOTHING;
    };
    try {
      const groupId = group.groupId;
      const instanceId = request.groupInstanceId;
      const isUnknownMember = request.memberId === '';
      const memberId = isUnknownMember ? this.heartbeats.newMemberId() : request.memberId;
      this.heartbeats.throwIfFull(group, memberId);
      if (!supportsClassicProtocols(group, request.protocolType, request.protocols.map((p) => p.name))) {
        throw new GroupError('INCONSISTENT_GROUP_PROTOCOL', `Member ${memberId}'s protocols are not supported.`);
      }
      if (requiresKnownMemberId(ctx.apiVersion, request.memberId, instanceId)) {
        respond({ ...createJoinGroupResponse(), memberId, errorCode: ErrorCode.MEMBER_ID_REQUIRED });
        return NOTHING;
      }
      const records: GroupRecord[] = [];
      const { member, replaced } =
        instanceId === null
          ? { member: this.heartbeats.dynamicMember(group, memberId, true, -1, [], true), replaced: undefined }
          : this.heartbeats.staticMember(group, memberId, instanceId, isUnknownMember, -1, [], true);
      let subscription;
      try {
        subscription = decodeSubscription(request.protocols[0]!.metadata);
      } catch (error) {
        if (error instanceof MalformedConsumerProtocol) throw new Error('Malformed embedded consumer protocol in subscription deserialization.');
        throw error;
      }
      const sessionTimeoutMs = request.sessionTimeoutMs;
      const updated: ConsumerGroupMember = {
        ...member,
        instanceId: instanceId ?? member.instanceId,
        rackId: subscription.rackId === null || subscription.rackId === '' ? member.rackId : subscription.rackId,
        rebalanceTimeoutMs: request.rebalanceTimeoutMs === -1 ? member.rebalanceTimeoutMs : request.rebalanceTimeoutMs,
        subscribedTopicNames: new Set(subscription.topics),
        clientId: ctx.clientId,
        clientHost: ctx.clientHost,
        classicMemberMetadata: { sessionTimeoutMs, supportedProtocols: request.protocols.map((p) => ({ name: p.name, metadata: p.metadata })) },
      };
      const existingStatic = instanceId === null ? undefined : group.members.get(group.staticMemberId(instanceId) ?? '');
      const downgrade = existingStatic !== undefined && this.heartbeats.downgradesReplacing(group, existingStatic);
      const advanced = this.heartbeats.advance(group, member, updated, replaced, ownedByTopicId(subscription, this.topics()), records, downgrade);
      const reconciled = advanced.member;
      if (downgrade) this.heartbeats.downgradeReplacing(group, existingStatic, reconciled, advanced.subscriptionChanged, records);
      const response: JoinGroupResponse = {
        ...createJoinGroupResponse(),
        memberId: reconciled.memberId,
        generationId: reconciled.memberEpoch,
        protocolType: CONSUMER_PROTOCOL_TYPE,
        protocolName: protocolNameOf(reconciled),
      };
      // A downgrade installed the classic group itself: its records are not replayed.
      return outcome(undefined, records, !downgrade, (error) => {
        if (error !== null) return;
        this.timer.cancel(consumerJoinKey(groupId, reconciled.memberId));
        if (!downgrade) {
          this.heartbeats.scheduleSessionTimeout(groupId, reconciled.memberId, sessionTimeoutMs);
          this.heartbeats.scheduleSyncTimeout(groupId, reconciled.memberId, request.rebalanceTimeoutMs);
        }
        respond(response);
      });
    } catch (error) {
      return fail(error);
    }
  }

  /** Kafka's classicGroupSyncToConsumerGroup: the member's current assignment, unless it must rejoin first. */
  sync(group: ConsumerGroup, request: SyncGroupRequest): SyncGroupResponse {
    try {
      const member = this.validateMember(group, request.memberId, request.groupInstanceId);
      throwIfNotClassic(member);
      throwIfGenerationUnmatched(member, request.generationId);
      this.throwIfProtocolUnmatched(member, request.protocolType, request.protocolName);
      if (group.assignmentEpoch > member.memberEpoch && member.state !== 'UNREVOKED_PARTITIONS') {
        this.heartbeats.scheduleJoinTimeoutIfAbsent(group.groupId, member.memberId, member.rebalanceTimeoutMs);
        throw new GroupError('REBALANCE_IN_PROGRESS', `A new rebalance is triggered in group ${group.groupId} and member ${member.memberId} should rejoin to catch up.`);
      }
      this.timer.cancel(consumerSyncKey(group.groupId, member.memberId));
      this.heartbeats.scheduleSessionTimeout(group.groupId, member.memberId, member.classicMemberMetadata!.sessionTimeoutMs);
      return {
        ...createSyncGroupResponse(),
        protocolType: request.protocolType,
        protocolName: request.protocolName,
        assignment: encodeAssignment(member.assignedPartitions, this.topics(), member.classicMemberMetadata!.supportedProtocols),
      };
    } catch (error) {
      return { ...createSyncGroupResponse(), errorCode: errorCodeOf(error) };
    }
  }

  /** Kafka's classicGroupHeartbeatToConsumerGroup. */
  heartbeat(group: ConsumerGroup, request: HeartbeatRequest): HeartbeatResponse {
    try {
      const member = this.validateMember(group, request.memberId, request.groupInstanceId);
      throwIfNotClassic(member);
      throwIfGenerationUnmatched(member, request.generationId);
      this.heartbeats.scheduleSessionTimeout(group.groupId, member.memberId, member.classicMemberMetadata!.sessionTimeoutMs);
      const mustRejoin =
        member.memberEpoch < group.assignmentEpoch ||
        member.state === 'UNREVOKED_PARTITIONS' ||
        (member.state === 'UNRELEASED_PARTITIONS' && !waitingOnUnreleasedPartition(group, member));
      if (mustRejoin) this.heartbeats.scheduleJoinTimeoutIfAbsent(group.groupId, member.memberId, member.rebalanceTimeoutMs);
      return { throttleTimeMs: 0, errorCode: mustRejoin ? ErrorCode.REBALANCE_IN_PROGRESS : ErrorCode.NONE };
    } catch (error) {
      return { throttleTimeMs: 0, errorCode: errorCodeOf(error) };
    }
  }

  /** Kafka's classicGroupLeaveToConsumerGroup: each member answered; those that may leave are fenced together. */
  leave(group: ConsumerGroup, identities: readonly MemberIdentity[]): Outcome<{ errorCode: number; members: MemberResponse[] }> {
    const responses: MemberResponse[] = [];
    const leaving: ConsumerGroupMember[] = [];
    for (const identity of identities) {
      const instanceId = identity.groupInstanceId;
      try {
        let member: ConsumerGroupMember;
        if (instanceId === null) {
          member = group.members.get(identity.memberId) ?? this.unknownMember(group, identity.memberId);
        } else {
          const staticId = group.staticMemberId(instanceId);
          const found = staticId === undefined ? undefined : group.members.get(staticId);
          if (found === undefined) throw new GroupError('UNKNOWN_MEMBER_ID', `Instance id ${instanceId} is unknown.`);
          // An administrator removes a static member by its instance id alone.
          if (identity.memberId !== '' && found.memberId !== identity.memberId) {
            throw new GroupError('FENCED_INSTANCE_ID', `Static member ${identity.memberId} with instance id ${instanceId} was fenced by member ${found.memberId}.`);
          }
          member = found;
        }
        throwIfNotClassic(member);
        if (!leaving.some((m) => m.memberId === member.memberId)) leaving.push(member);
        responses.push({ memberId: member.memberId, groupInstanceId: instanceId, errorCode: ErrorCode.NONE });
      } catch (error) {
        responses.push({ memberId: identity.memberId, groupInstanceId: instanceId, errorCode: errorCodeOf(error) });
      }
    }
    return this.heartbeats.fence(group, leaving, { errorCode: ErrorCode.NONE, members: responses });
  }

  /** Kafka's validateConsumerGroupMember: the instance id maps to this member id, and the member exists. */
  private validateMember(group: ConsumerGroup, memberId: string, instanceId: string | null): ConsumerGroupMember {
    if (instanceId === null) return group.members.get(memberId) ?? this.unknownMember(group, memberId);
    const staticId = group.staticMemberId(instanceId);
    const member = staticId === undefined ? undefined : group.members.get(staticId);
    if (member === undefined) throw new GroupError('UNKNOWN_MEMBER_ID', `Member with instance id ${instanceId} is not a member of group ${group.groupId}.`);
    if (member.memberId !== memberId) {
      throw new GroupError('FENCED_INSTANCE_ID', `Static member ${memberId} with instance id ${instanceId} was fenced by member ${member.memberId}.`);
    }
    return member;
  }

  private unknownMember(group: ConsumerGroup, memberId: string): never {
    throw new GroupError('UNKNOWN_MEMBER_ID', `Member ${memberId} is not a member of group ${group.groupId}.`);
  }

  /** Kafka's throwIfClassicProtocolUnmatched. */
  private throwIfProtocolUnmatched(member: ConsumerGroupMember, protocolType: string | null, protocolName: string | null): void {
    const name = protocolNameOf(member);
    if (protocolType !== null && protocolType !== CONSUMER_PROTOCOL_TYPE) {
      throw new GroupError(
        'INCONSISTENT_GROUP_PROTOCOL',
        `The protocol type ${protocolType} from member ${member.memberId} request is not equal to the group protocol type ${CONSUMER_PROTOCOL_TYPE}.`,
      );
    }
    if (protocolName !== null && protocolName !== name) {
      throw new GroupError(
        'INCONSISTENT_GROUP_PROTOCOL',
        `The protocol name ${protocolName} from member ${member.memberId} request is not equal to the protocol name ${name} returned in the join response.`,
      );
    }
  }
}

/** Kafka's ConsumerGroup.waitingOnUnreleasedPartition: a partition of its target still owned by another member. */
function waitingOnUnreleasedPartition(group: ConsumerGroup, member: ConsumerGroupMember): boolean {
  if (member.state !== 'UNRELEASED_PARTITIONS') return false;
  for (const [topicId, partitions] of group.targetAssignment.get(member.memberId) ?? new Map<string, Set<number>>()) {
    const assigned = member.assignedPartitions.get(topicId);
    for (const p of partitions) if (assigned?.has(p) !== true && group.currentPartitionEpoch(topicId, p) !== -1) return true;
  }
  return false;
}
