/**
 * CreateTopics (key 19), v2–v7 (Kafka 4.3's range; v0–1 are gone).
 *
 * Checks each topic in Kafka's controller order: duplicates in the request and __cluster_metadata
 * (INVALID_REQUEST, answered after the others), the name (INVALID_TOPIC_EXCEPTION, also for a '.'/'_'
 * collision with an existing topic), existence (TOPIC_ALREADY_EXISTS), configs (INVALID_CONFIG with
 * ConfigDef's messages), then partitions and replication: -1 takes num.partitions /
 * default.replication.factor, a factor above one broker is INVALID_REPLICATION_FACTOR, and manual
 * assignments must name this broker once per partition, for partitions 0..n-1. In cluster mode the live brokers
 * count instead of this one, replicas are placed rack-aware (cluster/replica-placer.ts, Kafka's
 * StripedReplicaPlacer), and the topic is written to etcd by this broker in one transaction (cluster/etcd-cluster.ts). validate_only checks
 * all of that and creates nothing (the answer still carries a fresh topic id, as Kafka's does).
 * controller_mutation_rate counts each valid topic's partitions (validate_only too, as Kafka's controller does):
 * from v6 a topic asked for while the client's bucket is empty gets THROTTLING_QUOTA_EXCEEDED, before it the topic
 * is created and the client throttled.
 * Versions: v5+ the result carries partitions, replication factor and every effective config
 * (sorted by name, with source, read-only, sensitive); v7+ the topic id.
 */
import { ErrorCode } from '../../protocol/error-codes.js';
import {
  createTopicsApi,
  type CreatableTopic,
  type CreatableTopicResult,
  type CreateTopicsRequest,
  type CreateTopicsResponse,
} from '../../protocol/generated/create-topics.js';
import { ConfigDescriber, ConfigSourceId } from '../../config/index.js';
import { ZERO_UUID } from '../../protocol/io/reader.js';
import { randomUuid } from '../../protocol/uuid.js';
import { topicConfigsProblem } from '../admin/config-validation.js';
import { dynamicConfigs } from '../admin/dynamic-configs.js';
import type { ApiError } from '../../protocol/api-error.js';
import { apiErrorOf } from '../../protocol/kafka-error.js';
import { manualAssignmentProblem } from '../admin/replica-assignment.js';
import { CLUSTER_METADATA_TOPIC, collidingTopic, invalidTopicNameMessage, isInternalTopic } from '../../protocol/topic-names.js';
import { defineHandler, type Handler, type RequestContext } from '../handler.js';
import { AclOperation, authorize, authorizeCluster, ResourceType } from '../authorization.js';
import { applyMutationQuota, controllerMutationQuota } from '../throttle.js';
import type { ControllerMutationQuota } from '../../broker/quota/controller-mutation-quota.js';

/** What a valid topic becomes. */
interface TopicPlan {
  readonly partitions: number;
  readonly replicationFactor: number;
  readonly configs: Record<string, string>;
  /** A manual assignment's replicas by partition index (cluster mode places the others itself). */
  readonly assignments?: readonly (readonly number[])[];
}

