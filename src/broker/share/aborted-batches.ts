// read_committed share groups (share.isolation.level): which batches of a read belong to aborted transactions, as
// Kafka 4.3.1's SharePartition.fetchAbortedTransactionRecordBatches finds them. Walking the batches in offset order,
// an aborted transaction's producer counts as aborted from the transaction's first offset until its ABORT marker;
// its transactional data batches in between are aborted. Only batch headers are read, and the first record of a
// control batch (to tell an ABORT marker from a COMMIT).
import { ControlRecordType, decodeBatchRecords, isControl, isTransactional, readBatchHeader, readControlRecordType } from '../../protocol/records/index.js';
import type { AbortedTxn } from '../../storage/producer-state.js';
import type { LogBatchSpan } from './share-partition.js';

export interface ReadBatch {
  readonly buffer: Buffer;
  readonly start: number;
  readonly end: number;
  readonly span: LogBatchSpan;
}

export function abortedBatches(batches: readonly ReadBatch[], aborted: readonly AbortedTxn[]): LogBatchSpan[] {
  const pending = [...aborted].sort((a, b) => a.firstOffset - b.firstOffset);
  const abortedProducers = new Set<number>();
  const result: LogBatchSpan[] = [];
  for (const batch of batches) {
    const header = readBatchHeader(batch.buffer, batch.start);
    if (header.producerId < 0) continue;
    while (pending.length > 0 && pending[0]!.firstOffset <= batch.span.last) abortedProducers.add(pending.shift()!.producerId);
    if (isAbortMarker(batch, header.attributes)) abortedProducers.delete(header.producerId);
    else if (isTransactional(header.attributes) && abortedProducers.has(header.producerId)) result.push(batch.span);
  }
  return result;
}

function isAbortMarker(batch: ReadBatch, attributes: number): boolean {
  if (!isControl(attributes)) return false;
  const [record] = decodeBatchRecords(batch.buffer.subarray(batch.start, batch.end));
  return record !== undefined && readControlRecordType(record.key) === ControlRecordType.ABORT;
}
