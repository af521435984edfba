/**
 * RenewDelegationToken (key 39), v1-2 (Kafka 4.3.1's range): moves the token's expiry to now + the renew period
 * (at most delegation.token.expiry.time.ms, never past its max timestamp), as DelegationTokenControlManager; only
 * its owner or a renewer may. Errors: DELEGATION_TOKEN_REQUEST_NOT_ALLOWED (expiry -1), DELEGATION_TOKEN_AUTH_DISABLED,
 * DELEGATION_TOKEN_NOT_FOUND, DELEGATION_TOKEN_EXPIRED, DELEGATION_TOKEN_OWNER_MISMATCH (expiry 0).
 */
import { ErrorCode } from '../../protocol/error-codes.js';
import { renewDelegationTokenApi, type RenewDelegationTokenRequest, type RenewDelegationTokenResponse } from '../../protocol/generated/renew-delegation-token.js';
import { principalOf } from '../../security/delegation-tokens.js';
import { allowTokenRequests, delegationTokens } from '../admin/delegation-tokens.js';
import { defineHandler, type Handler } from '../handler.js';

export const renewDelegationTokenHandler: Handler = defineHandler<RenewDelegationTokenRequest, RenewDelegationTokenResponse>({
  api: renewDelegationTokenApi,
  minVersion: 1,
  maxVersion: 2,

  async handle(ctx, request) {
    if (!allowTokenRequests(ctx.connection)) return { errorCode: ErrorCode.DELEGATION_TOKEN_REQUEST_NOT_ALLOWED, expiryTimestampMs: -1n, throttleTimeMs: 0 };
    const result = await delegationTokens(ctx.broker).renew(principalOf(ctx.connection.principal), request.hmac, Number(request.renewPeriodMs));
    if (result.error !== 'NONE') return { errorCode: ErrorCode[result.error], expiryTimestampMs: 0n, throttleTimeMs: 0 };
    return { errorCode: ErrorCode.NONE, expiryTimestampMs: BigInt(result.value), throttleTimeMs: 0 };
  },
});
