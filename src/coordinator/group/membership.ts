/**
 * The classic group protocol as a state machine (the classic half of Kafka's GroupMetadataManager):
 * JoinGroup, SyncGroup, Heartbeat, LeaveGroup and the timers (heartbeat/session expiry, join phase,
 * pending sync, initial rebalance delay). Each call returns an Outcome (records + response); parked
 * JoinGroup/SyncGroup requests are completed through their responders. No I/O, no clock of its own.
 */
import { silentLog, type Log } from '../../log.js';
import { ErrorCode } from '../../protocol/error-codes.js';
import { createJoinGroupResponse, type JoinGroupRequest, type JoinGroupResponse } from '../../protocol/generated/join-group.js';
import type { HeartbeatRequest, HeartbeatResponse } from '../../protocol/generated/heartbeat.js';
import type { MemberIdentity, MemberResponse } from '../../protocol/generated/leave-group.js';
import { createSyncGroupResponse, type SyncGroupRequest, type SyncGroupResponse } from '../../protocol/generated/sync-group.js';
import type { GroupMetadataValue } from '../../protocol/generated/internal/group-coordinator/group-metadata-value.js';
import type { CoordinatorTimer } from '../runtime/keyed-timer.js';
import { NOTHING, outcome, type Outcome } from '../runtime/outcome.js';
import { ClassicGroup } from './classic-group.js';
import { ClassicMember, type Responder } from './classic-member.js';
import type { GroupConfig } from './group-config.js';
import { GroupError } from './group-error.js';
import { groupMetadataRecord, type GroupRecord } from './records.js';

/** Who sent a request: Kafka's RequestContext as far as groups need it. */
export interface MemberContext {
  readonly clientId: string;
  /** As Kafka prints an InetAddress: "/127.0.0.1". */
  readonly clientHost: string;
  readonly apiVersion: number;
}

export interface Clock {
  now(): number;
}

const EMPTY = Buffer.alloc(0);

/** JoinGroup v4+: a new member must rejoin with the id the coordinator gave it. */
const requiresKnownMemberId = (apiVersion: number): boolean => apiVersion >= 4;
/** JoinGroup v9+: a static leader rejoining a stable group may skip the assignment. */
const supportsSkippingAssignment = (apiVersion: number): boolean => apiVersion >= 9;

export const heartbeatKey = (groupId: string, memberId: string): string => `heartbeat-${groupId}-${memberId}`;
const joinKey = (groupId: string): string => `join-${groupId}`;
const syncKey = (groupId: string): string => `sync-${groupId}`;

function joinResponse(fields: Partial<JoinGroupResponse>): JoinGroupResponse {
  return { ...createJoinGroupResponse(), ...fields };
}

function syncResponse(fields: Partial<SyncGroupResponse>): SyncGroupResponse {
  return { ...createSyncGroupResponse(), ...fields };
}

/** Kafka's isProtocolInconsistent: both named and different. */
function inconsistent(requested: string | null, current: string | null): boolean {
  return requested !== null && current !== null && requested !== current;
}

/** The GroupMetadataValue Kafka writes for a group and an assignment (GroupCoordinatorRecordHelpers). */
export function groupMetadataValue(group: ClassicGroup, assignment: ReadonlyMap<string, Buffer>): GroupMetadataValue {
  return {
    protocolType: group.protocolType ?? '',
    generation: group.generationId,
    protocol: group.protocolName,
    leader: group.leaderId,
    currentStateTimestamp: BigInt(group.currentStateTimestamp ?? -1),
    members: [...group.members.values()].map((m) => ({
      memberId: m.memberId,
      groupInstanceId: m.groupInstanceId,
      clientId: m.clientId,
      clientHost: m.clientHost,
      rebalanceTimeout: m.rebalanceTimeoutMs,
      sessionTimeout: m.sessionTimeoutMs,
      subscription: (group.protocolName === null ? undefined : m.metadata(group.protocolName)) ?? EMPTY,
      assignment: assignment.get(m.memberId) ?? EMPTY,
    })),
  };
}

