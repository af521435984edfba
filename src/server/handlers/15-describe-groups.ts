/**
 * DescribeGroups (key 15), v0–v6, Kafka 4.3.1's range.
 *
 * State (Empty, PreparingRebalance, CompletingRebalance, Stable), protocol type, and the members; the chosen
 * protocol and each member's metadata and assignment only once the group is Stable, as Kafka does. An unknown
 * group (the empty id too) is Dead; versions:
 * - v3+: authorized operations when asked (no authorizer: all a group supports). v4+: group.instance.id.
 * - v6+ (KIP-1043): an unknown group is GROUP_ID_NOT_FOUND, "Group <id> not found."; before v6 it has no error,
 *   as Kafka's KafkaApis answers older clients.
 */
import { ErrorCode } from '../../protocol/error-codes.js';
import {
  describeGroupsApi,
  type DescribedGroup,
  type DescribeGroupsRequest,
  type DescribeGroupsResponse,
} from '../../protocol/generated/describe-groups.js';
import { AUTHORIZED_OPERATIONS_OMITTED } from '../authorized-operations.js';
import { defineHandler, type Handler } from '../handler.js';
import { AclOperation, authorizedNames, authorizedOperations, ResourceType } from '../authorization.js';

const GROUP_ID_NOT_FOUND_VERSION = 6;

export const describeGroupsHandler: Handler = defineHandler<DescribeGroupsRequest, DescribeGroupsResponse>({
  api: describeGroupsApi,
  minVersion: 0,
  maxVersion: 6,

  handle(ctx, request, version) {
    // Groups the client may not DESCRIBE come first, GROUP_AUTHORIZATION_FAILED (Kafka's DescribeGroupsResponse.groupError).
    const describable = authorizedNames(ctx, AclOperation.DESCRIBE, ResourceType.GROUP, request.groups);
    const refused = request.groups.filter((g) => !describable.has(g)).map((groupId) => ({
      groupId, errorCode: ErrorCode.GROUP_AUTHORIZATION_FAILED, errorMessage: null, groupState: '', protocolType: '', protocolData: '', members: [],
      authorizedOperations: AUTHORIZED_OPERATIONS_OMITTED,
    }));
    const withOperations = version >= 3 && request.includeAuthorizedOperations;
    const groups = ctx.broker.groups.describeGroups(request.groups.filter((g) => describable.has(g))).map((g) => ({
      ...forVersion(g, version), authorizedOperations: withOperations ? authorizedOperations(ctx, ResourceType.GROUP, g.groupId) : AUTHORIZED_OPERATIONS_OMITTED,
    }));
    return { throttleTimeMs: 0, groups: [...refused, ...groups] };
  },
});

function forVersion(group: DescribedGroup, version: number): DescribedGroup {
  if (version >= GROUP_ID_NOT_FOUND_VERSION) return group;
  const errorCode = group.errorCode === ErrorCode.GROUP_ID_NOT_FOUND ? ErrorCode.NONE : group.errorCode;
  return { ...group, errorCode, errorMessage: null };
}
