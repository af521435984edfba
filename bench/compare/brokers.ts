// The two brokers under test, started and stopped the same way from the benchmark's point of view: each is one
// process on a loopback port with its data on the same filesystem, measured through /proc by its pid.
//   gregor: node dist/gregor.mjs --port P --data-dir D (a child of this process)
//   kafka:  compat-tests/reference/start.sh (Apache Kafka 4.3.1, single-node KRaft, JVM options of that script)
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, openSync, closeSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { cacheDir, referenceDir, repoRoot } from '../../compat-tests/lib/paths.js';
import { freePort, freePortPair } from '../../compat-tests/lib/ports.js';
import { isAlive, startedAtSinceBoot, uptimeSeconds } from './proc.js';
import { waitForApiVersions } from './wire.js';

const run = promisify(execFile);

export type BrokerKind = 'gregor' | 'kafka';
export const BROKER_KINDS: readonly BrokerKind[] = ['gregor', 'kafka'];

export interface RunningBroker {
  readonly kind: BrokerKind;
  readonly port: number;
  readonly bootstrap: string;
  readonly pid: number;
  /** From the process's start (kernel clock) to its first successful ApiVersions answer. */
  readonly startupMs: number;
  /** SIGTERM and wait: the broker's own clean shutdown. */
  stop(): Promise<void>;
  /** SIGKILL: no shutdown at all, as after a crash. */
  kill(): Promise<void>;
}

export interface BrokerLauncher {
  readonly kind: BrokerKind;
  /** Where the broker keeps its partitions (for sizing the data). */
  readonly dataDir: string;
  /** fresh: empty data directory first. */
  start(fresh: boolean): Promise<RunningBroker>;
  /** Stops whatever is still running and removes the data. */
  dispose(): Promise<void>;
}

const STOP_LIMIT_MS = 120_000;

async function waitForExit(pid: number, limitMs: number): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (isAlive(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  if (isAlive(pid)) throw new Error(`process ${pid} still alive after ${limitMs / 1000} s`);
}

/** Start-up as the kernel saw it: the process's start time to the moment ApiVersions first succeeded. */
async function measureStartup(pid: number, port: number): Promise<number> {
  const started = startedAtSinceBoot(pid);
  await waitForApiVersions(port, () => isAlive(pid));
  return Math.max(0, (uptimeSeconds() - started) * 1000);
}

export interface GregorLaunchOptions {
  /** The gregor.mjs to run (default: this checkout's dist/gregor.mjs), e.g. a saved build to compare against. */
  main?: string;
  /** Options for node itself, before the script (e.g. --trace-gc, whose lines go to the broker's log file). */
  nodeArgs?: readonly string[];
  /** The broker's port (default: a free one). */
  port?: number;
}

export async function gregorLauncher(workDir: string, options: GregorLaunchOptions = {}): Promise<BrokerLauncher> {
  const port = options.port ?? (await freePort());
  const dataDir = join(workDir, 'gregor-data');
  const logFile = join(workDir, 'gregor.log');
  const main = options.main ?? join(repoRoot, 'dist', 'gregor.mjs');
  let child: ChildProcess | undefined;

  const stopChild = async (signal: NodeJS.Signals) => {
    const current = child;
    if (current?.pid === undefined || current.exitCode !== null || current.signalCode !== null) return;
    const exited = new Promise((resolve) => current.once('exit', resolve));
    current.kill(signal);
    // A clean shutdown of many partitions can take a while; past the limit it is ended (and the step reported).
    let limit: NodeJS.Timeout | undefined;
    const inTime = await Promise.race([exited.then(() => true), new Promise((resolve) => { limit = setTimeout(resolve, STOP_LIMIT_MS, false); })]);
    clearTimeout(limit);
    if (!inTime) {
      current.kill('SIGKILL');
      await exited;
      throw new Error(`gregor did not stop within ${STOP_LIMIT_MS / 1000} s of ${signal}; killed`);
    }
    if (child === current) child = undefined;
  };

  return {
    kind: 'gregor',
    dataDir,
    async start(fresh) {
      if (fresh) rmSync(dataDir, { recursive: true, force: true });
      mkdirSync(dataDir, { recursive: true });
      const log = openSync(logFile, 'a');
      const spawned = spawn(process.execPath, [...(options.nodeArgs ?? []), main, '--port', String(port), '--http-port', '0', '-o', 'gregor.schema.registry.listeners=', '--data-dir', dataDir, '--log-level', 'warn', '--log-format', 'json'], {
        stdio: ['ignore', log, log],
      });
      closeSync(log);
      child = spawned;
      const pid = spawned.pid;
      if (pid === undefined) throw new Error('gregor did not start (no pid)');
      let startupMs: number;
      try {
        startupMs = await measureStartup(pid, port);
      } catch (error) {
        throw new Error(`${(error as Error).message}; see ${logFile}`);
      }
      return {
        kind: 'gregor',
        port,
        bootstrap: `127.0.0.1:${port}`,
        pid,
        startupMs,
        stop: () => stopChild('SIGTERM'),
        kill: () => stopChild('SIGKILL'),
      };
    },
    async dispose() {
      await stopChild('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function kafkaLauncher(): Promise<BrokerLauncher> {
  // GREGOR_BENCH_KAFKA_PORT pins the port (and port + 1 for the controller) where several runs share a machine.
  const pinned = Number(process.env['GREGOR_BENCH_KAFKA_PORT'] ?? 0);
  const port = pinned > 0 ? pinned : await freePortPair();
  const state = join(cacheDir, 'reference', String(port));
  const pidFile = join(state, 'pid');
  const dataDir = join(state, 'data');
  const script = (name: string) => join(referenceDir, name);
  let pid: number | undefined;

  const readPid = (): number | undefined => {
    if (!existsSync(pidFile)) return undefined;
    const value = Number(readFileSync(pidFile, 'utf8').trim());
    return Number.isInteger(value) && value > 0 && isAlive(value) ? value : undefined;
  };

  return {
    kind: 'kafka',
    dataDir,
    async start(fresh) {
      rmSync(pidFile, { force: true });
      const args = [...(fresh ? ['--fresh'] : []), String(port)];
      // start.sh formats storage if needed, launches the JVM, writes its pid and waits for "Kafka Server started".
      const launcher = spawn(script('start.sh'), args, { stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      launcher.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const launched = new Promise<number | null>((resolve) => launcher.on('close', resolve));
      let exited = false;
      void launched.then(() => (exited = true));
      while ((pid = readPid()) === undefined) {
        if (exited) throw new Error(`reference/start.sh failed: ${stderr.trim()}`);
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
      const jvm = pid;
      const startupMs = await measureStartup(jvm, port);
      if ((await launched) !== 0) throw new Error(`reference/start.sh failed: ${stderr.trim()}`);
      return {
        kind: 'kafka',
        port,
        bootstrap: `127.0.0.1:${port}`,
        pid: jvm,
        startupMs,
        stop: async () => {
          await run(script('stop.sh'), [String(port)]);
          pid = undefined;
        },
        kill: async () => {
          process.kill(jvm, 'SIGKILL');
          await waitForExit(jvm, 30_000);
          rmSync(pidFile, { force: true });
          pid = undefined;
        },
      };
    },
    async dispose() {
      if (pid !== undefined && isAlive(pid)) await run(script('stop.sh'), [String(port)]).catch(() => process.kill(pid!, 'SIGKILL'));
      rmSync(state, { recursive: true, force: true });
    },
  };
}
