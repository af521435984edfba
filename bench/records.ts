// Record-layer throughput: CRC-32C (chosen path, native alone, crc-32's pure JS alone) at several sizes, and
// compress/decompress rates per codec on ~1 MiB of JSON-ish records, plus decoding a batch of 1,000 records.
//
//   npx tsc -p . && node dist/bench/records.js
import { pathToFileURL } from 'node:url';
import { crc32c, crc32cNative, crc32cPortable } from '../src/protocol/crc32c.js';
import { CODEC_NAMES, Codec, compress, decompress, type CodecId } from '../src/protocol/compression/index.js';
import { decodeBatchRecords, encodeRecordBatch } from '../src/protocol/records/record.js';

export interface RecordsBenchResult {
  name: string;
  /** Throughput in MB/s (10^6 bytes) of the uncompressed side. */
  mbPerSec: number;
  detail?: string;
}

const RUN_MS = 400;

function rate(bytesPerOp: number, op: () => void): number {
  for (let i = 0; i < 3; i++) op();
  let ops = 0;
  const start = process.hrtime.bigint();
  const limit = BigInt(RUN_MS) * 1_000_000n;
  let elapsed = 0n;
  while (elapsed < limit) {
    op();
    ops++;
    elapsed = process.hrtime.bigint() - start;
  }
  return (bytesPerOp * ops * 1000) / Number(elapsed);
}

/** ~size bytes of newline-separated JSON events, the kind of payload Kafka topics typically carry. */
export function jsonRecords(size: number): Buffer[] {
  const out: Buffer[] = [];
  let total = 0;
  for (let i = 0; total < size; i++) {
    const value = Buffer.from(JSON.stringify({
      id: i,
      user: `user-${(i * 7919) % 977}`,
      ts: 1_700_000_000_000 + i * 13,
      event: ['click', 'view', 'purchase', 'scroll'][i % 4],
      price: Math.round(((i * 7.31) % 500) * 100) / 100,
      tags: ['web', `segment-${i % 17}`],
    }));
    out.push(value);
    total += value.length;
  }
  return out;
}

export function runRecordsBench(): RecordsBenchResult[] {
  const results: RecordsBenchResult[] = [];
  const random = Buffer.alloc(4 << 20);
  for (let i = 0; i < random.length; i++) random[i] = (i * 2654435761) >>> 24;
  for (const size of [100, 1024, 16 * 1024, 1 << 20]) {
    const buf = random.subarray(0, size);
    results.push({ name: `crc32c ${size} B (chosen)`, mbPerSec: rate(size, () => crc32c(buf)) });
    results.push({ name: `crc32c ${size} B @node-rs/crc32`, mbPerSec: rate(size, () => crc32cNative(buf)) });
    results.push({ name: `crc32c ${size} B crc-32 (JS)`, mbPerSec: rate(size, () => crc32cPortable(buf)) });
  }

  const values = jsonRecords(1 << 20);
  const payload = Buffer.concat(values);
  for (const codec of [Codec.GZIP, Codec.SNAPPY, Codec.LZ4, Codec.ZSTD] as CodecId[]) {
    const packed = compress(codec, payload);
    const ratio = (payload.length / packed.length).toFixed(2);
    results.push({ name: `${CODEC_NAMES[codec]} compress 1 MiB`, mbPerSec: rate(payload.length, () => compress(codec, payload)), detail: `ratio ${ratio}` });
    results.push({ name: `${CODEC_NAMES[codec]} decompress 1 MiB`, mbPerSec: rate(payload.length, () => decompress(codec, packed, 1 << 24)) });
  }

  const records = values.slice(0, 1000).map((value, i) => ({ timestamp: 1_700_000_000_000 + i, key: Buffer.from(`k${i}`), value }));
  const batch = encodeRecordBatch({ records });
  results.push({ name: 'encode batch of 1,000 records', mbPerSec: rate(batch.length, () => encodeRecordBatch({ records })) });
  results.push({ name: 'decode batch of 1,000 records', mbPerSec: rate(batch.length, () => decodeBatchRecords(batch)) });
  return results;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const r of runRecordsBench()) {
    const speed = r.mbPerSec >= 1000 ? `${(r.mbPerSec / 1000).toFixed(2)} GB/s` : `${r.mbPerSec.toFixed(0)} MB/s`;
    console.log(`${r.name.padEnd(36)} ${speed.padStart(11)}${r.detail ? `  (${r.detail})` : ''}`);
  }
}
