// Storage append/read throughput for the file and memory engines, 1 KiB and 16 KiB batches, plus the
// restart time of a file store after a clean shutdown.
//   node dist/bench/log.js            (GREGOR_BENCH_MB=<MiB per run>, default 64)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { encodeRecordBatch } from '../src/protocol/records/record.js';
import { FileLogStore } from '../src/storage/file/file-store.js';
import type { LogStore } from '../src/storage/log-store.js';
import { MemoryLogStore } from '../src/storage/memory/memory-store.js';

const MIB = 1024 * 1024;
const totalBytes = Number(process.env.GREGOR_BENCH_MB ?? 64) * MIB;

/** One batch of `size` bytes: ten records of equal values. */
function batchOfSize(size: number): Buffer {
  const valueSize = Math.floor((size - 61) / 10) - 12;
  const records = Array.from({ length: 10 }, (_, i) => ({ timestamp: 1_700_000_000_000 + i, key: null, value: Buffer.alloc(valueSize, i) }));
  return encodeRecordBatch({ records });
}

async function run(engine: string, store: LogStore, batchSize: number): Promise<string> {
  const topic = `bench-${batchSize}`;
  await store.createTopic(topic, 1, { 'segment.bytes': String(256 * MIB) });
  const log = store.log(topic, 0)!;
  const template = batchOfSize(batchSize);
  const count = Math.floor(totalBytes / template.length);
  let t0 = performance.now();
  for (let i = 0; i < count; i++) await log.append(Buffer.from(template), { leaderEpoch: 0 });
  const appendS = (performance.now() - t0) / 1000;
  t0 = performance.now();
  let read = 0;
  for (let offset = 0; offset < log.logEndOffset; ) {
    const r = await log.read(offset, MIB);
    read += r.bytes;
    offset = offsetAfter(r.records);
  }
  const readS = (performance.now() - t0) / 1000;
  // Consumers at the head: 1 MiB fetches of the most recent data.
  t0 = performance.now();
  let tailRead = 0;
  const tailStart = Math.max(0, log.logEndOffset - Math.floor((8 * MIB) / template.length) * 10);
  for (let round = 0; round < 8; round++) {
    for (let offset = tailStart; offset < log.logEndOffset; ) {
      const r = await log.read(offset, MIB);
      tailRead += r.bytes;
      offset = offsetAfter(r.records);
    }
  }
  const tailS = (performance.now() - t0) / 1000;
  const mb = (bytes: number, s: number) => (bytes / MIB / s).toFixed(0).padStart(6);
  return `${engine.padEnd(6)} ${String(batchSize / 1024).padStart(3)} KiB batches: append ${mb(count * template.length, appendS)} MB/s, read ${mb(read, readS)} MB/s, tail re-read ${mb(tailRead, tailS)} MB/s`;
}

function offsetAfter(records: Buffer[]): number {
  const last = records[records.length - 1]!;
  // Walk to the last batch in the buffer: base offset + last offset delta + 1.
  let pos = 0;
  let next = 0;
  while (pos < last.length) {
    next = Number(last.readBigInt64BE(pos)) + last.readInt32BE(pos + 23) + 1;
    pos += 12 + last.readInt32BE(pos + 8);
  }
  return next;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'gregor-bench-log-'));
  try {
    console.log(`storage bench: ${totalBytes / MIB} MiB per run`);
    for (const size of [1024, 16 * 1024]) {
      const file = await FileLogStore.open({ logDir: join(dir, `file-${size}`), nodeId: 1 });
      console.log(await run('file', file, size));
      await file.close();
      const memory = new MemoryLogStore({ nodeId: 1 });
      console.log(await run('memory', memory, size));
      await memory.close();
    }
    const t0 = performance.now();
    const reopened = await FileLogStore.open({ logDir: join(dir, 'file-1024'), nodeId: 1 });
    const ms = performance.now() - t0;
    const log = reopened.log('bench-1024', 0)!;
    console.log(
      `clean restart of a ${(log.sizeInBytes() / MIB).toFixed(0)} MiB partition: ${ms.toFixed(1)} ms ` +
        `(recovered segments: ${reopened.loadStats.recoveredSegments})`,
    );
    await reopened.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
