/**
 * StreamsGroupHeartbeat (key 88), v0, Kafka 4.3.1's range: the KIP-1071 streams group protocol
 * (src/coordinator/group/streams/heartbeat.ts). As Kafka's KafkaApis: a topology naming Kafka's internal topics or an
 * invalid topic name is STREAMS_INVALID_TOPOLOGY; the internal topics the coordinator finds missing (named in the
 * MISSING_INTERNAL_TOPICS status) are created by the broker after the answer, with the partitions, replication
 * factor and configs the topology asks. When the streams protocol is off (streams-protocol.ts), UNSUPPORTED_VERSION.
 */
import { ErrorCode } from '../../protocol/error-codes.js';
import {
  createStreamsGroupHeartbeatResponse,
  streamsGroupHeartbeatApi,
  type StreamsGroupHeartbeatRequest,
  type StreamsGroupHeartbeatResponse,
} from '../../protocol/generated/streams-group-heartbeat.js';
import { isInternalTopic, isValidTopicName } from '../../protocol/topic-names.js';
import { memberContextOf } from '../../coordinator/request-context.js';
import { streamsProtocolEnabled } from '../streams-protocol.js';
import { defineHandler, type Handler } from '../handler.js';
import { AclOperation, authorize, authorizeCluster, authorizedNames, refused, ResourceType } from '../authorization.js';
import { StreamsStatus } from '../../coordinator/group/streams/topology.js';

export const streamsGroupHeartbeatHandler: Handler = defineHandler<StreamsGroupHeartbeatRequest, StreamsGroupHeartbeatResponse>({
  api: streamsGroupHeartbeatApi,
  minVersion: 0,
  maxVersion: 0,

  async handle(ctx, request, version) {
    if (!streamsProtocolEnabled(ctx.broker)) return { ...createStreamsGroupHeartbeatResponse(), errorCode: ErrorCode.UNSUPPORTED_VERSION };
    if (!authorize(ctx, AclOperation.READ, ResourceType.GROUP, request.groupId)) throw refused('GROUP_AUTHORIZATION_FAILED');
    if (request.topology !== null) {
      const required = [
        ...new Set(
          request.topology.subtopologies.flatMap((s) => [
            ...s.sourceTopics,
            ...s.repartitionSinkTopics,
            ...s.repartitionSourceTopics.map((t) => t.name),
            ...s.stateChangelogTopics.map((t) => t.name),
          ]),
        ),
      ];
      const prohibited = required.filter(isInternalTopic);
      if (prohibited.length > 0) {
        return { ...createStreamsGroupHeartbeatResponse(), errorCode: ErrorCode.STREAMS_INVALID_TOPOLOGY, errorMessage: `Use of Kafka internal topics ${prohibited.join(',')} in a Kafka Streams topology is prohibited.` };
      }
      const invalid = required.filter((t) => !isValidTopicName(t));
      if (invalid.length > 0) {
        return { ...createStreamsGroupHeartbeatResponse(), errorCode: ErrorCode.STREAMS_INVALID_TOPOLOGY, errorMessage: `Topic names ${invalid.join(',')} are not valid topic names.` };
      }
      // Every topic the topology names needs DESCRIBE, else TOPIC_AUTHORIZATION_FAILED alone (Kafka's KafkaApis).
      if (required.length > 0 && authorizedNames(ctx, AclOperation.DESCRIBE, ResourceType.TOPIC, required).size < required.length) {
        return { ...createStreamsGroupHeartbeatResponse(), errorCode: ErrorCode.TOPIC_AUTHORIZATION_FAILED };
      }
    }
    const result = await ctx.broker.groups.streamsGroupHeartbeat(memberContextOf(ctx, version), request);
    // Kafka creates the missing internal topics on the controller after answering; the next heartbeat sees them. Each
    // needs CREATE on the cluster or the topic; the others are named in the MISSING_INTERNAL_TOPICS status, as Kafka does.
    const mayCreateAll = authorizeCluster(ctx, AclOperation.CREATE);
    const creatable = mayCreateAll ? null : authorizedNames(ctx, AclOperation.CREATE, ResourceType.TOPIC, result.internalTopicsToCreate.map((t) => t.name));
    const unauthorized = creatable === null ? [] : result.internalTopicsToCreate.filter((t) => !creatable.has(t.name)).map((t) => t.name);
    if (unauthorized.length > 0) {
      const detail = `Unauthorized to CREATE on topics ${unauthorized.join(',')}.`;
      const status = result.response.status ?? [];
      const missing = status.find((s) => s.statusCode === StreamsStatus.MISSING_INTERNAL_TOPICS);
      result.response.status = missing !== undefined
        ? status.map((s) => (s === missing ? { ...s, statusDetail: `${s.statusDetail}; ${detail}` } : s))
        : [...status, { statusCode: StreamsStatus.MISSING_INTERNAL_TOPICS, statusDetail: detail }];
    }
    for (const topic of result.internalTopicsToCreate) {
      if (creatable !== null && !creatable.has(topic.name)) continue;
      const configs = Object.fromEntries(topic.topicConfigs);
      if (ctx.broker.store.topic(topic.name) !== undefined) continue;
      ctx.broker.store.createTopic(topic.name, topic.numberOfPartitions, configs).catch((error: unknown) => {
        ctx.broker.log.warn(`Auto topic creation failed for ${topic.name}: ${error instanceof Error ? error.message : String(error)}`);
      });
    }
    return result.response;
  },
});
