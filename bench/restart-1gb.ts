// Restart time of a file-engine partition holding ~1 GiB (issue 3: "restarts in well under a second after a clean
// shutdown"): FileLogStore.open plus the first read of the last offset, after a clean close and after a SIGKILL.
//   node dist/bench/restart-1gb.js   (GREGOR_BENCH_MB=<MiB in the partition>, default 1000;
//                                     GREGOR_BENCH_SEGMENT_MB=<segment.bytes in MiB>, default 128)
// Two SIGKILL cases: a child fills the partition and kills itself, so everything since the last roll is
// unflushed (the recovery point is the active segment's base: a real crash); and, as the bench suite's start-up
// workload, a child reopens a cleanly closed partition and kills itself at once (the recovery point is the log end,
// inside the active segment).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { encodeRecordBatch } from '../src/protocol/records/record.js';
import { baseOffsetAt } from '../src/protocol/records/batch.js';
import { FileLogStore } from '../src/storage/file/file-store.js';

const MIB = 1024 * 1024;
const TOPIC = 'restart';
const SEGMENT_BYTES = Number(process.env.GREGOR_BENCH_SEGMENT_MB ?? 128) * MIB;
// 1000 MiB (about 1.05 GB) leaves a 104 MiB active segment: close to the worst case for recovery after a SIGKILL.
const totalMiB = Number(process.env.GREGOR_BENCH_MB ?? 1000);

/** A batch of about 1 MiB: 64 records of 16 KiB each. */
function megabyteBatch(): Buffer {
  const records = Array.from({ length: 64 }, (_, i) => ({ timestamp: 1_700_000_000_000 + i, key: null, value: Buffer.alloc(16 * 1024 - 16, i) }));
  return encodeRecordBatch({ records });
}

/** Appends ~totalMiB to one partition; returns its last offset. */
async function fill(store: FileLogStore): Promise<number> {
  await store.createTopic(TOPIC, 1, { 'segment.bytes': String(SEGMENT_BYTES) });
  const log = store.log(TOPIC, 0)!;
  const template = megabyteBatch();
  const count = Math.ceil((totalMiB * MIB) / template.length);
  let last = -1;
  for (let i = 0; i < count; i++) last = (await log.append(Buffer.from(template), { leaderEpoch: 0 })).lastOffset;
  return last;
}

interface Restart {
  openMs: number;
  firstReadMs: number;
  sizeMiB: number;
  segments: number;
  recoveredSegments: number;
  truncatedBytes: number;
  validatedMiB: number;
}

/** Opens the store and reads the last offset, timing both. */
async function restart(logDir: string, lastOffset: number): Promise<Restart> {
  const t0 = performance.now();
  const store = await FileLogStore.open({ logDir, nodeId: 1 });
  const log = store.log(TOPIC, 0)!;
  const t1 = performance.now();
  const read = await log.read(lastOffset, MIB);
  const t2 = performance.now();
  const batch = read.records[0];
  if (batch === undefined || baseOffsetAt(batch, 0) > lastOffset || read.logEndOffset !== lastOffset + 1) {
    throw new Error(`read of offset ${lastOffset} after restart found log end ${read.logEndOffset}`);
  }
  const result = {
    openMs: t1 - t0,
    firstReadMs: t2 - t1,
    sizeMiB: log.sizeInBytes() / MIB,
    segments: store.loadStats.segments,
    recoveredSegments: store.loadStats.recoveredSegments,
    truncatedBytes: store.loadStats.truncatedBytes,
    validatedMiB: store.loadStats.validatedBytes / MIB,
  };
  await store.close();
  return result;
}

function report(label: string, r: Restart): void {
  console.log(
    `${label}: ${r.sizeMiB.toFixed(0)} MiB in ${r.segments} segments; open ${r.openMs.toFixed(1)} ms + first read of the last offset ` +
      `${r.firstReadMs.toFixed(1)} ms = ${(r.openMs + r.firstReadMs).toFixed(1)} ms (recovered segments ${r.recoveredSegments}, CRC-checked ${r.validatedMiB.toFixed(1)} MiB, truncated bytes ${r.truncatedBytes})`,
  );
}

/** Child mode: open a cleanly closed store (which removes the clean-shutdown marker), then die without closing. */
async function reopenAndCrash(logDir: string): Promise<void> {
  await FileLogStore.open({ logDir, nodeId: 1 });
  process.kill(process.pid, 'SIGKILL');
}

/** Runs this file in a child `mode` on `logDir`; resolves with its stdout once it died of SIGKILL. */
async function crashingChild(mode: string, logDir: string): Promise<string> {
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), mode, logDir], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const signal = await new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, s) => resolve(s)));
  if (signal !== 'SIGKILL') throw new Error(`${mode} child ended with ${signal ?? 'an exit'} instead of SIGKILL`);
  return out;
}

/** Child mode: fill, let the background checkpoint run, print the last offset, then die without closing. */
async function fillAndCrash(logDir: string): Promise<void> {
  const store = await FileLogStore.open({ logDir, nodeId: 1 });
  store.startBackground({ checkpointMs: 100 });
  const last = await fill(store);
  await new Promise((resolve) => setTimeout(resolve, 500));
  process.stdout.write(`${last}\n`, () => process.kill(process.pid, 'SIGKILL'));
}


async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'gregor-bench-restart-'));
  try {
    console.log(`restart bench: one partition of ${totalMiB} MiB, 1 MiB batches, segment.bytes ${SEGMENT_BYTES / MIB} MiB`);
    const clean = join(dir, 'clean');
    const store = await FileLogStore.open({ logDir: clean, nodeId: 1 });
    const t0 = performance.now();
    const last = await fill(store);
    const fillS = (performance.now() - t0) / 1000;
    await store.close();
    console.log(`filled in ${fillS.toFixed(1)} s (${(totalMiB / fillS).toFixed(0)} MiB/s), closed cleanly`);
    report('after a clean shutdown', await restart(clean, last));
    await crashingChild('--reopen-and-crash', clean);
    report('after SIGKILL right after a clean restart (recovery point = log end)', await restart(clean, last));
    rmSync(clean, { recursive: true, force: true });

    const crashed = join(dir, 'crashed');
    const crashedLast = Number((await crashingChild('--fill-and-crash', crashed)).trim());
    report('after SIGKILL with everything since the last roll unflushed', await restart(crashed, crashedLast));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--fill-and-crash') await fillAndCrash(process.argv[3]!);
else if (process.argv[2] === '--reopen-and-crash') await reopenAndCrash(process.argv[3]!);
else await main();
