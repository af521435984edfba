/**
 * The group coordinator runtime: feeds requests and timer events to the GroupShard state machine,
 * replays what it returns, appends its records to __consumer_offsets (per partition, in order) and
 * releases each response once its records are in the log. Loads the topic at start-up through the
 * same replay path.
 */
import { resolveGroupConfig, type BrokerConfig, type GroupConfigLookup } from '../config/index.js';
import { ErrorCode, errorInfo } from '../protocol/error-codes.js';
import { randomUuid, ZERO_UUID } from '../protocol/uuid.js';
import type { BrokerTopicStats } from '../broker/broker-topic-stats.js';
import type { DescribedGroup } from '../protocol/generated/describe-groups.js';
import type { HeartbeatRequest, HeartbeatResponse } from '../protocol/generated/heartbeat.js';
import { createJoinGroupResponse, type JoinGroupRequest, type JoinGroupResponse } from '../protocol/generated/join-group.js';
import type { MemberIdentity, MemberResponse } from '../protocol/generated/leave-group.js';
import type { ListedGroup } from '../protocol/generated/list-groups.js';
import type { OffsetCommitRequest, OffsetCommitResponseTopic } from '../protocol/generated/offset-commit.js';
import type { OffsetDeleteRequest, OffsetDeleteResponseTopic } from '../protocol/generated/offset-delete.js';
import type { TxnOffsetCommitRequest, TxnOffsetCommitResponseTopic } from '../protocol/generated/txn-offset-commit.js';
import { createSyncGroupResponse, type SyncGroupRequest, type SyncGroupResponse } from '../protocol/generated/sync-group.js';
import type { LogStore } from '../storage/log-store.js';
import { systemScheduler, type Cancel, type Scheduler } from '../storage/scheduler.js';
import { cryptoModule } from '../lazy-modules.js';
import { silentLog, type Log } from '../log.js';
import { createDescribedGroup, type ConsumerGroupDescribeResponse } from '../protocol/generated/consumer-group-describe.js';
import {
  createConsumerGroupHeartbeatResponse,
  type ConsumerGroupHeartbeatRequest,
  type ConsumerGroupHeartbeatResponse,
} from '../protocol/generated/consumer-group-heartbeat.js';
import { createDescribedGroup as createShareDescribedGroup, type ShareGroupDescribeResponse } from '../protocol/generated/share-group-describe.js';
import {
  createShareGroupHeartbeatResponse,
  type ShareGroupHeartbeatRequest,
  type ShareGroupHeartbeatResponse,
} from '../protocol/generated/share-group-heartbeat.js';
import { logStoreTopics } from './group/consumer/log-store-topics.js';
import { migrationPolicyOf } from './group/consumer/migration.js';
import { loadXxh3 } from './group/consumer/xxh3.js';
import { createDescribedGroup as createStreamsDescribedGroup, type DescribedGroup as StreamsDescribedGroup } from '../protocol/generated/streams-group-describe.js';
import { createStreamsGroupHeartbeatResponse, type StreamsGroupHeartbeatRequest } from '../protocol/generated/streams-group-heartbeat.js';
import type { StreamsHeartbeatResult } from './group/streams/heartbeat.js';
import { groupConfigFrom } from './group/group-config.js';
import { GroupShard } from './group/group-shard.js';
import type { MemberContext } from './group/membership.js';
import type { FetchedGroup, FetchingMember, FetchTopic } from './group/offsets.js';
import type { GroupRecord, OffsetCommitRecord } from './group/records.js';
import { PendingTxnOffsets } from './group/txn-offsets.js';
import { KeyedTimer } from './runtime/keyed-timer.js';
import { OffsetsLog } from './runtime/offsets-log.js';
import type { Outcome } from './runtime/outcome.js';

export type { MemberContext } from './group/membership.js';
export type { FetchedGroup, FetchingMember } from './group/offsets.js';

export interface GroupCoordinatorOptions {
  readonly store: LogStore;
  readonly config: BrokerConfig;
  /** Clock and timers; tests pass a ManualScheduler. Default: real time. */
  readonly scheduler?: Scheduler;
  readonly log?: Log;
  /** Member id suffixes; tests make them predictable. Default: random UUIDs. */
  readonly newUuid?: () => string;
  /** Each group's configs (ConfigResource GROUP). Default: the broker's values for every group. */
  readonly groupConfigs?: GroupConfigLookup;
  /** The share coordinator, which initializes the state of the share partitions a share group starts on. */
  readonly shareState?: ShareStateInitializer;
  /** The broker's per-topic counts: writes to __consumer_offsets are counted there, as Kafka's BrokerTopicMetrics. */
  readonly topicStats?: BrokerTopicStats;
}

