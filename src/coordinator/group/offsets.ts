/**
 * Committed offsets (Kafka's OffsetMetadataManager): OffsetCommit, OffsetFetch, OffsetDelete and
 * expiration. The offsets map changes only by replaying OffsetCommit records.
 */
import { ZERO_UUID } from '../../protocol/uuid.js';
import { ErrorCode } from '../../protocol/error-codes.js';
import type { OffsetCommitRequest, OffsetCommitResponseTopic } from '../../protocol/generated/offset-commit.js';
import type { OffsetDeleteRequest, OffsetDeleteResponseTopic } from '../../protocol/generated/offset-delete.js';
import type { OffsetFetchResponseTopics } from '../../protocol/generated/offset-fetch.js';
import { outcome, type Outcome } from '../runtime/outcome.js';
import { ClassicGroup } from './classic-group.js';
import type { GroupConfig } from './group-config.js';
import { GroupError } from './group-error.js';
import type { ConsumerGroup } from './consumer/consumer-group.js';
import type { ConsumerGroupMember } from './consumer/member.js';
import { StaticTopicsImage, type TopicsImage } from './consumer/topics-image.js';
import type { StreamsGroup } from './streams/streams-group.js';
import { validateStreamsOffsetCommit, validateStreamsOffsetFetch, type PartitionValidator } from './streams/offset-validation.js';
import { validateMember, type Clock, type Membership } from './membership.js';
import { offsetCommitRecord, offsetTombstone, type GroupRecord, type OffsetAndMetadata, type OffsetCommitRecord } from './records.js';

/** OffsetCommitRequest.DEFAULT_RETENTION_TIME: use the broker's retention. */
const DEFAULT_RETENTION_TIME = -1n;
const INVALID_OFFSET = -1n;

export interface FetchedGroup {
  errorCode: number;
  topics: OffsetFetchResponseTopics[];
}

/** The partitions OffsetFetch asks of one topic, by name; the id (v10+) is answered as asked. */
export interface FetchTopic {
  name: string;
  topicId?: string;
  partitionIndexes: readonly number[];
}

/** group → topic → partition → committed offset. */
export class OffsetStore {
  private readonly byGroup = new Map<string, Map<string, Map<number, OffsetAndMetadata>>>();

  get(group: string, topic: string, partition: number): OffsetAndMetadata | undefined {
    return this.byGroup.get(group)?.get(topic)?.get(partition);
  }

  topics(group: string): ReadonlyMap<string, ReadonlyMap<number, OffsetAndMetadata>> | undefined {
    return this.byGroup.get(group);
  }

  groups(): IterableIterator<string> {
    return this.byGroup.keys();
  }

  /** Forgets a group's offsets (its coordinator resigned; the log keeps them). */
  dropGroup(group: string): void {
    this.byGroup.delete(group);
  }

  replay(record: OffsetCommitRecord): void {
    const { group, topic, partition, value } = record;
    if (value !== null) {
      let topics = this.byGroup.get(group);
      if (topics === undefined) this.byGroup.set(group, (topics = new Map()));
      let partitions = topics.get(topic);
      if (partitions === undefined) topics.set(topic, (partitions = new Map()));
      partitions.set(partition, value);
      return;
    }
    const topics = this.byGroup.get(group);
    const partitions = topics?.get(topic);
    if (partitions === undefined) return;
    partitions.delete(partition);
    if (partitions.size === 0) topics!.delete(topic);
    if (topics!.size === 0) this.byGroup.delete(group);
  }

}

export class OffsetOps {
  constructor(
    private readonly groups: Map<string, ClassicGroup>,
    private readonly offsets: OffsetStore,
    private readonly membership: Membership,
    private readonly config: GroupConfig,
    private readonly clock: Clock,
    private readonly consumerGroups: ReadonlyMap<string, ConsumerGroup> = new Map(),
    /** Topic ids by name: a commit naming its topics is checked by id, as Kafka's KafkaApis fills the ids in first. */
    private readonly topics: () => TopicsImage = () => new StaticTopicsImage([]),
    private readonly streamsGroups: ReadonlyMap<string, StreamsGroup> = new Map(),
  ) {}

