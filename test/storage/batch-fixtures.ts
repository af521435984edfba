// Test record batches (magic 2), built with kafkajs's own encoder so the bytes come from a real client.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

interface KafkajsEncoder {
  buffer: Buffer;
}
type RecordFn = (r: { offsetDelta: number; timestampDelta: number; key: Buffer | null; value: Buffer | null }) => KafkajsEncoder;
type RecordBatchFn = (b: {
  compression?: number;
  firstTimestamp: number;
  maxTimestamp: number;
  lastOffsetDelta: number;
  partitionLeaderEpoch?: number;
  records: KafkajsEncoder[];
}) => Promise<KafkajsEncoder>;

const Record = require('kafkajs/src/protocol/recordBatch/record/v0') as RecordFn;
const { RecordBatch } = require('kafkajs/src/protocol/recordBatch/v0') as { RecordBatch: RecordBatchFn };

export interface BatchSpec {
  /** Record timestamps; one record per entry. */
  timestamps: number[];
  /** Bytes per record value (default 10). */
  valueSize?: number;
  /** kafkajs compression type (1 gzip). */
  compression?: number;
}

export async function makeBatch(spec: BatchSpec): Promise<Buffer> {
  const first = spec.timestamps[0] ?? 0;
  const records = spec.timestamps.map((ts, i) =>
    Record({
      offsetDelta: i,
      timestampDelta: ts - first,
      key: Buffer.from(`k${i}`),
      value: Buffer.alloc(spec.valueSize ?? 10, 0x61 + (i % 26)),
    }),
  );
  const batch = await RecordBatch({
    compression: spec.compression ?? 0,
    firstTimestamp: first,
    maxTimestamp: Math.max(...spec.timestamps),
    lastOffsetDelta: spec.timestamps.length - 1,
    partitionLeaderEpoch: -1,
    records,
  });
  return Buffer.from(batch.buffer);
}

/** `count` records stamped `ts`. */
export function batchOf(count: number, ts = 1_000, valueSize = 10): Promise<Buffer> {
  return makeBatch({ timestamps: Array.from({ length: count }, () => ts), valueSize });
}
