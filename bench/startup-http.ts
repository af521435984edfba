// What the HTTP listener costs the `gregor` command's start-up: the bundled command started over an empty data dir,
// with the HTTP listener (--http-port 0) and without it (gregor.http.listeners empty), the process's CPU time
// (user + system, /proc/<pid>/stat) and wall time when it logs its start-up line. Median and range of --runs starts.
//   node dist/bench/startup-http.js [--runs 15]
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';

const MAIN = fileURLToPath(new URL('../gregor.mjs', import.meta.url));
const { values } = parseArgs({ options: { runs: { type: 'string', default: '15' } }, strict: true });
const runs = Number(values.runs);
/** Clock ticks per second of /proc's utime and stime (USER_HZ: 100 on Linux). */
const TICKS = 100;

function cpuMs(pid: number): number {
  // Fields after the command name's closing parenthesis: state is field 3, utime 14, stime 15.
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS;
}

async function startOnce(http: boolean): Promise<{ cpu: number; wall: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'gregor-startup-http-'));
  const args = [MAIN, '--port', '0', '--host', '127.0.0.1', '--data-dir', dir, '--log-format', 'json', '-o', 'gregor.schema.registry.listeners=',
    ...(http ? ['--http-port', '0'] : ['-o', 'gregor.http.listeners='])];
  const t0 = performance.now();
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    return await new Promise((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`gregor exited (${code}) before it started`)));
      createInterface({ input: child.stdout! }).on('line', (line) => {
        if (!line.includes('"addresses"')) return;
        if (http !== line.includes('"http"')) reject(new Error(`the HTTP listener is ${http ? 'missing' : 'on'}: ${line}`));
        resolve({ cpu: cpuMs(child.pid!), wall: performance.now() - t0 });
      });
    });
  } finally {
    child.kill('SIGKILL');
    await new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve(null) : child.once('exit', resolve)));
    rmSync(dir, { recursive: true, force: true });
  }
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const results: Record<string, { cpu: number[]; wall: number[] }> = { 'without HTTP': { cpu: [], wall: [] }, 'with HTTP': { cpu: [], wall: [] } };
// Interleaved, so a change in the machine's load falls on both alike.
for (let i = 0; i < runs; i++) {
  for (const http of [false, true]) {
    const r = await startOnce(http);
    const into = results[http ? 'with HTTP' : 'without HTTP']!;
    into.cpu.push(r.cpu);
    into.wall.push(r.wall);
  }
}
for (const [name, r] of Object.entries(results)) {
  console.log(`${name.padEnd(13)} CPU ${median(r.cpu).toFixed(0)} ms (${Math.min(...r.cpu).toFixed(0)}–${Math.max(...r.cpu).toFixed(0)}), ` +
    `wall to the start-up line ${median(r.wall).toFixed(0)} ms (${Math.min(...r.wall).toFixed(0)}–${Math.max(...r.wall).toFixed(0)}), ${runs} starts`);
}
