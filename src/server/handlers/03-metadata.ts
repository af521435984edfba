/**
 * Metadata (key 3), v0–v13, Kafka 4.3.1's range.
 *
 * Brokers: this node at the advertised endpoint of the listener the request came in on. Controller:
 * this node (a KRaft broker names a live broker, and this is the only one). Topics: all (v0: an empty
 * list; v1+: a null list) or the ones named; each partition is led by this node, replicas = ISR = [node].
 * In cluster mode (server/cluster-view.ts): every live broker with an endpoint on that listener (with its rack), the
 * elected controller, and each partition's replicas, leader, leader epoch and ISR from etcd (offline: the replicas
 * whose broker is not alive).
 * An unknown name gets UNKNOWN_TOPIC_OR_PARTITION (INVALID_TOPIC_EXCEPTION if the name is illegal); when
 * auto-creation is allowed (v0-3 always, v4+ allow_auto_topic_creation, and auto.create.topics.enable) the
 * topic is created before answering, yet the answer is the one Kafka 4.3 gives while its controller creates
 * the topic: UNKNOWN_TOPIC_OR_PARTITION with the zero id, so the client asks again. Versions:
 * - v0 / v1+: "all topics" is [] / null. v2+: cluster id. v4+: allow_auto_topic_creation. v7+: leader epoch.
 * - v8+: authorized operations when asked (no authorizer: every supported operation), else the schema default;
 *   cluster operations only in v8–v10 (0 without DESCRIBE on the cluster).
 * Authorization (KafkaApis): a topic the client may not DESCRIBE is left out of "all topics", and a named one gets
 * TOPIC_AUTHORIZATION_FAILED (by id: with its id and no name) after the others; a missing topic that would be
 * auto-created needs CREATE on the cluster or the topic, else TOPIC_AUTHORIZATION_FAILED.
 * - v10+: topic ids. v12+: topics may be named by id (unknown id: UNKNOWN_TOPIC_ID); in v10–v11 an id or a
 *   null name is an invalid request, answered with INVALID_REQUEST on every requested topic.
 * - v13+: a top-level error code. Kafka sets it only in the answer to a request whose handling failed (the
 *   router's error response, src/protocol/error-responses/cluster.ts); a handled request has NONE there.
 */
import { ErrorCode } from '../../protocol/error-codes.js';
import {
  metadataApi,
  type MetadataRequest,
  type MetadataResponse,
  type MetadataResponsePartition,
  type MetadataResponseTopic,
} from '../../protocol/generated/metadata.js';
import { ZERO_UUID } from '../../protocol/io/reader.js';
import { AUTHORIZED_OPERATIONS_OMITTED } from '../authorized-operations.js';
import { AclOperation, authorize, authorizeCluster, authorizedOperations, ResourceType } from '../authorization.js';
import { CLUSTER_NAME } from '../../security/authorizer/acl.js';
import { defineHandler, type Handler, type RequestContext } from '../handler.js';
import type { TopicInfo } from '../../broker/topic-catalog.js';
import { isInternalTopic, isValidTopicName } from '../../protocol/topic-names.js';
import { brokersOn, metadataControllerIdOf, partitionView } from '../cluster-view.js';

