// Starts the broker a compat run talks to: gregor as a child process, or the reference Apache Kafka.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeFailure, runCommand } from '../lib/command.js';
import { cacheDir, referenceDir, repoRoot } from '../lib/paths.js';
import { freePort, freePortPair } from '../lib/ports.js';
import { startReferenceBroker } from '../reference/broker.js';
import { CONSUMER_PROTOCOL_BROKER_SETTINGS } from './consumer-protocol.js';
import type { Target } from './types.js';

/** `settings(port)`: server properties beyond start.sh's (the security variants' listeners), given the client port. */
export async function startReferenceTarget(settings?: (port: number) => Promise<Record<string, string>>): Promise<Target> {
  const port = await freePortPair();
  const broker = await startReferenceBroker({ port, fresh: true, settings: { ...CONSUMER_PROTOCOL_BROKER_SETTINGS, ...(settings === undefined ? {} : await settings(port)) } });
  const stop = async (): Promise<void> => {
    await broker.stop();
    // A run's broker state is on a random port and never reused; keep the cache from filling up.
    rmSync(join(cacheDir, 'reference', String(port)), { recursive: true, force: true });
  };
  return { kind: 'reference', bootstrap: broker.bootstrap, restart: () => broker.restart(), stop };
}

/**
 * A broker someone else started (for working on a scenario without a fresh broker each run). A reference broker
 * started by reference/start.sh on that port can restart; gregor cannot (the run does not own its process).
 */
export function runningTarget(kind: 'gregor' | 'reference', bootstrap: string): Target {
  const port = Number(bootstrap.split(':')[1]);
  return {
    kind,
    bootstrap,
    restart: async () => {
      if (kind !== 'reference') throw new Error('cannot restart a gregor the run did not start');
      const result = await runCommand(join(referenceDir, 'restart.sh'), [String(port)], { timeoutMs: 180_000 });
      if (result.code !== 0) throw new Error(describeFailure('reference/restart.sh', result));
    },
    stop: async () => {},
  };
}

function portAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** More listeners beside the PLAINTEXT one (NAME://127.0.0.1:port, advertised as they are) and -o settings. */
export interface GregorTargetExtras {
  listeners: readonly string[];
  settings: Record<string, string>;
}

/**
 * gregor from the build: `node dist/gregor.mjs` on 127.0.0.1:<free port>, advertising that address (as the
 * reference broker does), with data in a temporary directory so a restart keeps it.
 */
export async function startGregorTarget(extras?: GregorTargetExtras): Promise<Target> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'gregor-compat-'));
  const main = join(repoRoot, 'dist', 'gregor.mjs');
  const listeners = [`PLAINTEXT://127.0.0.1:${port}`, ...(extras?.listeners ?? [])].join(',');
  const args = [main, '--listeners', listeners, '--advertised-listeners', listeners, '--http-port', '0',
    '--data-dir', dataDir, '--log-level', 'warn', '--log-format', 'json',
    ...Object.entries({ ...CONSUMER_PROTOCOL_BROKER_SETTINGS, ...(extras?.settings ?? {}) }).flatMap(([key, value]) => ['-o', `${key}=${value}`])];
  let child: ChildProcess | undefined;

  const start = async (): Promise<void> => {
    let output = '';
    const process_ = spawn(process.execPath, args, {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = process_;
    process_.stdout?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
    process_.stderr?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
    let exited = false;
    process_.once('exit', () => (exited = true));
    const deadline = Date.now() + 30_000;
    while (!(await portAnswers(port))) {
      if (exited || Date.now() > deadline) {
        process_.kill('SIGKILL');
        const lastLines = output.trim().split('\n').slice(-3).join(' | ');
        throw new Error(`gregor did not start on 127.0.0.1:${port}${lastLines ? `: ${lastLines}` : ''}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  const stop = async (): Promise<void> => {
    const running = child;
    child = undefined;
    if (running === undefined || running.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()));
    running.kill('SIGTERM');
    const timer = setTimeout(() => running.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  };

  await start();
  return {
    kind: 'gregor',
    bootstrap: `127.0.0.1:${port}`,
    restart: async () => {
      await stop();
      await start();
    },
    stop: async () => {
      await stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
