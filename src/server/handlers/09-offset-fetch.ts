/**
 * OffsetFetch (key 9), v1–v10, Kafka 4.3.1's range.
 *
 * Committed offsets per partition; a partition without one gets offset -1, leader epoch -1 and
 * metadata "". A missing group is not an error (every partition -1, or no topics when all are asked).
 * Offsets are read once the group's pending commits are in the log. Versions:
 * - v1: topics listed. v2+: null topics = every partition the group has committed; top-level error code.
 * - v5+: leader epoch. v7+: require_stable: a partition with a transactional offset not yet committed or aborted
 *   answers UNSTABLE_OFFSET_COMMIT (per partition; the group's error code stays NONE), so the client retries.
 * - v8+: several groups in one request, each with its own error code. v9+: member id/epoch (consumer-protocol
 *   groups only; ignored for classic groups, as Kafka does).
 * - v10+ (KIP-848): topics by id. Known ids are read under their names (offsets are stored by name) and answered by
 *   id; an unknown (or zero) id answers UNKNOWN_TOPIC_ID with offset -1 on each partition, after the coordinator's
 *   topics. With null topics, a committed topic that no longer has an id (deleted) is left out, as Kafka does.
 *   A group error leaves the topics out.
 */
import { ErrorCode } from '../../protocol/error-codes.js';
import {
  offsetFetchApi,
  type OffsetFetchRequest,
  type OffsetFetchRequestGroup,
  type OffsetFetchResponse,
  type OffsetFetchResponseGroup,
  type OffsetFetchResponseTopics,
} from '../../protocol/generated/offset-fetch.js';
import type { TopicCatalog } from '../../broker/topic-catalog.js';
import type { FetchedGroup, FetchingMember, GroupCoordinator } from '../../coordinator/group-coordinator.js';
import { defineHandler, type Handler, type RequestContext } from '../handler.js';
import { AclOperation, authorize, refused, ResourceType } from '../authorization.js';

export const offsetFetchHandler: Handler = defineHandler<OffsetFetchRequest, OffsetFetchResponse>({
  api: offsetFetchApi,
  minVersion: 1,
  maxVersion: 10,

  async handle(ctx, request, version) {
    const groups = ctx.broker.groups;
    if (version >= 8) {
      const results: OffsetFetchResponseGroup[] = [];
      for (const group of request.groups) {
        if (!authorize(ctx, AclOperation.DESCRIBE, ResourceType.GROUP, group.groupId)) {
          results.push({ groupId: group.groupId, errorCode: ErrorCode.GROUP_AUTHORIZATION_FAILED, topics: [] });
          continue;
        }
        const fetched =
          version >= 10
            ? await fetchByTopicIds(groups, ctx.broker.topics, group, request.requireStable)
            : await groups.fetchOffsets(group.groupId, group.topics, request.requireStable, fetchingMember(group, version));
        results.push({ groupId: group.groupId, errorCode: fetched.errorCode, topics: describableTopics(ctx, group.topics === null, fetched.topics) });
      }
      return { throttleTimeMs: 0, topics: [], errorCode: ErrorCode.NONE, groups: results };
    }
    if (!authorize(ctx, AclOperation.DESCRIBE, ResourceType.GROUP, request.groupId)) throw refused('GROUP_AUTHORIZATION_FAILED');
    const fetched = await groups.fetchOffsets(request.groupId, request.topics, version >= 7 && request.requireStable);
    const topics = describableTopics(ctx, request.topics === null, fetched.topics).map((t) => ({
      name: t.name,
      // v0–v1 carry no top-level error: a group error goes on every partition.
      partitions: t.partitions.map((p) => (version < 2 && fetched.errorCode !== ErrorCode.NONE ? { ...p, errorCode: fetched.errorCode } : p)),
    }));
    return { throttleTimeMs: 0, topics, errorCode: fetched.errorCode, groups: [] };
  },
});

/** v9+: the member a consumer-protocol group checks (Kafka's validateOffsetFetch); before, none. */
function fetchingMember(group: OffsetFetchRequestGroup, version: number): FetchingMember | undefined {
  return version >= 9 ? { memberId: group.memberId, memberEpoch: group.memberEpoch } : undefined;
}

/**
 * The offsets a client may see: topics it may DESCRIBE. Asked for all, the others are left out; named, they are
 * answered after the others with TOPIC_AUTHORIZATION_FAILED and no offset (KafkaApis; an unknown id, unnamed, stays).
 */
function describableTopics<P extends { committedOffset: bigint; committedLeaderEpoch: number; metadata: string | null; errorCode: number },
  T extends { name: string; partitions: P[] }>(ctx: RequestContext, all: boolean, topics: T[]): T[] {
  const allowed = (t: T) => t.name === '' || authorize(ctx, AclOperation.DESCRIBE, ResourceType.TOPIC, t.name);
  const shown = topics.filter(allowed);
  if (all || shown.length === topics.length) return shown;
  const denied = topics.filter((t) => !allowed(t)).map((t) => ({
    ...t, partitions: t.partitions.map((p) => ({ ...p, committedOffset: -1n, committedLeaderEpoch: -1, metadata: '', errorCode: ErrorCode.TOPIC_AUTHORIZATION_FAILED })),
  }));
  return [...shown, ...denied];
}

/** v10+: one group's offsets with topics by id (KafkaApis' fetchOffsetsForGroup and fetchAllOffsetsForGroup). */
async function fetchByTopicIds(groups: GroupCoordinator, topics: TopicCatalog, group: OffsetFetchRequestGroup, requireStable: boolean): Promise<FetchedGroup> {
  if (group.topics === null) {
    const fetched = await groups.fetchOffsets(group.groupId, null, requireStable, fetchingMember(group, 10));
    const withIds: OffsetFetchResponseTopics[] = [];
    for (const t of fetched.topics) {
      const info = topics.get(t.name);
      if (info !== undefined) withIds.push({ ...t, topicId: info.id });
    }
    return { errorCode: fetched.errorCode, topics: withIds };
  }
  const unknown: OffsetFetchResponseTopics[] = [];
  const known: { name: string; topicId: string; partitionIndexes: number[] }[] = [];
  for (const t of group.topics) {
    const name = topics.getById(t.topicId)?.name;
    if (name !== undefined) {
      known.push({ name, topicId: t.topicId, partitionIndexes: t.partitionIndexes });
    } else {
      const partitions = t.partitionIndexes.map((partitionIndex) => ({ partitionIndex, committedOffset: -1n, committedLeaderEpoch: -1, metadata: '', errorCode: ErrorCode.UNKNOWN_TOPIC_ID }));
      unknown.push({ name: '', topicId: t.topicId, partitions });
    }
  }
  const fetched = await groups.fetchOffsets(group.groupId, known, requireStable, fetchingMember(group, 10));
  if (fetched.errorCode !== ErrorCode.NONE) return fetched;
  return { errorCode: fetched.errorCode, topics: [...fetched.topics, ...unknown] };
}
