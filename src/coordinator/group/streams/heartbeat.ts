/**
 * StreamsGroupHeartbeat as Kafka 4.3.1's GroupMetadataManager serves it (KIP-1071): a member joins with epoch 0 and
 * its topology, heartbeats with its epoch and the tasks it owns, leaves with -1. Each heartbeat records the member's
 * metadata, the topology (the first member's; a different one at the same epoch is refused), configures the topology
 * over the broker's topics (internal topics missing are named in a MISSING_INTERNAL_TOPICS status and created by the
 * caller), bumps the group epoch when the member, the metadata hash, the validated topology epoch or the assignment
 * configs changed, computes a target assignment with the sticky assignor (after the initial rebalance delay, at most
 * one per assignment interval), and reconciles the member towards it (revocation before reassignment). Session and
 * rebalance timeouts fence members on the shard's timer. Nothing here mutates a group: the records do (replay.ts).
 */
import {
  createStreamsGroupHeartbeatResponse,
  type Status,
  type StreamsGroupHeartbeatRequest,
  type StreamsGroupHeartbeatResponse,
  type StreamsGroupHeartbeatRequestTaskIds,
} from '../../../protocol/generated/streams-group-heartbeat.js';
import { errorCodeOf } from '../../../protocol/kafka-error.js';
import { javaStringHashCode } from '../../runtime/java-hash.js';
import { javaHashOrder } from '../../runtime/java-hash-map.js';
import { kafkaMemberOrder } from '../../runtime/java-hash-table.js';
import type { CoordinatorTimer } from '../../runtime/keyed-timer.js';
import { NOTHING, outcome, type Outcome } from '../../runtime/outcome.js';
import { computeMetadataHash } from '../consumer/metadata-hash.js';
import type { TopicsImage } from '../consumer/topics-image.js';
import { GroupError } from '../group-error.js';
import { expireMember } from '../member-timeout.js';
import type { GroupRecord } from '../records.js';
import type { Clock, MemberContext } from '../membership.js';
import { reconcileStreamsMember } from './current-assignment.js';
import { isReconciledTo, newStreamsMember, sameStreamsMember, type StreamsGroupMember } from './member.js';
import {
  removeStreamsMemberRecords,
  streamsCurrentAssignmentRecord,
  streamsGroupMetadataRecord,
  streamsMemberRecord,
  streamsTargetAssignmentRecord,
  streamsTargetMetadataRecord,
  streamsTopologyRecord,
  type StreamsGroupRecord,
} from './records.js';
import { stickyAssign, type AssignmentMember } from './sticky-assignor.js';
import type { StreamsGroup } from './streams-group.js';
import { activeTaskSets, NO_TASKS, ownedWithin, sameTaskEpochs, sameTaskSets, sameTasks, taskSetsOf, type TaskSets, type TasksTuple } from './tasks.js';
import { configureTopics, isReady, requiredTopics, sameTopology, StreamsStatus, subtopologyOfTopic, topologyValueOf, type ConfiguredInternalTopic, type ConfiguredTopology } from './topology.js';

export const LEAVE_GROUP_MEMBER_EPOCH = -1;

/** A streams group's effective settings (broker `group.streams.*` configs, overridden per group). */
export interface StreamsGroupSettings {
  readonly sessionTimeoutMs: number;
  readonly heartbeatIntervalMs: number;
  readonly assignmentIntervalMs: number;
  readonly initialRebalanceDelayMs: number;
  readonly numStandbyReplicas: number;
}

export interface StreamsGroupHeartbeatDeps {
  /**
   * The streams group of that id, undefined when none (or, for a joining member, only an empty classic group, which
   * it replaces); throws GROUP_ID_NOT_FOUND for a group of another type.
   */
  readonly streamsGroup: (groupId: string, joining: boolean) => StreamsGroup | undefined;
  /**
   * A new group for a first member; the replay of its records adopts this object, so what is not recorded (the
   * configured topology) survives, as on Kafka's group object.
   */
  readonly newStreamsGroup: (groupId: string) => StreamsGroup;
  readonly replaceEmptyClassicGroup: (groupId: string) => GroupRecord[];
  readonly topics: () => TopicsImage;
  readonly maxSize: number;
  readonly settings: (groupId: string) => StreamsGroupSettings;
  readonly timer: CoordinatorTimer<Outcome<void>>;
  readonly clock: Clock;
}

