// Runs the built `gregor` command as a user would, and checks its exit status and output.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// The command as `npm start` and the package's bin run it: the bundle built from src/cli/main.ts.
const MAIN = fileURLToPath(new URL('../../gregor.mjs', import.meta.url));

/** The environment without GREGOR_* variables, so the machine's settings do not leak in. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('GREGOR_')) env[k] = v;
  return { ...env, ...extra };
}

function run(args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, [MAIN, ...args], { env: cleanEnv(env), encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function assertOneLineUsageError(result: ReturnType<typeof run>, ...fragments: string[]): void {
  assert.equal(result.status, 2, `exit status 2, stderr: ${result.stderr}`);
  const lines = result.stderr.split('\n').filter((l) => l !== '');
  assert.equal(lines.length, 1, `one line on stderr, got: ${result.stderr}`);
  for (const fragment of fragments) assert.ok(lines[0]!.includes(fragment), `${JSON.stringify(fragment)} in ${lines[0]}`);
  assert.equal(result.stdout, '');
}

test('a bad value from --override exits 2 with one line naming the key and what it accepts', () => {
  assertOneLineUsageError(run(['--override', 'num.partitions=0']), 'num.partitions', 'expects a 32-bit integer in [1,...]');
  assertOneLineUsageError(run(['start', '-o', 'log.cleanup.policy=forever']), 'log.cleanup.policy', '[compact, delete]');
});

test('a bad value from the environment exits 2 the same way', () => {
  assertOneLineUsageError(run([], { GREGOR_AUTO_CREATE_TOPICS_ENABLE: 'maybe' }), 'auto.create.topics.enable', 'true or false');
  assertOneLineUsageError(run([], { GREGOR_LISTENERS: 'SSL://:9093' }), 'listeners', 'PLAINTEXT');
});

test('bad flags and files exit 2 with one line', () => {
  assertOneLineUsageError(run(['--port', '70000']), '--port', '65535');
  assertOneLineUsageError(run(['--bogus-flag']), 'bogus-flag');
  assertOneLineUsageError(run(['--log-level', 'loud']), 'log-level', 'loud');
  assertOneLineUsageError(run(['--config', '/no/such/file.properties']), '/no/such/file.properties');
  assertOneLineUsageError(run(['--override', 'novalue']), '--override', 'key=value');
});

test('--help describes every option, the sources of settings and the exit statuses', () => {
  const result = run(['--help']);
  assert.equal(result.status, 0);
  for (const option of ['--config', '--override', '--port', '--host', '--listeners', '--advertised-listeners',
    '--data-dir', '--in-memory', '--log-level', '--log-format', '--list-configs', '--version', '--help']) {
    assert.ok(result.stdout.includes(option), option);
  }
  assert.match(result.stdout, /GREGOR_/);
  assert.match(result.stdout, /--config file < GREGOR_\* environment < --override < shortcut flags/);
  assert.match(result.stdout, /Exit status/);
});

test('--list-configs prints every key with its default and environment name', () => {
  const result = run(['--list-configs']);
  assert.equal(result.status, 0);
  assert.match(result.stdout, /^num\.partitions\n.*\n.*default 1; valid \[1,\.\.\.\]; read-only; env GREGOR_NUM_PARTITIONS$/m);
  assert.match(result.stdout, /^group\.initial\.rebalance\.delay\.ms\n.*\n.*Kafka's default 3000/m);
  assert.match(result.stdout, /^retention\.ms\n.*\n.*broker default from log\.retention\.ms, log\.retention\.minutes, log\.retention\.hours$/m);
});

/** Sends ApiVersions v0 and returns the correlation id and error code of the answer. */
async function apiVersions(port: number, correlationId: number): Promise<{ correlationId: number; errorCode: number }> {
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

/** Reads a stream line by line on demand; null once it has ended. */
function lineReader(stream: Readable): () => Promise<string | null> {
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

async function waitForExit(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return child.exitCode;
  const [code] = await once(child, 'exit');
  return code as number | null;
}

test('starts on a free port with --port 0, answers, and exits 0 on SIGTERM', { timeout: 60_000 }, async () => {
  const cwd = mkdtempSync(join(tmpdir(), 'gregor-cli-run-'));
  const child = spawn(process.execPath, [MAIN, '--port', '0', '--in-memory', '--log-format', 'json', '-o', 'made.up.key=1'],
    { cwd, env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    const nextLine = lineReader(child.stdout!);
    const records: { level: number; msg: string; [key: string]: unknown }[] = [];
    while (records.at(-1)?.level !== 30) {
      const line = await nextLine();
      assert.notEqual(line, null, 'the command stopped before its start-up line');
      records.push(JSON.parse(line!) as (typeof records)[number]);
    }
    // Warnings first, then the start-up line: listener address and start-up time.
    assert.equal(records[0]!.level, 40);
    assert.match(records[0]!.msg, /made\.up\.key/);
    const started = records[1]!;
    assert.equal(started.level, 30);
    const addresses = started['addresses'] as string[];
    assert.equal(addresses.length, 1);
    const port = Number(addresses[0]!.split(':').at(-1));
    assert.ok(port > 0, `a real port in ${addresses[0]}`);
    assert.match(started.msg, new RegExp(`listening on localhost:${port} .*started in \\d+ ms`));
    assert.equal(typeof started['startupMs'], 'number');

    assert.deepEqual(await apiVersions(port, 4242), { correlationId: 4242, errorCode: 0 });

    child.kill('SIGTERM');
    const rest: string[] = [];
    for (let line = await nextLine(); line !== null; line = await nextLine()) rest.push(line);
    assert.equal(await waitForExit(child), 0);
    assert.ok(rest.some((line) => line.includes('gregor stopped')), rest.join('\n'));
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(cwd, { recursive: true, force: true });
  }
});
