// Rewriting one batch the way Kafka's MemoryRecords.filterTo does for the cleaner: dropped whole, kept as is,
// rebuilt with the retained records (same codec, same base offset, producer fields and last offset, and
// the delete horizon stamped when it holds tombstones or a removable marker), or kept as an empty header.
import {
  BATCH_HEADER_SIZE,
  CRC_OFFSET,
  CURRENT_MAGIC,
  LAST_OFFSET_DELTA_OFFSET,
  NO_TIMESTAMP,
  TimestampType,
  compressionOf,
  computeBatchCrc,
  makeAttributes,
  timestampTypeOf,
  writeInt64,
} from '../../protocol/records/batch.js';
import { encodeRecordBatch, type KafkaRecord } from '../../protocol/records/record.js';
import type { CleanerBatch } from './batch-view.js';

/** Kafka's BatchRetention. */
export type BatchRetention = 'delete' | 'retain-empty' | 'delete-empty';

export interface BatchDecision {
  retention: BatchRetention;
  /** Every record goes (aborted data, an expired marker); the batch may still be kept empty. */
  discardRecords: boolean;
  /** A marker whose transaction left no batch: it gets a delete horizon like a tombstone. */
  markerForEmptyTxn: boolean;
}

export interface FilteredBatch {
  /** What to write, or null when the batch goes. */
  bytes: Buffer | null;
  recordsRead: number;
  recordsRetained: number;
}

export function filterBatch(
  batch: CleanerBatch,
  decision: BatchDecision,
  retainRecord: (record: KafkaRecord) => boolean,
  horizon: { now: number; deleteRetentionMs: number },
): FilteredBatch {
  if (decision.retention === 'delete') return { bytes: null, recordsRead: 0, recordsRetained: 0 };
  const records = batch.records();
  const retained = decision.discardRecords ? [] : records.filter(retainRecord);
  if (retained.length > 0) {
    const tombstones = retained.some((r) => r.value === null);
    const needHorizon = (tombstones || decision.markerForEmptyTxn) && batch.deleteHorizonMs === undefined;
    if (retained.length === records.length && !needHorizon) {
      return { bytes: batch.bytes, recordsRead: records.length, recordsRetained: retained.length };
    }
    const deleteHorizonMs = needHorizon ? horizon.now + horizon.deleteRetentionMs : batch.deleteHorizonMs;
    return { bytes: rebuild(batch, retained, deleteHorizonMs), recordsRead: records.length, recordsRetained: retained.length };
  }
  if (decision.retention === 'retain-empty') return { bytes: emptyBatch(batch), recordsRead: records.length, recordsRetained: 0 };
  return { bytes: null, recordsRead: records.length, recordsRetained: 0 };
}

function rebuild(batch: CleanerBatch, records: readonly KafkaRecord[], deleteHorizonMs: number | undefined): Buffer {
  const h = batch.header;
  const logAppendTime = timestampTypeOf(h.attributes) === TimestampType.LOG_APPEND_TIME;
  const out = encodeRecordBatch({
    baseOffset: h.baseOffset,
    partitionLeaderEpoch: h.partitionLeaderEpoch,
    producerId: h.producerId,
    producerEpoch: h.producerEpoch,
    baseSequence: h.baseSequence,
    isTransactional: batch.isTransactional,
    isControl: batch.isControl,
    compression: compressionOf(h.attributes),
    ...(logAppendTime ? { timestampType: TimestampType.LOG_APPEND_TIME, logAppendTime: h.maxTimestamp } : {}),
    ...(deleteHorizonMs === undefined ? {} : { deleteHorizonMs }),
    records: records.map((r) => ({ offsetDelta: r.offsetDelta, timestamp: r.timestamp, key: r.key, value: r.value, headers: r.headers })),
  });
  // The original last offset stays (Kafka's overrideLastOffset): it carries the producer's last sequence.
  out.writeInt32BE(h.lastOffsetDelta, LAST_OFFSET_DELTA_OFFSET);
  out.writeUInt32BE(computeBatchCrc(out, 0, out.length), CRC_OFFSET);
  return out;
}

/** Kafka's DefaultRecordBatch.writeEmptyHeader: the batch's offsets, producer fields and max timestamp, no records. */
export function emptyBatch(batch: CleanerBatch): Buffer {
  const h = batch.header;
  const out = Buffer.alloc(BATCH_HEADER_SIZE);
  writeInt64(out, 0, h.baseOffset);
  out.writeInt32BE(BATCH_HEADER_SIZE - 12, 8);
  out.writeInt32BE(h.partitionLeaderEpoch, 12);
  out.writeInt8(CURRENT_MAGIC, 16);
  const attributes = makeAttributes({
    compression: 0,
    timestampType: timestampTypeOf(h.attributes),
    isTransactional: batch.isTransactional,
    isControl: batch.isControl,
  });
  out.writeInt16BE(attributes, 21);
  out.writeInt32BE(h.lastOffsetDelta, 23);
  writeInt64(out, 27, NO_TIMESTAMP);
  writeInt64(out, 35, h.maxTimestamp);
  writeInt64(out, 43, h.producerId);
  out.writeInt16BE(h.producerEpoch, 51);
  out.writeInt32BE(h.baseSequence, 53);
  out.writeInt32BE(0, 57);
  out.writeUInt32BE(computeBatchCrc(out, 0, out.length), CRC_OFFSET);
  return out;
}