/** The response, and the internal topics the broker must create (Kafka's StreamsGroupHeartbeatResult). */
export interface StreamsHeartbeatResult {
  readonly response: StreamsGroupHeartbeatResponse;
  readonly internalTopicsToCreate: readonly ConfiguredInternalTopic[];
}

export const streamsSessionKey = (groupId: string, memberId: string): string => `streams-session-${groupId}-${memberId}`;
const rebalanceKey = (groupId: string, memberId: string): string => `streams-rebalance-${groupId}-${memberId}`;
const initialRebalanceKey = (groupId: string): string => `initial-rebalance-timeout-${groupId}`;

const invalid = (message: string): never => {
  throw new GroupError('INVALID_REQUEST', message);
};

/** GroupCoordinatorService's throwIfStreamsGroupHeartbeatRequestIsUsingUnsupportedFeatures then ...IsInvalid, with their messages. */
function validate(request: StreamsGroupHeartbeatRequest): void {
  if (request.instanceId !== null) invalid('Static membership is not yet supported.');
  if (request.taskOffsets !== null) invalid('TaskOffsets are not supported yet.');
  if (request.taskEndOffsets !== null) invalid('TaskEndOffsets are not supported yet.');
  if (request.warmupTasks !== null && request.warmupTasks.length > 0) invalid('WarmupTasks are not supported yet.');
  for (const s of request.topology?.subtopologies ?? []) if (s.sourceTopicRegex.length > 0) invalid('Regular expressions for source topics are not supported yet.');
  if (request.memberId === '') invalid("MemberId can't be empty.");
  if (request.groupId === '') invalid("GroupId can't be empty.");
  if (request.rackId === '') invalid("RackId can't be empty.");
  if (request.memberEpoch === 0) {
    if (request.rebalanceTimeoutMs === -1) invalid('RebalanceTimeoutMs must be provided in first request.');
    if (request.activeTasks !== null && request.activeTasks.length > 0) invalid('ActiveTasks must be empty when (re-)joining.');
    if (request.standbyTasks !== null && request.standbyTasks.length > 0) invalid('StandbyTasks must be empty when (re-)joining.');
    if (request.warmupTasks !== null && request.warmupTasks.length > 0) invalid('WarmupTasks must be empty when (re-)joining.');
    if (request.topology === null) invalid('Topology must be non-null when (re-)joining.');
    for (const s of request.topology!.subtopologies) {
      for (const t of s.stateChangelogTopics) {
        if (t.partitions !== 0) throw new GroupError('STREAMS_INVALID_TOPOLOGY', `Changelog topic ${t.name} must have an undefined partition count, but it is set to ${t.partitions}.`);
      }
    }
  } else if (request.memberEpoch < LEAVE_GROUP_MEMBER_EPOCH - 1) {
    invalid(`MemberEpoch is ${request.memberEpoch}, but must be greater than or equal to -2.`);
  }
  if (request.activeTasks !== null || request.standbyTasks !== null || request.warmupTasks !== null) {
    if (request.activeTasks === null || request.standbyTasks === null || request.warmupTasks === null) invalid('If one task-type is non-null, all must be non-null.');
  }
  if (request.memberEpoch !== 0 && request.topology !== null) invalid('Topology can only be provided when (re-)joining.');
}

