// gregor as a child process (the real `gregor` command): started on a free port over a data dir, stopped by a signal.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

// The bundled command, as `npm start` runs it.
const MAIN = fileURLToPath(new URL('../../gregor.mjs', import.meta.url));

export interface GregorProcess {
  child: ChildProcess;
  port: number;
  /** The HTTP listener's base URL (console, /metrics), e.g. http://localhost:41234/. */
  http: string | undefined;
  /** Every stdout/stderr line so far, for diagnostics when an assertion fails. */
  output: string[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export interface StartOptions {
  /** Run under `ulimit -n <fileLimit>` (soft and hard), as a shell would start it. */
  fileLimit?: number;
  /** The first listener's port (default 0: any free port); a restart on the same port keeps what clients know. */
  port?: number;
}

/**
 * Spawns `gregor --port 0 (or options.port) --http-port 0 --data-dir dir --log-format json` (the schema registry's port off: its default,
 * 8081, is one for every broker) and resolves once it logs its listening address.
 */
export function startGregor(dataDir: string, extraArgs: string[] = [], options: StartOptions = {}): Promise<GregorProcess> {
  const args = [MAIN, '--port', String(options.port ?? 0), '--host', '127.0.0.1', '--http-port', '0', '-o', 'gregor.schema.registry.listeners=', '--data-dir', dataDir, '--log-format', 'json', ...extraArgs];
  const child =
    options.fileLimit === undefined
      ? spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] })
      : spawn('/bin/bash', ['-c', `ulimit -n ${options.fileLimit} && exec "$0" "$@"`, process.execPath, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  createInterface({ input: child.stderr! }).on('line', (line) => output.push(line));
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      output.push(line);
      let entry: { addresses?: unknown; http?: unknown };
      try {
        entry = JSON.parse(line) as { addresses?: unknown; http?: unknown };
      } catch {
        return;
      }
      if (Array.isArray(entry.addresses) && typeof entry.addresses[0] === 'string') {
        const http = Array.isArray(entry.http) && typeof entry.http[0] === 'string' ? entry.http[0] : undefined;
        resolve({ child, port: Number(entry.addresses[0].split(':').at(-1)), http, output, exited });
      }
    });
    void exited.then(({ code, signal }) => reject(new Error(`gregor exited (code ${code}, signal ${signal}) before listening:\n${output.join('\n')}`)));
  });
}

/** SIGKILL: no shutdown code runs, exactly like a crash. Resolves once the process is gone. */
export async function killGregor(gregor: GregorProcess): Promise<void> {
  gregor.child.kill('SIGKILL');
  await gregor.exited;
}

/** SIGTERM: the clean shutdown path. */
export async function stopGregor(gregor: GregorProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  gregor.child.kill('SIGTERM');
  return gregor.exited;
}
