/**
 * ListGroups (key 16), v0–v5: every group this coordinator holds, with its protocol type
 * ("" for a group that only has committed offsets). Versions:
 * - v4+: states filter (case-insensitive) and each group's state.
 * - v5+: types filter and each group's type (always "classic": consumer-protocol groups are not served yet).
 */
import { listGroupsApi, type ListGroupsRequest, type ListGroupsResponse } from '../../protocol/generated/list-groups.js';
import { defineHandler, type Handler } from '../handler.js';

export const listGroupsHandler: Handler = defineHandler<ListGroupsRequest, ListGroupsResponse>({
  api: listGroupsApi,
  minVersion: 0,
  maxVersion: 5,

  handle(ctx, request, version) {
    const result = ctx.broker.groups.listGroups(version >= 4 ? request.statesFilter : [], version >= 5 ? request.typesFilter : []);
    return { throttleTimeMs: 0, errorCode: result.errorCode, groups: result.groups };
  },
});