  /** `transactional`: a TxnOffsetCommit validated as an OffsetCommit (KIP-447). */
  commit(request: OffsetCommitRequest, apiVersion: number, transactional = false): Outcome<OffsetCommitResponseTopic[]> {
    const failAll = (errorCode: number): Outcome<OffsetCommitResponseTopic[]> =>
      outcome(request.topics.map((t) => ({ name: t.name, topicId: t.topicId, partitions: t.partitions.map((p) => ({ partitionIndex: p.partitionIndex, errorCode })) })));
    const consumerGroup = this.consumerGroups.get(request.groupId);
    if (consumerGroup !== undefined) {
      try {
        const check = validateConsumerOffsetCommit(consumerGroup, request, apiVersion, transactional);
        if (check !== null) {
          const image = this.topics();
          // A partition the member may not commit fails the whole request, as Kafka's validator throws.
          for (const topic of request.topics) {
            const topicId = topic.topicId !== ZERO_UUID ? topic.topicId : (image.byName(topic.name)?.id ?? ZERO_UUID);
            for (const p of topic.partitions) check(topic.name, topicId, p.partitionIndex);
          }
        }
      } catch (error) {
        return failAll(GroupError.codeOf(error));
      }
      return this.commitRecords(request);
    }
    const streamsGroup = this.streamsGroups.get(request.groupId);
    if (streamsGroup !== undefined) {
      let check: PartitionValidator;
      try {
        check = validateStreamsOffsetCommit(streamsGroup, request.memberId, request.groupInstanceId, request.generationIdOrMemberEpoch, transactional, apiVersion);
      } catch (error) {
        return failAll(GroupError.codeOf(error));
      }
      return this.commitRecords(request, check);
    }
    // "" is a group like any other here, as in Kafka (kept for old clients); TxnOffsetCommit refuses it before.
    let group = this.groups.get(request.groupId);
    try {
      if (group === undefined) {
        if (request.generationIdOrMemberEpoch >= 0) {
          throw new GroupError(apiVersion >= 9 ? 'GROUP_ID_NOT_FOUND' : 'ILLEGAL_GENERATION');
        }
        // A commit outside group management (admin client, assign()): a "simple" group is created.
        group = new ClassicGroup(request.groupId, 'Empty', this.clock.now());
        this.groups.set(request.groupId, group);
      }
      validateOffsetCommit(group, request.memberId, request.groupInstanceId, request.generationIdOrMemberEpoch);
    } catch (error) {
      return failAll(GroupError.codeOf(error));
    }

    // Commits keep a classic member's session alive while the group is Stable or rebalancing.
    const member = group.member(request.memberId);
    if (member !== undefined && (group.is('Stable') || group.is('PreparingRebalance'))) this.membership.rescheduleHeartbeat(group, member);
    return this.commitRecords(request);
  }

  private commitRecords(request: OffsetCommitRequest, check: PartitionValidator = () => undefined): Outcome<OffsetCommitResponseTopic[]> {
    const now = this.clock.now();
    const expireTimestamp = request.retentionTimeMs === DEFAULT_RETENTION_TIME ? null : now + Number(request.retentionTimeMs);
    const records: GroupRecord[] = [];
    const topics: OffsetCommitResponseTopic[] = request.topics.map((topic) => ({
      name: topic.name,
      topicId: topic.topicId, // v10+: answered by the id asked
      partitions: topic.partitions.map((p) => {
        const metadata = p.committedMetadata ?? '';
        try {
          check(topic.name, p.partitionIndex);
        } catch (error) {
          return { partitionIndex: p.partitionIndex, errorCode: GroupError.codeOf(error) };
        }
        if (Buffer.byteLength(metadata) > this.config.offsetMetadataMaxBytes) {
          return { partitionIndex: p.partitionIndex, errorCode: ErrorCode.OFFSET_METADATA_TOO_LARGE };
        }
        records.push(
          offsetCommitRecord(request.groupId, topic.name, p.partitionIndex, {
            offset: Number(p.committedOffset),
            leaderEpoch: p.committedLeaderEpoch,
            metadata,
            commitTimestamp: now,
            expireTimestamp,
            ...(topic.topicId === ZERO_UUID ? {} : { topicId: topic.topicId }),
          }),
        );
        return { partitionIndex: p.partitionIndex, errorCode: ErrorCode.NONE };
      }),
    }));
    return outcome(topics, records);
  }

