/**
 * The group coordinator's state machine (Kafka's GroupCoordinatorShard): classic groups, consumer groups
 * (KIP-848: consumer/heartbeat.ts), streams groups (KIP-1071: streams/heartbeat.ts), both changed only by replaying
 * their records, and committed offsets. Every request or timer event becomes an Outcome; `replay` applies a record, the same at
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
import { ClassicMembersOfConsumerGroups } from './consumer/classic-members.js';
import { ConsumerGroupHeartbeats, type ConsumerGroupSettings } from './consumer/heartbeat.js';
import type { MigrationPolicy } from './consumer/migration.js';
import { StaticTopicsImage, type TopicsImage } from './consumer/topics-image.js';
import { isConsumerGroupRecord } from './consumer/records.js';
import { replayConsumerRecord, type ConsumerGroupStore } from './consumer/replay.js';
import type { GroupConfig } from './group-config.js';
import { groupMetadataValue, Membership, type Clock, type MemberContext } from './membership.js';
import { OffsetOps, OffsetStore, type FetchedGroup, type FetchingMember, type FetchTopic } from './offsets.js';
import { groupTombstone, type GroupRecord, type OffsetCommitRecord } from './records.js';
import { GroupError } from './group-error.js';
import { isShareGroupRecord } from './share/records.js';
import { replayShareRecord, type ShareGroupStore } from './share/replay.js';
import { ShareGroup, SHARE_GROUP_TYPE } from './share/share-group.js';
import { describeShareGroup } from './share/describe.js';
import { combineInit, ShareGroupHeartbeats, type ShareGroupHeartbeatDeps, type ShareGroupSettings } from './share/heartbeat.js';
import { statePartitionMetadataRecord, type InitTopic } from './share/records.js';
import type { ShareGroupDescribeResponse } from '../../protocol/generated/share-group-describe.js';
import type { ShareGroupHeartbeatRequest, ShareGroupHeartbeatResponse } from '../../protocol/generated/share-group-heartbeat.js';
import type { DescribedGroup as StreamsDescribedGroup } from '../../protocol/generated/streams-group-describe.js';
import type { StreamsGroupHeartbeatRequest } from '../../protocol/generated/streams-group-heartbeat.js';
import { describeStreamsGroup } from './streams/describe.js';
import { StreamsGroupHeartbeats, type StreamsGroupSettings, type StreamsHeartbeatResult } from './streams/heartbeat.js';
import { isStreamsGroupRecord } from './streams/records.js';
import { replayStreamsRecord, type StreamsGroupStore } from './streams/replay.js';
import { StreamsGroup, STREAMS_GROUP_TYPE } from './streams/streams-group.js';

export const CLASSIC_GROUP_TYPE = 'classic';

/** What consumer groups (KIP-848) need beyond the classic settings: the topics, the assignors and each group's timeouts. */
export interface ConsumerGroupOptions {
  readonly topics: () => TopicsImage;
  /** `group.consumer.assignors`: the first is the default. */
  readonly assignors: readonly string[];
  /** `group.consumer.max.size`. */
  readonly maxSize: number;
  /** A member id the coordinator gives in a consumer group (Kafka's Uuid text); default: the shard's newUuid. */
  readonly newMemberId?: () => string;
  /** `group.consumer.migration.policy`: which way a group may change protocols while it has members. */
  readonly migrationPolicy?: MigrationPolicy;
  /** The group's `consumer.session.timeout.ms`, `.heartbeat.interval.ms` and `.assignment.interval.ms` (broker values unless overridden). */
  readonly settings: (groupId: string) => ConsumerGroupSettings;
  /** `group.streams.max.size`. */
  readonly streamsMaxSize?: number;
  /** A streams group's effective `streams.*` settings. */
  readonly streamsSettings?: (groupId: string) => StreamsGroupSettings;
}

/** Kafka 4.3.1's default streams group settings. */
const DEFAULT_STREAMS_SETTINGS: StreamsGroupSettings = { sessionTimeoutMs: 45000, heartbeatIntervalMs: 5000, assignmentIntervalMs: 1000, initialRebalanceDelayMs: 3000, numStandbyReplicas: 0 };

