// The broker-bound load generator (bench/loadgen, a Go program on franz-go): built once by its own script into
// bench/.cache/bin, run against either broker, its one JSON line parsed here (parsing apart, so it is tested on
// captured output).
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from '../../compat-tests/lib/paths.js';
import { runCommand, describeFailure } from '../../compat-tests/lib/command.js';

const exec = promisify(execFile);
const loadgenDir = join(repoRoot, 'bench', 'loadgen');
export const LOADGEN_BINARY = join(repoRoot, 'bench', '.cache', 'bin', 'loadgen');

export interface LoadgenProduce {
  recordSize: number;
  acks: '1' | 'all';
  compression: 'none' | 'lz4' | 'zstd';
  partitions: number;
  /** Producer clients, each with its own connection. */
  producers: number;
  lingerMs: number;
  batchBytes: number;
}

export interface LoadgenResult {
  mode: 'produce' | 'fetch';
  records: number;
  /** Payload bytes (record keys and values). */
  bytes: number;
  seconds: number;
  recordsPerSecond: number;
  /** 10^6 bytes per second. */
  mbPerSecond: number;
  /** Produce only: send to acknowledgement, every record. */
  p50Ms?: number;
  p99Ms?: number;
  /** The generator's own CPU time, user+system (what the client cost, beside the broker's). */
  clientCpuSeconds: number;
}

/** The generator's last stdout line: {"mode","records","bytes","seconds","errors",["p50Ms","p99Ms"],["firstError"],"clientCpuSeconds"}. */
export function parseLoadgen(output: string): LoadgenResult {
  const line = output.trim().split('\n').pop() ?? '';
  let parsed: { mode?: unknown; records?: unknown; bytes?: unknown; seconds?: unknown; errors?: unknown; p50Ms?: unknown; p99Ms?: unknown; firstError?: unknown; clientCpuSeconds?: unknown };
  try {
    parsed = JSON.parse(line) as typeof parsed;
  } catch {
    throw new Error(`no result line in loadgen output: ${line.slice(0, 200)}`);
  }
  const { mode, records, bytes, seconds, errors, clientCpuSeconds } = parsed;
  if ((mode !== 'produce' && mode !== 'fetch') || typeof records !== 'number' || typeof bytes !== 'number' || typeof seconds !== 'number' || !(seconds > 0) || typeof clientCpuSeconds !== 'number')
    throw new Error(`malformed loadgen result: ${line.slice(0, 200)}`);
  if (typeof errors === 'number' && errors > 0) throw new Error(`loadgen: ${errors} of ${records} records not acknowledged (${String(parsed.firstError ?? 'no message')})`);
  const result: LoadgenResult = { mode, records, bytes, seconds, recordsPerSecond: records / seconds, mbPerSecond: bytes / 1e6 / seconds, clientCpuSeconds };
  if (mode === 'produce') {
    result.p50Ms = typeof parsed.p50Ms === 'number' ? parsed.p50Ms : 0;
    result.p99Ms = typeof parsed.p99Ms === 'number' ? parsed.p99Ms : 0;
  }
  return result;
}

/** The generator's arguments for a produce case. */
export function produceArgs(bootstrap: string, topic: string, records: number, c: LoadgenProduce): string[] {
  return [
    'produce', '-brokers', bootstrap, '-topic', topic, '-records', String(records), '-size', String(c.recordSize),
    '-acks', c.acks, '-compression', c.compression, '-producers', String(c.producers),
    '-linger-ms', String(c.lingerMs), '-batch-bytes', String(c.batchBytes),
  ];
}

let built: Promise<void> | undefined;
/** Builds the generator if its sources are newer than the binary (go build, modules from the Go module proxy once). */
export function buildLoadgen(): Promise<void> {
  built ??= exec('bash', [join(loadgenDir, 'build.sh')], { maxBuffer: 16 << 20 }).then(
    () => undefined,
    (error: unknown) => {
      built = undefined;
      throw new Error(`building bench/loadgen failed: ${(error as { stderr?: string }).stderr?.trim() || String(error)}`);
    },
  );
  return built;
}

async function runLoadgen(args: string[]): Promise<LoadgenResult> {
  await buildLoadgen();
  const result = await runCommand(LOADGEN_BINARY, args, { timeoutMs: 30 * 60_000 });
  if (result.code !== 0) throw new Error(describeFailure(`loadgen ${args[0]}`, result));
  return parseLoadgen(result.stdout);
}

export function loadgenProduce(bootstrap: string, topic: string, records: number, c: LoadgenProduce): Promise<LoadgenResult> {
  return runLoadgen(produceArgs(bootstrap, topic, records, c));
}

/** Reads the whole topic, start to end, with no group. */
export function loadgenFetch(bootstrap: string, topic: string): Promise<LoadgenResult> {
  return runLoadgen(['fetch', '-brokers', bootstrap, '-topic', topic]);
}
