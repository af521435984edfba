/**
 * Consumer groups for the console, through the broker's own group APIs as kafka-consumer-groups uses them:
 * ListGroups, DescribeGroups (classic) or ConsumerGroupDescribe (consumer), OffsetFetch, and lag against each
 * partition's high watermark (what ListOffsets LATEST answers a read_uncommitted admin client). Reset and delete
 * are the tool's --reset-offsets --execute (OffsetCommit as an admin, refused while the group has members) and
 * --delete (DeleteGroups: NON_EMPTY_GROUP for a group with members).
 */
import { listGroupsApi, createListGroupsRequest } from '../../protocol/generated/list-groups.js';
import { describeGroupsApi, createDescribeGroupsRequest } from '../../protocol/generated/describe-groups.js';
import { consumerGroupDescribeApi, createConsumerGroupDescribeRequest } from '../../protocol/generated/consumer-group-describe.js';
import { shareGroupDescribeApi, createShareGroupDescribeRequest } from '../../protocol/generated/share-group-describe.js';
import { streamsGroupDescribeApi, createStreamsGroupDescribeRequest } from '../../protocol/generated/streams-group-describe.js';
import { offsetFetchApi, createOffsetFetchRequest } from '../../protocol/generated/offset-fetch.js';
import { offsetCommitApi, createOffsetCommitRequest } from '../../protocol/generated/offset-commit.js';
import { deleteGroupsApi, createDeleteGroupsRequest } from '../../protocol/generated/delete-groups.js';
import { listOffsetsApi, createListOffsetsRequest } from '../../protocol/generated/list-offsets.js';
import { alterShareGroupOffsetsApi, createAlterShareGroupOffsetsRequest } from '../../protocol/generated/alter-share-group-offsets.js';
import { describeShareGroupOffsetsApi, createDescribeShareGroupOffsetsRequest } from '../../protocol/generated/describe-share-group-offsets.js';
import { decodeAssignment } from '../../coordinator/group/consumer/classic-protocol.js';
import type { BrokerState } from '../../server/handler.js';
import { ErrorCode } from '../../protocol/error-codes.js';
import { ZERO_UUID } from '../../protocol/uuid.js';
import { checkError, ConsoleRefusal, KafkaCallError, type KafkaCalls } from './kafka-calls.js';

export interface ListedGroup {
  readonly groupId: string;
  readonly type: string;
  readonly protocolType: string;
  readonly state: string;
}

export interface ShownMember {
  readonly memberId: string;
  readonly instanceId: string | null;
  readonly clientId: string;
  readonly host: string;
  /** topic → partitions */
  readonly assignment: Record<string, number[]>;
}

export interface PartitionLag {
  readonly topic: string;
  readonly partition: number;
  /** null: nothing committed. A share group's start offset (its share partition's SPSO). */
  readonly committed: number | null;
  /** A share group's partitions only: the leader epoch its share state was written at. */
  readonly leaderEpoch?: number;
  readonly logEndOffset: number;
  readonly lag: number | null;
  /** The member assigned the partition, if any. */
  readonly memberId: string | null;
}

export interface DescribedGroup extends ListedGroup {
  readonly protocol: string;
  readonly coordinator: number;
  readonly members: ShownMember[];
  readonly offsets: PartitionLag[];
  readonly totalLag: number;
}

export async function listGroups(kafka: KafkaCalls): Promise<ListedGroup[]> {
  const response = await kafka.call(listGroupsApi, 5, createListGroupsRequest());
  checkError(response.errorCode);
  return response.groups.map((g) => ({ groupId: g.groupId, type: g.groupType, protocolType: g.protocolType, state: g.groupState }))
    .sort((a, b) => a.groupId.localeCompare(b.groupId));
}

async function listed(kafka: KafkaCalls, groupId: string): Promise<ListedGroup> {
  const group = (await listGroups(kafka)).find((g) => g.groupId === groupId);
  if (group === undefined) throw new KafkaCallError(ErrorCode.GROUP_ID_NOT_FOUND, `Group ${groupId} not found.`);
  return group;
}

function byTopic(pairs: Iterable<{ topic: string; partitions: number[] }>): Record<string, number[]> {
  const out: Record<string, number[]> = {};
  for (const { topic, partitions } of pairs) (out[topic] ??= []).push(...partitions);
  for (const partitions of Object.values(out)) partitions.sort((a, b) => a - b);
  return out;
}