/** Kafka 4.3.1's defaults, over no topics (tests that use classic groups only). */
export const DEFAULT_CONSUMER_GROUP_OPTIONS: ConsumerGroupOptions = {
  topics: () => new StaticTopicsImage([]),
  assignors: ['uniform', 'range'],
  maxSize: 2147483647,
  settings: () => ({ sessionTimeoutMs: 45000, heartbeatIntervalMs: 5000, assignmentIntervalMs: 1000 }),
  migrationPolicy: 'bidirectional',
};

/** What share groups (KIP-932) need: their size bound and each group's timeouts (the topics are the consumer options'). */
export interface ShareGroupOptions {
  /** `group.share.max.size`. */
  readonly maxSize: number;
  /** The group's `share.session.timeout.ms`, `.heartbeat.interval.ms` and `.assignment.interval.ms`. */
  readonly settings: (groupId: string) => ShareGroupSettings;
  /** The share coordinator's initialization of share partitions (ShareGroupHeartbeatDeps.initializeState). */
  readonly initializeState?: ShareGroupHeartbeatDeps['initializeState'];
}

/** Kafka 4.3.1's defaults. */
export const DEFAULT_SHARE_GROUP_OPTIONS: ShareGroupOptions = {
  maxSize: 200,
  settings: () => ({ sessionTimeoutMs: 45000, heartbeatIntervalMs: 5000, assignmentIntervalMs: 1000 }),
};

/** `group.share.initialize.retry.interval.ms` (Kafka's default; an internal setting): a share partition's initialization older than this is tried again. */
const SHARE_INITIALIZE_RETRY_INTERVAL_MS = 30000;

export class GroupShard {
  private readonly groups = new Map<string, ClassicGroup>();
  /** A group id is in one of the three maps at most. */
  private readonly consumerGroups = new Map<string, ConsumerGroup>();
  private readonly shareGroups = new Map<string, ShareGroup>();
  private readonly shareGroupStore: ShareGroupStore = {
    shareGroup: (groupId, create) => this.persistedShareGroup(groupId, create),
    removeGroup: (groupId) => this.removeGroup(groupId),
  };
  private readonly streamsGroups = new Map<string, StreamsGroup>();
  private readonly streamsGroupStore: StreamsGroupStore = {
    streamsGroup: (groupId, create) => this.persistedStreamsGroup(groupId, create),
    removeGroup: (groupId) => this.removeGroup(groupId),
  };
  private readonly streamsHeartbeats: StreamsGroupHeartbeats;
  /** A new streams group a heartbeat is creating, adopted by the replay of its first record. */
  private newStreamsGroup: StreamsGroup | undefined;
  private readonly consumerGroupStore: ConsumerGroupStore = {
    consumerGroup: (groupId, create) => this.persistedConsumerGroup(groupId, create),
    removeGroup: (groupId) => this.removeGroup(groupId),
  };
  private readonly offsets = new OffsetStore();
  private readonly membership: Membership;
  private readonly offsetOps: OffsetOps;
  private readonly consumerHeartbeats: ConsumerGroupHeartbeats;
  private readonly consumerOptions: ConsumerGroupOptions;
  private readonly shareHeartbeats: ShareGroupHeartbeats;

  private readonly clock: Clock;