export class Membership {
  constructor(
    private readonly groups: Map<string, ClassicGroup>,
    private readonly config: GroupConfig,
    private readonly timer: CoordinatorTimer<Outcome<void>>,
    private readonly clock: Clock,
    private readonly newUuid: () => string,
    private readonly log: Log = silentLog(),
  ) {}

  // ---- JoinGroup ----

  join(ctx: MemberContext, request: JoinGroupRequest, respond: Responder<JoinGroupResponse>): Outcome<void> {
    const { groupId, memberId } = request;
    if (groupId === '') {
      respond(joinResponse({ memberId, errorCode: ErrorCode.INVALID_GROUP_ID }));
      return NOTHING;
    }
    if (request.sessionTimeoutMs < this.config.minSessionTimeoutMs || request.sessionTimeoutMs > this.config.maxSessionTimeoutMs) {
      respond(joinResponse({ memberId, errorCode: ErrorCode.INVALID_SESSION_TIMEOUT }));
      return NOTHING;
    }
    const isUnknownMember = memberId === '';
    let group = this.groups.get(groupId);
    const isNewGroup = group === undefined;
    if (group === undefined) {
      if (!isUnknownMember) {
        respond(joinResponse({ memberId, errorCode: ErrorCode.UNKNOWN_MEMBER_ID }));
        return NOTHING;
      }
      group = new ClassicGroup(groupId, 'Empty', this.clock.now());
      this.groups.set(groupId, group);
    }

    let result: Outcome<void> = NOTHING;
    if (!this.acceptJoiningMember(group, memberId)) {
      group.remove(memberId);
      respond(joinResponse({ memberId: '', errorCode: ErrorCode.GROUP_MAX_SIZE_REACHED }));
    } else if (isUnknownMember) {
      result = this.joinNewMember(ctx, request, group, respond);
    } else {
      result = this.joinExistingMember(ctx, request, group, respond);
    }

    if (isNewGroup && result.records.length === 0) {
      // Kafka writes an empty group record so the new group exists in the log.
      return outcome(undefined, [groupMetadataRecord(groupId, groupMetadataValue(group, new Map()))], false);
    }
    return result;
  }

  private acceptJoiningMember(group: ClassicGroup, memberId: string): boolean {
    switch (group.state) {
      case 'Empty':
      case 'Dead':
        return true;
      case 'PreparingRebalance':
        return group.member(memberId)?.awaitingJoin != null || group.numAwaitingJoinResponse < this.config.maxGroupSize;
      case 'CompletingRebalance':
      case 'Stable':
        return group.member(memberId) !== undefined || group.size < this.config.maxGroupSize;
    }
  }

  private joinNewMember(ctx: MemberContext, request: JoinGroupRequest, group: ClassicGroup, respond: Responder<JoinGroupResponse>): Outcome<void> {
    if (group.is('Dead')) {
      respond(joinResponse({ memberId: '', errorCode: ErrorCode.COORDINATOR_NOT_AVAILABLE }));
      return NOTHING;
    }
    if (!group.supportsProtocols(request.protocolType, request.protocols)) {
      respond(joinResponse({ memberId: '', errorCode: ErrorCode.INCONSISTENT_GROUP_PROTOCOL }));
      return NOTHING;
    }
    const instanceId = request.groupInstanceId;
    const newMemberId = `${instanceId ?? ctx.clientId}-${this.newUuid()}`;
    if (instanceId !== null) {
      const existing = group.staticMemberId(instanceId);
      if (existing !== undefined) return this.updateStaticMember(ctx, request, group, existing, newMemberId, respond);
      return this.addMemberThenRebalanceOrCompleteJoin(ctx, request, group, newMemberId, respond);
    }
    if (requiresKnownMemberId(ctx.apiVersion)) {
      group.pendingJoinMembers.add(newMemberId);
      this.timer.schedule(heartbeatKey(group.groupId, newMemberId), request.sessionTimeoutMs, () =>
        this.expireHeartbeat(group.groupId, newMemberId),
      );
      respond(joinResponse({ memberId: newMemberId, errorCode: ErrorCode.MEMBER_ID_REQUIRED }));
      return NOTHING;
    }
    return this.addMemberThenRebalanceOrCompleteJoin(ctx, request, group, newMemberId, respond);
  }

