// Error responses of the SASL, SCRAM credential and ACL APIs, as Kafka's requests build them.
import { alterUserScramCredentialsApi, createAlterUserScramCredentialsResponse } from '../generated/alter-user-scram-credentials.js';
import { createDescribeUserScramCredentialsResponse, createDescribeUserScramCredentialsResult, describeUserScramCredentialsApi } from '../generated/describe-user-scram-credentials.js';
import { createSaslAuthenticateResponse, saslAuthenticateApi } from '../generated/sasl-authenticate.js';
import { createSaslHandshakeResponse, saslHandshakeApi } from '../generated/sasl-handshake.js';
import { createCreateDelegationTokenResponse, createDelegationTokenApi } from '../generated/create-delegation-token.js';
import { createRenewDelegationTokenResponse, renewDelegationTokenApi } from '../generated/renew-delegation-token.js';
import { createExpireDelegationTokenResponse, expireDelegationTokenApi } from '../generated/expire-delegation-token.js';
import { createDescribeDelegationTokenResponse, describeDelegationTokenApi } from '../generated/describe-delegation-token.js';
import { createAclsApi, createCreateAclsResponse } from '../generated/create-acls.js';
import { createDeleteAclsResponse, deleteAclsApi } from '../generated/delete-acls.js';
import { createDescribeAclsResponse, describeAclsApi } from '../generated/describe-acls.js';
import { errorResponse } from './define.js';

export const securityErrorResponses = [
  errorResponse(saslHandshakeApi, (_request, _version, error) => ({ ...createSaslHandshakeResponse(), errorCode: error.code })),

  errorResponse(saslAuthenticateApi, (_request, _version, error) => ({
    ...createSaslAuthenticateResponse(), errorCode: error.code, errorMessage: error.message,
  })),

  // Kafka leaves each result's user unset (empty) here.
  errorResponse(describeUserScramCredentialsApi, (request, _version, error) => ({
    ...createDescribeUserScramCredentialsResponse(),
    errorCode: error.code,
    errorMessage: error.message,
    results: (request.users ?? []).map(() => ({ ...createDescribeUserScramCredentialsResult(), errorCode: error.code, errorMessage: error.message })),
  })),

  // Every user named, once, in sorted order.
  errorResponse(alterUserScramCredentialsApi, (request, _version, error) => ({
    ...createAlterUserScramCredentialsResponse(),
    results: [...new Set([...request.deletions, ...request.upsertions].map((c) => c.name))].sort()
      .map((user) => ({ user, errorCode: error.code, errorMessage: error.message })),
  })),

  // Owner and requester User:ANONYMOUS, timestamps -1, no token id or HMAC (CreateDelegationTokenResponse.prepareResponse).
  // The requester is set from v3 on, as prepareResponse sets it.
  errorResponse(createDelegationTokenApi, (_request, version, error) => ({
    ...createCreateDelegationTokenResponse(), errorCode: error.code, principalType: 'User', principalName: 'ANONYMOUS',
    ...(version >= 3 ? { tokenRequesterPrincipalType: 'User', tokenRequesterPrincipalName: 'ANONYMOUS' } : {}),
    issueTimestampMs: -1n, expiryTimestampMs: -1n, maxTimestampMs: -1n,
  })),
  errorResponse(renewDelegationTokenApi, (_request, _version, error) => ({ ...createRenewDelegationTokenResponse(), errorCode: error.code })),
  errorResponse(expireDelegationTokenApi, (_request, _version, error) => ({ ...createExpireDelegationTokenResponse(), errorCode: error.code })),
  errorResponse(describeDelegationTokenApi, (_request, _version, error) => ({ ...createDescribeDelegationTokenResponse(), errorCode: error.code })),
  errorResponse(describeAclsApi, (_request, _version, error) => ({ ...createDescribeAclsResponse(), errorCode: error.code, errorMessage: error.message })),

  // One result per creation, each with the error.
  errorResponse(createAclsApi, (request, _version, error) => ({
    ...createCreateAclsResponse(), results: request.creations.map(() => ({ errorCode: error.code, errorMessage: error.message })),
  })),

  // One result per filter, each with the error and no matching ACL.
  errorResponse(deleteAclsApi, (request, _version, error) => ({
    ...createDeleteAclsResponse(), filterResults: request.filters.map(() => ({ errorCode: error.code, errorMessage: error.message, matchingAcls: [] })),
  })),
];