  constructor(
    config: GroupConfig,
    timer: CoordinatorTimer<Outcome<void>>,
    clock: Clock,
    newUuid: () => string,
    log?: Log,
    consumer: ConsumerGroupOptions = DEFAULT_CONSUMER_GROUP_OPTIONS,
    share: ShareGroupOptions = DEFAULT_SHARE_GROUP_OPTIONS,
  ) {
    this.clock = clock;
    this.membership = new Membership(this.groups, config, timer, clock, newUuid, log);
    this.offsetOps = new OffsetOps(this.groups, this.offsets, this.membership, config, clock, this.consumerGroups, consumer.topics, this.streamsGroups);
    this.consumerOptions = consumer;
    this.consumerHeartbeats = new ConsumerGroupHeartbeats({
      groups: (groupId) => {
        if (this.heldByOtherModernGroup(groupId, 'consumer')) throw new GroupError('GROUP_ID_NOT_FOUND', `Group ${groupId} is not a consumer group.`);
        return { consumer: this.consumerGroups.get(groupId), classic: this.groups.get(groupId) };
      },
      answerParkedRequests: (classic) => this.membership.answerParked(classic, ErrorCode.REBALANCE_IN_PROGRESS),
      installDowngradedGroup: (classic, rebalance) => {
        this.consumerGroups.delete(classic.groupId);
        return this.membership.adopt(classic, rebalance);
      },
      migrationPolicy: consumer.migrationPolicy ?? 'bidirectional',
      classicMaxSize: config.maxGroupSize,
      topics: consumer.topics,
      assignors: consumerGroupAssignors(consumer.assignors),
      maxSize: consumer.maxSize,
      settings: consumer.settings,
      timer,
      clock,
      newUuid: consumer.newMemberId ?? newUuid,
    });
    this.classicMembers = new ClassicMembersOfConsumerGroups(this.consumerHeartbeats, consumer.topics, timer);
    this.config = config;
    this.shareHeartbeats = new ShareGroupHeartbeats({
      shareGroup: (groupId) => this.liveShareGroup(groupId),
      topics: consumer.topics,
      maxSize: share.maxSize,
      initializeRetryIntervalMs: SHARE_INITIALIZE_RETRY_INTERVAL_MS,
      settings: share.settings,
      timer,
      clock,
      ...(share.initializeState === undefined ? {} : { initializeState: share.initializeState }),
    });
    this.streamsHeartbeats = new StreamsGroupHeartbeats({
      streamsGroup: (groupId, joining) => this.liveStreamsGroup(groupId, joining),
      newStreamsGroup: (groupId) => (this.newStreamsGroup = new StreamsGroup(groupId)),
      replaceEmptyClassicGroup: (groupId) => (this.groups.has(groupId) ? [groupTombstone(groupId)] : []),
      topics: consumer.topics,
      maxSize: consumer.streamsMaxSize ?? 2147483647,
      settings: consumer.streamsSettings ?? (() => DEFAULT_STREAMS_SETTINGS),
      timer,
      clock,
    });
  }

  private readonly classicMembers: ClassicMembersOfConsumerGroups;
  private readonly config: GroupConfig;

  // ---- requests ----

  /**
   * JoinGroup. On a consumer or streams group id: an empty group gives way to a classic group (its tombstones written
   * first, as Kafka's maybeDeleteEmptyConsumerGroup/maybeDeleteEmptyStreamsGroup); a non-empty consumer group takes the
   * member as a classic member (KIP-848's mixed groups, consumer/classic-members.ts); a non-empty streams group and any
   * share group take none (INCONSISTENT_GROUP_PROTOCOL, as Kafka).
   */
  joinGroup(ctx: MemberContext, request: JoinGroupRequest, respond: Responder<JoinGroupResponse>): Outcome<void> {
    const inconsistent = (): Outcome<void> => {
      // JoinGroupResponse: the protocol name null from v7 (where it may be), "" before.
      respond({ ...createJoinGroupResponse(), memberId: '', protocolName: ctx.apiVersion >= 7 ? null : '', errorCode: ErrorCode.INCONSISTENT_GROUP_PROTOCOL });
      return NOTHING;
    };
    if (this.shareGroups.has(request.groupId)) return inconsistent();
    const consumerGroup = this.consumerGroups.get(request.groupId);
    const modernGroup = consumerGroup ?? this.streamsGroups.get(request.groupId);
    if (modernGroup === undefined) return this.membership.join(ctx, request, respond);
    if (modernGroup.members.size > 0) {
      if (consumerGroup === undefined) return inconsistent();
      if (request.sessionTimeoutMs < this.config.minSessionTimeoutMs || request.sessionTimeoutMs > this.config.maxSessionTimeoutMs) {
        respond({ ...createJoinGroupResponse(), memberId: request.memberId, errorCode: ErrorCode.INVALID_SESSION_TIMEOUT });
        return NOTHING;
      }
      return this.classicMembers.join(ctx, consumerGroup, request, respond);
    }
    const tombstones = modernGroup.tombstoneRecords();
    for (const record of tombstones) this.replay(record);
    const joined = this.membership.join(ctx, request, respond);
    // The tombstones are applied; the classic group's own records are not replayed live.
    return { ...joined, records: [...tombstones, ...joined.records], replay: false };
  }