/** What the group coordinator asks of the share coordinator (Kafka's persister initializeState and deleteState). */
export interface ShareStateInitializer {
  initialize(key: { groupId: string; topicId: string; partition: number }, stateEpoch: number, startOffset: number): Promise<{ errorCode: number; errorMessage: string | null }>;
  delete(key: { groupId: string; topicId: string; partition: number }): Promise<{ errorCode: number; errorMessage: string | null }>;
}

export class GroupCoordinator {
  /** The state machine (tests and tools may inspect it). */
  readonly shard: GroupShard;
  private readonly offsetsLog: OffsetsLog;
  /** Transactional offset commits waiting for their marker. */
  private readonly pendingTxn = new PendingTxnOffsets();
  private readonly timer: KeyedTimer<Outcome<void>>;
  private readonly scheduler: Scheduler;
  private readonly log: Log;
  private stopCleanup: Cancel | undefined;
  private readonly shareState: ShareStateInitializer | undefined;
  private active = false;
  /**
   * One group's effective configs (GROUP resource overrides over the broker's values). Kafka 4.3.1 applies
   * none of them to classic groups; the consumer-protocol, share and streams coordinators read them here.
   */
  readonly groupConfig: GroupConfigLookup;

  private constructor(options: GroupCoordinatorOptions) {
    this.scheduler = options.scheduler ?? systemScheduler;
    this.log = options.log ?? silentLog();
    this.shareState = options.shareState;
    this.groupConfig = options.groupConfigs ?? ((groupId) => resolveGroupConfig(groupId, new Map(), options.config));
    const config = groupConfigFrom(options.config);
    this.timer = new KeyedTimer(this.scheduler, (result) => void this.apply(result).catch(() => undefined));
    const newUuid = options.newUuid ?? (() => cryptoModule().randomUUID());
    const store = options.store;
    const rack = options.config['broker.rack'];
    this.shard = new GroupShard(config, this.timer, this.scheduler, newUuid, this.log, {
      topics: () => logStoreTopics(store, rack),
      assignors: options.config['group.consumer.assignors'],
      // Kafka names a member of a consumer group with a Uuid (22 characters), a classic one clientId-UUID.
      ...(options.newUuid === undefined ? { newMemberId: randomUuid } : {}),
      maxSize: options.config['group.consumer.max.size'],
      migrationPolicy: migrationPolicyOf(options.config['group.consumer.migration.policy']),
      settings: (groupId) => {
        const values = this.groupConfig(groupId);
        return {
          sessionTimeoutMs: values['consumer.session.timeout.ms'],
          heartbeatIntervalMs: values['consumer.heartbeat.interval.ms'],
          assignmentIntervalMs: values['consumer.assignment.interval.ms'],
        };
      },
      streamsMaxSize: options.config['group.streams.max.size'],
      streamsSettings: (groupId) => {
        const values = this.groupConfig(groupId);
        return {
          sessionTimeoutMs: values['streams.session.timeout.ms'],
          heartbeatIntervalMs: values['streams.heartbeat.interval.ms'],
          assignmentIntervalMs: values['streams.assignment.interval.ms'],
          initialRebalanceDelayMs: values['streams.initial.rebalance.delay.ms'],
          numStandbyReplicas: values['streams.num.standby.replicas'],
        };
      },
    }, {
      maxSize: options.config['group.share.max.size'],
      ...(options.shareState === undefined ? {} : { initializeState: initializeWith(options.shareState, this.log) }),
      settings: (groupId) => {
        const values = this.groupConfig(groupId);
        return {
          sessionTimeoutMs: values['share.session.timeout.ms'],
          heartbeatIntervalMs: values['share.heartbeat.interval.ms'],
          assignmentIntervalMs: values['share.assignment.interval.ms'],
        };
      },
    });
    this.offsetsLog = new OffsetsLog(options.store, options.config, () => this.scheduler.now(), options.topicStats);
    this.cleanupIntervalMs = config.offsetsRetentionCheckIntervalMs;
  }

