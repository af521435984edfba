/**
 * EndTxn (key 26), v0–v5 (Kafka 4.3.1: 0–5).
 *
 * Commits or aborts the producer's transaction: answered once PrepareCommit/PrepareAbort is in
 * __transaction_state; the markers then go to every partition of the transaction. A repeated commit of a
 * committed transaction (or abort of an aborted one) is NONE; the other way round INVALID_TXN_STATE; while the
 * markers are being written, CONCURRENT_TRANSACTIONS.
 * - v0–v1: PRODUCER_FENCED is answered as INVALID_PRODUCER_EPOCH.
 * - v5: producer id and epoch in the response (KIP-890's epoch bump per transaction belongs to
 *   transaction.version 2, which gregor does not finalize: they echo the producer's own).
 */
import { ErrorCode } from '../../protocol/error-codes.js';
import { endTxnApi, type EndTxnRequest, type EndTxnResponse } from '../../protocol/generated/end-txn.js';
import { fencedForVersion } from '../../coordinator/txn/version-errors.js';
import { defineHandler, type Handler } from '../handler.js';

export const endTxnHandler: Handler = defineHandler<EndTxnRequest, EndTxnResponse>({
  api: endTxnApi,
  minVersion: 0,
  maxVersion: 5,

  async handle(ctx, request, version) {
    const error = await ctx.broker.transactions.endTxn(request.transactionalId, Number(request.producerId), request.producerEpoch, request.committed);
    const ok = error === ErrorCode.NONE;
    return {
      throttleTimeMs: 0,
      errorCode: fencedForVersion(error, version, 2),
      producerId: ok ? request.producerId : -1n,
      producerEpoch: ok ? request.producerEpoch : -1,
    };
  },
});
