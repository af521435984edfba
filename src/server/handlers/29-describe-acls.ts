/**
 * DescribeAcls (key 29), v1-v3 (Kafka 4.3.1's range): the ACLs a filter matches (literal, prefixed, ANY or MATCH
 * patterns), grouped by resource pattern as DescribeAclsResponse.aclsResources groups them. Needs DESCRIBE on the
 * cluster (server/authorization.ts' table). Without an authorizer: SECURITY_DISABLED, Kafka's message.
 */
import { ErrorCode } from '../../protocol/error-codes.js';
import { describeAclsApi, type DescribeAclsRequest, type DescribeAclsResource, type DescribeAclsResponse } from '../../protocol/generated/describe-acls.js';
import { filterOf } from '../../security/authorizer/acl.js';
import { defineHandler, type Handler } from '../handler.js';

export const describeAclsHandler: Handler = defineHandler<DescribeAclsRequest, DescribeAclsResponse>({
  api: describeAclsApi,
  minVersion: 1,
  maxVersion: 3,

  handle(ctx, request) {
    const authorizer = ctx.broker.authorizer;
    if (authorizer === null) {
      return { throttleTimeMs: 0, errorCode: ErrorCode.SECURITY_DISABLED, errorMessage: 'No Authorizer is configured on the broker', resources: [] };
    }
    const acls = authorizer.describe(filterOf({
      resourceType: request.resourceTypeFilter, resourceName: request.resourceNameFilter, patternType: request.patternTypeFilter,
      principal: request.principalFilter, host: request.hostFilter, operation: request.operation, permissionType: request.permissionType,
    }));
    const resources = new Map<string, DescribeAclsResource>();
    for (const acl of acls) {
      const key = JSON.stringify([acl.resourceType, acl.resourceName, acl.patternType]);
      let resource = resources.get(key);
      if (resource === undefined) {
        resource = { resourceType: acl.resourceType, resourceName: acl.resourceName, patternType: acl.patternType, acls: [] };
        resources.set(key, resource);
      }
      resource.acls.push({ principal: acl.principal, host: acl.host, operation: acl.operation, permissionType: acl.permissionType });
    }
    return { throttleTimeMs: 0, errorCode: ErrorCode.NONE, errorMessage: null, resources: [...resources.values()] };
  },
});