  private readonly cleanupIntervalMs: number;

  /** Loads __consumer_offsets (when it exists) and starts serving. */
  static async open(options: GroupCoordinatorOptions): Promise<GroupCoordinator> {
    const coordinator = new GroupCoordinator(options);
    const stats = await coordinator.offsetsLog.load(
      (record) => coordinator.replay(record),
      (message) => coordinator.log.warn(`skipping unreadable group record: ${message}`),
      coordinator.pendingTxn,
    );
    coordinator.shard.onLoaded();
    coordinator.stopCleanup = coordinator.scheduler.every(coordinator.cleanupIntervalMs, () => coordinator.cleanupExpired());
    coordinator.active = true;
    if (stats.records > 0) coordinator.log.info({ records: stats.records, skipped: stats.skipped }, 'group coordinator loaded');
    return coordinator;
  }

  get isActive(): boolean {
    return this.active;
  }

  partitionFor(groupId: string): number {
    return this.offsetsLog.partitionFor(groupId);
  }

  /** __consumer_offsets' partition count. */
  get partitionCount(): number {
    return this.offsetsLog.partitions;
  }

  /**
   * Kafka's resignation of __consumer_offsets partitions (their leadership moved): the groups they hold leave memory,
   * their parked requests answered NOT_COORDINATOR and their timers stopped, until load() reads them back. Requests
   * meanwhile must be kept from the coordinator (the fault scenario coordinator-moved answers them NOT_COORDINATOR).
   */
  resign(partitions: ReadonlySet<number>): number {
    const unloaded = this.shard.unloadGroups((groupId) => partitions.has(this.partitionFor(groupId)));
    // Timer keys end with the group id, or with the group id and a member id.
    const suffixes = [...unloaded].flatMap(([groupId, members]) => [`-${groupId}`, ...members.map((m) => `-${groupId}-${m}`)]);
    this.timer.cancelWhere((key) => suffixes.some((suffix) => key.endsWith(suffix)));
    this.log.info({ partitions: [...partitions] }, `group coordinator resigned ${partitions.size} __consumer_offsets partition(s): ${unloaded.size} group(s) unloaded`);
    return unloaded.size;
  }

  /** Kafka's election to __consumer_offsets partitions: their groups are read back from the log, members' sessions start now. */
  async load(partitions: ReadonlySet<number>): Promise<void> {
    // Open transactions' offsets are still held in memory (pendingTxn); committed ones are read again from the log.
    const stats = await this.offsetsLog.load((record) => this.replay(record), (message) => this.log.warn(`skipping unreadable group record: ${message}`),
      new PendingTxnOffsets(), partitions);
    this.shard.onLoaded((groupId) => partitions.has(this.partitionFor(groupId)));
    this.log.info({ partitions: [...partitions], records: stats.records }, `group coordinator loaded ${partitions.size} __consumer_offsets partition(s)`);
  }

  /** Creates __consumer_offsets on first use, as Kafka's FindCoordinator does. */
  ensureTopic(): Promise<void> {
    return this.offsetsLog.ensureTopic();
  }

  // ---- requests (each starts its state change synchronously, before any await) ----

  joinGroup(ctx: MemberContext, request: JoinGroupRequest): Promise<JoinGroupResponse> {
    if (!this.active) return Promise.resolve({ ...createJoinGroupResponse(), memberId: request.memberId, errorCode: ErrorCode.COORDINATOR_NOT_AVAILABLE });
    return new Promise((resolve) => {
      const result = this.shard.joinGroup(ctx, request, resolve);
      this.apply(result).catch(() =>
        resolve({ ...createJoinGroupResponse(), memberId: request.memberId, errorCode: ErrorCode.COORDINATOR_NOT_AVAILABLE }),
      );
    });
  }

  syncGroup(request: SyncGroupRequest): Promise<SyncGroupResponse> {
    if (!this.active) return Promise.resolve({ ...createSyncGroupResponse(), errorCode: ErrorCode.COORDINATOR_NOT_AVAILABLE });
    return new Promise((resolve) => {
      const result = this.shard.syncGroup(request, resolve);
      this.apply(result).catch(() => resolve({ ...createSyncGroupResponse(), errorCode: ErrorCode.COORDINATOR_NOT_AVAILABLE }));
    });
  }

