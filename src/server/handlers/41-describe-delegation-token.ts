/**
 * DescribeDelegationToken (key 41), v1-3 (Kafka 4.3.1's range): the tokens of the owners named (a token matches an
 * owner that is its owner, requester or a renewer), all of them for a null list, none for an empty one, in the
 * order of Kafka's token cache (a Java hash map by token id). Refused as CreateDelegationToken is
 * (DELEGATION_TOKEN_REQUEST_NOT_ALLOWED, DELEGATION_TOKEN_AUTH_DISABLED). Without an authorizer every token is
 * described; with one, Kafka shows a requester the tokens it owns, requested or renews, those it may DESCRIBE and
 * those of owners it may DESCRIBE_TOKENS (DelegationTokenManager.filterToken). v3 adds each token's requester.
 */
import { ErrorCode } from '../../protocol/error-codes.js';
import {
  describeDelegationTokenApi,
  type DescribeDelegationTokenRequest,
  type DescribeDelegationTokenResponse,
} from '../../protocol/generated/describe-delegation-token.js';
import { javaHashOrder, javaStringHash } from '../../coordinator/runtime/java-hash-map.js';
import { principalOf, type Principal, type TokenInformation } from '../../security/delegation-tokens.js';
import { allowTokenRequests, delegationTokens } from '../admin/delegation-tokens.js';
import { defineHandler, type Handler } from '../handler.js';
import { AclOperation, authorize, ResourceType } from '../authorization.js';

const same = (a: Principal, b: Principal) => a.type === b.type && a.name === b.name;
const ownerOrRenewer = (token: TokenInformation, p: Principal) => same(token.owner, p) || same(token.requester, p) || token.renewers.some((r) => same(r, p));

export const describeDelegationTokenHandler: Handler = defineHandler<DescribeDelegationTokenRequest, DescribeDelegationTokenResponse>({
  api: describeDelegationTokenApi,
  minVersion: 1,
  maxVersion: 3,

  handle(ctx, request, version) {
    const none = (errorCode: number): DescribeDelegationTokenResponse => ({ errorCode, tokens: [], throttleTimeMs: 0 });
    if (!allowTokenRequests(ctx.connection)) return none(ErrorCode.DELEGATION_TOKEN_REQUEST_NOT_ALLOWED);
    const tokens = delegationTokens(ctx.broker);
    if (!tokens.enabled) return none(ErrorCode.DELEGATION_TOKEN_AUTH_DISABLED);
    if (request.owners !== null && request.owners.length === 0) return none(ErrorCode.NONE);
    const owners = request.owners?.map((o) => ({ type: o.principalType, name: o.principalName }));
    const requester = principalOf(ctx.connection.principal);
    const visible = (token: TokenInformation) => ownerOrRenewer(token, requester) ||
      authorize(ctx, AclOperation.DESCRIBE, ResourceType.DELEGATION_TOKEN, token.tokenId) ||
      authorize(ctx, AclOperation.DESCRIBE_TOKENS, ResourceType.USER, `${token.owner.type}:${token.owner.name}`);
    const found = tokens.describe((token) => (owners === undefined || owners.some((o) => ownerOrRenewer(token, o))) && visible(token));
    const byId = new Map(found.map((t) => [t.tokenId, t]));
    return {
      errorCode: ErrorCode.NONE,
      throttleTimeMs: 0,
      tokens: javaHashOrder([...byId.keys()], javaStringHash).map((id) => {
        const t = byId.get(id)!;
        return {
          principalType: t.owner.type,
          principalName: t.owner.name,
          // From v3 on, as Kafka's DescribeDelegationTokenResponse.
          tokenRequesterPrincipalType: version >= 3 ? t.requester.type : '',
          tokenRequesterPrincipalName: version >= 3 ? t.requester.name : '',
          issueTimestamp: BigInt(t.issueTimestamp),
          expiryTimestamp: BigInt(t.expiryTimestamp),
          maxTimestamp: BigInt(t.maxTimestamp),
          tokenId: t.tokenId,
          hmac: t.hmac,
          renewers: t.renewers.map((r) => ({ principalType: r.type, principalName: r.name })),
        };
      }),
    };
  },
});
