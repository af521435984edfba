/**
 * Heartbeat (key 12), v0–v4: keeps a classic member's session alive.
 *
 * NONE while Stable or CompletingRebalance, REBALANCE_IN_PROGRESS while PreparingRebalance (the member
 * must rejoin), UNKNOWN_MEMBER_ID, ILLEGAL_GENERATION, FENCED_INSTANCE_ID (v3+: group.instance.id).
 */
import { heartbeatApi, type HeartbeatRequest, type HeartbeatResponse } from '../../protocol/generated/heartbeat.js';
import { defineHandler, type Handler } from '../handler.js';
import { AclOperation, authorize, refused, ResourceType } from '../authorization.js';

export const heartbeatHandler: Handler = defineHandler<HeartbeatRequest, HeartbeatResponse>({
  api: heartbeatApi,
  minVersion: 0,
  maxVersion: 4,

  handle(ctx, request) {
    if (!authorize(ctx, AclOperation.READ, ResourceType.GROUP, request.groupId)) throw refused('GROUP_AUTHORIZATION_FAILED');
    return ctx.broker.groups.heartbeat(request);
  },
});
