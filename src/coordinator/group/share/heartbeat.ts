/**
 * ShareGroupHeartbeat as Kafka 4.3.1's GroupMetadataManager serves it (KIP-932): a member joins with epoch 0 and its
 * subscribed topic names, heartbeats with its epoch, leaves with -1. A subscription change bumps the group epoch, and
 * so does a change of the subscribed topics' metadata hash, or share partitions newly initialized; a group epoch
 * ahead of the target's computes a new target with the simple assignor (at most one per `share.assignment.interval.ms`),
 * and the member moves to it at once (share partitions are shared: nothing is revoked first). Only initialized share
 * partitions are assigned: a heartbeat that subscribes to partitions not initialized yet records them as initializing,
 * and a task after it initializes their share state and records them initialized (Kafka: the persister's
 * InitializeShareGroupState, then initializeShareGroupState); the next heartbeat assigns them. As for consumer groups,
 * nothing here mutates a group: the outcome's records do, replayed by the runtime.
 */
import {
  createShareGroupHeartbeatResponse,
  type ShareGroupHeartbeatRequest,
  type ShareGroupHeartbeatResponse,
} from '../../../protocol/generated/share-group-heartbeat.js';
import { errorCodeOf } from '../../../protocol/kafka-error.js';
import { kafkaMemberOrder } from '../../runtime/java-hash-table.js';
import { javaStringHashCode } from '../../runtime/java-hash.js';
import { copyCapacity, JavaHashTable } from '../../runtime/java-hash-table.js';
import { NOTHING, outcome, type Outcome } from '../../runtime/outcome.js';
import { PartitionAssignorError, type SubscribedTopicDescriber, type TopicPartitions } from '../consumer/assignor.js';
import { subscriptionTypeOf } from '../consumer/consumer-group.js';
import { computeMetadataHash } from '../consumer/metadata-hash.js';
import { sameAssignment } from '../consumer/target-assignment.js';
import type { TopicsImage } from '../consumer/topics-image.js';
import { KafkaError } from '../../../protocol/kafka-error.js';
import { GroupError } from '../group-error.js';
import type { Clock, MemberContext } from '../membership.js';
import type { CoordinatorTimer } from '../../runtime/keyed-timer.js';
import { newShareMember, sameSet, sameShareMember, type ShareGroupMember } from './member.js';
import {
  shareCurrentAssignmentRecord,
  shareCurrentAssignmentTombstone,
  shareGroupEpochRecord,
  shareMemberRecord,
  shareMemberTombstone,
  shareTargetMemberRecord,
  shareTargetMemberTombstone,
  shareTargetMetadataRecord,
  statePartitionMetadataRecord,
  type InitTopic,
  type ShareGroupRecord,
  type StatePartitionMetadata,
} from './records.js';
import { ShareGroup, NO_STATE_PARTITIONS } from './share-group.js';
import { assignSimple } from './simple-assignor.js';

export const SHARE_LEAVE_GROUP_MEMBER_EPOCH = -1;

/** A share group's effective settings (broker configs, overridden per group). */
export interface ShareGroupSettings {
  readonly sessionTimeoutMs: number;
  readonly heartbeatIntervalMs: number;
  readonly assignmentIntervalMs: number;
}

export interface ShareGroupHeartbeatDeps {
  /** The share group of that id, undefined when none; throws GROUP_ID_NOT_FOUND for a group of another type. */
  readonly shareGroup: (groupId: string) => ShareGroup | undefined;
  readonly topics: () => TopicsImage;
  /** `group.share.max.size`. */
  readonly maxSize: number;
  /** `group.share.initialize.retry.interval.ms`: an initialization older than this is tried again. */
  readonly initializeRetryIntervalMs: number;
  readonly settings: (groupId: string) => ShareGroupSettings;
  readonly timer: CoordinatorTimer<Outcome<void>>;
  readonly clock: Clock;
  /**
   * The share coordinator's InitializeShareGroupState for partitions the group starts on (state epoch: the group
   * epoch, start offset -1), resolving true once every one succeeded; undefined: nothing to initialize (tests).
   */
  readonly initializeState?: (groupId: string, stateEpoch: number, topics: ReadonlyMap<string, ReadonlySet<number>>) => Promise<boolean>;
}

export const shareSessionKey = (groupId: string, memberId: string): string => `share-session-${groupId}-${memberId}`;
/** One task per group and set of partitions, so a second heartbeat's initialization does not replace the first's. */
const shareInitializeKey = (groupId: string, topics: ReadonlyMap<string, ReadonlySet<number>>): string =>
  `share-initialize-${groupId}-${[...topics].map(([id, ps]) => `${id}:${[...ps].join(',')}`).join(';')}`;

