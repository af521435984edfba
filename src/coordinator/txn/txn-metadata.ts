// A transactional id's state as the coordinator keeps it (Kafka's TransactionMetadata), and the states with
// the ids Kafka writes to __transaction_state and the names DescribeTransactions and ListTransactions use.

export const TxnState = {
  Empty: 0,
  Ongoing: 1,
  PrepareCommit: 2,
  PrepareAbort: 3,
  CompleteCommit: 4,
  CompleteAbort: 5,
  Dead: 6,
  PrepareEpochFence: 7,
} as const;
export type TxnStateId = (typeof TxnState)[keyof typeof TxnState];

const NAMES: Record<TxnStateId, string> = {
  0: 'Empty',
  1: 'Ongoing',
  2: 'PrepareCommit',
  3: 'PrepareAbort',
  4: 'CompleteCommit',
  5: 'CompleteAbort',
  6: 'Dead',
  7: 'PrepareEpochFence',
};

export function stateName(state: TxnStateId): string {
  return NAMES[state];
}

export function stateByName(name: string): TxnStateId | undefined {
  const found = Object.entries(NAMES).find(([, n]) => n.toLowerCase() === name.toLowerCase());
  return found === undefined ? undefined : (Number(found[0]) as TxnStateId);
}

export function isTxnState(value: number): value is TxnStateId {
  return Number.isInteger(value) && value >= 0 && value <= 7;
}

export const NO_PRODUCER_ID = -1;
export const NO_PRODUCER_EPOCH = -1;
/** Short.MaxValue: an epoch this high cannot be bumped; the producer id rotates instead. */
export const MAX_PRODUCER_EPOCH = 32767;

/** The fields written to the log for one transactional id (Kafka's TxnTransitMetadata). */
export interface TxnFields {
  producerId: number;
  /** The producer id before the last transition (Kafka's prevProducerId: every transition sets it). */
  previousProducerId: number;
  /** transaction.version 2: the id an exhausted epoch moves to when the transaction completes, else -1. */
  nextProducerId: number;
  producerEpoch: number;
  lastProducerEpoch: number;
  txnTimeoutMs: number;
  state: TxnStateId;
  /** topic → partitions in the transaction. */
  partitions: Map<string, Set<number>>;
  txnStartTimestamp: number;
  txnLastUpdateTimestamp: number;
  /** The transaction.version the producer's last EndTxn/AddPartitions spoke (0: EndTxn ≤ v4, 2: v5; KIP-890). */
  clientTransactionVersion: number;
}

export interface TxnMetadata extends TxnFields {
  readonly transactionalId: string;
  /** The state a transition is being written for; requests meanwhile get CONCURRENT_TRANSACTIONS. */
  pendingState: TxnStateId | null;
  /** An epoch fence whose write failed is not bumped again (prepareFenceProducerEpoch). */
  hasFailedEpochFence: boolean;
}

export function copyFields(m: TxnFields): TxnFields {
  return {
    producerId: m.producerId,
    previousProducerId: m.previousProducerId,
    nextProducerId: m.nextProducerId,
    producerEpoch: m.producerEpoch,
    lastProducerEpoch: m.lastProducerEpoch,
    txnTimeoutMs: m.txnTimeoutMs,
    state: m.state,
    partitions: new Map([...m.partitions].map(([t, ps]) => [t, new Set(ps)])),
    txnStartTimestamp: m.txnStartTimestamp,
    txnLastUpdateTimestamp: m.txnLastUpdateTimestamp,
    clientTransactionVersion: m.clientTransactionVersion,
  };
}

export function applyFields(m: TxnMetadata, f: TxnFields): void {
  Object.assign(m, copyFields(f));
}

export function newMetadata(transactionalId: string, producerId: number, txnTimeoutMs: number, now: number): TxnMetadata {
  return {
    transactionalId,
    producerId,
    previousProducerId: NO_PRODUCER_ID,
    nextProducerId: NO_PRODUCER_ID,
    producerEpoch: NO_PRODUCER_EPOCH,
    lastProducerEpoch: NO_PRODUCER_EPOCH,
    txnTimeoutMs,
    state: TxnState.Empty,
    partitions: new Map(),
    txnStartTimestamp: -1,
    txnLastUpdateTimestamp: now,
    clientTransactionVersion: 0,
    pendingState: null,
    hasFailedEpochFence: false,
  };
}

export function partitionCount(partitions: ReadonlyMap<string, ReadonlySet<number>>): number {
  let n = 0;
  for (const ps of partitions.values()) n += ps.size;
  return n;
}

export function containsPartition(partitions: ReadonlyMap<string, ReadonlySet<number>>, topic: string, partition: number): boolean {
  return partitions.get(topic)?.has(partition) ?? false;
}

export function isEpochExhausted(epoch: number): boolean {
  return epoch >= MAX_PRODUCER_EPOCH - 1;
}

/** Kafka's TransactionVersion.supportsEpochBump: transaction.version 2 bumps the epoch on every EndTxn. */
export function supportsEpochBump(transactionVersion: number): boolean {
  return transactionVersion >= 2;
}
