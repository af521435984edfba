/**
 * DeleteAcls (key 31), v1-v3 (Kafka 4.3.1's range): each filter deletes the ACLs it matches (literal, prefixed, ANY or
 * MATCH patterns) and lists them; a filter with an UNKNOWN part gets INVALID_REQUEST with AclControlManager's message.
 * Stored before the answer. Needs ALTER on the cluster (server/authorization.ts' table). Without an authorizer:
 * SECURITY_DISABLED.
 */
import { ErrorCode } from '../../protocol/error-codes.js';
import { deleteAclsApi, type DeleteAclsRequest, type DeleteAclsResponse } from '../../protocol/generated/delete-acls.js';
import { filterOf } from '../../security/authorizer/acl.js';
import { defineHandler, type Handler } from '../handler.js';

export const deleteAclsHandler: Handler = defineHandler<DeleteAclsRequest, DeleteAclsResponse>({
  api: deleteAclsApi,
  minVersion: 1,
  maxVersion: 3,

  async handle(ctx, request) {
    const authorizer = ctx.broker.authorizer;
    if (authorizer === null) {
      return {
        throttleTimeMs: 0,
        filterResults: request.filters.map(() => ({ errorCode: ErrorCode.SECURITY_DISABLED, errorMessage: 'No Authorizer is configured.', matchingAcls: [] })),
      };
    }
    const results = await authorizer.delete(request.filters.map((f) => filterOf({
      resourceType: f.resourceTypeFilter, resourceName: f.resourceNameFilter, patternType: f.patternTypeFilter,
      principal: f.principalFilter, host: f.hostFilter, operation: f.operation, permissionType: f.permissionType,
    })));
    return {
      throttleTimeMs: 0,
      filterResults: results.map((result) => ('problem' in result
        ? { errorCode: ErrorCode.INVALID_REQUEST, errorMessage: result.problem, matchingAcls: [] }
        : {
          errorCode: ErrorCode.NONE,
          errorMessage: null,
          matchingAcls: result.deleted.map((acl) => ({
            errorCode: ErrorCode.NONE, errorMessage: null, resourceType: acl.resourceType, resourceName: acl.resourceName, patternType: acl.patternType,
            principal: acl.principal, host: acl.host, operation: acl.operation, permissionType: acl.permissionType,
          })),
        })),
    };
  },
});