  syncGroup(request: SyncGroupRequest, respond: Responder<SyncGroupResponse>): Outcome<void> {
    const consumerGroup = this.consumerGroups.get(request.groupId);
    if (consumerGroup === undefined) return this.membership.sync(request, respond);
    respond(this.classicMembers.sync(consumerGroup, request));
    return NOTHING;
  }

  heartbeat(request: HeartbeatRequest): Outcome<HeartbeatResponse> {
    const consumerGroup = this.consumerGroups.get(request.groupId);
    if (consumerGroup !== undefined) return outcome(this.classicMembers.heartbeat(consumerGroup, request));
    return outcome(this.membership.heartbeat(request));
  }

  leaveGroup(groupId: string, members: readonly MemberIdentity[]): Outcome<{ errorCode: number; members: MemberResponse[] }> {
    const consumerGroup = this.consumerGroups.get(groupId);
    if (consumerGroup !== undefined) return this.classicMembers.leave(consumerGroup, members);
    return this.membership.leave(groupId, members);
  }

  consumerGroupHeartbeat(ctx: MemberContext, request: ConsumerGroupHeartbeatRequest): Outcome<ConsumerGroupHeartbeatResponse> {
    return this.consumerHeartbeats.heartbeat(ctx, request);
  }

  shareGroupHeartbeat(ctx: MemberContext, request: ShareGroupHeartbeatRequest): Outcome<ShareGroupHeartbeatResponse> {
    return this.shareHeartbeats.heartbeat(ctx, request);
  }

  shareGroupDescribe(groupIds: readonly string[]): ShareGroupDescribeResponse['groups'] {
    const image = this.consumerOptions.topics();
    return groupIds.map((groupId) =>
      describeShareGroup(groupId, this.shareGroups.get(groupId), this.groups.has(groupId) || this.consumerGroups.has(groupId), image),
    );
  }

  /**
   * The share partitions whose state a share group's deletion drops (Kafka's shareGroupBuildPartitionDeleteRequest):
   * initialized and initializing ones, and every partition of a topic being deleted; empty for another group type.
   */
  sharePartitionsOf(groupId: string): Map<string, number[]> {
    const state = this.shareGroups.get(groupId)?.statePartitions;
    const out = new Map<string, number[]>();
    if (state === undefined || state === null) return out;
    const add = (topicId: string, partitions: Iterable<number>) => out.set(topicId, [...new Set([...(out.get(topicId) ?? []), ...partitions])].sort((a, b) => a - b));
    for (const [id, topic] of [...state.initialized, ...state.initializing]) add(id, topic.partitions);
    const image = this.consumerOptions.topics();
    for (const id of state.deleting.keys()) {
      const count = image.byId(id)?.numPartitions ?? 0;
      add(id, Array.from({ length: count }, (_, p) => p));
    }
    return out;
  }

  /**
   * DeleteShareGroupOffsets' first step (Kafka's GroupCoordinatorShard.deleteShareGroupOffsets): the group must be an
   * empty share group; the topics whose share state goes are recorded deleting (ShareGroup.offsetDeletion).
   */
  shareOffsetDeletion(groupId: string, topicNames: readonly string[]): Outcome<{ errorCode: number; eligible: { name: string; id: string; partitions: number[] }[]; refused: { name: string; message: string | null }[] }> {
    const group = this.shareGroups.get(groupId);
    if (group === undefined) return outcome({ errorCode: ErrorCode.GROUP_ID_NOT_FOUND, eligible: [], refused: [] });
    if (group.members.size > 0) return outcome({ errorCode: ErrorCode.NON_EMPTY_GROUP, eligible: [], refused: [] });
    const { eligible, refused, record } = group.offsetDeletion(topicNames, this.consumerOptions.topics());
    return outcome({ errorCode: ErrorCode.NONE, eligible, refused }, record === undefined ? [] : [record]);
  }