  private joinExistingMember(ctx: MemberContext, request: JoinGroupRequest, group: ClassicGroup, respond: Responder<JoinGroupResponse>): Outcome<void> {
    const { memberId } = request;
    if (group.is('Dead')) {
      respond(joinResponse({ memberId, errorCode: ErrorCode.COORDINATOR_NOT_AVAILABLE }));
      return NOTHING;
    }
    if (!group.supportsProtocols(request.protocolType, request.protocols)) {
      respond(joinResponse({ memberId, errorCode: ErrorCode.INCONSISTENT_GROUP_PROTOCOL }));
      return NOTHING;
    }
    if (group.isPendingMember(memberId)) {
      // A member told MEMBER_ID_REQUIRED rejoins with its id (never a static member).
      return this.addMemberThenRebalanceOrCompleteJoin(ctx, request, group, memberId, respond);
    }
    try {
      validateMember(group, memberId, request.groupInstanceId);
    } catch (error) {
      respond(joinResponse({ memberId, errorCode: GroupError.codeOf(error), protocolName: null }));
      return NOTHING;
    }
    const member = group.member(memberId)!;
    switch (group.state) {
      case 'PreparingRebalance':
        return this.updateMemberThenRebalanceOrCompleteJoin(request, group, member, respond);
      case 'CompletingRebalance':
        if (member.matches(request.protocols)) {
          // The member lost its JoinGroup response: send the current generation again.
          respond(this.currentGenerationResponse(group, memberId, group.isLeader(memberId)));
          return NOTHING;
        }
        return this.updateMemberThenRebalanceOrCompleteJoin(request, group, member, respond);
      case 'Stable':
        // The leader rejoining forces a rebalance (it may have seen metadata change); so does new metadata.
        if (group.isLeader(memberId) || !member.matches(request.protocols)) {
          return this.updateMemberThenRebalanceOrCompleteJoin(request, group, member, respond);
        }
        respond(this.currentGenerationResponse(group, memberId, false));
        return NOTHING;
      default:
        respond(joinResponse({ memberId, errorCode: ErrorCode.UNKNOWN_MEMBER_ID }));
        return NOTHING;
    }
  }

  private currentGenerationResponse(group: ClassicGroup, memberId: string, withMembers: boolean): JoinGroupResponse {
    return joinResponse({
      members: withMembers ? group.currentMembers() : [],
      memberId,
      generationId: group.generationId,
      protocolName: group.protocolName,
      protocolType: group.protocolType,
      leader: group.leaderId ?? '',
    });
  }

  private updateMemberThenRebalanceOrCompleteJoin(
    request: JoinGroupRequest,
    group: ClassicGroup,
    member: ClassicMember,
    respond: Responder<JoinGroupResponse>,
  ): Outcome<void> {
    group.updateMember(member, request.protocols, request.rebalanceTimeoutMs, request.sessionTimeoutMs, respond);
    return this.maybePrepareRebalanceOrCompleteJoin(group);
  }

  private addMemberThenRebalanceOrCompleteJoin(
    ctx: MemberContext,
    request: JoinGroupRequest,
    group: ClassicGroup,
    memberId: string,
    respond: Responder<JoinGroupResponse>,
  ): Outcome<void> {
    const member = new ClassicMember(
      memberId,
      request.groupInstanceId,
      ctx.clientId,
      ctx.clientHost,
      request.rebalanceTimeoutMs,
      request.sessionTimeoutMs,
      request.protocolType,
      request.protocols,
    );
    member.isNew = true;
    if (group.is('PreparingRebalance') && group.previousState === 'Empty') group.newMemberAdded = true;
    group.add(member, respond);
    // A parked JoinGroup of a new member cannot heartbeat; it times out after the new-member timeout instead.
    this.rescheduleHeartbeat(group, member, this.config.newMemberJoinTimeoutMs);
    return this.maybePrepareRebalanceOrCompleteJoin(group);
  }

