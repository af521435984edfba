// Bytes of the __transaction_state records (Kafka's TransactionLog): key = int16 version 0 + TransactionLogKey,
// value = int16 version + TransactionLogValue, or null (tombstone) once a transactional id expires. The value
// version follows the finalized transaction.version when the record is written (Kafka's
// transactionLogValueVersion: 0 at level 0, else 1, whose tagged fields carry KIP-890's producer ids and the
// client's transaction version).
import {
  decodeTransactionLogKey,
  encodeTransactionLogKey,
} from '../../protocol/generated/internal/transaction-coordinator/transaction-log-key.js';
import {
  decodeTransactionLogValue,
  encodeTransactionLogValue,
} from '../../protocol/generated/internal/transaction-coordinator/transaction-log-value.js';
import { ProtocolError } from '../../protocol/protocol-error.js';
import { Reader } from '../../protocol/io/reader.js';
import { Writer } from '../../protocol/io/writer.js';
import { isTxnState, NO_PRODUCER_EPOCH, TxnState, type TxnFields } from './txn-metadata.js';

const KEY_VERSION = 0;

/** Kafka's TransactionVersion.transactionLogValueVersion. */
export function txnValueVersion(transactionVersionLevel: number): number {
  return transactionVersionLevel >= 1 ? 1 : 0;
}

export interface TxnRecord {
  readonly transactionalId: string;
  /** null: the id expired (tombstone). */
  readonly value: TxnFields | null;
}

export function encodeTxnKey(transactionalId: string): Buffer {
  const w = new Writer(32 + transactionalId.length * 3);
  w.int16(KEY_VERSION);
  encodeTransactionLogKey(w, { transactionalId }, KEY_VERSION);
  return w.toBuffer();
}

/**
 * Whether the record can be written at the value version the level picks: Kafka's writer sets the client's
 * transaction version in every version, and version 0 has no room for one above 0 (its UnsupportedVersionException
 * reaches the client as UNSUPPORTED_VERSION: a transaction version 2 request while transaction.version is 0).
 */
export function txnValueFits(fields: TxnFields | null, transactionVersionLevel: number): boolean {
  return fields === null || txnValueVersion(transactionVersionLevel) >= 1 || fields.clientTransactionVersion === 0;
}

export function encodeTxnValue(fields: TxnFields | null, version: number): Buffer | null {
  if (fields === null) return null;
  if (version < 1 && fields.clientTransactionVersion !== 0) throw new ProtocolError('invalid', `transaction log value version ${version} cannot hold client transaction version ${fields.clientTransactionVersion}`);
  const w = new Writer(128);
  w.int16(version);
  const tagged = version >= 1;
  encodeTransactionLogValue(
    w,
    {
      producerId: BigInt(fields.producerId),
      // Tagged fields of v1+: version 0 has no room for them (Kafka's writer drops them there).
      previousProducerId: tagged ? BigInt(fields.previousProducerId) : -1n,
      nextProducerId: tagged ? BigInt(fields.nextProducerId) : -1n,
      nextProducerEpoch: -1, // Kafka never sets it
      producerEpoch: fields.producerEpoch,
      transactionTimeoutMs: fields.txnTimeoutMs,
      transactionStatus: fields.state,
      // Kafka writes no partition list for Empty.
      transactionPartitions:
        fields.state === TxnState.Empty ? null : [...fields.partitions].map(([topic, ps]) => ({ topic, partitionIds: [...ps].sort((a, b) => a - b) })),
      transactionLastUpdateTimestampMs: BigInt(fields.txnLastUpdateTimestamp),
      transactionStartTimestampMs: BigInt(fields.txnStartTimestamp),
      clientTransactionVersion: fields.clientTransactionVersion,
    },
    version,
  );
  return w.toBuffer();
}

/** Throws ProtocolError on bytes that are not a transaction log record. */
export function decodeTxnRecord(key: Buffer, value: Buffer | null): TxnRecord {
  const kr = new Reader(key);
  const keyVersion = kr.int16();
  if (keyVersion !== KEY_VERSION) throw new ProtocolError('invalid', `unknown transaction log key version ${keyVersion}`);
  const { transactionalId } = decodeTransactionLogKey(kr, keyVersion);
  if (value === null) return { transactionalId, value: null };
  const vr = new Reader(value);
  const version = vr.int16();
  const v = decodeTransactionLogValue(vr, version);
  if (!isTxnState(v.transactionStatus)) throw new ProtocolError('invalid', `unknown transaction state ${v.transactionStatus}`);
  const partitions = new Map<string, Set<number>>();
  for (const p of v.transactionPartitions ?? []) partitions.set(p.topic, new Set(p.partitionIds));
  return {
    transactionalId,
    value: {
      producerId: Number(v.producerId),
      previousProducerId: Number(v.previousProducerId),
      nextProducerId: Number(v.nextProducerId),
      producerEpoch: v.producerEpoch,
      lastProducerEpoch: NO_PRODUCER_EPOCH,
      txnTimeoutMs: v.transactionTimeoutMs,
      state: v.transactionStatus,
      partitions,
      txnStartTimestamp: Number(v.transactionStartTimestampMs),
      txnLastUpdateTimestamp: Number(v.transactionLastUpdateTimestampMs),
      clientTransactionVersion: v.clientTransactionVersion,
    },
  };
}
