/**
 * InitProducerId (key 22), v0–v5 (Kafka 4.3.1: 0–5).
 *
 * Without a transactional id: a new producer id at epoch 0 (idempotent producers). With one: the transaction
 * coordinator bumps the id's epoch (fencing older producers; an open transaction is aborted first and the
 * client told CONCURRENT_TRANSACTIONS until that finishes), or rotates the producer id once the epoch is
 * exhausted. A timeout above transaction.max.timeout.ms (or not positive) is INVALID_TRANSACTION_TIMEOUT; an
 * empty transactional id INVALID_REQUEST.
 * - v3+: producer id and epoch of a producer that is re-initialising (KIP-360): a retry of a bump that
 *   succeeded gets the same epoch; exactly one of them set is INVALID_REQUEST.
 * - v0–v3: PRODUCER_FENCED is answered as INVALID_PRODUCER_EPOCH.
 */
import { ErrorCode } from '../../protocol/error-codes.js';
import { createInitProducerIdResponse, initProducerIdApi, type InitProducerIdRequest, type InitProducerIdResponse } from '../../protocol/generated/init-producer-id.js';
import { fencedForVersion } from '../../coordinator/txn/version-errors.js';
import { defineHandler, type Handler } from '../handler.js';
import { AclOperation, authorize, authorizeByResourceType, authorizeCluster, refused, ResourceType } from '../authorization.js';

export const initProducerIdHandler: Handler = defineHandler<InitProducerIdRequest, InitProducerIdResponse>({
  api: initProducerIdApi,
  minVersion: 0,
  maxVersion: 5,

  async handle(ctx, request, version) {
    // A transactional producer needs WRITE on its id; an idempotent one IDEMPOTENT_WRITE on the cluster or WRITE on some topic.
    if (request.transactionalId !== null) {
      if (!authorize(ctx, AclOperation.WRITE, ResourceType.TRANSACTIONAL_ID, request.transactionalId)) throw refused('TRANSACTIONAL_ID_AUTHORIZATION_FAILED');
    } else if (!authorizeCluster(ctx, AclOperation.IDEMPOTENT_WRITE) && !authorizeByResourceType(ctx, AclOperation.WRITE, ResourceType.TOPIC)) {
      throw refused('CLUSTER_AUTHORIZATION_FAILED');
    }
    const producerId = Number(request.producerId);
    const epoch = request.producerEpoch;
    const fail = (errorCode: number): InitProducerIdResponse => ({ ...createInitProducerIdResponse(), errorCode });
    if ((producerId === -1) !== (epoch === -1)) return fail(ErrorCode.INVALID_REQUEST);
    const expected = producerId === -1 ? null : { producerId, epoch };
    const result = await ctx.broker.transactions.initProducerId(request.transactionalId, request.transactionTimeoutMs, expected);
    return {
      ...createInitProducerIdResponse(),
      errorCode: fencedForVersion(result.errorCode, version, 4),
      producerId: BigInt(result.producerId),
      producerEpoch: result.producerEpoch,
    };
  },
});