/** What ConsumerGroupDescribe and ShareGroupDescribe both answer of a group (KIP-848's and KIP-932's describe). */
interface Kip848Group {
  errorCode: number;
  errorMessage: string | null;
  groupState: string;
  assignorName: string;
  members: { memberId: string; instanceId?: string | null; clientId: string; clientHost: string;
    assignment: { topicPartitions: { topicName: string; partitions: number[] }[] } }[];
}

function kip848Members(g: Kip848Group): { protocol: string; state: string; members: ShownMember[] } {
  checkError(g.errorCode, g.errorMessage);
  return {
    protocol: g.assignorName, state: g.groupState,
    members: g.members.map((m) => ({
      memberId: m.memberId, instanceId: m.instanceId ?? null, clientId: m.clientId, host: m.clientHost,
      assignment: byTopic(m.assignment.topicPartitions.map((tp) => ({ topic: tp.topicName, partitions: tp.partitions }))),
    })),
  };
}

async function membersOf(kafka: KafkaCalls, group: ListedGroup): Promise<{ protocol: string; state: string; members: ShownMember[] }> {
  if (group.type === 'consumer') {
    return kip848Members((await kafka.call(consumerGroupDescribeApi, 1, { ...createConsumerGroupDescribeRequest(), groupIds: [group.groupId] })).groups[0]!);
  }
  if (group.type === 'streams') {
    // A streams member is assigned tasks, not partitions: its partitions are shown through the offsets rows.
    const g = (await kafka.call(streamsGroupDescribeApi, 0, { ...createStreamsGroupDescribeRequest(), groupIds: [group.groupId] })).groups[0]!;
    checkError(g.errorCode, g.errorMessage);
    return {
      protocol: 'streams', state: g.groupState,
      members: g.members.map((m) => ({ memberId: m.memberId, instanceId: m.instanceId, clientId: m.clientId, host: m.clientHost, assignment: {} })),
    };
  }
  if (group.type === 'share') {
    return kip848Members((await kafka.call(shareGroupDescribeApi, 1, { ...createShareGroupDescribeRequest(), groupIds: [group.groupId] })).groups[0]!);
  }
  const response = await kafka.call(describeGroupsApi, 6, { ...createDescribeGroupsRequest(), groups: [group.groupId] });
  const g = response.groups[0]!;
  checkError(g.errorCode, g.errorMessage);
  return {
    protocol: g.protocolData, state: g.groupState,
    members: g.members.map((m) => {
      let assignment: Record<string, number[]> = {};
      if (g.protocolType === 'consumer' && m.memberAssignment.length > 0) {
        try {
          assignment = byTopic(decodeAssignment(m.memberAssignment).assignedPartitions.map((tp) => ({ topic: tp.topic, partitions: tp.partitions })));
        } catch {
          // An assignment the consumer protocol cannot read is shown as none, as kafka-consumer-groups shows it.
        }
      }
      return { memberId: m.memberId, instanceId: m.groupInstanceId, clientId: m.clientId, host: m.clientHost, assignment };
    }),
  };
}

/** The group's committed offsets (OffsetFetch of all its partitions), topic → partition → offset. */
async function committedOffsets(kafka: KafkaCalls, groupId: string): Promise<Map<string, Map<number, number>>> {
  const response = await kafka.call(offsetFetchApi, 9, {
    ...createOffsetFetchRequest(), requireStable: false, groups: [{ groupId, memberId: null, memberEpoch: -1, topics: null }],
  });
  const group = response.groups[0]!;
  checkError(group.errorCode);
  const offsets = new Map<string, Map<number, number>>();
  for (const topic of group.topics) {
    for (const p of topic.partitions) {
      if (p.errorCode !== 0 || p.committedOffset < 0n) continue;
      let partitions = offsets.get(topic.name);
      if (partitions === undefined) offsets.set(topic.name, (partitions = new Map()));
      partitions.set(p.partitionIndex, Number(p.committedOffset));
    }
  }
  return offsets;
}

/**
 * A share group's partitions as kafka-share-groups --describe prints them: DescribeShareGroupOffsets of every
 * partition it has share state for, the start offset, leader epoch and lag the share coordinator answers.
 */
