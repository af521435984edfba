// Crafting compacted logs for the cleaner tests: batches of keyed records, reading a log back as records.
import { decodeBatchRecords, encodeRecordBatch, type KafkaRecord, type RecordInput } from '../../../src/protocol/records/record.js';
import { encodeControlBatch } from '../../../src/protocol/records/control.js';
import { batchSizeAt, readBatchHeader, type BatchHeader } from '../../../src/protocol/records/batch.js';
import type { PartitionLog } from '../../../src/storage/log.js';

export interface Rec {
  key: string | null;
  value: string | null;
  timestamp?: number;
}

export function batch(records: readonly Rec[], options: { compression?: number; producerId?: number; producerEpoch?: number; transactional?: boolean } = {}): Buffer {
  const inputs: RecordInput[] = records.map((r) => ({
    timestamp: r.timestamp ?? 1_000,
    key: r.key === null ? null : Buffer.from(r.key),
    value: r.value === null ? null : Buffer.from(r.value),
  }));
  return encodeRecordBatch({
    records: inputs,
    compression: options.compression ?? 0,
    ...(options.producerId === undefined ? {} : { producerId: options.producerId, producerEpoch: options.producerEpoch ?? 0, baseSequence: 0 }),
    isTransactional: options.transactional ?? false,
  });
}

export function marker(producerId: number, commit: boolean, timestamp = 1_000): Buffer {
  return encodeControlBatch({ baseOffset: 0, producerId, producerEpoch: 0, type: commit ? 1 : 0, coordinatorEpoch: 0, timestamp });
}

export async function appendAll(log: PartitionLog, batches: readonly Buffer[], now?: number): Promise<void> {
  for (const b of batches) await log.append(Buffer.from(b), { leaderEpoch: 0, ...(now === undefined ? {} : { now }) });
}

export interface StoredBatch {
  header: BatchHeader;
  records: KafkaRecord[];
}

/** Every batch of the log from its start, decoded. */
export async function readBatches(log: PartitionLog): Promise<StoredBatch[]> {
  const out: StoredBatch[] = [];
  let offset = log.logStartOffset;
  while (offset < log.logEndOffset) {
    const { records } = await log.read(offset, 1 << 20, { maxOffset: log.logEndOffset });
    if (records.length === 0) break;
    for (const chunk of records) {
      for (let pos = 0; pos < chunk.length; ) {
        const size = batchSizeAt(chunk, pos);
        const bytes = chunk.subarray(pos, pos + size);
        const header = readBatchHeader(bytes);
        if (header.baseOffset + header.lastOffsetDelta >= offset) out.push({ header, records: decodeBatchRecords(bytes) });
        offset = Math.max(offset, header.baseOffset + header.lastOffsetDelta + 1);
        pos += size;
      }
    }
  }
  return out;
}

/** key → value as a consumer reading from the start would end up with; plus the offsets seen. */
export async function readRecords(log: PartitionLog): Promise<{ offset: number; key: string | null; value: string | null }[]> {
  const out: { offset: number; key: string | null; value: string | null }[] = [];
  for (const b of await readBatches(log)) {
    for (const r of b.records) out.push({ offset: r.offset, key: r.key?.toString() ?? null, value: r.value?.toString() ?? null });
  }
  return out;
}
