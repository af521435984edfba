/**
 * ConsumerGroupDescribe (key 69), v0–v1, Kafka 4.3.1's range: a KIP-848 consumer group's epochs, state, assignor
 * and members with their current and target assignments (src/coordinator/group/consumer/describe.ts). A group that
 * is not a consumer group, or none, is GROUP_ID_NOT_FOUND with Kafka's message. v1+: each member's type (classic or
 * consumer). Authorized operations when asked (no authorizer: all a group supports). When the consumer protocol is off
 * (consumer-protocol.ts), each group answers UNSUPPORTED_VERSION.
 */
import { ErrorCode } from '../../protocol/error-codes.js';
import {
  consumerGroupDescribeApi,
  createDescribedGroup,
  type ConsumerGroupDescribeRequest,
  type ConsumerGroupDescribeResponse,
} from '../../protocol/generated/consumer-group-describe.js';
import { consumerProtocolEnabled } from '../consumer-protocol.js';
import { defineHandler, type Handler } from '../handler.js';
import { describeAuthorizedGroups } from '../authorization.js';

export const consumerGroupDescribeHandler: Handler = defineHandler<ConsumerGroupDescribeRequest, ConsumerGroupDescribeResponse>({
  api: consumerGroupDescribeApi,
  minVersion: 0,
  maxVersion: 1,

  async handle(ctx, request) {
    if (!consumerProtocolEnabled(ctx.broker)) {
      return { throttleTimeMs: 0, groups: request.groupIds.map((groupId) => ({ ...createDescribedGroup(), groupId, errorCode: ErrorCode.UNSUPPORTED_VERSION })) };
    }
    const groups = await describeAuthorizedGroups(ctx, request.groupIds, request.includeAuthorizedOperations, createDescribedGroup,
      (ids) => ctx.broker.groups.consumerGroupDescribe(ids));
    return { throttleTimeMs: 0, groups };
  },
});
