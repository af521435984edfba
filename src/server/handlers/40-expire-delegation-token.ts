/**
 * ExpireDelegationToken (key 40), v1-2 (Kafka 4.3.1's range): a negative period removes the token at once; another
 * sets its expiry to now + the period (never past its max timestamp), as DelegationTokenControlManager; only its
 * owner or a renewer may. Errors as RenewDelegationToken's (DELEGATION_TOKEN_REQUEST_NOT_ALLOWED with expiry -1).
 */
import { ErrorCode } from '../../protocol/error-codes.js';
import { expireDelegationTokenApi, type ExpireDelegationTokenRequest, type ExpireDelegationTokenResponse } from '../../protocol/generated/expire-delegation-token.js';
import { principalOf } from '../../security/delegation-tokens.js';
import { allowTokenRequests, delegationTokens } from '../admin/delegation-tokens.js';
import { defineHandler, type Handler } from '../handler.js';

export const expireDelegationTokenHandler: Handler = defineHandler<ExpireDelegationTokenRequest, ExpireDelegationTokenResponse>({
  api: expireDelegationTokenApi,
  minVersion: 1,
  maxVersion: 2,

  async handle(ctx, request) {
    if (!allowTokenRequests(ctx.connection)) return { errorCode: ErrorCode.DELEGATION_TOKEN_REQUEST_NOT_ALLOWED, expiryTimestampMs: -1n, throttleTimeMs: 0 };
    const result = await delegationTokens(ctx.broker).expire(principalOf(ctx.connection.principal), request.hmac, Number(request.expiryTimePeriodMs));
    if (result.error !== 'NONE') return { errorCode: ErrorCode[result.error], expiryTimestampMs: 0n, throttleTimeMs: 0 };
    return { errorCode: ErrorCode.NONE, expiryTimestampMs: BigInt(result.value), throttleTimeMs: 0 };
  },
});
