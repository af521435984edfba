/**
 * OffsetCommit (key 8), v2–v10, Kafka 4.3.1's range.
 *
 * Offsets are written to __consumer_offsets and the response is released once they are in the log.
 * Partitions of unknown topics get UNKNOWN_TOPIC_OR_PARTITION (as KafkaApis answers before the
 * coordinator sees them); group checks (generation, member, static member, rebalance in progress)
 * apply to the whole request. Generation -1 with no member id commits for an empty or absent group
 * (the admin client, or consumers using assign()). The answer lists the refused partitions first, then
 * the coordinator's, merged into a refused topic's entry as Kafka's OffsetCommitResponse.Builder does. Versions:
 * - v2–v4: retention_time_ms (-1: the broker's offsets.retention.minutes; else an expire timestamp).
 * - v6+: committed leader epoch. v7+: group.instance.id.
 * - v9+: an absent group with a generation is GROUP_ID_NOT_FOUND (before: ILLEGAL_GENERATION).
 * - v10+ (KIP-848): topics by id. An unknown (or zero) id is UNKNOWN_TOPIC_ID on each of its partitions; the
 *   others are resolved to their names, which the offsets are stored under (as Kafka does), and answered by id.
 */
import { ErrorCode } from '../../protocol/error-codes.js';
import {
  offsetCommitApi,
  type OffsetCommitRequest,
  type OffsetCommitResponse,
  type OffsetCommitResponseTopic,
} from '../../protocol/generated/offset-commit.js';
import { defineHandler, type Handler } from '../handler.js';
import { AclOperation, authorize, refused as refusedRequest, ResourceType } from '../authorization.js';

export const offsetCommitHandler: Handler = defineHandler<OffsetCommitRequest, OffsetCommitResponse>({
  api: offsetCommitApi,
  minVersion: 2,
  maxVersion: 10,

  async handle(ctx, request, version) {
    const byId = version >= 10;
    if (!authorize(ctx, AclOperation.READ, ResourceType.GROUP, request.groupId)) throw refusedRequest('GROUP_AUTHORIZATION_FAILED');
    const refused: OffsetCommitResponseTopic[] = [];
    const refuse = (topic: OffsetCommitRequest['topics'][number], partitions: readonly { partitionIndex: number }[], errorCode: number): void => {
      if (partitions.length === 0) return;
      refused.push({ name: topic.name, topicId: topic.topicId, partitions: partitions.map((p) => ({ partitionIndex: p.partitionIndex, errorCode })) });
    };
    const known: OffsetCommitRequest['topics'] = [];
    for (const topic of request.topics) {
      const info = byId ? ctx.broker.topics.getById(topic.topicId) : ctx.broker.topics.get(topic.name);
      if (info === undefined && byId) {
        refuse(topic, topic.partitions, ErrorCode.UNKNOWN_TOPIC_ID);
        continue;
      }
      // READ on the topic is asked before its existence (KafkaApis), so a refused client learns nothing of it.
      if (!authorize(ctx, AclOperation.READ, ResourceType.TOPIC, info?.name ?? topic.name)) {
        refuse(topic, topic.partitions, ErrorCode.TOPIC_AUTHORIZATION_FAILED);
        continue;
      }
      if (info === undefined) {
        refuse(topic, topic.partitions, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
        continue;
      }
      const ok = topic.partitions.filter((p) => p.partitionIndex >= 0 && p.partitionIndex < info.partitionCount);
      if (ok.length > 0) known.push({ ...topic, name: info.name, partitions: ok });
      refuse(topic, topic.partitions.filter((p) => !ok.includes(p)), ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
    }
    const committed = await ctx.broker.groups.commitOffsets({ ...request, topics: known }, version);
    return { throttleTimeMs: 0, topics: mergeTopics(refused, committed, byId ? (t) => t.topicId : (t) => t.name) };
  },
});

/**
 * Kafka's OffsetCommitResponse.Builder: the refused partitions grouped per topic, then each of the coordinator's
 * topics added to the entry of the same topic, or after them (with nothing refused, the coordinator's answer as is).
 */
function mergeTopics(
  refused: OffsetCommitResponseTopic[],
  committed: OffsetCommitResponseTopic[],
  keyOf: (topic: OffsetCommitResponseTopic) => string,
): OffsetCommitResponseTopic[] {
  if (refused.length === 0) return committed;
  const byKey = new Map<string, OffsetCommitResponseTopic>();
  for (const topic of [...refused, ...committed]) {
    const existing = byKey.get(keyOf(topic));
    if (existing === undefined) byKey.set(keyOf(topic), { ...topic, partitions: [...topic.partitions] });
    else existing.partitions.push(...topic.partitions);
  }
  return [...byKey.values()];
}
