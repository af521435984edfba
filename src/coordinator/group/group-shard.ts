/**
 * The group coordinator's state machine (Kafka's GroupCoordinatorShard): classic groups, consumer groups
 * (KIP-848: consumer/heartbeat.ts, changed only by replaying their records) and committed offsets. Every request or timer event becomes an Outcome; `replay` applies a record, the same at
 * load and live; the clock and timers are injected. Group admin (DescribeGroups, ListGroups,
 * DeleteGroups) lives here; membership and offsets in their own modules.
 */
import type { Log } from '../../log.js';
import { ErrorCode } from '../../protocol/error-codes.js';
import type { DescribedGroup } from '../../protocol/generated/describe-groups.js';
import type { HeartbeatRequest, HeartbeatResponse } from '../../protocol/generated/heartbeat.js';
import { createJoinGroupResponse, type JoinGroupRequest, type JoinGroupResponse } from '../../protocol/generated/join-group.js';
import type { MemberIdentity, MemberResponse } from '../../protocol/generated/leave-group.js';
import type { ListedGroup } from '../../protocol/generated/list-groups.js';
import type { OffsetCommitRequest, OffsetCommitResponseTopic } from '../../protocol/generated/offset-commit.js';
import type { OffsetDeleteRequest, OffsetDeleteResponseTopic } from '../../protocol/generated/offset-delete.js';
import type { SyncGroupRequest, SyncGroupResponse } from '../../protocol/generated/sync-group.js';
import type { GroupMetadataValue } from '../../protocol/generated/internal/group-coordinator/group-metadata-value.js';
import type { CoordinatorTimer } from '../runtime/keyed-timer.js';
import { NOTHING, outcome, type Outcome } from '../runtime/outcome.js';
import { ClassicGroup, type GroupState } from './classic-group.js';
import { ClassicMember, type Responder } from './classic-member.js';
import type { ConsumerGroupDescribeResponse } from '../../protocol/generated/consumer-group-describe.js';
import type { ConsumerGroupHeartbeatRequest, ConsumerGroupHeartbeatResponse } from '../../protocol/generated/consumer-group-heartbeat.js';
import { consumerGroupAssignors } from './consumer/assignors.js';
import { ConsumerGroup, CONSUMER_GROUP_TYPE } from './consumer/consumer-group.js';
import { describeConsumerGroup } from './consumer/describe.js';
import { ConsumerGroupHeartbeats, type ConsumerGroupSettings } from './consumer/heartbeat.js';
import { StaticTopicsImage, type TopicsImage } from './consumer/topics-image.js';
import { GroupError } from './group-error.js';
import { isConsumerGroupRecord } from './consumer/records.js';
import { replayConsumerRecord, type ConsumerGroupStore } from './consumer/replay.js';
import type { GroupConfig } from './group-config.js';
import { groupMetadataValue, Membership, type Clock, type MemberContext } from './membership.js';
import { OffsetOps, OffsetStore, type FetchedGroup, type FetchingMember, type FetchTopic } from './offsets.js';
import { groupTombstone, type GroupRecord, type OffsetCommitRecord } from './records.js';

export const CLASSIC_GROUP_TYPE = 'classic';

/** What consumer groups (KIP-848) need beyond the classic settings: the topics, the assignors and each group's timeouts. */
export interface ConsumerGroupOptions {
  readonly topics: () => TopicsImage;
  /** `group.consumer.assignors`: the first is the default. */
  readonly assignors: readonly string[];
  /** `group.consumer.max.size`. */
  readonly maxSize: number;
  /** The group's `consumer.session.timeout.ms`, `.heartbeat.interval.ms` and `.assignment.interval.ms` (broker values unless overridden). */
  readonly settings: (groupId: string) => ConsumerGroupSettings;
}

/** Kafka 4.3.1's defaults, over no topics (tests that use classic groups only). */
export const DEFAULT_CONSUMER_GROUP_OPTIONS: ConsumerGroupOptions = {
  topics: () => new StaticTopicsImage([]),
  assignors: ['uniform', 'range'],
  maxSize: 2147483647,
  settings: () => ({ sessionTimeoutMs: 45000, heartbeatIntervalMs: 5000, assignmentIntervalMs: 1000 }),
};

export class GroupShard {
  private readonly groups = new Map<string, ClassicGroup>();
  /** A group id is in one of the two maps at most. */
  private readonly consumerGroups = new Map<string, ConsumerGroup>();
  private readonly consumerGroupStore: ConsumerGroupStore = {
    consumerGroup: (groupId, create) => this.persistedConsumerGroup(groupId, create),
    removeGroup: (groupId) => this.removeGroup(groupId),
  };
  private readonly offsets = new OffsetStore();
  private readonly membership: Membership;
  private readonly offsetOps: OffsetOps;
  private readonly consumerHeartbeats: ConsumerGroupHeartbeats;
  private readonly consumerOptions: ConsumerGroupOptions;

