/**
 * DescribeUserScramCredentials (key 50), v0 (Kafka 4.3's range): each user's SCRAM mechanisms and iterations, never
 * the salt or keys, as Kafka's ScramImage.describe answers: no users named = every user with a credential; a name
 * given twice gets DUPLICATE_RESOURCE, an unknown one RESOURCE_NOT_FOUND; results in the order of Kafka's HashMap.
 */
import { ErrorCode } from '../../protocol/error-codes.js';
import {
  describeUserScramCredentialsApi,
  type DescribeUserScramCredentialsRequest,
  type DescribeUserScramCredentialsResponse,
} from '../../protocol/generated/describe-user-scram-credentials.js';
import { javaHashOrder, javaStringHash } from '../../coordinator/runtime/java-hash-map.js';
import { scramCredentials } from '../admin/scram-credentials.js';
import { defineHandler, type Handler } from '../handler.js';

export const describeUserScramCredentialsHandler: Handler = defineHandler<DescribeUserScramCredentialsRequest, DescribeUserScramCredentialsResponse>({
  api: describeUserScramCredentialsApi,
  minVersion: 0,
  maxVersion: 0,

  handle(ctx, request) {
    const credentials = scramCredentials(ctx.broker);
    const named = request.users ?? [];
    const duplicated = new Map<string, boolean>();
    if (named.length === 0) for (const user of credentials.userNames()) duplicated.set(user, false);
    else for (const { name } of named) duplicated.set(name, duplicated.has(name));
    const users = javaHashOrder([...duplicated.keys()], javaStringHash);
    return {
      throttleTimeMs: 0,
      errorCode: ErrorCode.NONE,
      errorMessage: null,
      results: users.map((user) => {
        const result = credentials.describe(user, duplicated.get(user)!);
        return { user, errorCode: ErrorCode[result.errorCode], errorMessage: result.errorMessage, credentialInfos: [...result.credentials] };
      }),
    };
  },
});
