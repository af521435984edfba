/**
 * SyncGroup (key 14), v0–v5: the classic group protocol's sync phase.
 *
 * The leader sends the assignments; they are written to __consumer_offsets and then every member
 * (followers wait parked) gets its own. Errors: UNKNOWN_MEMBER_ID, ILLEGAL_GENERATION,
 * REBALANCE_IN_PROGRESS, FENCED_INSTANCE_ID (v3+). Versions:
 * - v3+: group.instance.id. v5+: protocol type and name, checked against the group's
 *   (INCONSISTENT_GROUP_PROTOCOL) and returned.
 */
import { syncGroupApi, type SyncGroupRequest, type SyncGroupResponse } from '../../protocol/generated/sync-group.js';
import { defineHandler, type Handler } from '../handler.js';
import { AclOperation, authorize, refused, ResourceType } from '../authorization.js';

export const syncGroupHandler: Handler = defineHandler<SyncGroupRequest, SyncGroupResponse>({
  api: syncGroupApi,
  minVersion: 0,
  maxVersion: 5,

  handle(ctx, request) {
    if (!authorize(ctx, AclOperation.READ, ResourceType.GROUP, request.groupId)) throw refused('GROUP_AUTHORIZATION_FAILED');
    return ctx.broker.groups.syncGroup(request);
  },
});
