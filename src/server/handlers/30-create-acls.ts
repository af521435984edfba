/**
 * CreateAcls (key 30), v1-v3 (Kafka 4.3.1's range): each creation checked as Kafka's AclApis and AclControlManager
 * check it (INVALID_REQUEST with their messages), created once (an existing ACL is a success), stored before the
 * answer. Needs ALTER on the cluster (server/authorization.ts' table). Without an authorizer: SECURITY_DISABLED.
 */
import { ErrorCode } from '../../protocol/error-codes.js';
import { createAclsApi, type CreateAclsRequest, type CreateAclsResponse } from '../../protocol/generated/create-acls.js';
import { aclOf } from '../../security/authorizer/acl.js';
import { defineHandler, type Handler } from '../handler.js';

export const createAclsHandler: Handler = defineHandler<CreateAclsRequest, CreateAclsResponse>({
  api: createAclsApi,
  minVersion: 1,
  maxVersion: 3,

  async handle(ctx, request) {
    const authorizer = ctx.broker.authorizer;
    if (authorizer === null) {
      return { throttleTimeMs: 0, results: request.creations.map(() => ({ errorCode: ErrorCode.SECURITY_DISABLED, errorMessage: 'No Authorizer is configured.' })) };
    }
    const problems = await authorizer.create(request.creations.map((c) => aclOf({
      resourceType: c.resourceType, resourceName: c.resourceName, patternType: c.resourcePatternType,
      principal: c.principal, host: c.host, operation: c.operation, permissionType: c.permissionType,
    })));
    return {
      throttleTimeMs: 0,
      results: problems.map((problem) => (problem === null ? { errorCode: ErrorCode.NONE, errorMessage: null } : { errorCode: ErrorCode.INVALID_REQUEST, errorMessage: problem })),
    };
  },
});
