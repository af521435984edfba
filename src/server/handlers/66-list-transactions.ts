/**
 * ListTransactions (key 66), v0–v2, Kafka 4.3.1's range.
 *
 * The transactional ids the coordinator knows, with producer id and state, filtered by state names (unknown
 * names are echoed in unknown_state_filters) and producer ids. `kafka-transactions list` reads it.
 * - v1+: duration filter: only ids whose transaction started more than that many ms ago (negative: no filter).
 * - v2+: transactional id pattern (KIP-1152), an RE2 regular expression the whole id must match (null or empty: no
 *   filter); one that does not compile is INVALID_REGULAR_EXPRESSION, with nothing else in the answer, as Kafka's
 *   error response.
 */
import { ErrorCode } from '../../protocol/error-codes.js';
import { listTransactionsApi, type ListTransactionsRequest, type ListTransactionsResponse } from '../../protocol/generated/list-transactions.js';
import { KafkaError } from '../../protocol/kafka-error.js';
import { compileFullMatch, type FullMatchPattern } from '../../protocol/re2-pattern.js';
import { defineHandler, type Handler } from '../handler.js';
import { AclOperation, authorize, ResourceType } from '../authorization.js';

export const listTransactionsHandler: Handler = defineHandler<ListTransactionsRequest, ListTransactionsResponse>({
  api: listTransactionsApi,
  minVersion: 0,
  maxVersion: 2,

  handle(ctx, request) {
    const { transactions } = ctx.broker;
    if (!transactions.isActive) return answer(ErrorCode.COORDINATOR_NOT_AVAILABLE);
    let pattern: FullMatchPattern | null = null;
    try {
      if (request.transactionalIdPattern !== null && request.transactionalIdPattern !== '') pattern = compileFullMatch(request.transactionalIdPattern);
    } catch (error) {
      if (error instanceof KafkaError) return answer(error.errorCode);
      throw error;
    }
    const listed = transactions.list({
      states: request.stateFilters,
      producerIds: request.producerIdFilters.map(Number),
      durationMs: Number(request.durationFilter),
      pattern,
    });
    return {
      ...answer(ErrorCode.NONE),
      unknownStateFilters: listed.unknownStates,
      // Only the transactional ids the client may DESCRIBE.
      transactionStates: listed.transactions.filter((t) => authorize(ctx, AclOperation.DESCRIBE, ResourceType.TRANSACTIONAL_ID, t.transactionalId)).map((t) => ({ transactionalId: t.transactionalId, producerId: BigInt(t.producerId), transactionState: t.state })),
    };
  },
});

function answer(errorCode: number): ListTransactionsResponse {
  return { throttleTimeMs: 0, errorCode, unknownStateFilters: [], transactionStates: [] };
}
