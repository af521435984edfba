/**
 * CreateDelegationToken (key 38), v1-3 (Kafka 4.3.1's range): a token for the requester, or for the owner v3 names
 * (KafkaApis.handleCreateTokenRequest, then DelegationTokenControlManager.createDelegationToken). Refused with
 * DELEGATION_TOKEN_REQUEST_NOT_ALLOWED over PLAINTEXT, one-way SSL or a token-authenticated connection and with
 * INVALID_PRINCIPAL_TYPE for a renewer that is not a User (timestamps -1, as the broker answers them), and with
 * DELEGATION_TOKEN_AUTH_DISABLED without delegation.token.secret.key (timestamps 0, as the controller answers).
 * v3 adds the owner in the request and the requester in the response. An owner other than the requester needs
 * CREATE_TOKENS on it (DELEGATION_TOKEN_AUTHORIZATION_FAILED, timestamps -1).
 */
import { ErrorCode } from '../../protocol/error-codes.js';
import {
  createDelegationTokenApi,
  createCreateDelegationTokenResponse,
  type CreateDelegationTokenRequest,
  type CreateDelegationTokenResponse,
} from '../../protocol/generated/create-delegation-token.js';
import { principalOf, type Principal } from '../../security/delegation-tokens.js';
import { allowTokenRequests, delegationTokens } from '../admin/delegation-tokens.js';
import { defineHandler, type Handler } from '../handler.js';
import { AclOperation, authorize, ResourceType } from '../authorization.js';

export const createDelegationTokenHandler: Handler = defineHandler<CreateDelegationTokenRequest, CreateDelegationTokenResponse>({
  api: createDelegationTokenApi,
  minVersion: 1,
  maxVersion: 3,

  async handle(ctx, request, version) {
    const requester = principalOf(ctx.connection.principal);
    const owner: Principal = request.ownerPrincipalName === null || request.ownerPrincipalName === ''
      ? requester : { type: request.ownerPrincipalType ?? 'User', name: request.ownerPrincipalName };
    const response = (errorCode: number, timestamp: bigint): CreateDelegationTokenResponse => ({
      ...createCreateDelegationTokenResponse(),
      errorCode,
      principalType: owner.type,
      principalName: owner.name,
      // From v3 on, as Kafka's prepareResponse.
      ...(version >= 3 ? { tokenRequesterPrincipalType: requester.type, tokenRequesterPrincipalName: requester.name } : {}),
      issueTimestampMs: timestamp,
      expiryTimestampMs: timestamp,
      maxTimestampMs: timestamp,
    });
    if (!allowTokenRequests(ctx.connection)) return response(ErrorCode.DELEGATION_TOKEN_REQUEST_NOT_ALLOWED, -1n);
    if (request.renewers.some((r) => r.principalType !== 'User')) return response(ErrorCode.INVALID_PRINCIPAL_TYPE, -1n);
    if ((owner.type !== requester.type || owner.name !== requester.name) && !authorize(ctx, AclOperation.CREATE_TOKENS, ResourceType.USER, `${owner.type}:${owner.name}`)) {
      return response(ErrorCode.DELEGATION_TOKEN_AUTHORIZATION_FAILED, -1n);
    }
    const renewers = request.renewers.map((r) => ({ type: r.principalType, name: r.principalName }));
    const result = await delegationTokens(ctx.broker).create(requester, owner, renewers, Number(request.maxLifetimeMs));
    if (result.error !== 'NONE') return response(ErrorCode[result.error], 0n);
    const token = result.value;
    return {
      ...response(ErrorCode.NONE, 0n),
      issueTimestampMs: BigInt(token.issueTimestamp),
      expiryTimestampMs: BigInt(token.expiryTimestamp),
      maxTimestampMs: BigInt(token.maxTimestamp),
      tokenId: token.tokenId,
      hmac: token.hmac,
    };
  },
});
