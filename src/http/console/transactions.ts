/** Transactions for the console: ListTransactions then DescribeTransactions, as kafka-transactions list/describe. */
import { listTransactionsApi, createListTransactionsRequest } from '../../protocol/generated/list-transactions.js';
import { describeTransactionsApi, createDescribeTransactionsRequest } from '../../protocol/generated/describe-transactions.js';
import { checkError, type KafkaCalls } from './kafka-calls.js';

export interface ShownTransaction {
  readonly transactionalId: string;
  readonly producerId: number;
  readonly producerEpoch: number;
  readonly state: string;
  readonly timeoutMs: number;
  /** -1 when no transaction is open. */
  readonly startTimeMs: number;
  readonly partitions: Record<string, number[]>;
}

export async function listTransactions(kafka: KafkaCalls): Promise<ShownTransaction[]> {
  const listed = await kafka.call(listTransactionsApi, 1, { ...createListTransactionsRequest(), durationFilter: -1n });
  checkError(listed.errorCode);
  const ids = listed.transactionStates.map((t) => t.transactionalId);
  if (ids.length === 0) return [];
  const described = await kafka.call(describeTransactionsApi, 0, { ...createDescribeTransactionsRequest(), transactionalIds: ids });
  return described.transactionStates.filter((t) => t.errorCode === 0).map((t) => ({
    transactionalId: t.transactionalId,
    producerId: Number(t.producerId),
    producerEpoch: t.producerEpoch,
    state: t.transactionState,
    timeoutMs: t.transactionTimeoutMs,
    startTimeMs: Number(t.transactionStartTimeMs),
    partitions: Object.fromEntries(t.topics.map((topic) => [topic.topic, [...topic.partitions].sort((a, b) => a - b)])),
  })).sort((a, b) => a.transactionalId.localeCompare(b.transactionalId));
}