function throwIfEpochInvalid(member: StreamsGroupMember, received: number, request: StreamsGroupHeartbeatRequest): void {
  if (received === 0) return;
  if (received > member.memberEpoch) {
    throw new GroupError(
      'FENCED_MEMBER_EPOCH',
      `The streams group member has a greater member epoch (${received}) than the one known by the group coordinator (${member.memberEpoch}). The member must abandon all its partitions and rejoin.`,
    );
  }
  if (
    received < member.memberEpoch &&
    (received !== member.previousMemberEpoch ||
      !ownedWithin(request.activeTasks, (id) => member.assignedTasks.active.get(id)) ||
      !ownedWithin(request.standbyTasks, (id) => member.assignedTasks.standby.get(id)) ||
      !ownedWithin(request.warmupTasks, (id) => member.assignedTasks.warmup.get(id)))
  ) {
    throw new GroupError(
      'FENCED_MEMBER_EPOCH',
      `The streams group member has a smaller member epoch (${received}) than the one known by the group coordinator (${member.memberEpoch}). The member must abandon all its partitions and rejoin.`,
    );
  }
}

function throwIfInvalidTasks(configured: ConfiguredTopology, tasks: readonly StreamsGroupHeartbeatRequestTaskIds[] | null): void {
  for (const t of tasks ?? []) {
    const s = configured.subtopologies!.get(t.subtopologyId);
    if (s === undefined) invalid(`Subtopology ${t.subtopologyId} does not exist in the topology.`);
    for (const p of t.partitions) {
      if (p < 0 || p >= s!.numberOfTasks) invalid(`Task ${p} for subtopology ${t.subtopologyId} is invalid. Number of tasks for this subtopology: ${s!.numberOfTasks}`);
    }
  }
}

const taskIds = (tasks: TaskSets): { subtopologyId: string; partitions: number[] }[] =>
  [...tasks].map(([subtopologyId, parts]) => ({ subtopologyId, partitions: [...parts].sort((a, b) => a - b) }));

export class StreamsGroupHeartbeats {
  constructor(private readonly deps: StreamsGroupHeartbeatDeps) {}

  heartbeat(ctx: MemberContext, request: StreamsGroupHeartbeatRequest): Outcome<StreamsHeartbeatResult> {
    try {
      validate(request);
      if (request.memberEpoch === LEAVE_GROUP_MEMBER_EPOCH || request.memberEpoch === LEAVE_GROUP_MEMBER_EPOCH - 1) return this.leave(request);
      return this.join(ctx, request);
    } catch (error) {
      const errorCode = errorCodeOf(error);
      const response = { ...createStreamsGroupHeartbeatResponse(), errorCode, errorMessage: error instanceof GroupError ? error.message : null };
      return outcome({ response, internalTopicsToCreate: [] });
    }
  }