  private updateStaticMember(
    ctx: MemberContext,
    request: JoinGroupRequest,
    group: ClassicGroup,
    oldMemberId: string,
    newMemberId: string,
    respond: Responder<JoinGroupResponse>,
  ): Outcome<void> {
    const fencedJoin = joinResponse({ memberId: oldMemberId, protocolName: null, errorCode: ErrorCode.FENCED_INSTANCE_ID });
    const fencedSync = syncResponse({ errorCode: ErrorCode.FENCED_INSTANCE_ID });
    const member = group.replaceStaticMember(request.groupInstanceId!, oldMemberId, newMemberId, fencedJoin, fencedSync);
    this.timer.cancel(heartbeatKey(group.groupId, oldMemberId));
    this.rescheduleHeartbeat(group, member);
    group.updateMember(member, request.protocols, request.rebalanceTimeoutMs, request.sessionTimeoutMs, respond);

    if (group.is('Stable')) {
      if ((group.protocolName ?? '') === group.selectProtocol()) {
        // Same protocol next generation: persist the new member id and answer with the current generation.
        const assignment = new Map([...group.members.values()].map((m) => [m.memberId, m.assignment] as const));
        const record = groupMetadataRecord(group.groupId, groupMetadataValue(group, assignment));
        const leaderBefore = group.leaderId ?? '';
        return outcome(undefined, [record], false, (error) => {
          if (error !== null) {
            group.completeJoin(member, joinResponse({ memberId: '', errorCode: ErrorCode.COORDINATOR_NOT_AVAILABLE }));
          } else if (supportsSkippingAssignment(ctx.apiVersion)) {
            const isLeader = group.isLeader(newMemberId);
            group.completeJoin(member, { ...this.currentGenerationResponse(group, newMemberId, isLeader), skipAssignment: isLeader });
          } else {
            group.completeJoin(member, { ...this.currentGenerationResponse(group, newMemberId, false), leader: leaderBefore });
          }
          return NOTHING;
        });
      }
      return this.maybePrepareRebalanceOrCompleteJoin(group);
    }
    if (group.is('CompletingRebalance')) {
      // The leader may have been sent the old member id: only a new rebalance gets the new one an assignment.
      return this.prepareRebalance(group);
    }
    return this.maybeCompleteJoinPhase(group);
  }

  // ---- rebalance ----

  private maybePrepareRebalanceOrCompleteJoin(group: ClassicGroup): Outcome<void> {
    return group.canRebalance() ? this.prepareRebalance(group) : this.maybeCompleteJoinPhase(group);
  }

  /** Completes the join phase once everyone has rejoined, except during the initial (delayed) rebalance. */
  private maybeCompleteJoinPhase(group: ClassicGroup): Outcome<void> {
    if (!group.is('PreparingRebalance') || group.previousState === 'Empty' || !group.hasAllMembersJoined()) return NOTHING;
    return this.completeJoin(group);
  }

  prepareRebalance(group: ClassicGroup): Outcome<void> {
    if (group.is('CompletingRebalance')) this.resetAndPropagateAssignmentWithError(group, ErrorCode.REBALANCE_IN_PROGRESS);
    this.removeSyncExpiration(group);
    const isInitialRebalance = group.is('Empty');
    if (isInitialRebalance) {
      const delayMs = this.config.initialRebalanceDelayMs;
      const remainingMs = Math.max(group.rebalanceTimeoutMs() - delayMs, 0);
      this.timer.schedule(joinKey(group.groupId), delayMs, () => this.tryCompleteInitialRebalance(group.groupId, delayMs, remainingMs));
    }
    this.log.info({ group: group.groupId, state: group.state, generation: group.generationId, members: group.size },
      `Preparing to rebalance group ${group.groupId} in state ${group.state} with old generation ${group.generationId}`);
    group.transitionTo('PreparingRebalance', this.clock.now());
    return isInitialRebalance ? NOTHING : this.maybeCompleteJoinElseSchedule(group);
  }