export const metadataHandler: Handler = defineHandler<MetadataRequest, MetadataResponse>({
  api: metadataApi,
  minVersion: 0,
  maxVersion: 13,

  async handle(ctx, request, version) {
    const { broker } = ctx;
    const listener = ctx.connection.listenerName;
    const response: MetadataResponse = {
      throttleTimeMs: 0,
      errorCode: ErrorCode.NONE, // v13+ only
      // A single node answers no rack here (as before); a cluster's brokers carry broker.rack.
      brokers: brokersOn(broker, listener).map((node) => (broker.cluster === undefined ? { ...node, rack: null } : node)),
      clusterId: broker.clusterId,
      controllerId: metadataControllerIdOf(broker),
      topics: [],
      clusterAuthorizedOperations: AUTHORIZED_OPERATIONS_OMITTED,
    };
    const requested = request.topics;
    if (requested !== null && version < 12 && requested.some((t) => t.name === null || (t.topicId !== ZERO_UUID && version >= 10))) {
      response.topics = requested.map((t) => topicError(ErrorCode.INVALID_REQUEST, t.name ?? '', t.topicId, false));
      return response;
    }

    const allTopics = requested === null || (version === 0 && requested.length === 0);
    const mayDescribe = (name: string) => authorize(ctx, AclOperation.DESCRIBE, ResourceType.TOPIC, name);
    // The authorized topics' entries (which carry authorized operations), then those refused, as KafkaApis orders them.
    const described: MetadataResponseTopic[] = [];
    const refused: MetadataResponseTopic[] = [];
    if (allTopics) {
      // All topics: those the client may not describe are left out, unnamed.
      for (const topic of broker.topics.list()) if (mayDescribe(topic.name)) described.push(describeTopic(ctx, topic, version));
    } else {
      const ids = [...new Set(requested.map((t) => t.topicId).filter((id) => id !== ZERO_UUID))];
      if (ids.length > 0) {
        for (const id of ids) if (broker.topics.getById(id) === undefined) response.topics.push(topicError(ErrorCode.UNKNOWN_TOPIC_ID, null, id, false));
        for (const id of ids) {
          const topic = broker.topics.getById(id);
          if (topic === undefined) continue;
          // Topic ids are not secret: a refused one is answered with its id and no name.
          if (mayDescribe(topic.name)) described.push(describeTopic(ctx, topic, version));
          else refused.push(topicError(ErrorCode.TOPIC_AUTHORIZATION_FAILED, null, id, false));
        }
      } else {
        const autoCreate = (version < 4 || request.allowAutoTopicCreation) && broker.config['auto.create.topics.enable'];
        const mayCreate = (name: string) => authorizeCluster(ctx, AclOperation.CREATE) || authorize(ctx, AclOperation.CREATE, ResourceType.TOPIC, name);
        const denied: MetadataResponseTopic[] = [];
        for (const name of new Set(requested.map((t) => t.name ?? ''))) {
          if (!mayDescribe(name)) denied.push(topicError(ErrorCode.TOPIC_AUTHORIZATION_FAILED, name, ZERO_UUID, false));
          else if (autoCreate && broker.topics.get(name) === undefined && !mayCreate(name)) {
            refused.push(topicError(ErrorCode.TOPIC_AUTHORIZATION_FAILED, name, ZERO_UUID, isInternalTopic(name)));
          } else described.push(await describeByName(ctx, name, autoCreate, version));
        }
        refused.push(...denied);
      }
    }

    if (version >= 8) {
      if (version <= 10 && request.includeClusterAuthorizedOperations) {
        response.clusterAuthorizedOperations = authorizeCluster(ctx, AclOperation.DESCRIBE) ? authorizedOperations(ctx, ResourceType.CLUSTER, CLUSTER_NAME) : 0;
      }
      if (request.includeTopicAuthorizedOperations) {
        for (const topic of described) topic.topicAuthorizedOperations = authorizedOperations(ctx, ResourceType.TOPIC, topic.name!);
      }
    }
    response.topics.push(...described, ...refused);
    return response;
  },
});

async function describeByName(
  ctx: RequestContext,
  name: string,
  autoCreateAllowed: boolean,
  version: number,
): Promise<MetadataResponseTopic> {
  const { topics } = ctx.broker;
  const known = topics.get(name);
  if (known !== undefined) return describeTopic(ctx, known, version);
  if (!isValidTopicName(name)) return topicError(ErrorCode.INVALID_TOPIC_EXCEPTION, name, ZERO_UUID, isInternalTopic(name));
  if (autoCreateAllowed && topics.autoCreate !== undefined) {
    try {
      await topics.autoCreate(name);
    } catch (error) {
      // Kafka's controller creates the topic after answering; a creation it refuses never shows in Metadata.
      ctx.broker.log.warn({ topic: name, reason: error instanceof Error ? error.message : String(error) }, 'topic auto-creation failed');
    }
    return topicError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, name, ZERO_UUID, isInternalTopic(name));
  }
  return topicError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, name, ZERO_UUID, isInternalTopic(name));
}

function describeTopic(ctx: RequestContext, topic: TopicInfo, version: number): MetadataResponseTopic {
  // Without an endpoint on the client's listener the leader cannot be reached (Kafka: LISTENER_NOT_FOUND from v6).
  const partitions: MetadataResponsePartition[] = [];
  for (let index = 0; index < topic.partitionCount; index++) {
    const view = partitionView(ctx.broker, ctx.connection.listenerName, topic.name, index, version >= 6);
    partitions.push({
      errorCode: view.errorCode,
      partitionIndex: index,
      leaderId: view.leaderId,
      leaderEpoch: view.leaderEpoch,
      replicaNodes: view.replicas,
      isrNodes: view.isr,
      offlineReplicas: view.offline,
    });
  }
  return {
    errorCode: ErrorCode.NONE,
    name: topic.name,
    topicId: topic.id,
    isInternal: topic.internal,
    partitions,
    topicAuthorizedOperations: AUTHORIZED_OPERATIONS_OMITTED,
  };
}

function topicError(errorCode: number, name: string | null, topicId: string, isInternal: boolean): MetadataResponseTopic {
  return { errorCode, name, topicId, isInternal, partitions: [], topicAuthorizedOperations: AUTHORIZED_OPERATIONS_OMITTED };
}