  private join(ctx: MemberContext, request: StreamsGroupHeartbeatRequest): Outcome<StreamsHeartbeatResult> {
    const { groupId, memberId, memberEpoch } = request;
    const now = this.deps.clock.now();
    const records: GroupRecord[] = [];
    const status: Status[] = [];
    let group = this.deps.streamsGroup(groupId, memberEpoch === 0);
    const isNewGroup = group === undefined;
    if (group === undefined) {
      if (memberEpoch !== 0) throw new GroupError('GROUP_ID_NOT_FOUND', `Streams group ${groupId} not found.`);
      records.push(...this.deps.replaceEmptyClassicGroup(groupId));
      group = this.deps.newStreamsGroup(groupId);
    }
    if (memberEpoch === 0 && group.members.size >= this.deps.maxSize) {
      throw new GroupError('GROUP_MAX_SIZE_REACHED', `The streams group has reached its maximum capacity of ${this.deps.maxSize} members.`);
    }
    let member = group.members.get(memberId);
    if (member === undefined) {
      if (memberEpoch !== 0) throw new GroupError('UNKNOWN_MEMBER_ID', `Member ${memberId} is not a member of group ${groupId}.`);
      member = newStreamsMember(memberId);
    }
    throwIfEpochInvalid(member, memberEpoch, request);

    // 1. The member's metadata.
    let updated: StreamsGroupMember = {
      ...member,
      rackId: request.rackId ?? member.rackId,
      rebalanceTimeoutMs: request.rebalanceTimeoutMs === -1 ? member.rebalanceTimeoutMs : request.rebalanceTimeoutMs,
      topologyEpoch: request.topology?.epoch ?? member.topologyEpoch,
      clientId: ctx.clientId,
      clientHost: ctx.clientHost,
      processId: request.processId ?? member.processId,
      clientTags: request.clientTags === null ? member.clientTags : new Map(request.clientTags.map((t) => [t.key, t.value])),
      userEndpoint: request.userEndpoint === null ? member.userEndpoint : { host: request.userEndpoint.host, port: request.userEndpoint.port },
    };
    let bumpGroupEpoch = false;
    if (!sameStreamsMember(member, updated)) {
      records.push(streamsMemberRecord(groupId, updated));
      bumpGroupEpoch = true;
    }

    // 2. The topology: the first member's is recorded; a member with an older one is told it is stale.
    let topology = group.topology;
    if (request.topology !== null) {
      const fromRequest = topologyValueOf(request.topology);
      if (topology === undefined) {
        records.push(streamsTopologyRecord(groupId, fromRequest));
        topology = fromRequest;
      } else if (topology.epoch <= request.topology.epoch && !sameTopology(topology, fromRequest)) {
        invalid('Topology updates are not supported yet.');
      }
    }
    if (topology === undefined) throw new Error('The topology is null and the group topology is also null.');
    if (group.topology !== undefined && updated.topologyEpoch < group.topology.epoch) {
      status.push({ statusCode: StreamsStatus.STALE_TOPOLOGY, statusDetail: `The member's topology epoch ${updated.topologyEpoch} is behind the group's topology epoch ${group.topology.epoch}.` });
    }

    // 3. The topology configured over the topics, again whenever their metadata hash changed.
    const image = this.deps.topics();
    const metadataHash = computeMetadataHash(requiredTopics(topology), image);
    let configured = group.configuredTopology;
    if (metadataHash !== group.metadataHash) bumpGroupEpoch = true;
    if (configured === undefined || group.topology === undefined || metadataHash !== group.metadataHash || configured.topologyEpoch !== topology.epoch) {
      configured = configureTopics(topology, image);
      group.configuredTopology = configured;
    }
    let validatedTopologyEpoch = -1;
    if (isReady(configured)) {
      validatedTopologyEpoch = topology.epoch;
      throwIfInvalidTasks(configured, request.activeTasks);
      throwIfInvalidTasks(configured, request.standbyTasks);
      throwIfInvalidTasks(configured, request.warmupTasks);
    }
    if (validatedTopologyEpoch !== group.validatedTopologyEpoch) bumpGroupEpoch = true;
    const settings = this.deps.settings(groupId);
    const assignmentConfigs = new Map([['num.standby.replicas', String(settings.numStandbyReplicas)]]);
    if (!bumpGroupEpoch && !sameConfigs(assignmentConfigs, group.lastAssignmentConfigs)) bumpGroupEpoch = true;
    let groupEpoch = group.groupEpoch;
    if (bumpGroupEpoch) {
      groupEpoch += 1;
      records.push(streamsGroupMetadataRecord(groupId, groupEpoch, metadataHash, validatedTopologyEpoch, assignmentConfigs));
    }
    if (group.members.size === 0 && settings.initialRebalanceDelayMs > 0 && !this.deps.timer.isScheduled(initialRebalanceKey(groupId))) {
      this.deps.timer.schedule(initialRebalanceKey(groupId), settings.initialRebalanceDelayMs, () => this.delayedTargetAssignment(groupId));
    }

    // 4. The target assignment.
    let targetEpoch = group.assignmentEpoch;
    let target: TasksTuple;
    if (this.deps.timer.isScheduled(initialRebalanceKey(groupId))) {
      status.push({ statusCode: StreamsStatus.ASSIGNMENT_DELAYED, statusDetail: 'Assignment delayed due to the configured initial rebalance delay.' });
      target = NO_TASKS;
    } else if (group.assignmentEpoch >= groupEpoch) {
      target = group.targetAssignmentOf(memberId);
    } else if (now - group.assignmentTimestamp < settings.assignmentIntervalMs) {
      status.push({ statusCode: StreamsStatus.ASSIGNMENT_DELAYED, statusDetail: 'Assignment delayed due to the configured assignment interval.' });
      target = group.targetAssignmentOf(memberId);
    } else {
      const built = buildTargetAssignment(group, groupEpoch, updated, configured, settings.numStandbyReplicas, now);
      records.push(...built.records);
      targetEpoch = groupEpoch;
      target = built.target.get(memberId) ?? NO_TASKS;
    }

    // 5. Reconcile the member towards its target.
    if (!isReconciledTo(updated, targetEpoch)) {
      const owned = request.activeTasks !== null && request.standbyTasks !== null && request.warmupTasks !== null
        ? { active: taskSetsOf(request.activeTasks), standby: taskSetsOf(request.standbyTasks), warmup: taskSetsOf(request.warmupTasks) }
        : null;
      const reconciled = reconcileStreamsMember({ member: updated, targetAssignmentEpoch: targetEpoch, targetAssignment: target, group, owned });
      if (!sameStreamsMember(reconciled, updated)) {
        records.push(streamsCurrentAssignmentRecord(groupId, reconciled));
        if (reconciled.state === 'UNREVOKED_TASKS') this.scheduleRebalanceTimeout(groupId, reconciled);
        else this.deps.timer.cancel(rebalanceKey(groupId, memberId));
      }
      updated = reconciled;
    }
    this.scheduleSessionTimeout(groupId, memberId);
    if (request.shutdownApplication && group.shutdownRequestMemberId === null) group.shutdownRequestMemberId = memberId;

    const response: StreamsGroupHeartbeatResponse = {
      ...createStreamsGroupHeartbeatResponse(),
      memberId,
      memberEpoch: updated.memberEpoch,
      heartbeatIntervalMs: settings.heartbeatIntervalMs,
    };
    if (memberEpoch === 0 || !sameAssigned(member, updated)) {
      response.activeTasks = taskIds(activeTaskSets(updated.assignedTasks));
      response.standbyTasks = taskIds(updated.assignedTasks.standby);
      response.warmupTasks = taskIds(updated.assignedTasks.warmup);
      if (updated.userEndpoint !== null) group.endpointInformationEpoch += 1;
    }
    if (group.endpointInformationEpoch !== request.endpointInformationEpoch) {
      response.partitionsByUserEndpoint = endpointToPartitions(group, updated, image);
    }
    // Kafka tells the epoch only for a group that existed before this heartbeat.
    if (!isNewGroup) response.endpointInformationEpoch = group.endpointInformationEpoch;
    let internalTopicsToCreate: readonly ConfiguredInternalTopic[] = [];
    if (configured.error !== null) {
      internalTopicsToCreate = configured.internalTopicsToCreate;
      status.push({ statusCode: configured.error.status, statusDetail: configured.error.message });
    }
    if (group.shutdownRequestMemberId !== null) {
      status.push({
        statusCode: StreamsStatus.SHUTDOWN_APPLICATION,
        statusDetail: `Streams group member ${group.shutdownRequestMemberId} encountered a fatal error and requested a shutdown for the entire application.`,
      });
    }
    response.status = status;
    return outcome({ response, internalTopicsToCreate }, records);
  }