export const createTopicsHandler: Handler = defineHandler<CreateTopicsRequest, CreateTopicsResponse>({
  api: createTopicsApi,
  minVersion: 2,
  maxVersion: 7,

  async handle(ctx, request, version) {
    const counts = new Map<string, number>();
    for (const topic of request.topics) counts.set(topic.name, (counts.get(topic.name) ?? 0) + 1);
    const existing = ctx.broker.store.topics().map((t) => t.name);
    // CREATE on the cluster, else on each topic; DESCRIBE_CONFIGS on a topic to see its configs (ControllerApis).
    const mayCreate = authorizeCluster(ctx, AclOperation.CREATE) ? () => true : (name: string) => authorize(ctx, AclOperation.CREATE, ResourceType.TOPIC, name);
    const mayDescribeConfigs = (name: string) => authorize(ctx, AclOperation.DESCRIBE_CONFIGS, ResourceType.TOPIC, name);
    const quota = controllerMutationQuota(ctx, 6);

    const pending: Promise<CreatableTopicResult>[] = [];
    for (const topic of request.topics) {
      if (counts.get(topic.name) !== 1 || topic.name === CLUSTER_METADATA_TOPIC || !mayCreate(topic.name)) continue;
      const checked = withinQuota(planTopic(ctx, topic, existing), quota);
      if ('code' in checked) {
        pending.push(Promise.resolve(failure(topic.name, checked)));
      } else if (request.validateOnly) {
        pending.push(Promise.resolve(success(ctx, topic.name, randomUuid(), checked, version, mayDescribeConfigs(topic.name))));
      } else {
        pending.push(
          createTopic(ctx, topic.name, checked).then(
            (topicId) => success(ctx, topic.name, topicId, checked, version, mayDescribeConfigs(topic.name)),
            (error: unknown) => failure(topic.name, creationError(topic.name, error)),
          ),
        );
      }
    }
    const topics = await Promise.all(pending);
    for (const [name, count] of counts) {
      if (count > 1) topics.push(failure(name, { code: ErrorCode.INVALID_REQUEST, message: 'Duplicate topic name.' }));
    }
    for (const [name, count] of counts) {
      if (count !== 1) continue;
      if (name === CLUSTER_METADATA_TOPIC) {
        topics.push(failure(name, { code: ErrorCode.INVALID_REQUEST, message: `Creation of internal topic ${CLUSTER_METADATA_TOPIC} is prohibited.` }));
      } else if (!mayCreate(name)) {
        topics.push(failure(name, { code: ErrorCode.TOPIC_AUTHORIZATION_FAILED, message: 'Authorization failed.' }));
      }
    }
    const response = { throttleTimeMs: 0, topics };
    applyMutationQuota(ctx, quota, response);
    return response;
  },
});

/**
 * In cluster mode the topic is created in etcd (any broker writes it: one txn that fails if it exists, so no forwarding
 * to the controller is needed), else in the local store; so are internal topics, each broker's own until their
 * coordinators move with partitions.
 */
async function createTopic(ctx: RequestContext, name: string, plan: TopicPlan): Promise<string> {
  const { cluster, store } = ctx.broker;
  if (cluster === undefined || isInternalTopic(name)) return (await store.createTopic(name, plan.partitions, plan.configs)).topicId;
  const spec = plan.assignments !== undefined ? { assignments: plan.assignments } : { partitions: plan.partitions, replicationFactor: plan.replicationFactor };
  return (await cluster.createTopic(name, spec, plan.configs)).topicId;
}

/** ReplicationControlManager.createTopic: a valid topic's partitions go against the controller mutation quota. */
function withinQuota(plan: TopicPlan | ApiError, quota: ControllerMutationQuota): TopicPlan | ApiError {
  if ('code' in plan) return plan;
  try {
    quota.record(plan.partitions);
  } catch (error) {
    return apiErrorOf(error);
  }
  return plan;
}

function planTopic(ctx: RequestContext, topic: CreatableTopic, existing: readonly string[]): TopicPlan | ApiError {
  const { config, store, cluster } = ctx.broker;
  const nameProblem = invalidTopicNameMessage(topic.name);
  if (nameProblem !== null) return { code: ErrorCode.INVALID_TOPIC_EXCEPTION, message: nameProblem };
  if ((store.topic(topic.name) ?? cluster?.topic(topic.name)) !== undefined) {
    return { code: ErrorCode.TOPIC_ALREADY_EXISTS, message: `Topic '${topic.name}' already exists.` };
  }
  const collision = collidingTopic(topic.name, existing);
  if (collision !== undefined) {
    return { code: ErrorCode.INVALID_TOPIC_EXCEPTION, message: `Topic '${topic.name}' collides with existing topic: ${collision}` };
  }

  const nullConfigs = topic.configs.filter((c) => c.value === null).map((c) => c.name);
  if (nullConfigs.length > 0) {
    return { code: ErrorCode.INVALID_CONFIG, message: `Null value not supported for topic configs: ${nullConfigs.join(',')}` };
  }
  const configs: Record<string, string> = {};
  for (const entry of topic.configs) configs[entry.name] = entry.value!;
  const configProblem = topicConfigsProblem(configs, config);
  if (configProblem !== null) return { code: ErrorCode.INVALID_CONFIG, message: configProblem };

  const registered = new Set(cluster === undefined ? [ctx.broker.nodeId] : cluster.liveBrokers().map((b) => b.nodeId));
  if (topic.assignments.length > 0) return planAssignments(topic, registered, configs);
  if (topic.replicationFactor < -1 || topic.replicationFactor === 0) {
    return { code: ErrorCode.INVALID_REPLICATION_FACTOR, message: 'Replication factor must be larger than 0, or -1 to use the default value.' };
  }
  if (topic.numPartitions < -1 || topic.numPartitions === 0) {
    return { code: ErrorCode.INVALID_PARTITIONS, message: 'Number of partitions was set to an invalid non-positive value.' };
  }
  const partitions = topic.numPartitions === -1 ? config['num.partitions'] : topic.numPartitions;
  const replicationFactor = topic.replicationFactor === -1 ? config['default.replication.factor'] : topic.replicationFactor;
  if (replicationFactor > registered.size) {
    return {
      code: ErrorCode.INVALID_REPLICATION_FACTOR,
      message: `Unable to replicate the partition ${replicationFactor} time(s): The target replication factor of ${replicationFactor} ` +
        `cannot be reached because only ${registered.size} broker(s) are registered or some brokers have all their log directories cordoned.`,
    };
  }
  return { partitions, replicationFactor, configs };
}