  private maybeCompleteJoinElseSchedule(group: ClassicGroup): Outcome<void> {
    if (group.hasAllMembersJoined()) return this.completeJoin(group);
    this.timer.schedule(joinKey(group.groupId), group.rebalanceTimeoutMs(), () => this.completeJoinById(group.groupId));
    return NOTHING;
  }

  private tryCompleteInitialRebalance(groupId: string, delayMs: number, remainingMs: number): Outcome<void> {
    const group = this.groups.get(groupId);
    if (group === undefined) return NOTHING;
    if (group.newMemberAdded && remainingMs !== 0) {
      // Members keep arriving: wait another delay, within the rebalance timeout.
      group.newMemberAdded = false;
      const newDelayMs = Math.min(this.config.initialRebalanceDelayMs, remainingMs);
      const newRemainingMs = Math.max(remainingMs - delayMs, 0);
      this.timer.schedule(joinKey(groupId), newDelayMs, () => this.tryCompleteInitialRebalance(groupId, newDelayMs, newRemainingMs));
      return NOTHING;
    }
    return this.completeJoin(group);
  }

  private completeJoinById(groupId: string): Outcome<void> {
    const group = this.groups.get(groupId);
    return group === undefined ? NOTHING : this.completeJoin(group);
  }

  private completeJoin(group: ClassicGroup): Outcome<void> {
    this.timer.cancel(joinKey(group.groupId));
    // Dynamic members that did not rejoin in time are out; static ones keep their place.
    for (const member of [...group.members.values()]) {
      if (member.awaitingJoin === null && !member.isStatic) {
        group.remove(member.memberId);
        this.timer.cancel(heartbeatKey(group.groupId, member.memberId));
      }
    }
    if (group.is('Dead')) return NOTHING;
    if (!group.maybeElectNewJoinedLeader() && group.size > 0) {
      // Nobody rejoined: wait for the session timeouts to remove the members.
      this.timer.schedule(joinKey(group.groupId), group.rebalanceTimeoutMs(), () => this.completeJoinById(group.groupId));
      return NOTHING;
    }
    group.initNextGeneration(this.clock.now());
    this.log.info({ group: group.groupId, generation: group.generationId, members: group.size, protocol: group.protocolName },
      group.is('Empty') ? `Group ${group.groupId} with generation ${group.generationId} is now empty`
        : `Stabilized group ${group.groupId} generation ${group.generationId} with ${group.size} members`);
    if (group.is('Empty')) {
      return outcome(undefined, [groupMetadataRecord(group.groupId, groupMetadataValue(group, new Map()))], false);
    }
    for (const member of group.members.values()) {
      group.completeJoin(member, this.currentGenerationResponse(group, member.memberId, group.isLeader(member.memberId)));
      this.rescheduleHeartbeat(group, member);
      member.isNew = false;
      group.pendingSyncMembers.add(member.memberId);
    }
    const generation = group.generationId;
    this.timer.schedule(syncKey(group.groupId), group.rebalanceTimeoutMs(), () => this.expirePendingSync(group.groupId, generation));
    return NOTHING;
  }

  private expirePendingSync(groupId: string, generationId: number): Outcome<void> {
    const group = this.groups.get(groupId);
    if (group === undefined || group.generationId !== generationId) return NOTHING;
    if ((group.is('CompletingRebalance') || group.is('Stable')) && group.pendingSyncMembers.size > 0) {
      for (const memberId of [...group.pendingSyncMembers]) {
        group.remove(memberId);
        this.timer.cancel(heartbeatKey(groupId, memberId));
      }
      return this.prepareRebalance(group);
    }
    return NOTHING;
  }

  private removeSyncExpiration(group: ClassicGroup): void {
    group.pendingSyncMembers.clear();
    this.timer.cancel(syncKey(group.groupId));
  }