  /**
   * One group's committed offsets: the partitions asked for (-1 when none), or all of them when topics is null.
   * A consumer group's member (OffsetFetch v9+) is checked as Kafka's ConsumerGroup.validateOffsetFetch does.
   */
  fetch(groupId: string, topics: readonly FetchTopic[] | null, member: FetchingMember = NO_MEMBER): FetchedGroup {
    const consumerGroup = this.consumerGroups.get(groupId);
    if (consumerGroup !== undefined) {
      try {
        validateConsumerOffsetFetch(consumerGroup, member);
      } catch (error) {
        return { errorCode: GroupError.codeOf(error), topics: [] };
      }
    }
    const streamsGroup = this.streamsGroups.get(groupId);
    if (streamsGroup !== undefined) {
      try {
        validateStreamsOffsetFetch(streamsGroup, member.memberId, member.memberEpoch);
      } catch (error) {
        return { errorCode: GroupError.codeOf(error), topics: [] };
      }
    }
    const group = this.groups.get(groupId);
    const stored = consumerGroup === undefined && streamsGroup === undefined && (group === undefined || group.is('Dead')) ? undefined : this.offsets.topics(groupId);
    if (topics === null) {
      const all: OffsetFetchResponseTopics[] = [];
      for (const [name, partitions] of stored ?? []) {
        all.push({
          name,
          topicId: ZERO_UUID, // v10+ only
          partitions: [...partitions].map(([partitionIndex, o]) => ({
            partitionIndex,
            committedOffset: BigInt(o.offset),
            committedLeaderEpoch: o.leaderEpoch,
            metadata: o.metadata,
            errorCode: ErrorCode.NONE,
          })),
        });
      }
      return { errorCode: ErrorCode.NONE, topics: all };
    }
    return {
      errorCode: ErrorCode.NONE,
      topics: topics.map((t) => ({
        name: t.name,
        topicId: t.topicId ?? ZERO_UUID,
        partitions: t.partitionIndexes.map((partitionIndex) => {
          const o = stored?.get(t.name)?.get(partitionIndex);
          return o === undefined
            ? { partitionIndex, committedOffset: INVALID_OFFSET, committedLeaderEpoch: -1, metadata: '', errorCode: ErrorCode.NONE }
            : { partitionIndex, committedOffset: BigInt(o.offset), committedLeaderEpoch: o.leaderEpoch, metadata: o.metadata, errorCode: ErrorCode.NONE };
        }),
      })),
    };
  }

  /** OffsetDelete: top-level error code and per-partition results. */
  delete(request: OffsetDeleteRequest): Outcome<{ errorCode: number; topics: OffsetDeleteResponseTopic[] }> {
    const fail = (errorCode: number) => outcome({ errorCode, topics: [] as OffsetDeleteResponseTopic[] });
    if (request.groupId === '') return fail(ErrorCode.INVALID_GROUP_ID);
    // A consumer group's offsets may be deleted while it has members, except for topics it subscribes to.
    const group: { isSubscribedToTopic(topic: string): boolean } | undefined =
      this.consumerGroups.get(request.groupId) ?? this.streamsGroups.get(request.groupId) ?? this.groups.get(request.groupId);
    if (group === undefined || (group instanceof ClassicGroup && group.is('Dead'))) return fail(ErrorCode.GROUP_ID_NOT_FOUND);
    if (group instanceof ClassicGroup && !group.is('Empty') && !group.usesConsumerProtocol()) return fail(ErrorCode.NON_EMPTY_GROUP);

    const records: GroupRecord[] = [];
    const topics = request.topics.map((topic) => {
      const subscribed = group.isSubscribedToTopic(topic.name);
      return {
        name: topic.name,
        partitions: topic.partitions.map(({ partitionIndex }) => {
          if (subscribed) return { partitionIndex, errorCode: ErrorCode.GROUP_SUBSCRIBED_TO_TOPIC };
          if (this.offsets.get(request.groupId, topic.name, partitionIndex) !== undefined) {
            records.push(offsetTombstone(request.groupId, topic.name, partitionIndex));
          }
          return { partitionIndex, errorCode: ErrorCode.NONE };
        }),
      };
    });
    return outcome({ errorCode: ErrorCode.NONE, topics }, records);
  }