  heartbeat(request: HeartbeatRequest): HeartbeatResponse {
    if (!this.active) return { throttleTimeMs: 0, errorCode: ErrorCode.COORDINATOR_NOT_AVAILABLE };
    return this.shard.heartbeat(request).response;
  }

  /** ConsumerGroupHeartbeat (KIP-848): the answer once the records it wrote are in the log. */
  consumerGroupHeartbeat(ctx: MemberContext, request: ConsumerGroupHeartbeatRequest): Promise<ConsumerGroupHeartbeatResponse> {
    return this.modernHeartbeat(() => this.shard.consumerGroupHeartbeat(ctx, request), createConsumerGroupHeartbeatResponse);
  }

  consumerGroupDescribe(groupIds: readonly string[]): ConsumerGroupDescribeResponse['groups'] {
    if (!this.active) return this.unavailableGroups(groupIds, createDescribedGroup);
    return this.shard.consumerGroupDescribe(groupIds);
  }

  /** ShareGroupHeartbeat (KIP-932): the answer once the records it wrote are in the log. */
  shareGroupHeartbeat(ctx: MemberContext, request: ShareGroupHeartbeatRequest): Promise<ShareGroupHeartbeatResponse> {
    return this.modernHeartbeat(() => this.shard.shareGroupHeartbeat(ctx, request), createShareGroupHeartbeatResponse);
  }

  shareGroupDescribe(groupIds: readonly string[]): ShareGroupDescribeResponse['groups'] {
    if (!this.active) return this.unavailableGroups(groupIds, createShareDescribedGroup);
    return this.shard.shareGroupDescribe(groupIds);
  }

  /**
   * DeleteShareGroupOffsets (Kafka's GroupCoordinatorService.deleteShareGroupOffsets): the topics are recorded
   * deleting, their share state deleted by the share coordinator, then they leave the group's share partitions.
   * Per topic: its id and error; top level: GROUP_ID_NOT_FOUND, NON_EMPTY_GROUP, COORDINATOR_NOT_AVAILABLE.
   */
  async deleteShareGroupOffsets(groupId: string, topicNames: readonly string[]): Promise<{ errorCode: number; topics: { name: string; id: string | null; errorCode: number; errorMessage: string | null }[] }> {
    if (!this.active || this.shareState === undefined) return { errorCode: ErrorCode.COORDINATOR_NOT_AVAILABLE, topics: [] };
    let first;
    try {
      first = await this.apply(this.shard.shareOffsetDeletion(groupId, topicNames));
    } catch {
      return { errorCode: ErrorCode.COORDINATOR_NOT_AVAILABLE, topics: [] };
    }
    if (first.errorCode !== ErrorCode.NONE) return { errorCode: first.errorCode, topics: [] };
    const shareState = this.shareState;
    const deleted = await Promise.all(first.eligible.map(async (t) => {
      const answers = await Promise.all(t.partitions.map((partition) => shareState.delete({ groupId, topicId: t.id, partition })));
      const bad = answers.find((a) => a.errorCode !== ErrorCode.NONE);
      return { ...t, errorCode: bad?.errorCode ?? ErrorCode.NONE, errorMessage: bad?.errorMessage ?? null };
    }));
    const done = new Set(deleted.filter((t) => t.errorCode === ErrorCode.NONE).map((t) => t.id));
    if (done.size > 0) await this.apply(this.shard.shareOffsetsDeleted(groupId, done)).catch(() => undefined);
    return {
      errorCode: ErrorCode.NONE,
      topics: [
        ...deleted.map((t) => ({ name: t.name, id: t.id, errorCode: t.errorCode, errorMessage: t.errorMessage })),
        ...first.refused.map((t) => ({ name: t.name, id: null, errorCode: ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, errorMessage: t.message })),
      ],
    };
  }

