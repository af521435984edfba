// The transaction state machine's transitions (Kafka's TransactionMetadata.prepare*): each returns the fields
// to write to __transaction_state; the coordinator applies them once they are in the log.
import { ErrorCode } from '../../protocol/error-codes.js';
import {
  copyFields,
  MAX_PRODUCER_EPOCH,
  NO_PRODUCER_EPOCH,
  NO_PRODUCER_ID,
  supportsEpochBump,
  TxnState,
  type TxnFields,
  type TxnMetadata,
  type TxnStateId,
} from './txn-metadata.js';

export type Transit = { ok: true; fields: TxnFields } | { ok: false; errorCode: number };

/** Kafka's prepareTransitionTo: every transition records the producer id it starts from as the previous one. */
function to(m: TxnFields, changes: Partial<TxnFields>): TxnFields {
  return { ...copyFields(m), previousProducerId: m.producerId, ...changes };
}

/** InitProducerId on an Empty or completed transaction: bump the epoch (KIP-360 retries keep it). */
export function prepareIncrementProducerEpoch(m: TxnMetadata, newTimeoutMs: number, expectedEpoch: number | null, now: number): Transit {
  const bumped = m.producerEpoch + 1;
  let next: number;
  let last: number;
  if (expectedEpoch === null) {
    next = bumped;
    last = NO_PRODUCER_EPOCH;
  } else if (m.producerEpoch === NO_PRODUCER_EPOCH || expectedEpoch === m.producerEpoch) {
    next = bumped;
    last = m.producerEpoch;
  } else if (expectedEpoch === m.lastProducerEpoch) {
    // A retry of a bump that succeeded: answer with the current epoch.
    next = m.producerEpoch;
    last = m.lastProducerEpoch;
  } else {
    return { ok: false, errorCode: ErrorCode.PRODUCER_FENCED };
  }
  return {
    ok: true,
    fields: to(m, { producerEpoch: next, lastProducerEpoch: last, txnTimeoutMs: newTimeoutMs, state: TxnState.Empty, partitions: new Map(), txnStartTimestamp: -1, txnLastUpdateTimestamp: now }),
  };
}

/** The epoch is exhausted: a new producer id, epoch 0. */
export function prepareProducerIdRotation(m: TxnMetadata, newProducerId: number, newTimeoutMs: number, now: number, recordLastEpoch: boolean): TxnFields {
  return to(m, {
    producerId: newProducerId,
    previousProducerId: m.producerId,
    producerEpoch: 0,
    lastProducerEpoch: recordLastEpoch ? m.producerEpoch : NO_PRODUCER_EPOCH,
    txnTimeoutMs: newTimeoutMs,
    state: TxnState.Empty,
    partitions: new Map(),
    txnStartTimestamp: -1,
    txnLastUpdateTimestamp: now,
  });
}

/** Fences the current producer before aborting its transaction (a new producer, or the timeout). */
export function prepareFenceProducerEpoch(m: TxnMetadata): TxnFields {
  const epoch = m.hasFailedEpochFence || m.producerEpoch === MAX_PRODUCER_EPOCH ? m.producerEpoch : m.producerEpoch + 1;
  return to(m, { producerEpoch: epoch, lastProducerEpoch: NO_PRODUCER_EPOCH, state: TxnState.PrepareEpochFence });
}

export function prepareAddPartitions(m: TxnMetadata, added: ReadonlyMap<string, readonly number[]>, now: number, clientTransactionVersion: number): TxnFields {
  const starts = m.state === TxnState.Empty || m.state === TxnState.CompleteAbort || m.state === TxnState.CompleteCommit;
  const fields = to(m, { state: TxnState.Ongoing, txnStartTimestamp: starts ? now : m.txnStartTimestamp, txnLastUpdateTimestamp: now, clientTransactionVersion });
  if (starts) fields.partitions = new Map();
  for (const [topic, partitions] of added) {
    let set = fields.partitions.get(topic);
    if (set === undefined) fields.partitions.set(topic, (set = new Set()));
    for (const p of partitions) set.add(p);
  }
  return fields;
}

/**
 * PrepareCommit/PrepareAbort. transaction.version 2 bumps the epoch here (the markers carry the new one) and,
 * when it is exhausted, names the producer id the transaction moves to once complete (`nextProducerId`). An
 * abort with nothing added (TV2 allows it) starts its transaction now.
 */
export function prepareAbortOrCommit(m: TxnMetadata, state: TxnStateId, now: number, clientTransactionVersion: number, nextProducerId: number, noPartitionAdded: boolean): TxnFields {
  const bump = supportsEpochBump(clientTransactionVersion);
  // Kafka logs an abort at Short.MaxValue as a bug and keeps the epoch.
  const epoch = bump && !(m.producerEpoch === MAX_PRODUCER_EPOCH && state === TxnState.PrepareAbort) ? m.producerEpoch + 1 : m.producerEpoch;
  return to(m, {
    state,
    producerEpoch: epoch,
    lastProducerEpoch: bump ? m.producerEpoch : m.lastProducerEpoch,
    txnStartTimestamp: noPartitionAdded ? now : m.txnStartTimestamp,
    nextProducerId,
    txnLastUpdateTimestamp: now,
    clientTransactionVersion,
  });
}

/** CompleteCommit/CompleteAbort; with transaction.version 2 an exhausted epoch moves to nextProducerId at epoch 0. */
export function prepareComplete(m: TxnMetadata, now: number): TxnFields {
  const state = m.state === TxnState.PrepareCommit ? TxnState.CompleteCommit : TxnState.CompleteAbort;
  const rotate = supportsEpochBump(m.clientTransactionVersion) && m.nextProducerId !== NO_PRODUCER_ID;
  return to(m, {
    state,
    producerId: rotate ? m.nextProducerId : m.producerId,
    producerEpoch: rotate ? 0 : m.producerEpoch,
    nextProducerId: NO_PRODUCER_ID,
    partitions: new Map(),
    txnLastUpdateTimestamp: now,
  });
}

export function prepareDead(m: TxnMetadata): TxnFields {
  return to(m, { state: TxnState.Dead, partitions: new Map() });
}
