// The log cleaner on issue 8's target: a compacted topic takes 1,000,000 writes over 1,000 keys (file engine,
// 1 MiB segments, batches of 100 records), then one clean. Reports bytes on disk before and after against
// the size of the latest values, the clean's time and throughput, the longest event-loop stall while it
// ran (the cleaner works in slices), and checks that a reader from the start sees exactly the latest value
// per key plus the active segment.
//   node dist/bench/compaction.js      (GREGOR_BENCH_WRITES=<writes>, default 1000000)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { batchSizeAt } from '../src/protocol/records/batch.js';
import { decodeBatchRecords, encodeRecordBatch } from '../src/protocol/records/record.js';
import { FileLogStore } from '../src/storage/file/file-store.js';

const WRITES = Number(process.env.GREGOR_BENCH_WRITES ?? 1_000_000);
const KEYS = 1_000;
const PER_BATCH = 100;
const VALUE_BYTES = 100;

const dir = mkdtempSync(join(tmpdir(), 'gregor-bench-compaction-'));
try {
  const store = await FileLogStore.open({ logDir: dir, nodeId: 1 });
  store.startBackground({ cleaner: { backoffMs: 0x7fffffff, dedupeBufferSize: 16 * 1024 * 1024 } });
  await store.createTopic('compacted', 1, { 'cleanup.policy': 'compact', 'segment.bytes': String(1024 * 1024) });
  const log = store.log('compacted', 0)!;
  const latest = new Map<string, string>();
  let t0 = performance.now();
  for (let written = 0; written < WRITES; written += PER_BATCH) {
    const records = Array.from({ length: PER_BATCH }, (_, i) => {
      const n = written + i;
      const key = `key-${n % KEYS}`;
      const value = `${n}:`.padEnd(VALUE_BYTES, 'v');
      latest.set(key, value);
      return { timestamp: 1_700_000_000_000 + n, key: Buffer.from(key), value: Buffer.from(value) };
    });
    await log.append(encodeRecordBatch({ records }), { leaderEpoch: 0 });
  }
  const appendMs = performance.now() - t0;
  const before = log.sizeInBytes();

  const stalls = monitorEventLoopDelay({ resolution: 5 });
  stalls.enable();
  t0 = performance.now();
  await store.logCleaner!.kick();
  const cleanMs = performance.now() - t0;
  stalls.disable();
  const after = log.sizeInBytes();
  const active = log.segments[log.segments.length - 1]!;

  // What a consumer from the beginning ends with.
  const seen = new Map<string, string>();
  let read = 0;
  for (let offset = log.logStartOffset; offset < log.logEndOffset; ) {
    const { records } = await log.read(offset, 4 * 1024 * 1024);
    if (records.length === 0) break;
    for (const chunk of records) {
      for (let pos = 0; pos < chunk.length; ) {
        const size = batchSizeAt(chunk, pos);
        for (const r of decodeBatchRecords(chunk.subarray(pos, pos + size))) {
          if (r.offset < offset) continue;
          seen.set(r.key!.toString(), r.value!.toString());
          read++;
          offset = r.offset + 1;
        }
        const last = chunk.readInt32BE(pos + 23) + Number(chunk.readBigInt64BE(pos));
        offset = Math.max(offset, last + 1);
        pos += size;
      }
    }
  }
  const correct = seen.size === latest.size && [...latest].every(([k, v]) => seen.get(k) === v);
  const latestBytes = [...latest].reduce((sum, [k, v]) => sum + k.length + v.length, 0);
  const stats = store.logCleaner!.history[0]?.result.stats;
  const mib = (n: number) => (n / 1024 / 1024).toFixed(1);
  console.log(`writes ${WRITES} over ${KEYS} keys, appended in ${(appendMs / 1000).toFixed(1)} s`);
  console.log(`on disk before clean   ${mib(before)} MiB`);
  console.log(`on disk after clean    ${mib(after)} MiB (cleaned part ${mib(after - active.size)} MiB, active segment ${mib(active.size)} MiB)`);
  console.log(`latest values (k+v)    ${mib(latestBytes)} MiB`);
  console.log(`clean took ${(cleanMs / 1000).toFixed(2)} s, read ${mib(stats?.bytesRead ?? 0)} MiB (${mib(((stats?.bytesRead ?? 0) / cleanMs) * 1000)} MiB/s), wrote ${mib(stats?.bytesWritten ?? 0)} MiB`);
  console.log(`longest event-loop stall during the clean: ${(stalls.max / 1e6).toFixed(1)} ms`);
  console.log(`reader from the start: ${read} records, latest value for every key: ${correct ? 'yes' : 'NO'}`);
  await store.close();
  if (!correct) process.exitCode = 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