  /**
   * AlterShareGroupOffsets (Kafka's alterShareGroupOffsets, then persisterInitialize): the partitions recorded
   * initializing, their share state initialized at the start offsets asked, then recorded initialized. A partition
   * the share coordinator refused answers its error.
   */
  async alterShareGroupOffsets(groupId: string, topics: Parameters<GroupShard['shareOffsetsAlteration']>[1]): Promise<{
    errorCode: number;
    responses: { topicName: string; topicId: string | null; partitions: { partitionIndex: number; errorCode: number; errorMessage: string | null }[] }[];
  }> {
    if (!this.active || this.shareState === undefined) return { errorCode: ErrorCode.COORDINATOR_NOT_AVAILABLE, responses: [] };
    let first;
    try {
      first = await this.apply(this.shard.shareOffsetsAlteration(groupId, topics));
    } catch {
      return { errorCode: ErrorCode.COORDINATOR_NOT_AVAILABLE, responses: [] };
    }
    if (first.errorCode !== ErrorCode.NONE) return { errorCode: first.errorCode, responses: [] };
    const shareState = this.shareState;
    const failures = new Map<string, { errorCode: number; errorMessage: string | null }>();
    const initialized = new Map<string, Set<number>>();
    await Promise.all([...first.offsets].flatMap(([topicId, partitions]) => [...partitions].map(async ([partition, startOffset]) => {
      const answer = await shareState.initialize({ groupId, topicId, partition }, first.stateEpoch, startOffset);
      if (answer.errorCode !== ErrorCode.NONE) failures.set(`${topicId}:${partition}`, answer);
      else initialized.set(topicId, (initialized.get(topicId) ?? new Set()).add(partition));
    })));
    if (initialized.size > 0) await this.apply(this.shard.shareOffsetsAltered(groupId, initialized)).catch(() => undefined);
    return {
      errorCode: ErrorCode.NONE,
      responses: first.responses.map((t) => ({
        ...t,
        partitions: t.partitions.map((p) => {
          const failure = t.topicId === null ? undefined : failures.get(`${t.topicId}:${p.partitionIndex}`);
          if (failure !== undefined) return { partitionIndex: p.partitionIndex, ...failure };
          return { ...p, errorMessage: p.errorCode === ErrorCode.NONE ? null : errorInfo(p.errorCode).message };
        }),
      })),
    };
  }

  /** DescribeShareGroupOffsets without topics: the group's initialized share partitions (none for no share group). */
  initializedSharePartitions(groupId: string): Map<string, number[]> {
    return this.active ? this.shard.initializedSharePartitions(groupId) : new Map();
  }

  /** ShareFetch: whether the group's share partition is initialized (only then is it read, as in Kafka). */
  isSharePartitionInitialized(groupId: string, topicId: string, partition: number): boolean {
    return this.active && this.shard.isSharePartitionInitialized(groupId, topicId, partition);
  }

  private xxh3Loaded: Promise<void> | undefined;

  /** A consumer or share group heartbeat: COORDINATOR_NOT_AVAILABLE while inactive or when its records cannot be written. */
  private async modernHeartbeat<R extends { errorCode: number }>(run: () => Outcome<R>, empty: () => R): Promise<R> {
    const unavailable = (): R => ({ ...empty(), errorCode: ErrorCode.COORDINATOR_NOT_AVAILABLE });
    if (!this.active) return unavailable();
    // The metadata hash's XXH3 is loaded on the first consumer or share group request, not at start-up.
    await (this.xxh3Loaded ??= loadXxh3());
    if (!this.active) return unavailable();
    try {
      return await this.apply(run());
    } catch {
      return unavailable();
    }
  }

  private unavailableGroups<G extends { groupId: string; errorCode: number; authorizedOperations: number }>(groupIds: readonly string[], empty: () => G): G[] {
    return groupIds.map((groupId) => ({ ...empty(), groupId, errorCode: ErrorCode.COORDINATOR_NOT_AVAILABLE, authorizedOperations: -2147483648 }));
  }

  /** StreamsGroupHeartbeat (KIP-1071): the answer once its records are in the log, with the internal topics to create. */
  async streamsGroupHeartbeat(ctx: MemberContext, request: StreamsGroupHeartbeatRequest): Promise<StreamsHeartbeatResult> {
    const unavailable = (): StreamsHeartbeatResult => ({ response: { ...createStreamsGroupHeartbeatResponse(), errorCode: ErrorCode.COORDINATOR_NOT_AVAILABLE }, internalTopicsToCreate: [] });
    if (!this.active) return unavailable();
    await (this.xxh3Loaded ??= loadXxh3());
    if (!this.active) return unavailable();
    try {
      return await this.apply(this.shard.streamsGroupHeartbeat(ctx, request));
    } catch {
      return unavailable();
    }
  }

