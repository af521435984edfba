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
import { AUTHORIZED_OPERATIONS_OMITTED, GROUP_AUTHORIZED_OPERATIONS } from '../authorized-operations.js';
import { defineHandler, type Handler } from '../handler.js';

const GROUP_ID_NOT_FOUND_VERSION = 6;

export const describeGroupsHandler: Handler = defineHandler<DescribeGroupsRequest, DescribeGroupsResponse>({
  api: describeGroupsApi,
  minVersion: 0,
  maxVersion: 6,

  handle(ctx, request, version) {
    const operations = version >= 3 && request.includeAuthorizedOperations ? GROUP_AUTHORIZED_OPERATIONS : AUTHORIZED_OPERATIONS_OMITTED;
    const groups = ctx.broker.groups.describeGroups(request.groups).map((g) => ({ ...forVersion(g, version), authorizedOperations: operations }));
    return { throttleTimeMs: 0, groups };
  },
});

function forVersion(group: DescribedGroup, version: number): DescribedGroup {
  if (version >= GROUP_ID_NOT_FOUND_VERSION) return group;
  const errorCode = group.errorCode === ErrorCode.GROUP_ID_NOT_FOUND ? ErrorCode.NONE : group.errorCode;
  return { ...group, errorCode, errorMessage: null };
}
