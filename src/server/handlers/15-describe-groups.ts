/**
 * DescribeGroups (key 15), v0–v5 (Kafka 4.3.1 serves 0–6; v6 is beyond our spec).
 *
 * State (Empty, PreparingRebalance, CompletingRebalance, Stable; Dead for an unknown group, with no
 * error), protocol type, and the members; the chosen protocol and each member's metadata and
 * assignment only once the group is Stable, as Kafka does. Versions:
 * - v3+: authorized operations when asked (no authorizer: all a group supports). v4+: group.instance.id.
 */
import {
  describeGroupsApi,
  type DescribeGroupsRequest,
  type DescribeGroupsResponse,
} from '../../protocol/generated/describe-groups.js';
import { AUTHORIZED_OPERATIONS_OMITTED, GROUP_AUTHORIZED_OPERATIONS } from '../authorized-operations.js';
import { defineHandler, type Handler } from '../handler.js';

export const describeGroupsHandler: Handler = defineHandler<DescribeGroupsRequest, DescribeGroupsResponse>({
  api: describeGroupsApi,
  minVersion: 0,
  maxVersion: 5,

  handle(ctx, request, version) {
    const operations = version >= 3 && request.includeAuthorizedOperations ? GROUP_AUTHORIZED_OPERATIONS : AUTHORIZED_OPERATIONS_OMITTED;
    const groups = ctx.broker.groups.describeGroups(request.groups).map((g) => ({ ...g, authorizedOperations: operations }));
    return { throttleTimeMs: 0, groups };
  },
});