/** Kafka's checks on a manual assignment: registered brokers only (on one broker every partition must be [this node]). */
function planAssignments(topic: CreatableTopic, registered: ReadonlySet<number>, configs: Record<string, string>): TopicPlan | ApiError {
  if (topic.replicationFactor !== -1) {
    return { code: ErrorCode.INVALID_REQUEST, message: 'A manual partition assignment was specified, but replication factor was not set to -1.' };
  }
  if (topic.numPartitions !== -1) {
    return { code: ErrorCode.INVALID_REQUEST, message: 'A manual partition assignment was specified, but numPartitions was not set to -1.' };
  }
  const seen = new Map<number, readonly number[]>();
  let replicationFactor: number | undefined;
  for (const assignment of topic.assignments) {
    if (seen.has(assignment.partitionIndex)) {
      return invalidAssignment(`Found multiple manual partition assignments for partition ${assignment.partitionIndex}`);
    }
    const problem = manualAssignmentProblem(assignment.brokerIds, registered, replicationFactor);
    if (problem !== null) return invalidAssignment(problem);
    replicationFactor = assignment.brokerIds.length;
    seen.set(assignment.partitionIndex, assignment.brokerIds);
  }
  for (let i = 0; i < seen.size; i++) {
    if (!seen.has(i)) return invalidAssignment('partitions should be a consecutive 0-based integer sequence');
  }
  const assignments = [...seen.keys()].sort((a, b) => a - b).map((index) => seen.get(index)!);
  return { partitions: seen.size, replicationFactor: replicationFactor ?? 1, configs, assignments };
}

/** A topic created by a concurrent request gets Kafka's wording too. */
function creationError(name: string, error: unknown): ApiError {
  const apiError = apiErrorOf(error);
  return apiError.code === ErrorCode.TOPIC_ALREADY_EXISTS ? { code: apiError.code, message: `Topic '${name}' already exists.` } : apiError;
}

function invalidAssignment(message: string): ApiError {
  return { code: ErrorCode.INVALID_REPLICA_ASSIGNMENT, message };
}

function failure(name: string, error: ApiError): CreatableTopicResult {
  return {
    name, topicId: ZERO_UUID, errorCode: error.code, errorMessage: error.message,
    topicConfigErrorCode: ErrorCode.NONE, numPartitions: -1, replicationFactor: -1, configs: [],
  };
}

function success(ctx: RequestContext, name: string, topicId: string, plan: TopicPlan, version: number, configsDescribable: boolean): CreatableTopicResult {
  const configs = version < 5 || !configsDescribable ? [] : new ConfigDescriber(ctx.broker.config, dynamicConfigs(ctx.broker)).topicEntries(plan.configs).map((entry) => ({
    // Kafka answers a topic's own settings here as they were given (" 1000 "), not parsed.
    name: entry.name,
    value: entry.sensitive ? null : entry.source === ConfigSourceId.DYNAMIC_TOPIC_CONFIG ? plan.configs[entry.name] ?? entry.value : entry.value,
    readOnly: entry.readOnly,
    configSource: entry.source, isSensitive: entry.sensitive,
  }));
  return {
    name, topicId, errorCode: ErrorCode.NONE, errorMessage: null,
    topicConfigErrorCode: configsDescribable ? ErrorCode.NONE : ErrorCode.TOPIC_AUTHORIZATION_FAILED,
    numPartitions: plan.partitions, replicationFactor: plan.replicationFactor, configs,
  };
}
