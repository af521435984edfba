// Kafka's <log.dir>/.lock: one store per log dir at a time, in this process or another; the lock goes with a
// closed store and with a killed process.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { FileLogStore } from '../../../src/storage/file/file-store.js';
import { LogDirInUseError } from '../../../src/storage/file/log-dir-lock.js';

const root = mkdtempSync(join(tmpdir(), 'gregor-lock-'));
after(() => rmSync(root, { recursive: true, force: true }));
let dirs = 0;
const freshDir = () => join(root, `d-${++dirs}`);

/** The refusal: a LogDirInUseError whose one-line message names the lock file. */
function refusedFor(logDir: string) {
  const lockFile = join(logDir, '.lock');
  return (error: unknown) => {
    assert.ok(error instanceof LogDirInUseError, String(error));
    assert.equal(error.lockFile, lockFile);
    assert.equal(error.message, `Failed to acquire lock on file ${lockFile}: another broker (in this process or another) is using this log dir`);
    return true;
  };
}

/** A store that should not have opened is closed at once, so a failing assertion leaves nothing open. */
async function opened(store: Promise<FileLogStore>): Promise<FileLogStore> {
  const s = await store;
  await s.close();
  return s;
}

test('a second store on an open log dir is refused, naming the lock file; after close() the dir opens again', async () => {
  const logDir = freshDir();
  const first = await FileLogStore.open({ logDir, nodeId: 1 });
  try {
    await first.createTopic('t', 1);
    await assert.rejects(opened(FileLogStore.open({ logDir, nodeId: 1 })), refusedFor(logDir));
    // The refused open changed nothing: the first store still serves and closes cleanly.
    assert.notEqual(first.log('t', 0), undefined);
  } finally {
    await first.close();
  }
  assert.ok(existsSync(join(logDir, '.lock')), 'the lock file stays, as Kafka leaves it');
  const second = await FileLogStore.open({ logDir, nodeId: 1 });
  assert.equal(second.loadStats.cleanShutdown, true);
  assert.equal(second.topics().length, 1);
  await second.close();
});

test('a store that failed to open releases the lock', async () => {
  const logDir = freshDir();
  await (await FileLogStore.open({ logDir, nodeId: 7 })).close();
  await assert.rejects(FileLogStore.open({ logDir, nodeId: 8 }), /node\.id 7/);
  await (await FileLogStore.open({ logDir, nodeId: 7 })).close();
});

test('a store in another process holds the dir until that process is SIGKILLed; no stale lock is left', async () => {
  const logDir = freshDir();
  // The SIGKILL test's appender: opens the store and appends until killed.
  const child = spawn(process.execPath, [fileURLToPath(new URL('./crash-child.js', import.meta.url)), logDir], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = once(child, 'exit');
  const lines = createInterface({ input: child.stdout! });
  await once(lines, 'line');
  try {
    await assert.rejects(opened(FileLogStore.open({ logDir, nodeId: 1 })), refusedFor(logDir));
  } finally {
    child.kill('SIGKILL');
    await exited;
  }
  const store = await FileLogStore.open({ logDir, nodeId: 1 });
  assert.equal(store.loadStats.cleanShutdown, false);
  assert.ok(store.log('crash', 0)!.logEndOffset > 0);
  await store.close();
});