  /** -1 (and -2) leave: the member's records deleted, the group epoch bumped. */
  private leave(request: StreamsGroupHeartbeatRequest): Outcome<StreamsHeartbeatResult> {
    const group = this.deps.streamsGroup(request.groupId, false);
    // Kafka's streamsGroup(groupId): the generic lookup's message.
    if (group === undefined) throw new GroupError('GROUP_ID_NOT_FOUND', `Group ${request.groupId} not found.`);
    if (request.shutdownApplication && group.shutdownRequestMemberId === null) group.shutdownRequestMemberId = request.memberId;
    const member = group.members.get(request.memberId);
    if (member === undefined) throw new GroupError('UNKNOWN_MEMBER_ID', `Member ${request.memberId} is not a member of group ${request.groupId}.`);
    const response = { ...createStreamsGroupHeartbeatResponse(), memberId: request.memberId, memberEpoch: request.memberEpoch, status: [] };
    return this.fence(group, member, { response, internalTopicsToCreate: [] });
  }

  private fence<T>(group: StreamsGroup, member: StreamsGroupMember, response: T): Outcome<T> {
    const records: StreamsGroupRecord[] = removeStreamsMemberRecords(group.groupId, member.memberId);
    records.push(streamsGroupMetadataRecord(group.groupId, group.groupEpoch + 1, group.metadataHash, group.validatedTopologyEpoch, group.lastAssignmentConfigs));
    this.deps.timer.cancel(streamsSessionKey(group.groupId, member.memberId));
    this.deps.timer.cancel(rebalanceKey(group.groupId, member.memberId));
    return outcome(response, records);
  }

