/**
 * ShareGroupDescribe (key 77), v1, Kafka 4.3.1's range: a share group's epochs, state, assignor ("simple") and
 * members with their assignments (src/coordinator/group/share/describe.ts). A group that is not a share group, or
 * none, is GROUP_ID_NOT_FOUND with Kafka's message. Authorized operations when asked (no authorizer: all a group
 * supports). While share.version is 0 (share-protocol.ts), each group answers UNSUPPORTED_VERSION.
 */
import { ErrorCode } from '../../protocol/error-codes.js';
import {
  createDescribedGroup,
  shareGroupDescribeApi,
  type ShareGroupDescribeRequest,
  type ShareGroupDescribeResponse,
} from '../../protocol/generated/share-group-describe.js';
import { shareGroupsEnabled } from '../share-protocol.js';
import { defineHandler, type Handler } from '../handler.js';
import { describeAuthorizedGroups } from '../authorization.js';

export const shareGroupDescribeHandler: Handler = defineHandler<ShareGroupDescribeRequest, ShareGroupDescribeResponse>({
  api: shareGroupDescribeApi,
  minVersion: 1,
  maxVersion: 1,

  async handle(ctx, request) {
    if (!shareGroupsEnabled(ctx.broker)) {
      return { throttleTimeMs: 0, groups: request.groupIds.map((groupId) => ({ ...createDescribedGroup(), groupId, errorCode: ErrorCode.UNSUPPORTED_VERSION })) };
    }
    const groups = await describeAuthorizedGroups(ctx, request.groupIds, request.includeAuthorizedOperations, createDescribedGroup,
      (ids) => ctx.broker.groups.shareGroupDescribe(ids));
    return { throttleTimeMs: 0, groups };
  },
});
