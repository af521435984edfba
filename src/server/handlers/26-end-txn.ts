/**
 * EndTxn (key 26), v0–v5 (Kafka 4.3.1: 0–5).
 *
 * Commits or aborts the producer's transaction: answered once PrepareCommit/PrepareAbort is in
 * __transaction_state; the markers then go to every partition of the transaction. A repeated commit of a
 * committed transaction (or abort of an aborted one) is NONE; the other way round INVALID_TXN_STATE; while the
 * markers are being written, CONCURRENT_TRANSACTIONS.
 * - v0–v1: PRODUCER_FENCED is answered as INVALID_PRODUCER_EPOCH.
 * - v5: transaction version 2 (KIP-890 part 2; Java clients send it when transaction.version ≥ 2 is
 *   finalized): every commit or abort bumps the epoch, and the response carries the producer id and epoch to
 *   go on with (a new producer id at epoch 0 once the epoch is exhausted; on an error, the coordinator's). An
 *   Empty or completed transaction may be aborted; a retry is recognised by the epoch one below the current.
 */
import { endTxnApi, type EndTxnRequest, type EndTxnResponse } from '../../protocol/generated/end-txn.js';
import { fencedForVersion } from '../../coordinator/txn/version-errors.js';
import { defineHandler, type Handler } from '../handler.js';
import { AclOperation, authorize, refused, ResourceType } from '../authorization.js';

/** Kafka's TransactionVersion.transactionVersionForEndTxn: v5+ speaks transaction version 2. */
const clientTransactionVersion = (version: number): number => (version > 4 ? 2 : 0);

export const endTxnHandler: Handler = defineHandler<EndTxnRequest, EndTxnResponse>({
  api: endTxnApi,
  minVersion: 0,
  maxVersion: 5,

  async handle(ctx, request, version) {
    if (!authorize(ctx, AclOperation.WRITE, ResourceType.TRANSACTIONAL_ID, request.transactionalId)) throw refused('TRANSACTIONAL_ID_AUTHORIZATION_FAILED');
    const result = await ctx.broker.transactions.endTxn(
      request.transactionalId,
      Number(request.producerId),
      request.producerEpoch,
      request.committed,
      clientTransactionVersion(version),
    );
    return {
      throttleTimeMs: 0,
      errorCode: fencedForVersion(result.errorCode, version, 2),
      producerId: BigInt(result.producerId),
      producerEpoch: result.producerEpoch,
    };
  },
});
