/**
 * ConsumerGroupHeartbeat (key 68), v0–v1, Kafka 4.3.1's range: the KIP-848 consumer group protocol
 * (src/coordinator/group/consumer/heartbeat.ts). A member joins with epoch 0, heartbeats with its epoch and owned
 * partitions, and is told its epoch, its assignment and the heartbeat interval; -1 leaves, -2 leaves a static
 * member's place open. v1+: the client generates its member id. When the consumer protocol is off (consumer-protocol.ts), every request answers UNSUPPORTED_VERSION, as Kafka's KafkaApis does.
 */
import { ErrorCode } from '../../protocol/error-codes.js';
import {
  consumerGroupHeartbeatApi,
  createConsumerGroupHeartbeatResponse,
  type ConsumerGroupHeartbeatRequest,
  type ConsumerGroupHeartbeatResponse,
} from '../../protocol/generated/consumer-group-heartbeat.js';
import { memberContextOf } from '../../coordinator/request-context.js';
import { consumerProtocolEnabled } from '../consumer-protocol.js';
import { defineHandler, type Handler } from '../handler.js';
import { AclOperation, authorize, authorizedNames, refused, ResourceType } from '../authorization.js';

export const consumerGroupHeartbeatHandler: Handler = defineHandler<ConsumerGroupHeartbeatRequest, ConsumerGroupHeartbeatResponse>({
  api: consumerGroupHeartbeatApi,
  minVersion: 0,
  maxVersion: 1,

  async handle(ctx, request, version) {
    if (!consumerProtocolEnabled(ctx.broker)) {
      return { ...createConsumerGroupHeartbeatResponse(), errorCode: ErrorCode.UNSUPPORTED_VERSION };
    }
    if (!authorize(ctx, AclOperation.READ, ResourceType.GROUP, request.groupId)) throw refused('GROUP_AUTHORIZATION_FAILED');
    // Every topic subscribed by name needs DESCRIBE, else the heartbeat is answered TOPIC_AUTHORIZATION_FAILED alone.
    const subscribed = request.subscribedTopicNames ?? [];
    if (subscribed.length > 0 && authorizedNames(ctx, AclOperation.DESCRIBE, ResourceType.TOPIC, subscribed).size < subscribed.length) {
      return { ...createConsumerGroupHeartbeatResponse(), errorCode: ErrorCode.TOPIC_AUTHORIZATION_FAILED };
    }
    return ctx.broker.groups.consumerGroupHeartbeat(memberContextOf(ctx, version), request);
  },
});