  /**
   * AlterShareGroupOffsets' first step (Kafka's GroupMetadataManager.alterShareGroupOffsets): the share group (made
   * if absent) must be empty; the partitions of known topics are recorded initializing, to be initialized at the
   * offsets asked (at the group epoch); an unknown topic or partition answers UNKNOWN_TOPIC_OR_PARTITION.
   */
  shareOffsetsAlteration(groupId: string, topics: readonly { topicName: string; partitions: readonly { partitionIndex: number; startOffset: bigint }[] }[]): Outcome<{
    errorCode: number;
    stateEpoch: number;
    responses: { topicName: string; topicId: string | null; partitions: { partitionIndex: number; errorCode: number }[] }[];
    offsets: Map<string, Map<number, number>>;
  }> {
    let group: ShareGroup | undefined;
    try {
      group = this.liveShareGroup(groupId);
    } catch {
      return outcome({ errorCode: ErrorCode.GROUP_ID_NOT_FOUND, stateEpoch: 0, responses: [], offsets: new Map() });
    }
    if (group !== undefined && group.members.size > 0) return outcome({ errorCode: ErrorCode.NON_EMPTY_GROUP, stateEpoch: 0, responses: [], offsets: new Map() });
    const image = this.consumerOptions.topics();
    const now = this.clock.now();
    const initializing = new Map<string, InitTopic>();
    const offsets = new Map<string, Map<number, number>>();
    const responses = topics.map((t) => {
      const topic = image.byName(t.topicName);
      const valid = (p: number) => topic !== undefined && p >= 0 && p < topic.numPartitions;
      if (topic !== undefined) {
        const asked = new Map(t.partitions.filter((p) => valid(p.partitionIndex)).map((p) => [p.partitionIndex, Number(p.startOffset)] as const));
        initializing.set(topic.id, { name: topic.name, partitions: new Set(asked.keys()), timestamp: now });
        offsets.set(topic.id, asked);
      }
      return {
        topicName: t.topicName,
        topicId: topic?.id ?? null,
        partitions: t.partitions.map((p) => ({ partitionIndex: p.partitionIndex, errorCode: valid(p.partitionIndex) ? ErrorCode.NONE : ErrorCode.UNKNOWN_TOPIC_OR_PARTITION })),
      };
    });
    const state = group?.statePartitions;
    const record = statePartitionMetadataRecord(groupId, {
      initializing: combineInit(state?.initializing ?? new Map(), initializing),
      initialized: state?.initialized ?? new Map(),
      deleting: state?.deleting ?? new Map(),
    });
    return outcome({ errorCode: ErrorCode.NONE, stateEpoch: group?.groupEpoch ?? 0, responses, offsets }, initializing.size > 0 ? [record] : []);
  }

  /** AlterShareGroupOffsets' last step: the partitions whose state was initialized are recorded initialized. */
  shareOffsetsAltered(groupId: string, topicPartitions: ReadonlyMap<string, ReadonlySet<number>>): Outcome<void> {
    return this.shareHeartbeats.initialized(groupId, topicPartitions);
  }

  /** DeleteShareGroupOffsets' last step (completeDeleteShareGroupOffsets): the deleted topics leave the deleting set. */
  shareOffsetsDeleted(groupId: string, topicIds: ReadonlySet<string>): Outcome<void> {
    const record = this.shareGroups.get(groupId)?.withoutTopicsRecord(topicIds);
    return outcome(undefined, record === undefined ? [] : [record]);
  }

  /** A share group's initialized share partitions (Kafka's initializedShareGroupPartitions); empty for none. */
  initializedSharePartitions(groupId: string): Map<string, number[]> {
    const initialized = this.shareGroups.get(groupId)?.statePartitions?.initialized;
    return new Map([...(initialized ?? new Map())].map(([id, t]) => [id, [...t.partitions].sort((a, b) => a - b)] as const));
  }

  /** Whether a share partition's state is initialized for the group: the share-partition leader serves only those. */
  isSharePartitionInitialized(groupId: string, topicId: string, partition: number): boolean {
    return this.shareGroups.get(groupId)?.statePartitions?.initialized.get(topicId)?.partitions.has(partition) ?? false;
  }