  private resetAndPropagateAssignmentWithError(group: ClassicGroup, errorCode: number): void {
    for (const m of group.members.values()) m.assignment = EMPTY;
    this.propagateAssignment(group, errorCode);
  }

  private propagateAssignment(group: ClassicGroup, errorCode: number): void {
    const ok = errorCode === ErrorCode.NONE;
    for (const member of group.members.values()) {
      const delivered = group.completeSync(
        member,
        syncResponse({
          protocolName: ok ? group.protocolName : null,
          protocolType: ok ? group.protocolType : null,
          assignment: member.assignment,
          errorCode,
        }),
      );
      // A session that expired while the member waited was ignored: start it again now.
      if (delivered) this.rescheduleHeartbeat(group, member);
    }
  }

  // ---- heartbeats and expiry ----

  rescheduleHeartbeat(group: ClassicGroup, member: ClassicMember, timeoutMs = member.sessionTimeoutMs): void {
    this.timer.schedule(heartbeatKey(group.groupId, member.memberId), timeoutMs, () => this.expireHeartbeat(group.groupId, member.memberId));
  }

  private expireHeartbeat(groupId: string, memberId: string): Outcome<void> {
    const group = this.groups.get(groupId);
    if (group === undefined || group.is('Dead')) return NOTHING;
    if (group.isPendingMember(memberId)) {
      group.remove(memberId);
      return group.is('PreparingRebalance') && group.hasAllMembersJoined() ? this.completeJoin(group) : NOTHING;
    }
    const member = group.member(memberId);
    if (member === undefined || member.hasSatisfiedHeartbeat()) return NOTHING;
    return this.removeMemberAndUpdateGroup(group, member);
  }

  private removeMemberAndUpdateGroup(group: ClassicGroup, member: ClassicMember): Outcome<void> {
    // A new member may time out with its JoinGroup parked: tell it, so it rejoins if still alive.
    group.completeJoin(member, joinResponse({ memberId: '', errorCode: ErrorCode.UNKNOWN_MEMBER_ID }));
    group.remove(member.memberId);
    if (group.is('Stable') || group.is('CompletingRebalance')) return this.maybePrepareRebalanceOrCompleteJoin(group);
    if (group.is('PreparingRebalance') && group.hasAllMembersJoined()) return this.completeJoin(group);
    return NOTHING;
  }

  heartbeat(request: HeartbeatRequest): HeartbeatResponse {
    const response = (errorCode: number): HeartbeatResponse => ({ throttleTimeMs: 0, errorCode });
    if (request.groupId === '') return response(ErrorCode.INVALID_GROUP_ID);
    const group = this.groups.get(request.groupId);
    if (group === undefined) return response(ErrorCode.UNKNOWN_MEMBER_ID);
    if (group.is('Dead')) return response(ErrorCode.COORDINATOR_NOT_AVAILABLE);
    try {
      validateMember(group, request.memberId, request.groupInstanceId);
    } catch (error) {
      return response(GroupError.codeOf(error));
    }
    if (request.generationId !== group.generationId) return response(ErrorCode.ILLEGAL_GENERATION);
    const member = group.member(request.memberId)!;
    switch (group.state) {
      case 'PreparingRebalance':
        this.rescheduleHeartbeat(group, member);
        return response(ErrorCode.REBALANCE_IN_PROGRESS);
      case 'CompletingRebalance':
      case 'Stable':
        this.rescheduleHeartbeat(group, member);
        return response(ErrorCode.NONE);
      default:
        return response(ErrorCode.UNKNOWN_MEMBER_ID);
    }
  }

  // ---- SyncGroup ----