async function shareOffsets(kafka: KafkaCalls, groupId: string, owner: ReadonlyMap<string, string>): Promise<PartitionLag[]> {
  const response = await kafka.call(describeShareGroupOffsetsApi, 1, { ...createDescribeShareGroupOffsetsRequest(), groups: [{ groupId, topics: null }] });
  const group = response.groups[0]!;
  checkError(group.errorCode, group.errorMessage);
  const rows: PartitionLag[] = [];
  for (const topic of group.topics) {
    for (const p of topic.partitions) {
      checkError(p.errorCode, p.errorMessage);
      const startOffset = Number(p.startOffset);
      rows.push({
        topic: topic.topicName, partition: p.partitionIndex, committed: startOffset < 0 ? null : startOffset, leaderEpoch: p.leaderEpoch,
        logEndOffset: -1, lag: p.lag < 0n ? null : Number(p.lag), memberId: owner.get(`${topic.topicName}\u0000${p.partitionIndex}`) ?? null,
      });
    }
  }
  return rows;
}

export async function describeGroup(broker: BrokerState, kafka: KafkaCalls, groupId: string): Promise<DescribedGroup> {
  const group = await listed(kafka, groupId);
  const { protocol, state, members } = await membersOf(kafka, group);
  if (group.type === 'share') {
    const owners = new Map<string, string>();
    for (const member of members) {
      for (const [topic, partitions] of Object.entries(member.assignment)) for (const p of partitions) owners.set(`${topic}\u0000${p}`, member.memberId);
    }
    const offsets = (await shareOffsets(kafka, groupId, owners)).map((o) => ({ ...o, logEndOffset: broker.store.log(o.topic, o.partition)?.highWatermark ?? -1 }))
      .sort((a, b) => a.topic.localeCompare(b.topic) || a.partition - b.partition);
    return { ...group, state, protocol, coordinator: broker.nodeId, members, offsets, totalLag: offsets.reduce((n, o) => n + (o.lag ?? 0), 0) };
  }
  const committed = await committedOffsets(kafka, groupId);
  // Rows as kafka-consumer-groups --describe prints them: every partition with a committed offset or an owner.
  const owner = new Map<string, string>();
  for (const member of members) {
    for (const [topic, partitions] of Object.entries(member.assignment)) for (const p of partitions) owner.set(`${topic}\u0000${p}`, member.memberId);
  }
  const keys = new Set(owner.keys());
  for (const [topic, partitions] of committed) for (const p of partitions.keys()) keys.add(`${topic}\u0000${p}`);
  const offsets: PartitionLag[] = [];
  let totalLag = 0;
  for (const key of keys) {
    const [topic, p] = key.split('\u0000') as [string, string];
    const partition = Number(p);
    const logEndOffset = broker.store.log(topic, partition)?.highWatermark ?? -1;
    const offset = committed.get(topic)?.get(partition) ?? null;
    const lag = offset === null || logEndOffset < 0 ? null : Math.max(0, logEndOffset - offset);
    if (lag !== null) totalLag += lag;
    offsets.push({ topic, partition, committed: offset, logEndOffset, lag, memberId: owner.get(key) ?? null });
  }
  offsets.sort((a, b) => a.topic.localeCompare(b.topic) || a.partition - b.partition);
  return { ...group, state, protocol, coordinator: broker.nodeId, members, offsets, totalLag };
}

export type ResetTarget =
  | { readonly to: 'earliest' }
  | { readonly to: 'latest' }
  | { readonly to: 'offset'; readonly offset: number }
  | { readonly to: 'timestamp'; readonly timestamp: number };

/** ListOffsets of these partitions at a timestamp (or -2 earliest, -1 latest), read_uncommitted as the tool asks. */
async function listOffsets(kafka: KafkaCalls, partitions: readonly { topic: string; partition: number }[], timestamp: number): Promise<Map<string, number | null>> {
  const topics = byTopic(partitions.map((p) => ({ topic: p.topic, partitions: [p.partition] })));
  const response = await kafka.call(listOffsetsApi, 9, {
    ...createListOffsetsRequest(), replicaId: -1, isolationLevel: 0,
    topics: Object.entries(topics).map(([name, ps]) => ({ name, partitions: ps.map((partitionIndex) => ({ partitionIndex, currentLeaderEpoch: -1, timestamp: BigInt(timestamp) })) })),
  });
  const out = new Map<string, number | null>();
  for (const topic of response.topics) {
    for (const p of topic.partitions) {
      checkError(p.errorCode);
      out.set(`${topic.name}\u0000${p.partitionIndex}`, p.offset < 0n ? null : Number(p.offset));
    }
  }
  return out;
}

/**
 * kafka-consumer-groups --reset-offsets --execute: the partitions of `topic` (all of them), or else every partition
 * the group has committed; the new offsets are committed as an admin commit. Returns the offsets committed.
 */
