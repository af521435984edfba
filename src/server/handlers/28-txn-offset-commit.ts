/**
 * TxnOffsetCommit (key 28), v0–v4 (Kafka 4.3.1 serves 0–5; our spec stops at 4).
 *
 * Offsets committed inside a transaction: the group coordinator validates them as an OffsetCommit, writes
 * them in the producer's transactional batch to __consumer_offsets, and makes them visible only when the
 * transaction's COMMIT marker reaches that partition (an ABORT drops them). The group's __consumer_offsets
 * partition must be in the producer's ongoing transaction (AddOffsetsToTxn first; Kafka's KIP-890
 * verification): otherwise the coordinator's answer (INVALID_TXN_STATE, PRODUCER_FENCED, ...) for every
 * partition. Unknown topics or partitions get UNKNOWN_TOPIC_OR_PARTITION.
 * - v0–v1: PRODUCER_FENCED is answered as INVALID_PRODUCER_EPOCH.
 * - v3+: generation id, member id and group instance id are checked as OffsetCommit checks them (KIP-447).
 */
import { CONSUMER_OFFSETS_TOPIC } from '../../broker/auto-create.js';
import { ErrorCode } from '../../protocol/error-codes.js';
import {
  txnOffsetCommitApi,
  type TxnOffsetCommitRequest,
  type TxnOffsetCommitResponse,
  type TxnOffsetCommitResponseTopic,
} from '../../protocol/generated/txn-offset-commit.js';
import { fencedForVersion } from '../../coordinator/txn/version-errors.js';
import { defineHandler, type Handler } from '../handler.js';

export const txnOffsetCommitHandler: Handler = defineHandler<TxnOffsetCommitRequest, TxnOffsetCommitResponse>({
  api: txnOffsetCommitApi,
  minVersion: 0,
  maxVersion: 4,

  async handle(ctx, request, version) {
    const { groups, transactions, config } = ctx.broker;
    const failAll = (errorCode: number): TxnOffsetCommitResponse => ({
      throttleTimeMs: 0,
      topics: request.topics.map((t) => ({ name: t.name, partitions: t.partitions.map((p) => ({ partitionIndex: p.partitionIndex, errorCode })) })),
    });
    if (request.groupId === '') return failAll(ErrorCode.INVALID_GROUP_ID);
    if (config['transaction.partition.verification.enable']) {
      const verified = transactions.verifyPartition(
        request.transactionalId,
        Number(request.producerId),
        request.producerEpoch,
        CONSUMER_OFFSETS_TOPIC,
        groups.partitionFor(request.groupId),
      );
      if (verified !== ErrorCode.NONE) return failAll(fencedForVersion(verified, version, 2));
    }
    const unknown: TxnOffsetCommitResponseTopic[] = [];
    const known: TxnOffsetCommitRequest['topics'] = [];
    for (const topic of request.topics) {
      const info = ctx.broker.topics.get(topic.name);
      const ok = topic.partitions.filter((p) => info !== undefined && p.partitionIndex >= 0 && p.partitionIndex < info.partitionCount);
      const bad = topic.partitions.filter((p) => !ok.includes(p));
      if (ok.length > 0) known.push({ ...topic, partitions: ok });
      if (bad.length > 0) {
        unknown.push({ name: topic.name, partitions: bad.map((p) => ({ partitionIndex: p.partitionIndex, errorCode: ErrorCode.UNKNOWN_TOPIC_OR_PARTITION })) });
      }
    }
    const committed = known.length === 0 ? [] : await groups.commitTransactionalOffsets({ ...request, topics: known });
    const topics = [...unknown, ...committed].map((t) => ({
      name: t.name,
      partitions: t.partitions.map((p) => ({ partitionIndex: p.partitionIndex, errorCode: fencedForVersion(p.errorCode, version, 2) })),
    }));
    return { throttleTimeMs: 0, topics };
  },
});