  constructor(
    config: GroupConfig,
    timer: CoordinatorTimer<Outcome<void>>,
    clock: Clock,
    newUuid: () => string,
    log?: Log,
    consumer: ConsumerGroupOptions = DEFAULT_CONSUMER_GROUP_OPTIONS,
  ) {
    this.membership = new Membership(this.groups, config, timer, clock, newUuid, log);
    this.offsetOps = new OffsetOps(this.groups, this.offsets, this.membership, config, clock, this.consumerGroups);
    this.consumerOptions = consumer;
    this.consumerHeartbeats = new ConsumerGroupHeartbeats({
      consumerGroup: (groupId) => this.liveConsumerGroup(groupId),
      replaceEmptyClassicGroup: (groupId) => (this.groups.has(groupId) ? [groupTombstone(groupId)] : []),
      topics: consumer.topics,
      assignors: consumerGroupAssignors(consumer.assignors),
      maxSize: consumer.maxSize,
      settings: consumer.settings,
      timer,
      clock,
      newUuid,
    });
  }

  // ---- requests ----

  /**
   * JoinGroup. On a consumer group id: an empty group gives way to a classic group (its tombstones written first, as
   * Kafka's maybeDeleteEmptyConsumerGroup); classic members in a non-empty one (KIP-848's mixed groups) are not
   * served yet and get INCONSISTENT_GROUP_PROTOCOL, Kafka's answer when a group cannot take their protocol.
   */
  joinGroup(ctx: MemberContext, request: JoinGroupRequest, respond: Responder<JoinGroupResponse>): Outcome<void> {
    const consumerGroup = this.consumerGroups.get(request.groupId);
    if (consumerGroup === undefined) return this.membership.join(ctx, request, respond);
    if (consumerGroup.members.size > 0) {
      respond({ ...createJoinGroupResponse(), memberId: '', errorCode: ErrorCode.INCONSISTENT_GROUP_PROTOCOL });
      return NOTHING;
    }
    const tombstones = consumerGroup.tombstoneRecords();
    for (const record of tombstones) this.replay(record);
    const joined = this.membership.join(ctx, request, respond);
    // The tombstones are applied; the classic group's own records are not replayed live.
    return { ...joined, records: [...tombstones, ...joined.records], replay: false };
  }

  syncGroup(request: SyncGroupRequest, respond: Responder<SyncGroupResponse>): Outcome<void> {
    return this.membership.sync(request, respond);
  }

  heartbeat(request: HeartbeatRequest): Outcome<HeartbeatResponse> {
    return outcome(this.membership.heartbeat(request));
  }

  leaveGroup(groupId: string, members: readonly MemberIdentity[]): Outcome<{ errorCode: number; members: MemberResponse[] }> {
    return this.membership.leave(groupId, members);
  }

  consumerGroupHeartbeat(ctx: MemberContext, request: ConsumerGroupHeartbeatRequest): Outcome<ConsumerGroupHeartbeatResponse> {
    return this.consumerHeartbeats.heartbeat(ctx, request);
  }

  consumerGroupDescribe(groupIds: readonly string[]): ConsumerGroupDescribeResponse['groups'] {
    const image = this.consumerOptions.topics();
    const defaultAssignor = this.consumerOptions.assignors[0] ?? 'uniform';
    return groupIds.map((groupId) => describeConsumerGroup(groupId, this.consumerGroups.get(groupId), this.groups.has(groupId), image, defaultAssignor));
  }

  commitOffsets(request: OffsetCommitRequest, apiVersion: number, transactional = false): Outcome<OffsetCommitResponseTopic[]> {
    return this.offsetOps.commit(request, apiVersion, transactional);
  }

  fetchOffsets(groupId: string, topics: readonly FetchTopic[] | null, member?: FetchingMember): FetchedGroup {
    return this.offsetOps.fetch(groupId, topics, member);
  }

  deleteOffsets(request: OffsetDeleteRequest): Outcome<{ errorCode: number; topics: OffsetDeleteResponseTopic[] }> {
    return this.offsetOps.delete(request);
  }

  /** A topic was deleted: tombstones for its offsets, committed or pending in a transaction. */
  onPartitionsDeleted(topic: string, partitionCount: number, pending: Iterable<OffsetCommitRecord>): Outcome<void> {
    return outcome(undefined, this.offsetOps.onPartitionsDeleted(topic, partitionCount, pending));
  }