  /** After a load, every member's session starts now, and a member revoking tasks has its rebalance timeout (Kafka's onLoaded). */
  onLoaded(groups: Iterable<StreamsGroup>): void {
    for (const group of groups) {
      for (const member of group.members.values()) {
        this.scheduleSessionTimeout(group.groupId, member.memberId);
        if (member.state === 'UNREVOKED_TASKS') this.scheduleRebalanceTimeout(group.groupId, member);
      }
    }
  }

  /** A member revoking tasks must do so within its rebalance timeout, at that epoch. */
  private scheduleRebalanceTimeout(groupId: string, member: StreamsGroupMember): void {
    this.deps.timer.schedule(rebalanceKey(groupId, member.memberId), member.rebalanceTimeoutMs, () => this.expire(groupId, member.memberId, member.memberEpoch));
  }

  private scheduleSessionTimeout(groupId: string, memberId: string): void {
    this.deps.timer.schedule(streamsSessionKey(groupId, memberId), this.deps.settings(groupId).sessionTimeoutMs, () => this.expire(groupId, memberId, null));
  }

  /** A session (epoch null) or rebalance (at that epoch) timeout fell due: the member is fenced if still there. */
  private expire(groupId: string, memberId: string, epoch: number | null): Outcome<void> {
    return expireMember<StreamsGroup, StreamsGroupMember>(() => this.deps.streamsGroup(groupId, false), memberId, epoch, (group, member) => this.fence(group, member, undefined));
  }

  /** The initial rebalance delay ended: the group's first target assignment (Kafka's computeDelayedTargetAssignment). */
  private delayedTargetAssignment(groupId: string): Outcome<void> {
    let group: StreamsGroup | undefined;
    try {
      group = this.deps.streamsGroup(groupId, false);
    } catch {
      return NOTHING;
    }
    if (group === undefined || group.members.size === 0 || group.configuredTopology === undefined || group.groupEpoch <= group.assignmentEpoch) return NOTHING;
    const built = buildTargetAssignment(group, group.groupEpoch, null, group.configuredTopology, Number(group.lastAssignmentConfigs.get('num.standby.replicas') ?? 0), this.deps.clock.now());
    return outcome(undefined, built.records);
  }
}

function sameConfigs(a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>): boolean {
  return a.size === b.size && [...a].every(([k, v]) => b.get(k) === v);
}

function sameAssigned(a: StreamsGroupMember, b: StreamsGroupMember): boolean {
  return sameTaskEpochs(a.assignedTasks.active, b.assignedTasks.active) && sameTaskSets(a.assignedTasks.standby, b.assignedTasks.standby) && sameTaskSets(a.assignedTasks.warmup, b.assignedTasks.warmup);
}