  async streamsGroupDescribe(groupIds: readonly string[]): Promise<StreamsDescribedGroup[]> {
    if (!this.active) return groupIds.map((groupId) => ({ ...createStreamsDescribedGroup(), groupId, errorCode: ErrorCode.COORDINATOR_NOT_AVAILABLE }));
    await (this.xxh3Loaded ??= loadXxh3());
    return this.shard.streamsGroupDescribe(groupIds);
  }

  async leaveGroup(groupId: string, members: readonly MemberIdentity[]): Promise<{ errorCode: number; members: MemberResponse[] }> {
    if (!this.active) return { errorCode: ErrorCode.COORDINATOR_NOT_AVAILABLE, members: [] };
    const result = this.shard.leaveGroup(groupId, members);
    try {
      return await this.apply(result);
    } catch {
      return { errorCode: ErrorCode.COORDINATOR_NOT_AVAILABLE, members: [] };
    }
  }

  async commitOffsets(request: OffsetCommitRequest, apiVersion: number): Promise<OffsetCommitResponseTopic[]> {
    const failAll = (errorCode: number): OffsetCommitResponseTopic[] =>
      request.topics.map((t) => ({ name: t.name, topicId: t.topicId, partitions: t.partitions.map((p) => ({ partitionIndex: p.partitionIndex, errorCode })) }));
    if (!this.active) return failAll(ErrorCode.COORDINATOR_NOT_AVAILABLE);
    const result = this.shard.commitOffsets(request, apiVersion);
    try {
      return await this.apply(result);
    } catch {
      return failAll(ErrorCode.COORDINATOR_NOT_AVAILABLE);
    }
  }

  /**
   * TxnOffsetCommit: validated as an OffsetCommit of the same group, member and generation (KIP-447), written in
   * the producer's transactional batch, and applied only when the transaction's COMMIT marker is written.
   */
  async commitTransactionalOffsets(request: TxnOffsetCommitRequest): Promise<TxnOffsetCommitResponseTopic[]> {
    const failAll = (errorCode: number): TxnOffsetCommitResponseTopic[] =>
      request.topics.map((t) => ({ name: t.name, partitions: t.partitions.map((p) => ({ partitionIndex: p.partitionIndex, errorCode })) }));
    if (!this.active) return failAll(ErrorCode.COORDINATOR_NOT_AVAILABLE);
    const asCommit: OffsetCommitRequest = {
      groupId: request.groupId,
      generationIdOrMemberEpoch: request.generationId,
      memberId: request.memberId,
      groupInstanceId: request.groupInstanceId,
      retentionTimeMs: -1n,
      topics: request.topics.map((t) => ({
        name: t.name,
        topicId: ZERO_UUID, // OffsetCommit v10+ only
        partitions: t.partitions.map((p) => ({
          partitionIndex: p.partitionIndex,
          committedOffset: p.committedOffset,
          committedLeaderEpoch: p.committedLeaderEpoch,
          commitTimestamp: -1n,
          committedMetadata: p.committedMetadata,
        })),
      })),
    };
    // Version 8: a missing group with a generation is ILLEGAL_GENERATION, as for TxnOffsetCommit.
    const result = this.shard.commitOffsets(asCommit, 8, true);
    const records = result.records.filter((r): r is OffsetCommitRecord => r.type === 'offset');
    if (records.length === 0) return result.response;
    const partition = this.partitionFor(request.groupId);
    const producer = { producerId: Number(request.producerId), producerEpoch: request.producerEpoch };
    try {
      await this.offsetsLog.append(partition, records, undefined, producer);
    } catch (error) {
      this.log.error({ err: error }, 'writing a transactional offset commit failed');
      return failAll(ErrorCode.COORDINATOR_NOT_AVAILABLE);
    }
    this.pendingTxn.add(producer.producerId, partition, records);
    return result.response;
  }

  /**
   * The transaction coordinator's marker for this __consumer_offsets partition: `writeMarker` appends it (after
   * every queued write), then a COMMIT applies the producer's pending offsets and an ABORT drops them.
   */
  async completeTransaction(partition: number, producerId: number, commit: boolean, writeMarker: () => Promise<number>): Promise<number> {
    await this.offsetsLog.settled(partition);
    const errorCode = await writeMarker();
    if (errorCode !== ErrorCode.NONE) return errorCode;
    const records = this.pendingTxn.take(producerId, partition);
    if (commit) for (const record of records) this.replay(record);
    return ErrorCode.NONE;
  }

