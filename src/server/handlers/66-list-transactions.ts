/**
 * ListTransactions (key 66), v0–v1 (Kafka 4.3.1 serves 0–2; v2's transactional id pattern is beyond our spec).
 *
 * The transactional ids the coordinator knows, with producer id and state, filtered by state names (unknown
 * names are echoed in unknown_state_filters) and producer ids. `kafka-transactions list` reads it.
 * - v1+: duration filter: only transactions running (Ongoing) for at least that many ms.
 */
import { ErrorCode } from '../../protocol/error-codes.js';
import { listTransactionsApi, type ListTransactionsRequest, type ListTransactionsResponse } from '../../protocol/generated/list-transactions.js';
import { defineHandler, type Handler } from '../handler.js';

export const listTransactionsHandler: Handler = defineHandler<ListTransactionsRequest, ListTransactionsResponse>({
  api: listTransactionsApi,
  minVersion: 0,
  maxVersion: 1,

  handle(ctx, request) {
    const { transactions } = ctx.broker;
    if (!transactions.isActive) {
      return { throttleTimeMs: 0, errorCode: ErrorCode.COORDINATOR_NOT_AVAILABLE, unknownStateFilters: [], transactionStates: [] };
    }
    const listed = transactions.list({
      states: request.stateFilters,
      producerIds: request.producerIdFilters.map(Number),
      durationMs: Number(request.durationFilter),
      pattern: null,
    });
    return {
      throttleTimeMs: 0,
      errorCode: ErrorCode.NONE,
      unknownStateFilters: listed.unknownStates,
      transactionStates: listed.transactions.map((t) => ({ transactionalId: t.transactionalId, producerId: BigInt(t.producerId), transactionState: t.state })),
    };
  },
});