export async function resetOffsets(broker: BrokerState, kafka: KafkaCalls, groupId: string, topic: string | undefined, target: ResetTarget):
  Promise<{ topic: string; partition: number; offset: number }[]> {
  const group = await listed(kafka, groupId);
  // The tool's own check, before any request: only an inactive group's offsets are reset.
  if (group.state !== 'Empty' && group.state !== 'Dead') {
    if (group.type === 'share') throw new ConsoleRefusal(`Share group '${groupId}' is not empty.`);
    throw new ConsoleRefusal(`Assignments can only be reset if the group '${groupId}' is inactive, but the current state is ${group.state}.`);
  }
  let partitions: { topic: string; partition: number }[];
  if (topic !== undefined) {
    const meta = broker.store.topic(topic);
    if (meta === undefined) throw new KafkaCallError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, `Topic ${topic} not found.`);
    partitions = Array.from({ length: meta.partitions }, (_, partition) => ({ topic, partition }));
  } else if (group.type === 'share') {
    partitions = (await shareOffsets(kafka, groupId, new Map())).map((o) => ({ topic: o.topic, partition: o.partition }))
      .sort((a, b) => a.topic.localeCompare(b.topic) || a.partition - b.partition);
  } else {
    partitions = [...(await committedOffsets(kafka, groupId))].flatMap(([t, ps]) => [...ps.keys()].map((partition) => ({ topic: t, partition })))
      .sort((a, b) => a.topic.localeCompare(b.topic) || a.partition - b.partition);
  }
  if (partitions.length === 0) return [];
  const key = (p: { topic: string; partition: number }) => `${p.topic}\u0000${p.partition}`;
  const earliest = await listOffsets(kafka, partitions, -2);
  const latest = await listOffsets(kafka, partitions, -1);
  let chosen: Map<string, number | null>;
  if (target.to === 'earliest') chosen = earliest;
  else if (target.to === 'latest') chosen = latest;
  else if (target.to === 'timestamp') chosen = await listOffsets(kafka, partitions, target.timestamp);
  else chosen = new Map(partitions.map((p) => [key(p), target.offset]));
  const offsets = partitions.map((p) => {
    const low = earliest.get(key(p)) ?? 0;
    const high = latest.get(key(p)) ?? 0;
    // As the tool: a time with no offset after it goes to the end; an offset outside the log is clamped into it.
    const offset = Math.min(high, Math.max(low, chosen.get(key(p)) ?? high));
    return { ...p, offset };
  });
  const topics = byTopic(offsets.map((o) => ({ topic: o.topic, partitions: [o.partition] })));
  const offsetOf = new Map(offsets.map((o) => [key(o), o.offset]));
  if (group.type === 'share') {
    // kafka-share-groups --reset-offsets --execute: the start offsets go to AlterShareGroupOffsets.
    const altered = await kafka.call(alterShareGroupOffsetsApi, 0, {
      ...createAlterShareGroupOffsetsRequest(), groupId,
      topics: Object.entries(topics).map(([topicName, ps]) => ({
        topicName, partitions: ps.map((partitionIndex) => ({ partitionIndex, startOffset: BigInt(offsetOf.get(`${topicName}\u0000${partitionIndex}`)!) })),
      })),
    });
    checkError(altered.errorCode, altered.errorMessage);
    for (const t of altered.responses) for (const p of t.partitions) checkError(p.errorCode, p.errorMessage);
    return offsets;
  }
  const response = await kafka.call(offsetCommitApi, 9, {
    ...createOffsetCommitRequest(), groupId, generationIdOrMemberEpoch: -1, memberId: '', groupInstanceId: null,
    topics: Object.entries(topics).map(([name, ps]) => ({
      name, topicId: ZERO_UUID, partitions: ps.map((partitionIndex) => ({
        partitionIndex, committedOffset: BigInt(offsetOf.get(`${name}\u0000${partitionIndex}`)!), committedLeaderEpoch: -1, committedMetadata: '',
      })),
    })),
  });
  for (const t of response.topics) for (const p of t.partitions) checkError(p.errorCode);
  return offsets;
}

export async function deleteGroup(kafka: KafkaCalls, groupId: string): Promise<void> {
  const response = await kafka.call(deleteGroupsApi, 2, { ...createDeleteGroupsRequest(), groupsNames: [groupId] });
  checkError(response.results[0]!.errorCode);
}