  /**
   * A topic was deleted (Kafka's onPartitionsDeleted): every group's offsets on its partitions, committed or
   * pending in an open transaction, get tombstones, so they stay gone after a restart and a topic re-created
   * under the name starts with none; share groups record their share partitions' state without it. A failed write
   * is logged, as Kafka does; the deletion stands.
   */
  async onPartitionsDeleted(topic: string, partitionCount: number, topicId?: string): Promise<void> {
    if (!this.active) return;
    try {
      await this.apply(this.shard.onPartitionsDeleted(topic, partitionCount, this.pendingTxn.all()));
      // Then, as Kafka's service does, the share groups' state without the topic.
      if (topicId !== undefined) await this.apply(this.shard.onShareTopicsDeleted(new Set([topicId])));
    } catch (error) {
      this.log.error({ err: error, topic }, 'could not delete the offsets of a deleted topic');
    }
  }

  /** Whether an open transaction holds an offset of the group (OffsetFetch require_stable). */
  hasPendingTransactionalOffsets(groupId: string, topic?: string, partition?: number): boolean {
    return this.pendingTxn.hasPending(groupId, topic, partition);
  }

  /**
   * Committed offsets of one group, read once the partition's pending writes are in the log. With
   * `requireStable` (OffsetFetch v7+), a partition an open transaction holds an offset for answers
   * UNSTABLE_OFFSET_COMMIT with offset -1, as Kafka's OffsetMetadataManager does; with no topics listed only
   * the partitions with a committed offset are reported, so a partition with only a pending one stays out.
   */
  async fetchOffsets(
    groupId: string,
    topics: readonly FetchTopic[] | null,
    requireStable = false,
    member?: FetchingMember,
  ): Promise<FetchedGroup> {
    if (!this.active) return { errorCode: ErrorCode.COORDINATOR_NOT_AVAILABLE, topics: [] };
    await this.offsetsLog.settled(this.partitionFor(groupId));
    const fetched = this.shard.fetchOffsets(groupId, topics, member);
    if (!requireStable || !this.pendingTxn.hasPending(groupId)) return fetched;
    return {
      ...fetched,
      topics: fetched.topics.map((t) => ({
        ...t,
        partitions: t.partitions.map((p) =>
          this.pendingTxn.hasPending(groupId, t.name, p.partitionIndex)
            ? { partitionIndex: p.partitionIndex, committedOffset: -1n, committedLeaderEpoch: -1, metadata: '', errorCode: ErrorCode.UNSTABLE_OFFSET_COMMIT }
            : p,
        ),
      })),
    };
  }

  async deleteOffsets(request: OffsetDeleteRequest): Promise<{ errorCode: number; topics: OffsetDeleteResponseTopic[] }> {
    if (!this.active) return { errorCode: ErrorCode.COORDINATOR_NOT_AVAILABLE, topics: [] };
    const result = this.shard.deleteOffsets(request);
    try {
      return await this.apply(result);
    } catch {
      return { errorCode: ErrorCode.COORDINATOR_NOT_AVAILABLE, topics: [] };
    }
  }

  describeGroups(groupIds: readonly string[]): DescribedGroup[] {
    return groupIds.map((groupId) => {
      const described = this.shard.describeGroup(groupId);
      return this.active ? described : { ...described, errorCode: ErrorCode.COORDINATOR_NOT_AVAILABLE, errorMessage: null };
    });
  }

  listGroups(statesFilter: readonly string[], typesFilter: readonly string[]): { errorCode: number; groups: ListedGroup[] } {
    if (!this.active) return { errorCode: ErrorCode.COORDINATOR_NOT_AVAILABLE, groups: [] };
    return { errorCode: ErrorCode.NONE, groups: this.shard.listGroups(statesFilter, typesFilter) };
  }