  /** Tombstones for every offset of a group (DeleteGroups). */
  deleteAll(groupId: string, records: GroupRecord[]): void {
    for (const [topic, partitions] of this.offsets.topics(groupId) ?? []) {
      for (const partition of partitions.keys()) records.push(offsetTombstone(groupId, topic, partition));
    }
  }

  /**
   * Tombstones for every group's offsets on a deleted topic's partitions, committed or held by an open
   * transaction (`pending`), as Kafka's OffsetMetadataManager.onPartitionsDeleted writes them.
   */
  onPartitionsDeleted(topic: string, partitionCount: number, pending: Iterable<OffsetCommitRecord>): GroupRecord[] {
    const keys = new Map<string, OffsetCommitRecord>();
    const add = (group: string, partition: number): void => {
      if (partition < partitionCount) keys.set(`${group}\u0000${partition}`, offsetTombstone(group, topic, partition));
    };
    for (const group of this.offsets.groups()) {
      for (const partition of this.offsets.topics(group)?.get(topic)?.keys() ?? []) add(group, partition);
    }
    for (const r of pending) if (r.topic === topic) add(r.group, r.partition);
    return [...keys.values()];
  }

  /**
   * A consumer group's expired offsets (aged from their commit, Kafka's ModernGroup condition), skipping the topics
   * it subscribes to; true when none is left.
   */
  expireByCommit(groupId: string, subscribed: (topic: string) => boolean, records: GroupRecord[]): boolean {
    return this.expireOffsets(groupId, (o) => o.commitTimestamp, subscribed, records);
  }

  /**
   * Tombstones for the group's expired offsets (Kafka's cleanupExpiredOffsets); true when every offset
   * expired, so an empty group may be deleted too.
   */
  expire(groupId: string, records: GroupRecord[]): boolean {
    const topics = this.offsets.topics(groupId);
    if (topics === undefined) return true;
    const group = this.groups.get(groupId);
    if (group === undefined) return false;
    const baseTimestamp = expirationBase(group);
    if (baseTimestamp === null) return false;
    return this.expireOffsets(groupId, baseTimestamp, (topic) => group.isSubscribedToTopic(topic), records);
  }

  /** Tombstones for the offsets aged past retention from `base` (or their own expiry), skipping `kept` topics; true when all went. */
  private expireOffsets(groupId: string, baseTimestamp: (o: OffsetAndMetadata) => number, kept: (topic: string) => boolean, records: GroupRecord[]): boolean {
    const now = this.clock.now();
    let allExpired = true;
    for (const [topic, partitions] of this.offsets.topics(groupId) ?? []) {
      if (kept(topic)) {
        allExpired = false;
        continue;
      }
      for (const [partition, o] of partitions) {
        const expired = o.expireTimestamp !== null ? now >= o.expireTimestamp : now - baseTimestamp(o) >= this.config.offsetsRetentionMs;
        if (expired) records.push(offsetTombstone(groupId, topic, partition));
        else allExpired = false;
      }
    }
    return allExpired;
  }
}

/**
 * Kafka's offsetExpirationCondition: an empty group's offsets age from when it became empty; a stable
 * consumer group's unsubscribed offsets and a simple group's offsets age from their commit; otherwise none expire.
 */
function expirationBase(group: ClassicGroup): ((o: OffsetAndMetadata) => number) | null {
  if (group.protocolType === null) return (o) => o.commitTimestamp;
  if (group.is('Empty')) return (o) => group.currentStateTimestamp ?? o.commitTimestamp;
  if (group.usesConsumerProtocol() && group.subscribedTopics !== null && group.is('Stable')) return (o) => o.commitTimestamp;
  return null;
}

/** The member an OffsetFetch names (v9+): null and -1 for the admin client or a client that names none. */
export interface FetchingMember {
  readonly memberId: string | null;
  readonly memberEpoch: number;
}

const NO_MEMBER: FetchingMember = { memberId: null, memberEpoch: -1 };

/** Kafka's ConsumerGroup.validateMemberEpoch: a classic member is told ILLEGAL_GENERATION, a consumer-protocol one STALE_MEMBER_EPOCH. */
function validateMemberEpoch(received: number, expected: number, classic = false): void {
  if (received === expected) return;
  if (classic) throw new GroupError('ILLEGAL_GENERATION', `The received generation id ${received} does not match the expected member epoch ${expected}.`);
  throw new GroupError('STALE_MEMBER_EPOCH', `The received member epoch ${received} does not match the expected member epoch ${expected}.`);
}

