/**
 * AlterUserScramCredentials (key 51), v0 (Kafka 4.3's range): upserts and deletes SCRAM credentials with Kafka's
 * ScramControlManager checks (security/sasl/scram-credentials.ts). The client sends the salted password, never the
 * password; the broker keeps StoredKey and ServerKey. Results as Kafka lists them: deletions, upsertions, then
 * failures, each group in its HashMap's order.
 */
import { ErrorCode } from '../../protocol/error-codes.js';
import {
  alterUserScramCredentialsApi,
  type AlterUserScramCredentialsRequest,
  type AlterUserScramCredentialsResponse,
} from '../../protocol/generated/alter-user-scram-credentials.js';
import { javaHashOrder, javaStringHash } from '../../coordinator/runtime/java-hash-map.js';
import { scramCredentials } from '../admin/scram-credentials.js';
import { defineHandler, type Handler } from '../handler.js';

export const alterUserScramCredentialsHandler: Handler = defineHandler<AlterUserScramCredentialsRequest, AlterUserScramCredentialsResponse>({
  api: alterUserScramCredentialsApi,
  minVersion: 0,
  maxVersion: 0,

  async handle(ctx, request) {
    const { deleted, upserted, failed } = await scramCredentials(ctx.broker).alter(request.deletions, request.upsertions);
    const ok = (user: string) => ({ user, errorCode: ErrorCode.NONE, errorMessage: null });
    return {
      throttleTimeMs: 0,
      results: [
        ...javaHashOrder(deleted, javaStringHash).map(ok),
        ...javaHashOrder(upserted, javaStringHash).map(ok),
        ...javaHashOrder([...failed.keys()], javaStringHash).map((user) => {
          const f = failed.get(user)!;
          return { user, errorCode: ErrorCode[f.errorCode], errorMessage: f.errorMessage };
        }),
      ],
    };
  },
});