  consumerGroupDescribe(groupIds: readonly string[]): ConsumerGroupDescribeResponse['groups'] {
    const image = this.consumerOptions.topics();
    const defaultAssignor = this.consumerOptions.assignors[0] ?? 'uniform';
    return groupIds.map((groupId) => describeConsumerGroup(groupId, this.consumerGroups.get(groupId), this.groups.has(groupId) || this.streamsGroups.has(groupId), image, defaultAssignor));
  }

  streamsGroupHeartbeat(ctx: MemberContext, request: StreamsGroupHeartbeatRequest): Outcome<StreamsHeartbeatResult> {
    return this.streamsHeartbeats.heartbeat(ctx, request);
  }

  streamsGroupDescribe(groupIds: readonly string[]): StreamsDescribedGroup[] {
    return groupIds.map((groupId) => describeStreamsGroup(groupId, this.streamsGroups.get(groupId), this.groups.has(groupId) || this.consumerGroups.has(groupId)));
  }

  commitOffsets(request: OffsetCommitRequest, apiVersion: number, transactional = false): Outcome<OffsetCommitResponseTopic[]> {
    // A share group has no committed offsets (Kafka's ShareGroup.validateOffsetCommit: "not a consumer group").
    if (this.shareGroups.has(request.groupId)) {
      return outcome(request.topics.map((t) => ({
        name: t.name,
        topicId: t.topicId,
        partitions: t.partitions.map((p) => ({ partitionIndex: p.partitionIndex, errorCode: ErrorCode.GROUP_ID_NOT_FOUND })),
      })));
    }
    return this.offsetOps.commit(request, apiVersion, transactional);
  }

  fetchOffsets(groupId: string, topics: readonly FetchTopic[] | null, member?: FetchingMember): FetchedGroup {
    return this.offsetOps.fetch(groupId, topics, member);
  }

  deleteOffsets(request: OffsetDeleteRequest): Outcome<{ errorCode: number; topics: OffsetDeleteResponseTopic[] }> {
    return this.offsetOps.delete(request);
  }

