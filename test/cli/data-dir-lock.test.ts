// The `gregor` command on a --data-dir another broker holds: refused with one line naming the lock file and exit
// status 1, as the command's other start-up failures; the dir is free again after a clean stop and after SIGKILL.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { killGregor, startGregor, stopGregor, type GregorProcess } from '../e2e/gregor-process.js';

const MAIN = fileURLToPath(new URL('../../gregor.mjs', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'gregor-cli-lock-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** A second command on the same dir: it must exit by itself (a refused start never listens). */
function startSecond(dataDir: string) {
  return spawnSync(process.execPath, [MAIN, '--port', '0', '--host', '127.0.0.1', '--http-port', '0', '--data-dir', dataDir, '--log-format', 'json'], {
    encoding: 'utf8',
    timeout: 60_000,
  });
}

function assertRefused(dataDir: string, result: ReturnType<typeof startSecond>): void {
  assert.equal(result.status, 1, `exit status 1; output: ${result.stdout}${result.stderr}`);
  const lines = (result.stdout + result.stderr).split('\n').filter((l) => l !== '');
  assert.equal(lines.length, 1, `one line, got: ${lines.join('\n')}`);
  const entry = JSON.parse(lines[0]!) as { level: number; msg: string };
  assert.equal(entry.level, 60);
  assert.equal(entry.msg, `cannot start: Failed to acquire lock on file ${join(dataDir, '.lock')}: another broker (in this process or another) is using this log dir`);
}

test('a second gregor on the same --data-dir is refused; after a clean stop a new one starts', async () => {
  const dataDir = join(root, 'stop');
  let first: GregorProcess | undefined = await startGregor(dataDir);
  try {
    assertRefused(dataDir, startSecond(dataDir));
    assert.deepEqual(await stopGregor(first), { code: 0, signal: null });
    first = undefined;
    await killGregor(await startGregor(dataDir));
  } finally {
    if (first !== undefined) await killGregor(first);
  }
});

test('a SIGKILLed gregor leaves no stale lock: a new one starts on its --data-dir', async () => {
  const dataDir = join(root, 'kill');
  const first = await startGregor(dataDir);
  try {
    assertRefused(dataDir, startSecond(dataDir));
  } finally {
    await killGregor(first);
  }
  await killGregor(await startGregor(dataDir));
});
