/**
 * DeleteTopics (key 20), v1–v6 (Kafka 4.3's range).
 *
 * Topics by name (v0–5) or by name or id (v6+), resolved and checked as Kafka's controller does:
 * a name and an id together, neither, or the same topic twice is INVALID_REQUEST; an unknown name
 * UNKNOWN_TOPIC_OR_PARTITION, an unknown id UNKNOWN_TOPIC_ID. With delete.topic.enable=false every
 * topic gets TOPIC_DELETION_DISABLED (v3+) or INVALID_REQUEST (v1–2). Internal topics are deleted
 * like any other, as a KRaft controller does. Every group's committed offsets on a deleted topic are removed
 * (tombstones in __consumer_offsets), as Kafka's group coordinator does when it learns of the deletion.
 * Versions: v5+ error messages; v6+ topic ids.
 */
import { ErrorCode } from '../../protocol/error-codes.js';
import {
  deleteTopicsApi,
  type DeletableTopicResult,
  type DeleteTopicsRequest,
  type DeleteTopicsResponse,
} from '../../protocol/generated/delete-topics.js';
import { ZERO_UUID } from '../../protocol/io/reader.js';
import { defaultApiError, type ApiError } from '../../protocol/api-error.js';
import { apiErrorOf } from '../../protocol/kafka-error.js';
import { defineHandler, type Handler } from '../handler.js';
import { AclOperation, authorize, authorizeCluster, ResourceType } from '../authorization.js';
import { applyMutationQuota, controllerMutationQuota } from '../throttle.js';

export const deleteTopicsHandler: Handler = defineHandler<DeleteTopicsRequest, DeleteTopicsResponse>({
  api: deleteTopicsApi,
  minVersion: 1,
  maxVersion: 6,

  async handle(ctx, request, version) {
    const { store, config, groups } = ctx.broker;
    const named: { name: string | null; topicId: string }[] =
      version >= 6 ? request.topics : request.topicNames.map((name) => ({ name, topicId: ZERO_UUID }));
    const responses: DeletableTopicResult[] = [];
    const result = (name: string | null, topicId: string, error: ApiError): void => {
      responses.push({ name, topicId, errorCode: error.code, errorMessage: version >= 5 ? error.message : null });
    };

    if (!config['delete.topic.enable']) {
      const error = version < 3
        ? { code: ErrorCode.INVALID_REQUEST, message: 'Topic deletion is disabled.' }
        : defaultApiError(ErrorCode.TOPIC_DELETION_DISABLED);
      for (const topic of named) result(topic.name, topic.topicId, error);
      return { throttleTimeMs: 0, responses };
    }

    // Count every name and id first: a topic named twice is answered once, as a duplicate.
    const nameCounts = new Map<string, number>();
    const idCounts = new Map<string, number>();
    for (const { name, topicId } of named) {
      if (name !== null && topicId === ZERO_UUID) nameCounts.set(name, (nameCounts.get(name) ?? 0) + 1);
      if (name === null && topicId !== ZERO_UUID) idCounts.set(topicId, (idCounts.get(topicId) ?? 0) + 1);
    }
    for (const { name, topicId } of named) {
      if (name === null && topicId === ZERO_UUID) result(null, ZERO_UUID, { code: ErrorCode.INVALID_REQUEST, message: 'Neither topic name nor id were specified.' });
      else if (name !== null && topicId !== ZERO_UUID) result(name, topicId, { code: ErrorCode.INVALID_REQUEST, message: 'You may not specify both topic name and topic id.' });
    }
    for (const [name, count] of nameCounts) if (count > 1) result(name, ZERO_UUID, { code: ErrorCode.INVALID_REQUEST, message: 'Duplicate topic name.' });
    for (const [id, count] of idCounts) if (count > 1) result(null, id, { code: ErrorCode.INVALID_REQUEST, message: 'Duplicate topic id.' });

    // Resolve ids to names; a name that maps to an id also given is a duplicate.
    // DESCRIBE on a topic, asked before its existence (a refused id keeps its name hidden), then DELETE (on the cluster: all).
    const mayDelete = authorizeCluster(ctx, AclOperation.DELETE) ? () => true : (name: string) => authorize(ctx, AclOperation.DELETE, ResourceType.TOPIC, name);
    const toDelete = new Map<string, string>(); // id → name
    for (const [id, count] of idCounts) {
      if (count > 1) continue;
      const topic = store.topicById(id);
      if (topic === undefined) result(null, id, defaultApiError(ErrorCode.UNKNOWN_TOPIC_ID));
      else if (!authorize(ctx, AclOperation.DESCRIBE, ResourceType.TOPIC, topic.name)) result(null, id, defaultApiError(ErrorCode.TOPIC_AUTHORIZATION_FAILED));
      else if (!mayDelete(topic.name)) result(topic.name, id, defaultApiError(ErrorCode.TOPIC_AUTHORIZATION_FAILED));
      else toDelete.set(id, topic.name);
    }
    for (const [name, count] of nameCounts) {
      if (count > 1) continue;
      const topic = store.topic(name);
      if (!authorize(ctx, AclOperation.DESCRIBE, ResourceType.TOPIC, name)) {
        result(name, ZERO_UUID, defaultApiError(ErrorCode.TOPIC_AUTHORIZATION_FAILED));
      } else if (topic === undefined) {
        result(name, ZERO_UUID, defaultApiError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION));
      } else if (toDelete.has(topic.topicId)) {
        toDelete.delete(topic.topicId);
        result(name, topic.topicId, { code: ErrorCode.INVALID_REQUEST, message: 'The provided topic name maps to an ID that was already supplied.' });
      } else if (!mayDelete(name)) {
        result(name, ZERO_UUID, defaultApiError(ErrorCode.TOPIC_AUTHORIZATION_FAILED));
      } else {
        toDelete.set(topic.topicId, name);
      }
    }

    // The one place topics are deleted: the group coordinator then drops their committed offsets, the share-partition
    // leader their share partitions.
    const quota = controllerMutationQuota(ctx, 5);
    const deletions = [...toDelete].map(([id, name]) => {
      const partitionCount = store.topic(name)?.partitions ?? 0;
      try {
        quota.record(partitionCount);
      } catch (error) {
        result(name, id, apiErrorOf(error));
        return Promise.resolve();
      }
      // In cluster mode the topic goes from etcd (every broker then drops its local logs), else from the store.
      return (ctx.broker.cluster?.deleteTopic(name) ?? store.deleteTopic(name)).then(
        async () => {
          await groups.onPartitionsDeleted(name, partitionCount, id);
          ctx.broker.replicaManager.sharePartitions.onTopicDeleted(id);
          await ctx.broker.shareState.onTopicsDeleted([id]);
          result(name, id, { code: ErrorCode.NONE, message: null });
        },
        (error: unknown) => result(name, id, apiErrorOf(error)),
      );
    });
    await Promise.all(deletions);
    const response = { throttleTimeMs: 0, responses };
    applyMutationQuota(ctx, quota, response);
    return response;
  },
});
