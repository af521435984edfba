/**
 * OffsetCommit (key 8), v2–v9 (Kafka 4.3.1 serves 2–10; v10 names topics by id, beyond our spec).
 *
 * Offsets are written to __consumer_offsets and the response is released once they are in the log.
 * Partitions of unknown topics get UNKNOWN_TOPIC_OR_PARTITION (as KafkaApis answers before the
 * coordinator sees them); group checks (generation, member, static member, rebalance in progress)
 * apply to the whole request. Generation -1 with no member id commits for an empty or absent group
 * (the admin client, or consumers using assign()). Versions:
 * - v2–v4: retention_time_ms (-1: the broker's offsets.retention.minutes; else an expire timestamp).
 * - v6+: committed leader epoch. v7+: group.instance.id.
 * - v9+: an absent group with a generation is GROUP_ID_NOT_FOUND (before: ILLEGAL_GENERATION).
 */
import { ZERO_UUID } from '../../protocol/uuid.js';
import { ErrorCode } from '../../protocol/error-codes.js';
import {
  offsetCommitApi,
  type OffsetCommitRequest,
  type OffsetCommitResponse,
  type OffsetCommitResponseTopic,
} from '../../protocol/generated/offset-commit.js';
import { defineHandler, type Handler } from '../handler.js';

export const offsetCommitHandler: Handler = defineHandler<OffsetCommitRequest, OffsetCommitResponse>({
  api: offsetCommitApi,
  minVersion: 2,
  maxVersion: 9,

  async handle(ctx, request, version) {
    const unknown: OffsetCommitResponseTopic[] = [];
    const known: OffsetCommitRequest['topics'] = [];
    for (const topic of request.topics) {
      const info = ctx.broker.topics.get(topic.name);
      const ok = topic.partitions.filter((p) => info !== undefined && p.partitionIndex >= 0 && p.partitionIndex < info.partitionCount);
      const bad = topic.partitions.filter((p) => !ok.includes(p));
      if (ok.length > 0) known.push({ ...topic, partitions: ok });
      if (bad.length > 0) {
        unknown.push({ name: topic.name, topicId: ZERO_UUID, partitions: bad.map((p) => ({ partitionIndex: p.partitionIndex, errorCode: ErrorCode.UNKNOWN_TOPIC_OR_PARTITION })) });
      }
    }
    const committed = await ctx.broker.groups.commitOffsets({ ...request, topics: known }, version);
    return { throttleTimeMs: 0, topics: mergeTopics(unknown, committed) };
  },
});

/** One entry per topic, partitions of both lists together. */
function mergeTopics(first: OffsetCommitResponseTopic[], second: OffsetCommitResponseTopic[]): OffsetCommitResponseTopic[] {
  const byName = new Map<string, OffsetCommitResponseTopic>();
  for (const topic of [...first, ...second]) {
    const existing = byName.get(topic.name);
    if (existing === undefined) byName.set(topic.name, { name: topic.name, topicId: topic.topicId, partitions: [...topic.partitions] });
    else existing.partitions.push(...topic.partitions);
  }
  return [...byName.values()];
}