  describeGroup(groupId: string): DescribedGroup {
    const group = this.groups.get(groupId);
    const described: DescribedGroup = {
      errorCode: ErrorCode.NONE,
      errorMessage: null,
      groupId,
      groupState: 'Dead',
      protocolType: '',
      protocolData: '',
      members: [],
      authorizedOperations: -2147483648,
    };
    // Kafka 4.3.1 describes the empty group id like any other; DescribeGroups before v6 turns this into NONE.
    if (this.consumerGroups.has(groupId)) return { ...described, errorCode: ErrorCode.GROUP_ID_NOT_FOUND, errorMessage: `Group ${groupId} is not a classic group.` };
    if (group === undefined) return { ...described, errorCode: ErrorCode.GROUP_ID_NOT_FOUND, errorMessage: `Group ${groupId} not found.` };
    // Member metadata and assignments are shown only once the group is Stable.
    const stable = group.is('Stable');
    return {
      ...described,
      groupState: group.state,
      protocolType: group.protocolType ?? '',
      protocolData: stable ? (group.protocolName ?? '') : '',
      members: [...group.members.values()].map((m) => ({
        memberId: m.memberId,
        groupInstanceId: m.groupInstanceId,
        clientId: m.clientId,
        clientHost: m.clientHost,
        memberMetadata: stable ? (m.metadata(group.protocolName ?? '') ?? Buffer.alloc(0)) : Buffer.alloc(0),
        memberAssignment: stable ? m.assignment : Buffer.alloc(0),
      })),
    };
  }

  /** ListGroups with Kafka's filters: states case-insensitive; types by name ("classic", "consumer"). */
  listGroups(statesFilter: readonly string[], typesFilter: readonly string[]): ListedGroup[] {
    const states = new Set(statesFilter.map((s) => s.trim().toLowerCase()));
    const types = new Set(typesFilter.map((t) => t.trim().toLowerCase()));
    const listed: ListedGroup[] = [];
    for (const group of this.groups.values()) {
      if (states.size > 0 && !states.has(group.state.toLowerCase())) continue;
      if (types.size > 0 && !types.has(CLASSIC_GROUP_TYPE)) continue;
      listed.push({ groupId: group.groupId, protocolType: group.protocolType ?? '', groupState: group.state, groupType: CLASSIC_GROUP_TYPE });
    }
    for (const group of this.consumerGroups.values()) {
      if (states.size > 0 && !states.has(group.state.toLowerCase())) continue;
      if (types.size > 0 && !types.has(CONSUMER_GROUP_TYPE)) continue;
      listed.push({ groupId: group.groupId, protocolType: CONSUMER_GROUP_TYPE, groupState: group.state, groupType: CONSUMER_GROUP_TYPE });
    }
    return listed;
  }

  /** DeleteGroups for the groups of one batch: per-group error codes and the tombstones of those deleted. */
  deleteGroups(groupIds: readonly string[]): Outcome<{ groupId: string; errorCode: number }[]> {
    const records: GroupRecord[] = [];
    const results = groupIds.map((groupId) => {
      const consumerGroup = this.consumerGroups.get(groupId);
      if (consumerGroup !== undefined) {
        if (consumerGroup.members.size > 0) return { groupId, errorCode: ErrorCode.NON_EMPTY_GROUP };
        this.offsetOps.deleteAll(groupId, records);
        records.push(...consumerGroup.tombstoneRecords());
        return { groupId, errorCode: ErrorCode.NONE };
      }
      const group = this.groups.get(groupId);
      if (group === undefined || group.is('Dead')) return { groupId, errorCode: ErrorCode.GROUP_ID_NOT_FOUND };
      if (!group.is('Empty')) return { groupId, errorCode: ErrorCode.NON_EMPTY_GROUP };
      this.offsetOps.deleteAll(groupId, records);
      records.push(groupTombstone(groupId));
      return { groupId, errorCode: ErrorCode.NONE };
    });
    return outcome(results, records);
  }

  /** The periodic clean-up (offsets.retention.check.interval.ms): expired offsets, then empty groups left without offsets. */
  cleanupExpired(): Outcome<void> {
    const records: GroupRecord[] = [];
    for (const [groupId, group] of this.groups) {
      const allExpired = this.offsetOps.expire(groupId, records);
      if (allExpired && group.is('Empty')) records.push(groupTombstone(groupId));
    }
    // A consumer group's offsets age from their commit in every state (Kafka's ModernGroup condition), those on a
    // topic a member subscribes to excepted; an empty group left without offsets goes too.
    for (const [groupId, group] of this.consumerGroups) {
      const allExpired = this.offsetOps.expireByCommit(groupId, (topic) => group.isSubscribedToTopic(topic), records);
      if (allExpired && group.members.size === 0) records.push(...group.tombstoneRecords());
    }
    return outcome(undefined, records);
  }

