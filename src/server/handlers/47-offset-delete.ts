/**
 * OffsetDelete (key 47), v0: deletes a group's committed offsets for some partitions.
 *
 * GROUP_ID_NOT_FOUND for an unknown group; NON_EMPTY_GROUP for a non-empty group not using the consumer
 * protocol; GROUP_SUBSCRIBED_TO_TOPIC for the partitions of a topic the group's members subscribe to;
 * UNKNOWN_TOPIC_OR_PARTITION for a partition that does not exist (KafkaApis checks it first).
 */
import { ErrorCode } from '../../protocol/error-codes.js';
import {
  offsetDeleteApi,
  type OffsetDeleteRequest,
  type OffsetDeleteResponse,
  type OffsetDeleteResponseTopic,
} from '../../protocol/generated/offset-delete.js';
import { defineHandler, type Handler } from '../handler.js';
import { AclOperation, authorize, refused, ResourceType } from '../authorization.js';

export const offsetDeleteHandler: Handler = defineHandler<OffsetDeleteRequest, OffsetDeleteResponse>({
  api: offsetDeleteApi,
  minVersion: 0,
  maxVersion: 0,

  async handle(ctx, request) {
    if (!authorize(ctx, AclOperation.DELETE, ResourceType.GROUP, request.groupId)) throw refused('GROUP_AUTHORIZATION_FAILED');
    const unknown = new Map<string, number[]>();
    const unreadable: OffsetDeleteResponseTopic[] = [];
    const topics: OffsetDeleteRequest['topics'] = [];
    for (const topic of request.topics) {
      if (!authorize(ctx, AclOperation.READ, ResourceType.TOPIC, topic.name)) {
        unreadable.push({ name: topic.name, partitions: topic.partitions.map((p) => ({ partitionIndex: p.partitionIndex, errorCode: ErrorCode.TOPIC_AUTHORIZATION_FAILED })) });
        continue;
      }
      const info = ctx.broker.topics.get(topic.name);
      const known = topic.partitions.filter((p) => info !== undefined && p.partitionIndex >= 0 && p.partitionIndex < info.partitionCount);
      for (const p of topic.partitions) if (!known.includes(p)) unknown.set(topic.name, [...(unknown.get(topic.name) ?? []), p.partitionIndex]);
      if (known.length > 0) topics.push({ name: topic.name, partitions: known });
    }
    const result = await ctx.broker.groups.deleteOffsets({ groupId: request.groupId, topics });
    if (result.errorCode !== ErrorCode.NONE) return { errorCode: result.errorCode, throttleTimeMs: 0, topics: [] };
    const merged: OffsetDeleteResponseTopic[] = [...unreadable, ...result.topics];
    for (const [name, partitions] of unknown) {
      let topic = merged.find((t) => t.name === name);
      if (topic === undefined) merged.push((topic = { name, partitions: [] }));
      for (const partitionIndex of partitions) topic.partitions.push({ partitionIndex, errorCode: ErrorCode.UNKNOWN_TOPIC_OR_PARTITION });
    }
    return { errorCode: ErrorCode.NONE, throttleTimeMs: 0, topics: merged };
  },
});
