/**
 * DescribeTransactions (key 65), v0 (Kafka 4.3.1: 0–0).
 *
 * Per transactional id: its state (Kafka's names: Empty, Ongoing, PrepareCommit, ...), timeout, the start of
 * its current transaction (-1 when none), producer id and epoch, and the partitions in the transaction. An id
 * the coordinator does not know is TRANSACTIONAL_ID_NOT_FOUND. `kafka-transactions describe` reads it.
 */
import { ErrorCode } from '../../protocol/error-codes.js';
import {
  createTransactionState,
  describeTransactionsApi,
  type DescribeTransactionsRequest,
  type DescribeTransactionsResponse,
} from '../../protocol/generated/describe-transactions.js';
import { defineHandler, type Handler } from '../handler.js';
import { AclOperation, authorize, ResourceType } from '../authorization.js';

export const describeTransactionsHandler: Handler = defineHandler<DescribeTransactionsRequest, DescribeTransactionsResponse>({
  api: describeTransactionsApi,
  minVersion: 0,
  maxVersion: 0,

  handle(ctx, request) {
    return {
      throttleTimeMs: 0,
      transactionStates: request.transactionalIds.map((id) => {
        // DESCRIBE on the transactional id; of its partitions, only those of topics the client may DESCRIBE.
        if (!authorize(ctx, AclOperation.DESCRIBE, ResourceType.TRANSACTIONAL_ID, id)) {
          return { ...createTransactionState(), transactionalId: id, errorCode: ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED };
        }
        const d = ctx.broker.transactions.describe(id);
        return {
          errorCode: d.errorCode,
          transactionalId: id,
          transactionState: d.state,
          transactionTimeoutMs: d.timeoutMs,
          transactionStartTimeMs: BigInt(d.startTimeMs),
          producerId: BigInt(d.producerId),
          producerEpoch: d.producerEpoch,
          topics: d.topics.filter((t) => authorize(ctx, AclOperation.DESCRIBE, ResourceType.TOPIC, t.topic)),
        };
      }),
    };
  },
});