function consumerMember(group: ConsumerGroup, memberId: string): ConsumerGroupMember {
  const member = group.members.get(memberId);
  if (member === undefined) throw new GroupError('UNKNOWN_MEMBER_ID', `Member ${memberId} is not a member of group ${group.groupId}.`);
  return member;
}

/** A check of one partition of a commit (Kafka's CommitPartitionValidator); throws when it may not be committed. */
type PartitionCheck = (topic: string, topicId: string, partition: number) => void;

/**
 * Kafka 4.3.1's ConsumerGroup.validateOffsetCommit: epoch -1 commits into an empty group (or, transactional, from no
 * member); the member's epoch commits anything; a newer one is refused; an older one (KIP-1251) commits the partitions
 * the member held since that epoch (the returned check). A classic member, or a TxnOffsetCommit (whose API has no
 * STALE_MEMBER_EPOCH), is told ILLEGAL_GENERATION where a consumer-protocol member is told STALE_MEMBER_EPOCH.
 */
function validateConsumerOffsetCommit(group: ConsumerGroup, request: OffsetCommitRequest, apiVersion: number, transactional: boolean): PartitionCheck | null {
  const memberEpoch = request.generationIdOrMemberEpoch;
  if (memberEpoch < 0 && group.members.size === 0) return null;
  if (transactional && memberEpoch === -1 && request.memberId === '' && request.groupInstanceId === null) return null;
  const member = consumerMember(group, request.memberId);
  if (!transactional && member.classicMemberMetadata === null && apiVersion < 9) {
    throw new GroupError('UNSUPPORTED_VERSION', 'OffsetCommit version 9 or above must be used by members using the consumer group protocol');
  }
  if (memberEpoch === member.memberEpoch) return null;
  const classic = transactional || member.classicMemberMetadata !== null;
  const refuse = (message: string): never => {
    throw new GroupError(classic ? 'ILLEGAL_GENERATION' : 'STALE_MEMBER_EPOCH', message);
  };
  const received = classic ? 'generation id' : 'member epoch';
  if (memberEpoch > member.memberEpoch) refuse(`Received ${received} ${memberEpoch} is newer than current member epoch ${member.memberEpoch}.`);
  return (topic, topicId, partition) => {
    const epoch = member.assignedPartitions.get(topicId)?.get(partition) ?? member.partitionsPendingRevocation.get(topicId)?.get(partition);
    if (epoch === undefined) refuse(`Partition ${topic}-${partition} is not assigned or pending revocation for member.`);
    else if (memberEpoch < epoch) refuse(`Received ${received} ${memberEpoch} is older than assignment epoch ${epoch} for partition ${topic}-${partition}.`);
  };
}

/** Kafka's ConsumerGroup.validateOffsetFetch. */
function validateConsumerOffsetFetch(group: ConsumerGroup, member: FetchingMember): void {
  if (member.memberId === null && member.memberEpoch < 0) return;
  const found = consumerMember(group, member.memberId ?? '');
  // A classic member is told ILLEGAL_GENERATION, as for its commits.
  validateMemberEpoch(member.memberEpoch, found.memberEpoch, found.classicMemberMetadata !== null);
}

/** Kafka's ClassicGroup.validateOffsetCommit. */
function validateOffsetCommit(group: ClassicGroup, memberId: string, groupInstanceId: string | null, generationId: number): void {
  if (group.is('Dead')) throw new GroupError('COORDINATOR_NOT_AVAILABLE');
  // Generation -1 on an empty group: the admin client or a consumer outside group management.
  if (generationId < 0 && group.is('Empty')) return;
  if (generationId >= 0 || memberId !== '' || groupInstanceId !== null) {
    validateMember(group, memberId, groupInstanceId);
    if (generationId !== group.generationId) throw new GroupError('ILLEGAL_GENERATION');
  } else if (!group.is('Empty')) {
    throw new GroupError('UNKNOWN_MEMBER_ID');
  }
  if (group.is('CompletingRebalance')) throw new GroupError('REBALANCE_IN_PROGRESS');
}