  /**
   * Topics were deleted (Kafka's maybeCleanupShareGroupState): each share group whose share partitions were
   * initializing, initialized or deleting on them records its state without them.
   */
  onShareTopicsDeleted(topicIds: ReadonlySet<string>): Outcome<void> {
    const records: GroupRecord[] = [];
    for (const group of this.shareGroups.values()) {
      const record = group.withoutTopicsRecord(topicIds);
      if (record !== undefined) records.push(record);
    }
    return outcome(undefined, records);
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
    if (this.consumerGroups.has(groupId) || this.shareGroups.has(groupId) || this.streamsGroups.has(groupId)) {
      return { ...described, errorCode: ErrorCode.GROUP_ID_NOT_FOUND, errorMessage: `Group ${groupId} is not a classic group.` };
    }
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
    for (const group of this.shareGroups.values()) {
      if (states.size > 0 && !states.has(group.state.toLowerCase())) continue;
      if (types.size > 0 && !types.has(SHARE_GROUP_TYPE)) continue;
      listed.push({ groupId: group.groupId, protocolType: SHARE_GROUP_TYPE, groupState: group.state, groupType: SHARE_GROUP_TYPE });
    }
    for (const group of this.streamsGroups.values()) {
      if (states.size > 0 && !states.has(group.state.toLowerCase())) continue;
      if (types.size > 0 && !types.has(STREAMS_GROUP_TYPE)) continue;
      listed.push({ groupId: group.groupId, protocolType: STREAMS_GROUP_TYPE, groupState: group.state, groupType: STREAMS_GROUP_TYPE });
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
      const shareGroup = this.shareGroups.get(groupId);
      if (shareGroup !== undefined) {
        if (shareGroup.members.size > 0) return { groupId, errorCode: ErrorCode.NON_EMPTY_GROUP };
        records.push(...shareGroup.deletingRecords(this.consumerOptions.topics()), ...shareGroup.tombstoneRecords());
        return { groupId, errorCode: ErrorCode.NONE };
      }
      const streamsGroup = this.streamsGroups.get(groupId);
      if (streamsGroup !== undefined) {
        if (streamsGroup.state !== 'Empty') return { groupId, errorCode: ErrorCode.NON_EMPTY_GROUP };
        this.offsetOps.deleteAll(groupId, records);
        records.push(...streamsGroup.tombstoneRecords());
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
    // A consumer or streams group's offsets age from their commit in every state (Kafka's ModernGroup and StreamsGroup
    // condition), those on a topic a member subscribes to excepted; an empty group left without offsets goes too.
    for (const [groupId, group] of [...this.consumerGroups, ...this.streamsGroups]) {
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
    if (isShareGroupRecord(record)) {
      replayShareRecord(this.shareGroupStore, record, this.clock.now());
      return;
    }
    if (isStreamsGroupRecord(record)) {
      replayStreamsRecord(this.streamsGroupStore, record);
      return;
    }
    if (record.type === 'offset') {
      // Offsets of a group unknown so far belong to a "simple" group (commits outside group management).
      if (record.value !== null && !this.groups.has(record.group) && !this.consumerGroups.has(record.group) && !this.shareGroups.has(record.group) && !this.streamsGroups.has(record.group)) {
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
    this.streamsGroups.delete(record.group);
    this.groups.set(record.group, groupFromRecord(record.group, record.value));
  }

  private removeGroup(groupId: string): void {
    // A classic group's timers go with it (an upgrade, a deletion): none may fire on a later group of that id.
    const classic = this.groups.get(groupId);
    if (classic !== undefined) this.membership.cancelTimers(classic);
    this.groups.delete(groupId);
    this.consumerGroups.delete(groupId);
    this.shareGroups.delete(groupId);
    this.streamsGroups.delete(groupId);
  }

  /** The share group a heartbeat addresses: undefined when none; a group of another type is refused as Kafka does. */
  private liveShareGroup(groupId: string): ShareGroup | undefined {
    const group = this.shareGroups.get(groupId);
    if (group !== undefined) return group;
    if (this.groups.has(groupId) || this.heldByOtherModernGroup(groupId, 'share')) throw new GroupError('GROUP_ID_NOT_FOUND', `Group ${groupId} is not a share group.`);
    return undefined;
  }

  /** Kafka's getOrMaybeCreatePersistedShareGroup: a group of another type under the id is refused. */
  private persistedShareGroup(groupId: string, create: boolean): ShareGroup | undefined {
    const existing = this.shareGroups.get(groupId);
    if (existing !== undefined) return existing;
    if (this.groups.has(groupId) || this.heldByOtherModernGroup(groupId, 'share')) {
      if (!create) return undefined;
      throw new Error(`Group ${groupId} is not a share group.`);
    }
    if (!create) return undefined;
    const group = new ShareGroup(groupId);
    this.shareGroups.set(groupId, group);
    return group;
  }

  /**
   * The streams group a heartbeat addresses: for a joining member (Kafka's getOrCreateStreamsGroup) an empty classic
   * group gives way to it; otherwise (getStreamsGroupOrThrow) any group of another type is not a streams group.
   */
  private liveStreamsGroup(groupId: string, joining: boolean): StreamsGroup | undefined {
    const group = this.streamsGroups.get(groupId);
    if (group !== undefined) return group;
    const classic = this.groups.get(groupId);
    if (this.heldByOtherModernGroup(groupId, 'streams') || (classic !== undefined && (!joining || !classic.is('Empty')))) {
      throw new GroupError('GROUP_ID_NOT_FOUND', `Group ${groupId} is not a streams group.`);
    }
    return undefined;
  }

  /** Kafka's getOrMaybeCreatePersistedStreamsGroup: a simple group (offsets only) gives way to a new streams group. */
  private persistedStreamsGroup(groupId: string, create: boolean): StreamsGroup | undefined {
    const existing = this.streamsGroups.get(groupId);
    if (existing !== undefined) return existing;
    const classic = this.groups.get(groupId);
    if ((classic === undefined && !create) || this.heldByOtherModernGroup(groupId, 'streams')) return undefined;
    if (classic !== undefined && !(classic.protocolType === null && classic.members.size === 0)) throw new Error(`Group ${groupId} is not a streams group`);
    this.groups.delete(groupId);
    const group = this.newStreamsGroup?.groupId === groupId ? this.newStreamsGroup : new StreamsGroup(groupId);
    this.newStreamsGroup = undefined;
    this.streamsGroups.set(groupId, group);
    return group;
  }

  /**
   * Kafka's getOrMaybeCreatePersistedConsumerGroup: a simple group (offsets only) gives way to a new consumer group,
   * even for a tombstone (as in Kafka, which then finds nothing to delete in it).
   */
  private persistedConsumerGroup(groupId: string, create: boolean): ConsumerGroup | undefined {
    const existing = this.consumerGroups.get(groupId);
    if (existing !== undefined) return existing;
    if (this.heldByOtherModernGroup(groupId, 'consumer')) {
      if (!create) return undefined;
      throw new Error(`Group ${groupId} is not a consumer group`);
    }
    const classic = this.groups.get(groupId);
    if (classic === undefined && !create) return undefined;
    if (classic !== undefined && !(classic.protocolType === null && classic.members.size === 0)) throw new Error(`Group ${groupId} is not a consumer group`);
    this.groups.delete(groupId);
    const group = new ConsumerGroup(groupId);
    this.consumerGroups.set(groupId, group);
    return group;
  }

  /** Whether a consumer, share or streams group other than `kind` holds the id (a group of `kind` is then refused). */
  private heldByOtherModernGroup(groupId: string, kind: 'consumer' | 'share' | 'streams'): boolean {
    return (kind !== 'consumer' && this.consumerGroups.has(groupId)) || (kind !== 'share' && this.shareGroups.has(groupId)) || (kind !== 'streams' && this.streamsGroups.has(groupId));
  }

  /** After a load (of every group, or of those `loaded` picks): members' sessions start now (Kafka's onLoaded). */
  onLoaded(loaded: (groupId: string) => boolean = () => true): void {
    this.membership.onLoaded(loaded);
    for (const group of this.consumerGroups.values()) if (loaded(group.groupId)) this.consumerHeartbeats.onLoaded(group);
    // Kafka's onLoaded: every loaded share member's session starts over.
    for (const group of this.shareGroups.values()) {
      if (loaded(group.groupId)) for (const memberId of group.members.keys()) this.shareHeartbeats.startSession(group.groupId, memberId);
    }
    this.streamsHeartbeats.onLoaded([...this.streamsGroups.values()].filter((g) => loaded(g.groupId)));
  }

  /**
   * Kafka's onUnloaded for the groups `owned` picks (their __consumer_offsets partition's leadership moved away):
   * parked JoinGroup/SyncGroup requests are answered NOT_COORDINATOR and the groups and their offsets leave memory
   * (the log keeps them for the next load). Returns each group's member ids, whose timers the runtime cancels.
   */
  unloadGroups(owned: (groupId: string) => boolean): Map<string, string[]> {
    const unloaded = new Map<string, string[]>();
    const ids = new Set([...this.groups.keys(), ...this.consumerGroups.keys(), ...this.shareGroups.keys(), ...this.streamsGroups.keys(), ...this.offsets.groups()]);
    for (const groupId of ids) {
      if (!owned(groupId)) continue;
      const classic = this.groups.get(groupId);
      if (classic !== undefined) this.membership.answerParked(classic, ErrorCode.NOT_COORDINATOR);
      const members = [this.groups, this.consumerGroups, this.shareGroups, this.streamsGroups]
        .flatMap((map) => [...((map.get(groupId) as { members?: Map<string, unknown> } | undefined)?.members?.keys() ?? [])]);
      this.removeGroup(groupId);
      this.offsets.dropGroup(groupId);
      unloaded.set(groupId, members);
    }
    return unloaded;
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

  shareGroup(groupId: string): ShareGroup | undefined {
    return this.shareGroups.get(groupId);
  }

  streamsGroup(groupId: string): StreamsGroup | undefined {
    return this.streamsGroups.get(groupId);
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
