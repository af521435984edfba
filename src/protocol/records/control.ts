// Control batches: transaction markers (COMMIT / ABORT) the transaction coordinator has the partition leader write.
// A control batch is transactional, has the control attribute bit, and holds one record whose
//   key   = int16 version (0) | int16 type      (ControlRecordType: 0 ABORT, 1 COMMIT, 2.. KRaft-only types)
//   value = int16 version (0) | int32 coordinatorEpoch   (EndTransactionMarker)

import { ProtocolError } from '../protocol-error.js';
import { TimestampType, isControl, readBatchHeader } from './batch.js';
import { decodeBatchRecords, encodeRecordBatch } from './record.js';

export const ControlRecordType = {
  ABORT: 0,
  COMMIT: 1,
  LEADER_CHANGE: 2,
  SNAPSHOT_HEADER: 3,
  SNAPSHOT_FOOTER: 4,
  KRAFT_VERSION: 5,
  KRAFT_VOTERS: 6,
} as const;

const CONTROL_KEY_VERSION = 0;
const END_TXN_MARKER_VERSION = 0;

export interface ControlBatchInput {
  baseOffset: number;
  partitionLeaderEpoch?: number;
  producerId: number;
  producerEpoch: number;
  /** ABORT (0) or COMMIT (1). */
  type: number;
  coordinatorEpoch: number;
  timestamp: number;
  /** When the topic uses LogAppendTime, pass the append time here as well. */
  logAppendTime?: number;
}

export function encodeControlBatch(input: ControlBatchInput): Buffer {
  if (input.type !== ControlRecordType.ABORT && input.type !== ControlRecordType.COMMIT) {
    throw new Error(`encodeControlBatch: only ABORT and COMMIT markers are written here, not type ${input.type}`);
  }
  const key = Buffer.alloc(4);
  key.writeInt16BE(CONTROL_KEY_VERSION, 0);
  key.writeInt16BE(input.type, 2);
  const value = Buffer.alloc(6);
  value.writeInt16BE(END_TXN_MARKER_VERSION, 0);
  value.writeInt32BE(input.coordinatorEpoch, 2);
  return encodeRecordBatch({
    baseOffset: input.baseOffset,
    partitionLeaderEpoch: input.partitionLeaderEpoch ?? -1,
    producerId: input.producerId,
    producerEpoch: input.producerEpoch,
    isTransactional: true,
    isControl: true,
    ...(input.logAppendTime === undefined ? {} : { timestampType: TimestampType.LOG_APPEND_TIME, logAppendTime: input.logAppendTime }),
    records: [{ timestamp: input.timestamp, key, value }],
  });
}

/** The size of every marker batch: its fields are fixed-width and its one record's deltas are 0. */
export const CONTROL_BATCH_BYTES = encodeControlBatch({ baseOffset: 0, producerId: 0, producerEpoch: 0, type: ControlRecordType.COMMIT, coordinatorEpoch: 0, timestamp: 0 }).length;

/** The type of a control record key (ABORT, COMMIT, ...); Kafka ignores the key version beyond rejecting a negative one. */
export function readControlRecordType(key: Buffer | null): number {
  if (key === null || key.length < 4) throw new ProtocolError('invalid', `control record key needs 4 bytes, found ${key?.length ?? 'null'}`);
  if (key.readInt16BE(0) < 0) throw new ProtocolError('invalid', `invalid control record key version ${key.readInt16BE(0)}`);
  return key.readInt16BE(2);
}

export interface ControlMarker {
  type: number;
  coordinatorEpoch: number;
}

/** The transaction marker in a control batch (the batch at the start of `batch`). */
export function readTransactionMarker(batch: Buffer): ControlMarker {
  const header = readBatchHeader(batch);
  if (!isControl(header.attributes)) throw new ProtocolError('invalid', 'not a control batch');
  const [record] = decodeBatchRecords(batch);
  if (!record) throw new ProtocolError('invalid', 'control batch holds no record');
  const type = readControlRecordType(record.key);
  if (type !== ControlRecordType.ABORT && type !== ControlRecordType.COMMIT) {
    throw new ProtocolError('invalid', `control record type ${type} is not a transaction marker`);
  }
  const value = record.value;
  if (value === null || value.length < 6) throw new ProtocolError('invalid', 'end transaction marker value needs 6 bytes');
  return { type, coordinatorEpoch: value.readInt32BE(2) };
}
