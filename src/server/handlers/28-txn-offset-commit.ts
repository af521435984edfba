/**
 * TxnOffsetCommit (key 28), v0–v5 (Kafka 4.3.1: 0–5).
 *
 * Offsets committed inside a transaction: the group coordinator validates them as an OffsetCommit, writes
 * them in the producer's transactional batch to __consumer_offsets, and makes them visible only when the
 * transaction's COMMIT marker reaches that partition (an ABORT drops them). The group's __consumer_offsets
 * partition must be in the producer's ongoing transaction (AddOffsetsToTxn first; Kafka's KIP-890
 * verification): otherwise the coordinator's answer for every partition (a partition outside the transaction
 * TRANSACTION_ABORTABLE from v4, INVALID_TXN_STATE before; a fenced epoch INVALID_PRODUCER_EPOCH in every version,
 * as Kafka's AddPartitionsToTxnManager answers). Unknown topics or partitions get UNKNOWN_TOPIC_OR_PARTITION.
 * - v0–v1: PRODUCER_FENCED from the group coordinator is answered as INVALID_PRODUCER_EPOCH.
 * - v3+: generation id, member id and group instance id are checked as OffsetCommit checks them (KIP-447).
 * - v5: transaction version 2 (KIP-890 part 2): the group's __consumer_offsets partition is added to the
 *   transaction here, as AddOffsetsToTxn did (Kafka's addPartition operation, whatever
 *   transaction.partition.verification.enable says); a failed add answers every partition with the
 *   coordinator's code (a fenced epoch as INVALID_PRODUCER_EPOCH, as Kafka's AddPartitionsToTxnManager maps it).
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
import { AclOperation, authorize, refused, ResourceType } from '../authorization.js';

/** Kafka's txnOffsetCommitRequestVersionToTransactionSupportedOperation: v5+ adds the partition, v4 takes the coordinator's errors as they are. */
const ADDS_PARTITION_FROM_VERSION = 5;
const GENERIC_ERRORS_FROM_VERSION = 4;

/** What the coordinator's add or verification answer becomes (Kafka's AddPartitionsToTxnManager: the same for every version but TRANSACTION_ABORTABLE). */
function verificationError(errorCode: number, version: number): number {
  if (errorCode === ErrorCode.PRODUCER_FENCED) return ErrorCode.INVALID_PRODUCER_EPOCH;
  if (errorCode === ErrorCode.TRANSACTION_ABORTABLE && version < GENERIC_ERRORS_FROM_VERSION) return ErrorCode.INVALID_TXN_STATE;
  return errorCode;
}

export const txnOffsetCommitHandler: Handler = defineHandler<TxnOffsetCommitRequest, TxnOffsetCommitResponse>({
  api: txnOffsetCommitApi,
  minVersion: 0,
  maxVersion: 5,

  async handle(ctx, request, version) {
    const { groups, transactions, config } = ctx.broker;
    const failAll = (errorCode: number): TxnOffsetCommitResponse => ({
      throttleTimeMs: 0,
      topics: request.topics.map((t) => ({ name: t.name, partitions: t.partitions.map((p) => ({ partitionIndex: p.partitionIndex, errorCode })) })),
    });
    if (!authorize(ctx, AclOperation.WRITE, ResourceType.TRANSACTIONAL_ID, request.transactionalId)) throw refused('TRANSACTIONAL_ID_AUTHORIZATION_FAILED');
    if (!authorize(ctx, AclOperation.READ, ResourceType.GROUP, request.groupId)) throw refused('GROUP_AUTHORIZATION_FAILED');
    if (request.groupId === '') return failAll(ErrorCode.INVALID_GROUP_ID);
    const offsetsPartition = groups.partitionFor(request.groupId);
    const producerId = Number(request.producerId);
    if (version >= ADDS_PARTITION_FROM_VERSION) {
      const added = await transactions.addPartitions(request.transactionalId, producerId, request.producerEpoch, new Map([[CONSUMER_OFFSETS_TOPIC, [offsetsPartition]]]), 2);
      if (added !== ErrorCode.NONE) return failAll(verificationError(added, version));
    } else if (config['transaction.partition.verification.enable']) {
      const verified = transactions.verifyPartition(request.transactionalId, producerId, request.producerEpoch, CONSUMER_OFFSETS_TOPIC, offsetsPartition);
      if (verified !== ErrorCode.NONE) return failAll(verificationError(verified, version));
    }
    const unknown: TxnOffsetCommitResponseTopic[] = [];
    const known: TxnOffsetCommitRequest['topics'] = [];
    for (const topic of request.topics) {
      if (!authorize(ctx, AclOperation.READ, ResourceType.TOPIC, topic.name)) {
        unknown.push({ name: topic.name, partitions: topic.partitions.map((p) => ({ partitionIndex: p.partitionIndex, errorCode: ErrorCode.TOPIC_AUTHORIZATION_FAILED })) });
        continue;
      }
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