/** Kafka's streams TargetAssignmentBuilder: the sticky assignor over every member (with `updated` in its place), records for the targets that changed. */
function buildTargetAssignment(
  group: StreamsGroup,
  groupEpoch: number,
  updated: StreamsGroupMember | null,
  configured: ConfiguredTopology,
  numStandbyReplicas: number,
  now: number,
): { records: StreamsGroupRecord[]; target: Map<string, TasksTuple> } {
  const members = new Map<string, AssignmentMember>();
  const specOf = (m: StreamsGroupMember): AssignmentMember => {
    const t = group.targetAssignmentOf(m.memberId);
    return { processId: m.processId, activeTasks: t.active, standbyTasks: t.standby };
  };
  // In the order of Kafka's HashMap of member specs: the group's members, then the updated one.
  for (const memberId of kafkaMemberOrder([...group.members.keys(), ...(updated === null ? [] : [updated.memberId])])) {
    members.set(memberId, specOf(updated !== null && memberId === updated.memberId ? updated : group.members.get(memberId)!));
  }
  let assignment: Map<string, TasksTuple>;
  if (isReady(configured)) {
    const subtopologies = configured.subtopologies!;
    assignment = stickyAssign(
      members,
      {
        subtopologies: [...subtopologies.keys()],
        numTasks: (s) => subtopologies.get(s)!.numberOfTasks,
        isStateful: (s) => subtopologies.get(s)!.stateChangelogTopics.size > 0,
      },
      numStandbyReplicas,
    );
  } else {
    assignment = new Map([...members.keys()].map((id) => [id, NO_TASKS]));
  }
  const records: StreamsGroupRecord[] = [];
  for (const [memberId, tasks] of assignment) {
    const old = group.targetAssignment.get(memberId);
    if (old === undefined || !sameTasks(old, tasks)) records.push(streamsTargetAssignmentRecord(group.groupId, memberId, tasks));
  }
  records.push(streamsTargetMetadataRecord(group.groupId, groupEpoch, now));
  return { records, target: assignment };
}

/**
 * Kafka's buildEndpointToPartitions: every member with an endpoint (this one last), its active and standby tasks as
 * partitions of its subtopology's input topics (Kafka's subtopology order comes from an immutable map, which varies).
 */
function endpointToPartitions(group: StreamsGroup, updated: StreamsGroupMember, image: TopicsImage): StreamsGroupHeartbeatResponse['partitionsByUserEndpoint'] {
  const subtopologies = group.configuredTopology?.subtopologies;
  const list: NonNullable<StreamsGroupHeartbeatResponse['partitionsByUserEndpoint']> = [];
  const of = (m: StreamsGroupMember): void => {
    if (m.userEndpoint === null || subtopologies === undefined) return;
    const partitions = (tasks: TaskSets) =>
      [...tasks].flatMap(([s, parts]) => {
        const sub = subtopologies.get(s);
        if (sub === undefined) return [];
        // Topics in the order of Kafka's HashSet of names; partitions ascending, as its HashSet of small ints iterates.
        const topics = javaHashOrder([...new Set([...sub.sourceTopics, ...sub.repartitionSourceTopics.keys()])], javaStringHashCode);
        return topics.map((topic) => {
          const n = image.byName(topic)?.numPartitions ?? 0;
          const sorted = [...parts].sort((a, b) => a - b);
          return { topic, partitions: n < parts.size ? sorted.slice(0, n) : sorted };
        });
      });
    list.push({ userEndpoint: { host: m.userEndpoint.host, port: m.userEndpoint.port }, activePartitions: partitions(activeTaskSets(m.assignedTasks)), standbyPartitions: partitions(m.assignedTasks.standby) });
  };
  for (const m of group.members.values()) if (m.memberId !== updated.memberId) of(m);
  of(updated);
  return list;
}

export { subtopologyOfTopic };
