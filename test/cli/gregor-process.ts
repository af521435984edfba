// The built `gregor` command run as a user runs it (dist/gregor.mjs, what `npm start` and the package's bin
// run), and what the CLI tests read from it.
import { spawn, spawnSync, type ChildProcess, type StdioOptions } from 'node:child_process';
import { connect, createServer, type Server } from 'node:net';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';

export const MAIN = fileURLToPath(new URL('../../gregor.mjs', import.meta.url));

/**
 * The environment without GREGOR_* variables, so the machine's settings do not leak in; the HTTP listener on a
 * free loopback port, not the command's default 8080 (tests run side by side).
 */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('GREGOR_')) env[k] = v;
  // The HTTP listener on a free port, the schema registry's own port off: parallel tests never compete for a port.
  return { ...env, GREGOR_GREGOR_HTTP_LISTENERS: 'http://127.0.0.1:0', GREGOR_GREGOR_SCHEMA_REGISTRY_LISTENERS: '', ...extra };
}

/** Runs the command to its end. */
export function run(args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, [MAIN, ...args], { env: cleanEnv(env), encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Starts the command in the background, stdout and stderr piped unless told otherwise. */
export function spawnGregor(args: string[], options: { cwd?: string; env?: Record<string, string>; stdio?: StdioOptions } = {}): ChildProcess {
  return spawn(process.execPath, [MAIN, ...args], {
    cwd: options.cwd,
    env: cleanEnv(options.env),
    stdio: options.stdio ?? ['ignore', 'pipe', 'pipe'],
  });
}

/** Reads a stream line by line on demand; null once it has ended. */
export function lineReader(stream: Readable): () => Promise<string | null> {
  const lines = createInterface({ input: stream });
  const buffered: string[] = [];
  let closed = false;
  let waiting: ((line: string | null) => void) | undefined;
  lines.on('line', (line) => {
    if (waiting === undefined) buffered.push(line);
    else { const resolve = waiting; waiting = undefined; resolve(line); }
  });
  lines.on('close', () => {
    closed = true;
    if (waiting !== undefined) { const resolve = waiting; waiting = undefined; resolve(null); }
  });
  return () => {
    if (buffered.length > 0) return Promise.resolve(buffered.shift()!);
    if (closed) return Promise.resolve(null);
    return new Promise((resolve) => { waiting = resolve; });
  };
}

/** Every line left on a stream, until it ends. */
export async function remainingLines(nextLine: () => Promise<string | null>): Promise<string[]> {
  const rest: string[] = [];
  for (let line = await nextLine(); line !== null; line = await nextLine()) rest.push(line);
  return rest;
}

export async function waitForExit(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
  const [code] = await once(child, 'exit');
  return code as number | null;
}

/** A port nothing listens on just now. */
export async function freePort(): Promise<number> {
  return (await freePorts(1))[0]!;
}

function bind(port: number): Promise<Server | undefined> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(undefined));
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

/**
 * `count` consecutive ports nothing listens on just now, for a command that takes a first port and counts up from it
 * (`gregor cluster`: brokers on port, port+1..., etcd's peer on its client port + 1). All of them are held at once
 * before any is released, so two picks in one test never overlap.
 */
export async function freePorts(count: number): Promise<number[]> {
  for (let attempt = 0; ; attempt++) {
    const first = await bind(0);
    if (first === undefined) throw new Error('no free port on 127.0.0.1');
    const base = (first.address() as { port: number }).port;
    const held = [first];
    while (held.length < count && base + held.length <= 65535) {
      const next = await bind(base + held.length);
      if (next === undefined) break;
      held.push(next);
    }
    await Promise.all(held.map((server) => new Promise((resolve) => server.close(resolve))));
    if (held.length === count) return held.map((_, i) => base + i);
    if (attempt === 50) throw new Error(`no ${count} consecutive free ports on 127.0.0.1`);
  }
}

/** Sends ApiVersions v0 and returns the correlation id and error code of the answer. */
export async function apiVersions(port: number, correlationId: number): Promise<{ correlationId: number; errorCode: number }> {
  const socket = connect(port, '127.0.0.1');
  await once(socket, 'connect');
  const clientId = Buffer.from('cli-test');
  const request = Buffer.alloc(4 + 2 + 2 + 4 + 2 + clientId.length);
  let at = request.writeInt32BE(request.length - 4, 0);
  at = request.writeInt16BE(18, at);
  at = request.writeInt16BE(0, at);
  at = request.writeInt32BE(correlationId, at);
  at = request.writeInt16BE(clientId.length, at);
  clientId.copy(request, at);
  socket.write(request);
  let received = Buffer.alloc(0);
  for await (const chunk of socket) {
    received = Buffer.concat([received, chunk as Buffer]);
    if (received.length >= 4 && received.length >= 4 + received.readInt32BE(0)) break;
  }
  socket.destroy();
  return { correlationId: received.readInt32BE(4), errorCode: received.readInt16BE(8) };
}

/**
 * Waits until the command answers ApiVersions on `port`. The command hears signals from then on: it sets its
 * handlers in the same turn as the broker starts accepting.
 */
export async function untilServing(port: number, child: ChildProcess): Promise<void> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`gregor exited with ${child.exitCode} before serving`);
    try {
      await apiVersions(port, 1);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

export interface LogRecord {
  level: number;
  msg: string;
  [key: string]: unknown;
}

/** The JSON log lines up to and including the start-up line (the first at level info), and a reader for the rest. */
export async function untilStarted(child: ChildProcess): Promise<{ records: LogRecord[]; nextLine: () => Promise<string | null> }> {
  const nextLine = lineReader(child.stdout!);
  const records: LogRecord[] = [];
  while (records.at(-1)?.level !== 30) {
    const line = await nextLine();
    if (line === null) throw new Error(`the command stopped before its start-up line:\n${records.map((r) => r.msg).join('\n')}`);
    records.push(JSON.parse(line) as LogRecord);
  }
  return { records, nextLine };
}