/** Kafka's throwIfShareGroupHeartbeatRequestIsInvalid, with its messages. */
function validate(request: ShareGroupHeartbeatRequest): void {
  const invalid = (message: string): never => {
    throw new GroupError('INVALID_REQUEST', message);
  };
  if (request.memberId === '') invalid("MemberId can't be empty.");
  if (request.groupId === '') invalid("GroupId can't be empty.");
  if (request.rackId === '') invalid("RackId can't be empty.");
  if (request.memberEpoch === 0) {
    if (request.subscribedTopicNames === null || request.subscribedTopicNames.length === 0) invalid('SubscribedTopicNames must be set in first request.');
  } else if (request.memberEpoch < SHARE_LEAVE_GROUP_MEMBER_EPOCH) invalid('MemberEpoch is invalid.');
}

function throwIfEpochInvalid(member: ShareGroupMember, received: number): void {
  if (received > member.memberEpoch) {
    throw new GroupError(
      'FENCED_MEMBER_EPOCH',
      `The share group member has a greater member epoch (${received}) than the one known by the group coordinator (${member.memberEpoch}). The member must abandon all its partitions and rejoin.`,
    );
  }
  // The previous epoch is accepted: the response that bumped it may have been lost.
  if (received < member.memberEpoch && received !== member.previousMemberEpoch) {
    throw new GroupError(
      'FENCED_MEMBER_EPOCH',
      `The share group member has a smaller member epoch (${received}) than the one known by the group coordinator (${member.memberEpoch}), and it does not match the previous member epoch (${member.previousMemberEpoch}). The member must abandon all its partitions and rejoin.`,
    );
  }
}

/** Java's `new HashSet<>(names)`: the order Kafka's TopicIds iterates a member's subscription in. */
function subscriptionOrder(names: ReadonlySet<string>): string[] {
  const set = new JavaHashTable<string, true>(javaStringHashCode, copyCapacity(names.size));
  for (const name of names) set.set(name, true);
  return set.keys();
}

function topicIds(member: ShareGroupMember, image: TopicsImage): Set<string> {
  const ids = new Set<string>();
  for (const name of subscriptionOrder(member.subscribedTopicNames)) {
    const topic = image.byName(name);
    if (topic !== undefined) ids.add(topic.id);
  }
  return ids;
}

/** The topic names the group subscribes to with `updated` in place of its old self (null: `removed` gone). */
function subscribedNames(group: ShareGroup, updated: ShareGroupMember | null, removed: string | null): Map<string, number> {
  const counts = new Map(group.subscribedTopicNames);
  const dec = (m: ShareGroupMember | undefined) => {
    if (m !== undefined) for (const t of m.subscribedTopicNames) counts.set(t, counts.get(t)! - 1);
  };
  dec(group.members.get(updated?.memberId ?? removed ?? ''));
  if (updated !== null) for (const t of updated.subscribedTopicNames) counts.set(t, (counts.get(t) ?? 0) + 1);
  for (const [t, c] of counts) if (c <= 0) counts.delete(t);
  return counts;
}

/** Kafka's combineInitMaps: the partitions of both, the second's name and timestamp winning. */
export function combineInit(a: ReadonlyMap<string, InitTopic>, b: ReadonlyMap<string, InitTopic>): Map<string, InitTopic> {
  const out = new Map<string, InitTopic>();
  for (const id of new Set([...a.keys(), ...b.keys()])) {
    const x = a.get(id);
    const y = b.get(id);
    out.set(id, {
      name: y?.name ?? x?.name ?? 'UNKNOWN',
      partitions: new Set([...(x?.partitions ?? []), ...(y?.partitions ?? [])]),
      timestamp: y?.timestamp ?? x?.timestamp ?? -1,
    });
  }
  return out;
}

export class ShareGroupHeartbeats {
  constructor(private readonly deps: ShareGroupHeartbeatDeps) {}

  heartbeat(ctx: MemberContext, request: ShareGroupHeartbeatRequest): Outcome<ShareGroupHeartbeatResponse> {
    try {
      validate(request);
      if (request.memberEpoch === SHARE_LEAVE_GROUP_MEMBER_EPOCH) return this.leave(request);
      return this.join(ctx, request);
    } catch (error) {
      return outcome({ ...createShareGroupHeartbeatResponse(), errorCode: errorCodeOf(error), errorMessage: error instanceof KafkaError ? error.message : null });
    }
  }

