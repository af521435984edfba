/**
 * CreatePartitions (key 37), v0–v3 (Kafka 4.3's range).
 *
 * Grows a topic to `count` partitions as Kafka's controller does: a name given twice is
 * INVALID_REQUEST ("Duplicate topic name.", answered first); an unknown topic
 * UNKNOWN_TOPIC_OR_PARTITION; the same or a smaller count INVALID_PARTITIONS with Kafka's message;
 * manual assignments must number the new partitions and name only this broker, once, with the
 * topic's replication factor (1). validate_only checks without creating. In cluster mode the live brokers count
 * instead, at the topic's replication factor, and the new partitions are placed and written to etcd as CreateTopics does. The partitions added go against
 * controller_mutation_rate: from v3 a topic asked for while the bucket is empty gets THROTTLING_QUOTA_EXCEEDED.
 */
import { ErrorCode } from '../../protocol/error-codes.js';
import {
  createPartitionsApi,
  type CreatePartitionsRequest,
  type CreatePartitionsResponse,
  type CreatePartitionsTopic,
  type CreatePartitionsTopicResult,
} from '../../protocol/generated/create-partitions.js';
import { manualAssignmentProblem } from '../admin/replica-assignment.js';
import { isInternalTopic } from '../../protocol/topic-names.js';
import type { ApiError } from '../../protocol/api-error.js';
import { apiErrorOf } from '../../protocol/kafka-error.js';
import { defineHandler, type Handler, type RequestContext } from '../handler.js';
import { AclOperation, authorize, authorizeCluster, ResourceType } from '../authorization.js';
import { applyMutationQuota, controllerMutationQuota } from '../throttle.js';
import type { ControllerMutationQuota } from '../../broker/quota/controller-mutation-quota.js';

export const createPartitionsHandler: Handler = defineHandler<CreatePartitionsRequest, CreatePartitionsResponse>({
  api: createPartitionsApi,
  minVersion: 0,
  maxVersion: 3,

  async handle(ctx, request) {
    const counts = new Map<string, number>();
    for (const topic of request.topics) counts.set(topic.name, (counts.get(topic.name) ?? 0) + 1);
    const results: CreatePartitionsTopicResult[] = [];
    for (const [name, count] of counts) {
      if (count > 1) results.push(result(name, { code: ErrorCode.INVALID_REQUEST, message: 'Duplicate topic name.' }));
    }
    // ALTER on each topic (on the cluster: all); the refused ones come next, TOPIC_AUTHORIZATION_FAILED without a message.
    const mayAlter = authorizeCluster(ctx, AclOperation.ALTER) ? () => true : (name: string) => authorize(ctx, AclOperation.ALTER, ResourceType.TOPIC, name);
    for (const [name, count] of counts) {
      if (count === 1 && !mayAlter(name)) results.push(result(name, { code: ErrorCode.TOPIC_AUTHORIZATION_FAILED, message: null }));
    }
    const pending: Promise<CreatePartitionsTopicResult>[] = [];
    const quota = controllerMutationQuota(ctx, 3);
    for (const topic of request.topics) {
      if (counts.get(topic.name) !== 1 || !mayAlter(topic.name)) continue;
      const problem = check(ctx, topic) ?? withinQuota(ctx, topic, quota);
      if (problem !== null) pending.push(Promise.resolve(result(topic.name, problem)));
      else if (request.validateOnly) pending.push(Promise.resolve(result(topic.name, null)));
      else {
        pending.push(addPartitions(ctx, topic).then(
          () => result(topic.name, null),
          (error: unknown) => result(topic.name, apiErrorOf(error)),
        ));
      }
    }
    results.push(...(await Promise.all(pending)));
    const response = { throttleTimeMs: 0, results };
    applyMutationQuota(ctx, quota, response);
    return response;
  },
});

/** In cluster mode the topic grows in etcd (any broker writes it, as CreateTopics), else in the local store. */
async function addPartitions(ctx: RequestContext, topic: CreatePartitionsTopic): Promise<void> {
  const { cluster, store } = ctx.broker;
  if (cluster === undefined || isInternalTopic(topic.name)) await store.addPartitions(topic.name, topic.count);
  else await cluster.addPartitions(topic.name, topic.count, topic.assignments?.map((a) => a.brokerIds) ?? null);
}

/** The partitions a valid request adds go against the controller mutation quota (ReplicationControlManager). */
function withinQuota(ctx: RequestContext, topic: CreatePartitionsTopic, quota: ControllerMutationQuota): ApiError | null {
  try {
    quota.record(topic.count - ctx.broker.store.topic(topic.name)!.partitions);
    return null;
  } catch (error) {
    return apiErrorOf(error);
  }
}

function check(ctx: RequestContext, topic: CreatePartitionsTopic): ApiError | null {
  const current = ctx.broker.store.topic(topic.name);
  if (current === undefined) return { code: ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, message: null };
  if (topic.count === current.partitions) {
    return { code: ErrorCode.INVALID_PARTITIONS, message: `Topic already has ${current.partitions} partition(s).` };
  }
  if (topic.count < current.partitions) {
    return {
      code: ErrorCode.INVALID_PARTITIONS,
      message: `The topic ${topic.name} currently has ${current.partitions} partition(s); ${topic.count} would not be an increase.`,
    };
  }
  const additional = topic.count - current.partitions;
  if (topic.assignments !== null) {
    if (topic.assignments.length !== additional) {
      return {
        code: ErrorCode.INVALID_REPLICA_ASSIGNMENT,
        message: `Attempted to add ${additional} additional partition(s), but only ${topic.assignments.length} assignment(s) were specified.`,
      };
    }
    const { cluster } = ctx.broker;
    const clustered = cluster !== undefined && !isInternalTopic(topic.name);
    const registered = new Set(clustered ? cluster.liveBrokers().map((b) => b.nodeId) : [ctx.broker.nodeId]);
    const replicationFactor = clustered ? cluster.partition(topic.name, 0)?.replicas.length ?? 1 : 1;
    for (const assignment of topic.assignments) {
      const problem = manualAssignmentProblem(assignment.brokerIds, registered, replicationFactor);
      if (problem !== null) return { code: ErrorCode.INVALID_REPLICA_ASSIGNMENT, message: problem };
    }
  }
  return null;
}

function result(name: string, error: ApiError | null): CreatePartitionsTopicResult {
  return { name, errorCode: error?.code ?? ErrorCode.NONE, errorMessage: error?.message ?? null };
}
