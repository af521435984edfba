/**
 * AddPartitionsToTxn (key 24), v0–v5 (Kafka 4.3.1: 0–5).
 *
 * Adds partitions to the producer's ongoing transaction (starting it) once the coordinator has logged them.
 * Unknown topics or partitions fail the whole request: they get UNKNOWN_TOPIC_OR_PARTITION and the others
 * OPERATION_NOT_ATTEMPTED, as KafkaApis answers. Otherwise every partition carries the coordinator's one answer
 * (INVALID_PRODUCER_ID_MAPPING, PRODUCER_FENCED, CONCURRENT_TRANSACTIONS while a commit/abort is in progress).
 * - v0–v3: one transaction (the client's form). v0–v1: PRODUCER_FENCED is answered as INVALID_PRODUCER_EPOCH.
 * - v4+: batched transactions, each optionally verify-only (KIP-890: "is this partition in the transaction?",
 *   answered without a change). Kafka reserves v4+ for brokers; gregor answers them the same way.
 */
import { ErrorCode } from '../../protocol/error-codes.js';
import {
  addPartitionsToTxnApi,
  type AddPartitionsToTxnRequest,
  type AddPartitionsToTxnResponse,
  type AddPartitionsToTxnTopic,
  type AddPartitionsToTxnTopicResult,
} from '../../protocol/generated/add-partitions-to-txn.js';
import { fencedForVersion } from '../../coordinator/txn/version-errors.js';
import { defineHandler, type Handler, type RequestContext } from '../handler.js';
import { AclOperation, authorize, authorizeCluster, clusterAuthorizationError, ResourceType } from '../authorization.js';

interface TxnToAdd {
  transactionalId: string;
  producerId: number;
  producerEpoch: number;
  verifyOnly: boolean;
  topics: AddPartitionsToTxnTopic[];
}

export const addPartitionsToTxnHandler: Handler = defineHandler<AddPartitionsToTxnRequest, AddPartitionsToTxnResponse>({
  api: addPartitionsToTxnApi,
  minVersion: 0,
  maxVersion: 5,

  async handle(ctx, request, version) {
    const response: AddPartitionsToTxnResponse = { throttleTimeMs: 0, errorCode: ErrorCode.NONE, resultsByTransaction: [], resultsByTopicV3AndBelow: [] };
    // v4+ comes from a broker: CLUSTER_ACTION; a client's v0-v3 needs WRITE on its transactional id and its topics.
    if (version >= 4 && !authorizeCluster(ctx, AclOperation.CLUSTER_ACTION)) throw clusterAuthorizationError(ctx, AclOperation.CLUSTER_ACTION);
    if (version < 4) {
      const txn = {
        transactionalId: request.v3AndBelowTransactionalId,
        producerId: Number(request.v3AndBelowProducerId),
        producerEpoch: request.v3AndBelowProducerEpoch,
        verifyOnly: false,
        topics: request.v3AndBelowTopics,
      };
      response.resultsByTopicV3AndBelow = await addTransaction(ctx, txn, version);
      return response;
    }
    const results = request.transactions.map(async (t) => ({
      transactionalId: t.transactionalId,
      topicResults: await addTransaction(ctx, { ...t, producerId: Number(t.producerId) }, version),
    }));
    response.resultsByTransaction = await Promise.all(results);
    return response;
  },
});

async function addTransaction(ctx: RequestContext, txn: TxnToAdd, version: number): Promise<AddPartitionsToTxnTopicResult[]> {
  const coordinator = ctx.broker.transactions;
  const clientRequest = version < 4;
  const txnAllowed = !clientRequest || authorize(ctx, AclOperation.WRITE, ResourceType.TRANSACTIONAL_ID, txn.transactionalId);
  const unwritable = new Set<string>();
  const missing = new Set<string>();
  const wanted = new Map<string, number[]>();
  for (const topic of txn.topics) {
    const info = ctx.broker.topics.get(topic.name);
    if (clientRequest && !authorize(ctx, AclOperation.WRITE, ResourceType.TOPIC, topic.name)) unwritable.add(topic.name);
    for (const p of topic.partitions) {
      if (info === undefined || p < 0 || p >= info.partitionCount) missing.add(`${topic.name}:${p}`);
    }
    wanted.set(topic.name, [...(wanted.get(topic.name) ?? []), ...topic.partitions]);
  }
  const answer = (errorFor: (topic: string, partition: number) => number): AddPartitionsToTxnTopicResult[] =>
    [...wanted].map(([name, partitions]) => ({
      name,
      resultsByPartition: partitions.map((partitionIndex) => ({ partitionIndex, partitionErrorCode: errorFor(name, partitionIndex) })),
    }));
  if (!txnAllowed) return answer(() => ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED);
  if (missing.size > 0 || unwritable.size > 0) {
    return answer((t, p) => (unwritable.has(t) ? ErrorCode.TOPIC_AUTHORIZATION_FAILED
      : missing.has(`${t}:${p}`) ? ErrorCode.UNKNOWN_TOPIC_OR_PARTITION : ErrorCode.OPERATION_NOT_ATTEMPTED));
  }
  if (txn.verifyOnly) {
    return answer((t, p) => coordinator.verifyPartition(txn.transactionalId, txn.producerId, txn.producerEpoch, t, p));
  }
  // Kafka's transactionVersionForAddPartitionsToTxn: v4+ (a broker's request) speaks transaction version 2.
  const error = await coordinator.addPartitions(txn.transactionalId, txn.producerId, txn.producerEpoch, wanted, version > 3 ? 2 : 0);
  const finalError = fencedForVersion(error, version, 2);
  return answer(() => finalError);
}