  private join(ctx: MemberContext, request: ShareGroupHeartbeatRequest): Outcome<ShareGroupHeartbeatResponse> {
    const { groupId, memberId, memberEpoch } = request;
    const now = this.deps.clock.now();
    const records: ShareGroupRecord[] = [];
    let group = this.deps.shareGroup(groupId);
    if (group === undefined) {
      if (memberEpoch !== 0) throw new GroupError('GROUP_ID_NOT_FOUND', `Share group ${groupId} not found.`);
      group = new ShareGroup(groupId);
    }
    if (group.members.size >= this.deps.maxSize && !group.members.has(memberId)) {
      throw new GroupError('GROUP_MAX_SIZE_REACHED', `The share group has reached its maximum capacity of ${this.deps.maxSize} members.`);
    }
    let member = group.members.get(memberId);
    if (member === undefined) {
      if (memberEpoch !== 0) throw new GroupError('UNKNOWN_MEMBER_ID', `Member ${memberId} is not a member of group ${groupId}.`);
      member = newShareMember(memberId);
    }
    throwIfEpochInvalid(member, memberEpoch);

    // 1. The member with what this heartbeat changes; its subscription change bumps the group epoch.
    let updated: ShareGroupMember = {
      ...member,
      rackId: request.rackId ?? member.rackId,
      subscribedTopicNames: request.subscribedTopicNames === null ? member.subscribedTopicNames : new Set(request.subscribedTopicNames),
      clientId: ctx.clientId,
      clientHost: ctx.clientHost,
    };
    const isNew = !group.members.has(memberId);
    let bump = false;
    if (isNew || !sameShareMember(member, updated)) {
      records.push(shareMemberRecord(groupId, updated));
      bump = !sameSet(member.subscribedTopicNames, updated.subscribedTopicNames);
    }
    let groupEpoch = group.groupEpoch;
    if (group.assignmentEpoch >= groupEpoch) bump ||= initializedAssignmentPending(group);
    const image = this.deps.topics();
    const names = subscribedNames(group, updated, null);
    const metadataHash = computeMetadataHash(names.keys(), image);
    if (metadataHash !== group.metadataHash) bump = true;
    if (bump) {
      groupEpoch += 1;
      records.push(shareGroupEpochRecord(groupId, groupEpoch, metadataHash));
    }

    // 2. A new target assignment when the group epoch is ahead of the target's, at most one per assignment interval.
    let targetEpoch = group.assignmentEpoch;
    let target = group.targetAssignmentOf(memberId);
    if (groupEpoch > group.assignmentEpoch && now - group.assignmentTimestamp >= this.deps.settings(groupId).assignmentIntervalMs) {
      const numMembers = group.members.size + (isNew ? 1 : 0);
      const targets = this.buildTarget(group, groupEpoch, updated, subscriptionTypeOf(new Map(), byName(names), numMembers), image, now);
      records.push(...targets.records);
      targetEpoch = groupEpoch;
      target = targets.assignment.get(memberId) ?? new Map();
    }

    // 3. The member moves to its target at once (Kafka's ShareGroupAssignmentBuilder).
    const before = updated;
    if (bump || updated.state !== 'STABLE' || updated.memberEpoch !== targetEpoch) {
      const assigned = filterSubscribed(target, topicIds(updated, image));
      if (targetEpoch !== updated.memberEpoch) {
        updated = { ...updated, state: 'STABLE', assignedPartitions: assigned, memberEpoch: targetEpoch, previousMemberEpoch: updated.memberEpoch };
      } else if (bump) {
        updated = { ...updated, assignedPartitions: assigned };
      }
      if (!sameShareMember(before, updated)) records.push(shareCurrentAssignmentRecord(groupId, updated));
    }
    this.scheduleSessionTimeout(groupId, memberId);
    records.push(...this.initializing(group, groupId, groupEpoch, names, image, now));

    const full = memberEpoch === 0 || request.subscribedTopicNames !== null;
    const response: ShareGroupHeartbeatResponse = {
      ...createShareGroupHeartbeatResponse(),
      memberId,
      memberEpoch: updated.memberEpoch,
      heartbeatIntervalMs: this.deps.settings(groupId).heartbeatIntervalMs,
      assignment: full || !sameAssignment(member.assignedPartitions, updated.assignedPartitions)
        ? { topicPartitions: [...updated.assignedPartitions].map(([topicId, ps]) => ({ topicId, partitions: [...ps] })) }
        : null,
    };
    return outcome(response, records);
  }