  sync(request: SyncGroupRequest, respond: Responder<SyncGroupResponse>): Outcome<void> {
    const fail = (errorCode: number): Outcome<void> => {
      respond(syncResponse({ errorCode, protocolName: null }));
      return NOTHING;
    };
    if (request.groupId === '') return fail(ErrorCode.INVALID_GROUP_ID);
    const group = this.groups.get(request.groupId);
    if (group === undefined || group.is('Empty')) return fail(ErrorCode.UNKNOWN_MEMBER_ID);
    if (group.is('Dead')) return fail(ErrorCode.COORDINATOR_NOT_AVAILABLE);
    try {
      validateMember(group, request.memberId, request.groupInstanceId);
    } catch (error) {
      return fail(GroupError.codeOf(error));
    }
    if (request.generationId !== group.generationId) return fail(ErrorCode.ILLEGAL_GENERATION);
    if (inconsistent(request.protocolType, group.protocolType) || inconsistent(request.protocolName, group.protocolName)) {
      return fail(ErrorCode.INCONSISTENT_GROUP_PROTOCOL);
    }
    if (group.is('PreparingRebalance')) return fail(ErrorCode.REBALANCE_IN_PROGRESS);

    const member = group.member(request.memberId)!;
    if (group.is('Stable')) {
      this.removePendingSyncMember(group, member.memberId);
      respond(syncResponse({ protocolType: group.protocolType, protocolName: group.protocolName, assignment: member.assignment }));
      return NOTHING;
    }

    // CompletingRebalance: park until the leader's assignment is stored.
    member.awaitingSync = respond;
    this.removePendingSyncMember(group, member.memberId);
    if (!group.isLeader(member.memberId)) return NOTHING;

    const assignment = new Map<string, Buffer>();
    for (const a of request.assignments) assignment.set(a.memberId, a.assignment);
    for (const id of group.members.keys()) if (!assignment.has(id)) assignment.set(id, EMPTY);
    const generation = request.generationId;
    const record = groupMetadataRecord(group.groupId, groupMetadataValue(group, assignment));
    return outcome(undefined, [record], false, (error) => {
      // Another member may have joined meanwhile: only the same generation, still completing, proceeds.
      if (!group.is('CompletingRebalance') || group.generationId !== generation) return NOTHING;
      if (error !== null) {
        this.resetAndPropagateAssignmentWithError(group, ErrorCode.COORDINATOR_NOT_AVAILABLE);
        return this.maybePrepareRebalanceOrCompleteJoin(group);
      }
      for (const m of group.members.values()) m.assignment = assignment.get(m.memberId) ?? EMPTY;
      this.propagateAssignment(group, ErrorCode.NONE);
      group.transitionTo('Stable', this.clock.now());
      return NOTHING;
    });
  }

  private removePendingSyncMember(group: ClassicGroup, memberId: string): void {
    group.pendingSyncMembers.delete(memberId);
    if (group.pendingSyncMembers.size === 0 || !(group.is('CompletingRebalance') || group.is('Stable'))) {
      this.timer.cancel(syncKey(group.groupId));
    }
  }

  // ---- LeaveGroup ----

  /** Top-level error code (NONE when the group was found) and one response per member. */
  leave(groupId: string, members: readonly MemberIdentity[]): Outcome<{ errorCode: number; members: MemberResponse[] }> {
    if (groupId === '') return outcome({ errorCode: ErrorCode.INVALID_GROUP_ID, members: [] });
    const group = this.groups.get(groupId);
    if (group === undefined) return outcome({ errorCode: ErrorCode.UNKNOWN_MEMBER_ID, members: [] });
    if (group.is('Dead')) return outcome({ errorCode: ErrorCode.COORDINATOR_NOT_AVAILABLE, members: [] });

    const responses: MemberResponse[] = [];
    for (const identity of members) {
      const reply = (errorCode: number): void => {
        responses.push({ memberId: identity.memberId, groupInstanceId: identity.groupInstanceId, errorCode });
      };
      if (identity.memberId === '') {
        // Administrative removal of a static member by its instance id.
        const staticId = identity.groupInstanceId === null ? undefined : group.staticMemberId(identity.groupInstanceId);
        if (staticId === undefined) {
          reply(ErrorCode.UNKNOWN_MEMBER_ID);
        } else {
          this.removeCurrentMember(group, staticId);
          reply(ErrorCode.NONE);
        }
      } else if (group.isPendingMember(identity.memberId)) {
        group.remove(identity.memberId);
        this.timer.cancel(heartbeatKey(groupId, identity.memberId));
        reply(ErrorCode.NONE);
      } else {
        try {
          validateMember(group, identity.memberId, identity.groupInstanceId);
          this.removeCurrentMember(group, identity.memberId);
          reply(ErrorCode.NONE);
        } catch (error) {
          reply(GroupError.codeOf(error));
        }
      }
    }

    let result: Outcome<void> = NOTHING;
    if (responses.some((r) => r.errorCode === ErrorCode.NONE)) {
      if (group.is('Stable') || group.is('CompletingRebalance')) result = this.maybePrepareRebalanceOrCompleteJoin(group);
      else if (group.is('PreparingRebalance')) result = this.maybeCompleteJoinPhase(group);
    }
    return { ...result, response: { errorCode: ErrorCode.NONE, members: responses } };
  }

