// Shutdown of the built command whatever becomes of its stdout: a reader that went away (`gregor | head -1`,
// `gregor | jq` then Ctrl-C) or one that stopped reading. A signal shuts down and exits 0; a second one exits
// 1 at once; the lines that do come out come in the order written. The generous timeouts only turn a hang
// into a failure.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, lineReader, remainingLines, spawnGregor, untilServing, waitForExit } from './gregor-process.js';

const TIMEOUT = { timeout: 120_000 };

async function withGregor(args: string[], body: (child: ChildProcess, dir: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'gregor-cli-shutdown-'));
  const child = spawnGregor(args, { cwd: dir });
  try {
    await body(child, dir);
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    child.stdout?.destroy();
    child.stderr?.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
}

for (const [format, signal] of [['json', 'SIGTERM'], ['pretty', 'SIGINT']] as const) {
  test(`its stdout reader gone after the first line (${format}), ${signal} shuts down and exits 0`, TIMEOUT, async () => {
    await withGregor(['--port', '0', '--in-memory', '--log-format', format], async (child) => {
      const first = await lineReader(child.stdout!)();
      assert.match(first ?? '', /gregor listening on/);
      // As `| head -1` does: the read end closes, so every later write fails with EPIPE.
      child.stdout!.destroy();
      child.stderr!.destroy();
      child.kill(signal);
      assert.equal(await waitForExit(child), 0);
    });
  });
}

/** A config file of `count` unknown keys: one warning line each, more than a pipe holds. */
function manyWarnings(dir: string, count: number): string {
  const file = join(dir, 'server.properties');
  writeFileSync(file, Array.from({ length: count }, (_, i) => `made.up.key.${String(i).padStart(6, '0')}=1\n`).join(''));
  return file;
}

const WARNINGS = 20_000;

/** Starts the command with its stdout full (the test does not read it) and waits until it serves. */
async function withFullStdout(body: (child: ChildProcess) => Promise<void>): Promise<void> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'gregor-cli-full-'));
  const config = manyWarnings(dir, WARNINGS);
  try {
    // The schema registry off: its default port may be taken by another broker, which would be one more warning.
    await withGregor(['--config', config, '--port', String(port), '--in-memory', '--log-format', 'json', '-o', 'gregor.schema.registry.listeners='], async (child) => {
      await untilServing(port, child);
      await body(child);
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('shutdown waits for a reader that is behind, and every line comes out once, in order', TIMEOUT, async () => {
  await withFullStdout(async (child) => {
    child.kill('SIGTERM');
    const lines = await remainingLines(lineReader(child.stdout!));
    assert.equal(await waitForExit(child), 0);
    const messages = lines.map((line) => (JSON.parse(line) as { msg: string }).msg);
    const expectedWarnings = Array.from({ length: WARNINGS }, (_, i) => `Unknown config key made.up.key.${String(i).padStart(6, '0')} is ignored`);
    assert.deepEqual(messages.slice(0, WARNINGS), expectedWarnings);
    assert.match(messages[WARNINGS]!, /^gregor listening on /);
    assert.deepEqual(messages.slice(WARNINGS + 1), ['SIGTERM received: shutting down', 'broker stopped', 'gregor stopped']);
  });
});

test('a second signal exits 1 at once, while shutdown still waits for its reader', TIMEOUT, async () => {
  await withFullStdout(async (child) => {
    // Two different signals: two of one kind sent back to back may arrive as one.
    child.kill('SIGTERM');
    child.kill('SIGINT');
    assert.equal(await waitForExit(child), 1);
  });
});
