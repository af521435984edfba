/**
 * ListGroups (key 16), v0–v5: every group this coordinator holds, with its protocol type
 * ("" for a group that only has committed offsets). Versions:
 * - v4+: states filter (case-insensitive) and each group's state.
 * - v5+: types filter and each group's type (always "classic": consumer-protocol groups are not served yet).
 */
import { listGroupsApi, type ListGroupsRequest, type ListGroupsResponse } from '../../protocol/generated/list-groups.js';
import { defineHandler, type Handler } from '../handler.js';
import { AclOperation, authorize, authorizeCluster, ResourceType } from '../authorization.js';

export const listGroupsHandler: Handler = defineHandler<ListGroupsRequest, ListGroupsResponse>({
  api: listGroupsApi,
  minVersion: 0,
  maxVersion: 5,

  handle(ctx, request, version) {
    const result = ctx.broker.groups.listGroups(version >= 4 ? request.statesFilter : [], version >= 5 ? request.typesFilter : []);
    // DESCRIBE on the cluster lists every group; otherwise those the client may DESCRIBE.
    const groups = authorizeCluster(ctx, AclOperation.DESCRIBE) ? result.groups
      : result.groups.filter((g) => authorize(ctx, AclOperation.DESCRIBE, ResourceType.GROUP, g.groupId));
    return { throttleTimeMs: 0, errorCode: result.errorCode, groups };
  },
});