  // ---- records ----

  /** Applies one record: at load for every record, live for the outcomes marked replay. */
  replay(record: GroupRecord): void {
    if (isConsumerGroupRecord(record)) {
      replayConsumerRecord(this.consumerGroupStore, record);
      return;
    }
    if (record.type === 'offset') {
      // Offsets of a group unknown so far belong to a "simple" group (commits outside group management).
      if (record.value !== null && !this.groups.has(record.group) && !this.consumerGroups.has(record.group)) {
        this.groups.set(record.group, new ClassicGroup(record.group, 'Empty', null));
      }
      this.offsets.replay(record);
      return;
    }
    if (record.value === null) {
      this.removeGroup(record.group);
      return;
    }
    // A classic group's record replaces a consumer group of that id (a downgrade writes the consumer group's tombstones first).
    this.consumerGroups.delete(record.group);
    this.groups.set(record.group, groupFromRecord(record.group, record.value));
  }

  private removeGroup(groupId: string): void {
    this.groups.delete(groupId);
    this.consumerGroups.delete(groupId);
  }

  /**
   * The consumer group a heartbeat addresses (Kafka's getOrMaybeCreateConsumerGroup): undefined when there is none or
   * only an empty classic group (which the heartbeat replaces); a classic group with members is not a consumer group.
   */
  private liveConsumerGroup(groupId: string): ConsumerGroup | undefined {
    const group = this.consumerGroups.get(groupId);
    if (group !== undefined) return group;
    const classic = this.groups.get(groupId);
    if (classic !== undefined && !classic.is('Empty')) throw new GroupError('GROUP_ID_NOT_FOUND', `Group ${groupId} is not a consumer group.`);
    return undefined;
  }

  /**
   * Kafka's getOrMaybeCreatePersistedConsumerGroup: a simple group (offsets only) gives way to a new consumer group,
   * even for a tombstone (as in Kafka, which then finds nothing to delete in it).
   */
  private persistedConsumerGroup(groupId: string, create: boolean): ConsumerGroup | undefined {
    const existing = this.consumerGroups.get(groupId);
    if (existing !== undefined) return existing;
    const classic = this.groups.get(groupId);
    if (classic === undefined && !create) return undefined;
    if (classic !== undefined && !(classic.protocolType === null && classic.members.size === 0)) throw new Error(`Group ${groupId} is not a consumer group`);
    this.groups.delete(groupId);
    const group = new ConsumerGroup(groupId);
    this.consumerGroups.set(groupId, group);
    return group;
  }

  onLoaded(): void {
    this.membership.onLoaded();
  }

  unload(): void {
    this.membership.unload();
  }

  // ---- inspection (tests, tools) ----

  group(groupId: string): ClassicGroup | undefined {
    return this.groups.get(groupId);
  }

  consumerGroup(groupId: string): ConsumerGroup | undefined {
    return this.consumerGroups.get(groupId);
  }

  groupState(groupId: string): GroupState | 'Dead' {
    return this.groups.get(groupId)?.state ?? 'Dead';
  }

  /** The value that would be written for the group now (tests compare it with what replay rebuilds). */
  currentMetadata(groupId: string): GroupMetadataValue | undefined {
    const group = this.groups.get(groupId);
    if (group === undefined) return undefined;
    return groupMetadataValue(group, new Map([...group.members.values()].map((m) => [m.memberId, m.assignment] as const)));
  }
}

/** Kafka's replay of a GroupMetadata value: members of the recorded generation; Stable when it has any, else Empty. */
function groupFromRecord(groupId: string, value: GroupMetadataValue): ClassicGroup {
  const group = new ClassicGroup(
    groupId,
    value.members.length === 0 ? 'Empty' : 'Stable',
    value.currentStateTimestamp === -1n ? null : Number(value.currentStateTimestamp),
    value.generation,
    value.protocolType === '' ? null : value.protocolType,
    value.protocol,
    value.leader,
  );
  for (const m of value.members) {
    const member = new ClassicMember(
      m.memberId,
      m.groupInstanceId,
      m.clientId,
      m.clientHost,
      m.rebalanceTimeout === -1 ? m.sessionTimeout : m.rebalanceTimeout,
      m.sessionTimeout,
      value.protocolType,
      [{ name: value.protocol ?? '', metadata: m.subscription }],
    );
    member.assignment = m.assignment;
    group.add(member, null);
  }
  // add() elects the first member leader when none is set; the recorded leader wins.
  group.leaderId = value.leader;
  group.subscribedTopics = group.computeSubscribedTopics();
  return group;
}
