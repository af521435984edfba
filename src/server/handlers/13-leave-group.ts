/**
 * LeaveGroup (key 13), v0–v5: members leave a classic group; a rebalance follows at once.
 *
 * Versions:
 * - v0–v2: one member id; the single error is the top-level one (or that member's, as Kafka's
 *   LeaveGroupResponse folds it).
 * - v3+: a batch of members, each by member id and/or group.instance.id (an empty member id removes a
 *   static member by instance id), with an error per member. v5+: a reason per member.
 */
import { ErrorCode } from '../../protocol/error-codes.js';
import { leaveGroupApi, type LeaveGroupRequest, type LeaveGroupResponse } from '../../protocol/generated/leave-group.js';
import { defineHandler, type Handler } from '../handler.js';
import { AclOperation, authorize, refused, ResourceType } from '../authorization.js';

export const leaveGroupHandler: Handler = defineHandler<LeaveGroupRequest, LeaveGroupResponse>({
  api: leaveGroupApi,
  minVersion: 0,
  maxVersion: 5,

  async handle(ctx, request, version) {
    if (!authorize(ctx, AclOperation.READ, ResourceType.GROUP, request.groupId)) throw refused('GROUP_AUTHORIZATION_FAILED');
    const members = version < 3 ? [{ memberId: request.memberId, groupInstanceId: null, reason: null }] : request.members;
    const result = await ctx.broker.groups.leaveGroup(request.groupId, members);
    if (version >= 3) return { throttleTimeMs: 0, errorCode: result.errorCode, members: result.members };
    const memberError = result.members.find((m) => m.errorCode !== ErrorCode.NONE)?.errorCode ?? ErrorCode.NONE;
    return { throttleTimeMs: 0, errorCode: result.errorCode !== ErrorCode.NONE ? result.errorCode : memberError, members: [] };
  },
});