  async deleteGroups(groupIds: readonly string[]): Promise<{ groupId: string; errorCode: number }[]> {
    if (!this.active) return groupIds.map((groupId) => ({ groupId, errorCode: ErrorCode.COORDINATOR_NOT_AVAILABLE }));
    let result = this.shard.deleteGroups(groupIds);
    // A share group's state goes first (Kafka's deleteShareGroups): a group whose state could not be deleted stays.
    const shareState = this.shareState;
    const shareGroups = shareState === undefined ? [] : result.response.filter((r) => r.errorCode === ErrorCode.NONE && this.shard.sharePartitionsOf(r.groupId).size > 0);
    if (shareGroups.length > 0) {
      const failed = new Map<string, number>();
      await Promise.all(shareGroups.map(async ({ groupId }) => {
        for (const [topicId, partitions] of this.shard.sharePartitionsOf(groupId)) {
          const answers = await Promise.all(partitions.map((partition) => shareState!.delete({ groupId, topicId, partition })));
          const bad = answers.find((a) => a.errorCode !== ErrorCode.NONE);
          if (bad !== undefined && !failed.has(groupId)) failed.set(groupId, bad.errorCode);
        }
      }));
      if (failed.size > 0) {
        const kept = this.shard.deleteGroups(groupIds.filter((id) => !failed.has(id)));
        const byId = new Map(kept.response.map((r) => [r.groupId, r] as const));
        result = { ...kept, response: groupIds.map((groupId) => byId.get(groupId) ?? { groupId, errorCode: failed.get(groupId)! }) };
      }
    }
    try {
      return await this.apply(result);
    } catch {
      return result.response.map(({ groupId, errorCode }) => ({
        groupId,
        errorCode: errorCode === ErrorCode.NONE ? ErrorCode.COORDINATOR_NOT_AVAILABLE : errorCode,
      }));
    }
  }

  /** Runs the offsets-retention clean-up now (it also runs every offsets.retention.check.interval.ms). */
  cleanupExpired(): Promise<void> {
    if (!this.active) return Promise.resolve();
    return this.apply(this.shard.cleanupExpired()).catch(() => undefined);
  }

  /**
   * Stops serving: timers stop, parked JoinGroup/SyncGroup requests are answered NOT_COORDINATOR (so
   * connections can close), and the returned promise resolves once every queued write is in the log.
   */
  close(): Promise<void> {
    if (this.active) {
      this.active = false;
      this.stopCleanup?.();
      this.timer.cancelAll();
      this.shard.unload();
    }
    return this.offsetsLog.settledAll();
  }

  // ---- the runtime ----

  /** Applies one record; an offset tombstone also drops the key from open transactions, as in Kafka's replay. */
  private replay(record: GroupRecord): void {
    this.shard.replay(record);
    if (record.type === 'offset' && record.value === null) this.pendingTxn.drop(record.group, record.topic, record.partition);
  }

  /**
   * Replays the outcome's records (when marked so), appends them to their partitions, then runs the
   * outcome's onWritten and resolves with its response; rejects when a write failed.
   */
  private apply<R>(result: Outcome<R>): Promise<R> {
    if (result.replay) for (const record of result.records) this.replay(record);
    const followUp = (error: Error | null): void => {
      const next = result.onWritten?.(error);
      if (next !== undefined) void this.apply(next).catch(() => undefined);
    };
    if (result.records.length === 0) {
      followUp(null);
      return Promise.resolve(result.response);
    }
    const byPartition = new Map<number, GroupRecord[]>();
    for (const record of result.records) {
      const partition = this.partitionFor(record.group);
      let list = byPartition.get(partition);
      if (list === undefined) byPartition.set(partition, (list = []));
      list.push(record);
    }
    const writes = [...byPartition].map(([partition, records]) => this.offsetsLog.append(partition, records));
    return Promise.all(writes).then(
      () => {
        followUp(null);
        return result.response;
      },
      (error: Error) => {
        this.log.error({ err: error }, 'writing to __consumer_offsets failed');
        followUp(error);
        throw error;
      },
    );
  }
}

/** Kafka's persisterInitialize: every partition's state at the group epoch and start offset -1; true when all succeeded. */
function initializeWith(shareState: ShareStateInitializer, log: Log) {
  return async (groupId: string, stateEpoch: number, topics: ReadonlyMap<string, ReadonlySet<number>>): Promise<boolean> => {
    const answers = await Promise.all([...topics].flatMap(([topicId, partitions]) =>
      [...partitions].map((partition) => shareState.initialize({ groupId, topicId, partition }, stateEpoch, -1))));
    const failed = answers.find((a) => a.errorCode !== ErrorCode.NONE);
    if (failed !== undefined) log.error(`initializing the share state of group ${groupId} failed: ${failed.errorMessage ?? failed.errorCode}`);
    return failed === undefined;
  };
}