  /** Kafka's ShareTargetAssignmentBuilder: the assignor over the members; a record for each changed target, then the epoch. */
  private buildTarget(group: ShareGroup, groupEpoch: number, updated: ShareGroupMember, subscriptionType: 'homogeneous' | 'heterogeneous', image: TopicsImage, now: number) {
    const members = new Map(group.members);
    members.set(updated.memberId, updated);
    const memberIds = kafkaMemberOrder(members.keys());
    const assignable = group.statePartitions?.initialized ?? new Map<string, InitTopic>();
    const topics: SubscribedTopicDescriber = {
      numPartitions: (topicId) => image.byId(topicId)?.numPartitions ?? -1,
      racksForPartition: () => new Set(),
    };
    let assignment: ReadonlyMap<string, TopicPartitions>;
    try {
      assignment = assignSimple(
        {
          memberIds,
          subscriptionType,
          subscribedTopicIds: (id) => topicIds(members.get(id)!, image),
          memberAssignment: (id) => group.targetAssignmentOf(id),
          isPartitionAssignable: (topicId, partition) => assignable.get(topicId)?.partitions.has(partition) === true,
        },
        topics,
      );
    } catch (error) {
      if (error instanceof PartitionAssignorError) {
        throw new KafkaError('UNKNOWN_SERVER_ERROR', `Failed to compute a new target assignment for epoch ${groupEpoch}: ${error.message}`);
      }
      throw error;
    }
    const records: ShareGroupRecord[] = [];
    for (const memberId of memberIds) {
      const next = assignment.get(memberId) ?? new Map();
      const previous = group.targetAssignment.get(memberId);
      if (previous === undefined || !sameAssignment(previous, next)) records.push(shareTargetMemberRecord(group.groupId, memberId, next));
    }
    records.push(shareTargetMetadataRecord(group.groupId, groupEpoch, now));
    return { records, assignment };
  }

  /**
   * Kafka's maybeCreateInitializeShareGroupStateRequest: the subscribed partitions neither initialized nor being
   * initialized (for less than the retry interval) are recorded as initializing, and initialized after this request.
   */
  private initializing(group: ShareGroup, groupId: string, groupEpoch: number, names: ReadonlyMap<string, number>, image: TopicsImage, now: number): ShareGroupRecord[] {
    const state = group.statePartitions ?? NO_STATE_PARTITIONS;
    const fresh = new Map([...state.initializing].filter(([, t]) => now - t.timestamp < this.deps.initializeRetryIntervalMs));
    const already = combineInit(state.initialized, fresh);
    const change = new Map<string, InitTopic>();
    for (const name of names.keys()) {
      const topic = image.byName(name);
      if (topic === undefined || change.has(topic.id)) continue;
      const done = already.get(topic.id)?.partitions ?? new Set<number>();
      if (done.size > 0 && done.size >= topic.numPartitions) continue;
      const partitions = new Set<number>();
      for (let p = 0; p < topic.numPartitions; p++) if (!done.has(p)) partitions.add(p);
      change.set(topic.id, { name: topic.name, partitions, timestamp: now });
    }
    if (change.size === 0) return [];
    const initializing = group.statePartitions === null ? change : combineInit(state.initializing, change);
    const deleting = new Map([...state.deleting].filter(([id]) => !initializing.has(id)));
    const topicsToInitialize = new Map([...change].map(([id, t]) => [id, t.partitions] as const));
    const key = shareInitializeKey(groupId, topicsToInitialize);
    const initializeState = this.deps.initializeState;
    this.deps.timer.schedule(key, 0, () => {
      if (initializeState === undefined) return this.initialized(groupId, topicsToInitialize);
      // The state is initialized first; only then are the partitions recorded initialized (a task behind the
      // requests, as Kafka's performShareGroupStateMetadataInitialize). A failure leaves them initializing, tried
      // again by a heartbeat after the retry interval.
      void initializeState(groupId, groupEpoch, topicsToInitialize).then((ok) => {
        if (ok) this.deps.timer.schedule(`${key}-done`, 0, () => this.initialized(groupId, topicsToInitialize));
      }, () => undefined);
      return NOTHING;
    });
    return [statePartitionMetadataRecord(groupId, { initializing, initialized: state.initialized, deleting })];
  }