  private removeCurrentMember(group: ClassicGroup, memberId: string): void {
    const member = group.member(memberId);
    this.timer.cancel(heartbeatKey(group.groupId, memberId));
    if (member !== undefined) group.completeJoin(member, joinResponse({ memberId: '', errorCode: ErrorCode.UNKNOWN_MEMBER_ID }));
    group.remove(memberId);
  }

  // ---- load ----

  /** After load: members' sessions start now (Kafka's onLoaded); an oversized group rebalances. */
  onLoaded(loaded: (groupId: string) => boolean = () => true): void {
    for (const group of this.groups.values()) {
      if (!loaded(group.groupId)) continue;
      for (const member of group.members.values()) this.rescheduleHeartbeat(group, member);
      if (group.size > this.config.maxGroupSize) this.prepareRebalance(group);
    }
  }

  /** Kafka's completeAllJoinFutures and completeAllSyncFutures: every parked request answered with the error. */
  answerParked(group: ClassicGroup, errorCode: number): void {
    for (const member of group.members.values()) {
      group.completeJoin(member, joinResponse({ memberId: member.memberId, errorCode }));
      group.completeSync(member, syncResponse({ errorCode }));
    }
  }

  /** A group upgraded to a consumer group: its heartbeat, join and sync timers cancelled. */
  cancelTimers(group: ClassicGroup): void {
    for (const memberId of [...group.members.keys(), ...group.pendingJoinMembers]) this.timer.cancel(heartbeatKey(group.groupId, memberId));
    this.timer.cancel(joinKey(group.groupId));
    this.timer.cancel(syncKey(group.groupId));
  }

  /**
   * A group downgraded from a consumer group takes the id (Kafka's convertToClassicGroup): its members' sessions start
   * now and, when a member left, it rebalances. Returns the rebalance's records (none unless its join completes).
   */
  adopt(group: ClassicGroup, rebalance: boolean): readonly GroupRecord[] {
    this.groups.set(group.groupId, group);
    for (const member of group.members.values()) this.rescheduleHeartbeat(group, member);
    return rebalance ? this.prepareRebalance(group).records : [];
  }

  /** Completes every parked request (broker shutdown): members rejoin elsewhere, as when Kafka unloads a partition. */
  unload(): void {
    for (const group of this.groups.values()) this.answerParked(group, ErrorCode.NOT_COORDINATOR);
  }
}

/** Kafka's ClassicGroup.validateMember: the instance id maps to this member id, and the member exists. */
export function validateMember(group: ClassicGroup, memberId: string, groupInstanceId: string | null): void {
  if (groupInstanceId !== null) {
    const existing = group.staticMemberId(groupInstanceId);
    if (existing === undefined) throw new GroupError('UNKNOWN_MEMBER_ID');
    if (existing !== memberId) throw new GroupError('FENCED_INSTANCE_ID');
  }
  if (group.member(memberId) === undefined) throw new GroupError('UNKNOWN_MEMBER_ID');
}
