/**
 * DescribeTopicPartitions (key 75), v0 (Kafka 4.3's range).
 *
 * The named topics (or all, when none is named), sorted by name, from the cursor on, with at most
 * min(response_partition_limit, max.request.partition.size.limit) partitions (at least 1) in the
 * answer; when the limit cuts the walk short, next_cursor names where to go on. Every partition is
 * led by this node (epoch 0), replicas = ISR = [node], no eligible leader replicas (in cluster mode: replicas, leader,
 * epoch and ISR from etcd, server/cluster-view.ts). A named topic that
 * does not exist is UNKNOWN_TOPIC_OR_PARTITION (INVALID_TOPIC_EXCEPTION for an illegal name); a cursor
 * outside the named topics or with a negative partition makes the request INVALID_REQUEST.
 */
import { ErrorCode } from '../../protocol/error-codes.js';
import {
  describeTopicPartitionsApi,
  type DescribeTopicPartitionsRequest,
  type DescribeTopicPartitionsResponse,
  type DescribeTopicPartitionsResponsePartition,
  type DescribeTopicPartitionsResponseTopic,
} from '../../protocol/generated/describe-topic-partitions.js';
import { ZERO_UUID } from '../../protocol/io/reader.js';
import { AUTHORIZED_OPERATIONS_OMITTED } from '../authorized-operations.js';
import { defineHandler, type Handler } from '../handler.js';
import { AclOperation, authorize, authorizedOperations, ResourceType } from '../authorization.js';
import { isInternalTopic, isValidTopicName } from '../../protocol/topic-names.js';
import { replicaView } from '../cluster-view.js';

/** Kafka's max.request.partition.size.limit default (not a gregor setting yet). */
const MAX_REQUEST_PARTITION_SIZE_LIMIT = 2000;

export const describeTopicPartitionsHandler: Handler = defineHandler<DescribeTopicPartitionsRequest, DescribeTopicPartitionsResponse>({
  api: describeTopicPartitionsApi,
  minVersion: 0,
  maxVersion: 0,

  handle(ctx, request) {
    const { topics } = ctx.broker;
    const cursor = request.cursor;
    const cursorTopic = cursor?.topicName ?? '';
    const fetchAll = request.topics.length === 0;
    const names = new Set((fetchAll ? [...topics.list()].map((t) => t.name) : request.topics.map((t) => t.name)).filter((n) => n >= cursorTopic));
    // Kafka fails the whole request (no message field exists to carry its reason).
    const invalid = (): DescribeTopicPartitionsResponse => ({
      throttleTimeMs: 0,
      topics: request.topics.map((t) => ({
        errorCode: ErrorCode.INVALID_REQUEST, name: t.name, topicId: ZERO_UUID, isInternal: false, partitions: [],
        topicAuthorizedOperations: AUTHORIZED_OPERATIONS_OMITTED,
      })),
      nextCursor: null,
    });
    if (!fetchAll && cursor !== null && !names.has(cursor.topicName)) {
      return invalid();
    }
    if (cursor !== null && cursor.partitionIndex < 0) return invalid();

    // Topics the client may not DESCRIBE: left out of "all", else answered last, TOPIC_AUTHORIZATION_FAILED without their id.
    const refused: DescribeTopicPartitionsResponseTopic[] = [];
    for (const name of [...names].sort()) {
      if (authorize(ctx, AclOperation.DESCRIBE, ResourceType.TOPIC, name)) continue;
      names.delete(name);
      if (!fetchAll) {
        refused.push({ errorCode: ErrorCode.TOPIC_AUTHORIZATION_FAILED, name, topicId: ZERO_UUID, isInternal: false, partitions: [], topicAuthorizedOperations: AUTHORIZED_OPERATIONS_OMITTED });
      }
    }
    let remaining = Math.max(Math.min(MAX_REQUEST_PARTITION_SIZE_LIMIT, request.responsePartitionLimit), 1);
    const response: DescribeTopicPartitionsResponse = { throttleTimeMs: 0, topics: [], nextCursor: null };
    for (const name of [...names].sort()) {
      if (remaining === 0) {
        response.nextCursor = { topicName: name, partitionIndex: 0 };
        break;
      }
      const topic = topics.get(name);
      if (topic === undefined) {
        if (!fetchAll) {
          response.topics.push({
            errorCode: isValidTopicName(name) ? ErrorCode.UNKNOWN_TOPIC_OR_PARTITION : ErrorCode.INVALID_TOPIC_EXCEPTION,
            name, topicId: ZERO_UUID, isInternal: isInternalTopic(name), partitions: [],
            topicAuthorizedOperations: authorizedOperations(ctx, ResourceType.TOPIC, name),
          });
        }
        continue;
      }
      const start = name === cursorTopic && cursor !== null ? cursor.partitionIndex : 0;
      const end = Math.min(topic.partitionCount, start + remaining);
      const partitions: DescribeTopicPartitionsResponsePartition[] = [];
      for (let p = start; p < end; p++) {
        // Kafka answers every partition of a known topic NONE here, its leader as the metadata holds it.
        const view = replicaView(ctx.broker, name, p, ctx.connection.listenerName);
        partitions.push({
          errorCode: ErrorCode.NONE, partitionIndex: p, leaderId: view.leaderId, leaderEpoch: view.leaderEpoch, replicaNodes: view.replicas,
          isrNodes: view.isr, eligibleLeaderReplicas: view.elr ?? [], lastKnownElr: view.lastKnownElr ?? [], offlineReplicas: view.offline,
        });
      }
      const entry: DescribeTopicPartitionsResponseTopic = {
        errorCode: ErrorCode.NONE, name, topicId: topic.id, isInternal: isInternalTopic(name), partitions,
        topicAuthorizedOperations: authorizedOperations(ctx, ResourceType.TOPIC, name),
      };
      response.topics.push(entry);
      if (end < topic.partitionCount) {
        response.nextCursor = { topicName: name, partitionIndex: end };
        break;
      }
      remaining -= partitions.length;
    }
    return response;
  },
});
