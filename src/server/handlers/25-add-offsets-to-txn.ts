/**
 * AddOffsetsToTxn (key 25), v0–v4 (Kafka 4.3.1: 0–4).
 *
 * Adds the group's __consumer_offsets partition to the producer's transaction, so its TxnOffsetCommit is
 * committed or aborted with it. Errors as AddPartitionsToTxn's (one code).
 * - v0–v1: PRODUCER_FENCED is answered as INVALID_PRODUCER_EPOCH.
 */
import { CONSUMER_OFFSETS_TOPIC } from '../../broker/auto-create.js';
import { ErrorCode } from '../../protocol/error-codes.js';
import { addOffsetsToTxnApi, type AddOffsetsToTxnRequest, type AddOffsetsToTxnResponse } from '../../protocol/generated/add-offsets-to-txn.js';
import { fencedForVersion } from '../../coordinator/txn/version-errors.js';
import { defineHandler, type Handler } from '../handler.js';
import { AclOperation, authorize, ResourceType } from '../authorization.js';

export const addOffsetsToTxnHandler: Handler = defineHandler<AddOffsetsToTxnRequest, AddOffsetsToTxnResponse>({
  api: addOffsetsToTxnApi,
  minVersion: 0,
  maxVersion: 4,

  async handle(ctx, request, version) {
    const { groups, transactions } = ctx.broker;
    if (!authorize(ctx, AclOperation.WRITE, ResourceType.TRANSACTIONAL_ID, request.transactionalId)) {
      return { throttleTimeMs: 0, errorCode: ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED };
    }
    if (!authorize(ctx, AclOperation.READ, ResourceType.GROUP, request.groupId)) return { throttleTimeMs: 0, errorCode: ErrorCode.GROUP_AUTHORIZATION_FAILED };
    try {
      await groups.ensureTopic();
    } catch {
      return { throttleTimeMs: 0, errorCode: ErrorCode.COORDINATOR_NOT_AVAILABLE };
    }
    const partition = groups.partitionFor(request.groupId);
    const error = await transactions.addPartitions(
      request.transactionalId,
      Number(request.producerId),
      request.producerEpoch,
      new Map([[CONSUMER_OFFSETS_TOPIC, [partition]]]),
    );
    return { throttleTimeMs: 0, errorCode: fencedForVersion(error, version, 2) };
  },
});