  /**
   * Kafka's initializeShareGroupState, once the share state of the partitions is initialized: they move from
   * initializing to initialized.
   */
  initialized(groupId: string, topicPartitions: ReadonlyMap<string, ReadonlySet<number>>): Outcome<void> {
    let group: ShareGroup | undefined;
    try {
      group = this.deps.shareGroup(groupId);
    } catch {
      return NOTHING;
    }
    if (group === undefined) return NOTHING;
    const image = this.deps.topics();
    const now = this.deps.clock.now();
    const enriched = new Map<string, InitTopic>();
    for (const [id, partitions] of topicPartitions) enriched.set(id, { name: image.byId(id)?.name ?? 'UNKNOWN', partitions, timestamp: now });
    const current = group.statePartitions;
    if (current === null) return outcome(undefined, [statePartitionMetadataRecord(groupId, { initializing: new Map(), initialized: enriched, deleting: new Map() })]);
    const initializing = new Map<string, InitTopic>();
    for (const [id, t] of current.initializing) {
      const left = new Set([...t.partitions].filter((p) => !topicPartitions.get(id)?.has(p)));
      if (left.size > 0) initializing.set(id, { ...t, partitions: left });
    }
    const next: StatePartitionMetadata = { initializing, initialized: combineInit(current.initialized, enriched), deleting: current.deleting };
    return outcome(undefined, [statePartitionMetadataRecord(groupId, next)]);
  }

  private leave(request: ShareGroupHeartbeatRequest): Outcome<ShareGroupHeartbeatResponse> {
    const { groupId, memberId } = request;
    const group = this.deps.shareGroup(groupId);
    if (group === undefined) throw new GroupError('GROUP_ID_NOT_FOUND', `Group ${groupId} not found.`);
    const member = group.members.get(memberId);
    if (member === undefined) throw new GroupError('UNKNOWN_MEMBER_ID', `Member ${memberId} is not a member of group ${groupId}.`);
    return this.fence(group, memberId, { ...createShareGroupHeartbeatResponse(), memberId, memberEpoch: request.memberEpoch });
  }

  /** Kafka's shareGroupFenceMember: the member's records deleted, the group epoch bumped without it. */
  private fence<T>(group: ShareGroup, memberId: string, response: T): Outcome<T> {
    const { groupId } = group;
    const hash = computeMetadataHash(subscribedNames(group, null, memberId).keys(), this.deps.topics());
    const records: ShareGroupRecord[] = [
      shareCurrentAssignmentTombstone(groupId, memberId),
      shareTargetMemberTombstone(groupId, memberId),
      shareMemberTombstone(groupId, memberId),
      shareGroupEpochRecord(groupId, group.groupEpoch + 1, hash),
    ];
    this.deps.timer.cancel(shareSessionKey(groupId, memberId));
    return outcome(response, records);
  }

  /** A member's session (re)starts: it is fenced unless it heartbeats within its session timeout. */
  startSession(groupId: string, memberId: string): void {
    this.scheduleSessionTimeout(groupId, memberId);
  }

  private scheduleSessionTimeout(groupId: string, memberId: string): void {
    const { sessionTimeoutMs } = this.deps.settings(groupId);
    this.deps.timer.schedule(shareSessionKey(groupId, memberId), sessionTimeoutMs, () => this.expire(groupId, memberId));
  }

  /** The session timeout fell due: the member is fenced if still there. */
  private expire(groupId: string, memberId: string): Outcome<void> {
    let group: ShareGroup | undefined;
    try {
      group = this.deps.shareGroup(groupId);
    } catch {
      return NOTHING;
    }
    if (group === undefined || !group.members.has(memberId)) return NOTHING;
    return this.fence(group, memberId, undefined);
  }
}

/** Kafka's initializedAssignmentPending: members, and an initialized subscribed topic whose partitions the target does not hold exactly. */
function initializedAssignmentPending(group: ShareGroup): boolean {
  if (group.members.size === 0) return false;
  const initialized = group.statePartitions?.initialized;
  if (initialized === undefined || initialized.size === 0) return false;
  if (group.subscribedTopicNames.size === 0) return false;
  const assigned = new Map<string, Set<number>>();
  for (const target of group.targetAssignment.values()) {
    for (const [topicId, partitions] of target) {
      let set = assigned.get(topicId);
      if (set === undefined) assigned.set(topicId, (set = new Set()));
      for (const p of partitions) set.add(p);
    }
  }
  for (const [topicId, topic] of initialized) {
    if (!group.subscribedTopicNames.has(topic.name)) continue;
    const current = assigned.get(topicId);
    if (current === undefined || !sameSet(current, topic.partitions)) return true;
  }
  return false;
}

/** The target without the topics the member no longer subscribes to. */
function filterSubscribed(target: TopicPartitions, subscribed: ReadonlySet<string>): TopicPartitions {
  if ([...target.keys()].every((id) => subscribed.has(id))) return target;
  return new Map([...target].filter(([id]) => subscribed.has(id)));
}

const byName = (names: ReadonlyMap<string, number>) => new Map([...names].map(([t, c]) => [t, { byName: c, byRegex: 0 }] as const));
