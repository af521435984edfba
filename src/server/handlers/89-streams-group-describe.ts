/**
 * StreamsGroupDescribe (key 89), v0, Kafka 4.3.1's range: a streams group's epochs, state, topology and members with
 * their current and target tasks (src/coordinator/group/streams/describe.ts). A group that is not a streams group,
 * or none, is GROUP_ID_NOT_FOUND with Kafka's message. Authorized operations when asked (no authorizer: all a group
 * supports). When the streams protocol is off (streams-protocol.ts), each group answers UNSUPPORTED_VERSION.
 */
import { ErrorCode } from '../../protocol/error-codes.js';
import {
  createDescribedGroup,
  streamsGroupDescribeApi,
  type StreamsGroupDescribeRequest,
  type StreamsGroupDescribeResponse,
} from '../../protocol/generated/streams-group-describe.js';
import { streamsProtocolEnabled } from '../streams-protocol.js';
import { defineHandler, type Handler } from '../handler.js';
import { describeAuthorizedGroups } from '../authorization.js';

export const streamsGroupDescribeHandler: Handler = defineHandler<StreamsGroupDescribeRequest, StreamsGroupDescribeResponse>({
  api: streamsGroupDescribeApi,
  minVersion: 0,
  maxVersion: 0,

  async handle(ctx, request) {
    if (!streamsProtocolEnabled(ctx.broker)) {
      return { throttleTimeMs: 0, groups: request.groupIds.map((groupId) => ({ ...createDescribedGroup(), groupId, errorCode: ErrorCode.UNSUPPORTED_VERSION })) };
    }
    const groups = await describeAuthorizedGroups(ctx, request.groupIds, request.includeAuthorizedOperations, createDescribedGroup,
      (ids) => ctx.broker.groups.streamsGroupDescribe(ids));
    return { throttleTimeMs: 0, groups };
  },
});
