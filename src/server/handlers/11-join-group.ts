/**
 * JoinGroup (key 11), v0–v9: the classic group protocol's join phase (src/coordinator/group/membership.ts).
 *
 * The request is parked until the join phase completes (everyone rejoined, or the rebalance timeout);
 * the leader alone gets the member list. Protocol chosen by vote among the protocols all members
 * support; INCONSISTENT_GROUP_PROTOCOL otherwise. Versions:
 * - v0: no rebalance timeout (the session timeout stands in, as Kafka does).
 * - v4+: a new member first gets MEMBER_ID_REQUIRED with its id and must rejoin with it.
 * - v5+: static membership (group.instance.id, FENCED_INSTANCE_ID). v7+: protocol type in the response;
 *   before v7 a null protocol name is sent as "". v8+: reason. v9+: skip_assignment for a static leader.
 * A non-empty consumer group takes the member as a classic member (KIP-848 mixed groups: the broker assigns, the
 * response names no leader and no members; coordinator/group/consumer/classic-members.ts).
 */
import { joinGroupApi, type JoinGroupRequest, type JoinGroupResponse } from '../../protocol/generated/join-group.js';
import { memberContextOf } from '../../coordinator/request-context.js';
import { defineHandler, type Handler } from '../handler.js';
import { AclOperation, authorize, refused, ResourceType } from '../authorization.js';

export const joinGroupHandler: Handler = defineHandler<JoinGroupRequest, JoinGroupResponse>({
  api: joinGroupApi,
  minVersion: 0,
  maxVersion: 9,

  async handle(ctx, request, version) {
    if (!authorize(ctx, AclOperation.READ, ResourceType.GROUP, request.groupId)) throw refused('GROUP_AUTHORIZATION_FAILED');
    const joinRequest = version === 0 ? { ...request, rebalanceTimeoutMs: request.sessionTimeoutMs } : request;
    const response = await ctx.broker.groups.joinGroup(memberContextOf(ctx, version), joinRequest);
    if (version < 7 && response.protocolName === null) return { ...response, protocolName: '' };
    return response;
  },
});
