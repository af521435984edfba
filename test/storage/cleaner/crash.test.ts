import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FileLogStore } from '../../../src/storage/file/file-store.js';
import { readRecords } from './helpers.js';

const root = mkdtempSync(join(tmpdir(), 'gregor-cleaner-crash-'));
after(() => rmSync(root, { recursive: true, force: true }));
const child = fileURLToPath(new URL('./crash-child.js', import.meta.url));

function run(logDir: string, killAt: number): Promise<{ steps: string[]; killed: boolean }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [child, logDir, String(killAt)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    proc.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    proc.on('error', reject);
    proc.on('exit', (code, signal) => {
      const steps = out.split('\n').filter((l) => l !== '' && l !== 'done');
      if (signal === 'SIGKILL') resolve({ steps, killed: true });
      else if (code === 0) resolve({ steps, killed: false });
      else reject(new Error(`child exited with ${code}`));
    });
  });
}

const ALL = Array.from({ length: 16 }, (_, i) => ({ offset: i, key: `k${i % 4}`, value: `${i}`.padEnd(300, '.') }));

test('a kill -9 at every step of a clean leaves a log that recovers to the old or the new segments', async () => {
  const full = await run(join(root, 'full'), -1);
  assert.equal(full.killed, false);
  assert.ok(full.steps.length > 10, `steps: ${full.steps.join(', ')}`);
  const complete = await reopen(join(root, 'full'));
  const compactedOffsets = complete.map((r) => r.offset);
  assert.ok(compactedOffsets.length < 16);

  // Every step of the first two segment swaps (each swap repeats the same steps), of the last one, and the checkpoint.
  const perSwap = full.steps.indexOf('swapped') + 1;
  const killPoints = [...new Set([...Array.from({ length: 2 * perSwap }, (_, i) => i), ...Array.from({ length: perSwap + 1 }, (_, i) => full.steps.length - 1 - i)])];
  for (const killAt of killPoints.sort((a, b) => a - b)) {
    const dir = join(root, `kill-${killAt}`);
    const { killed, steps } = await run(dir, killAt);
    assert.ok(killed, `killed at step ${killAt} (${full.steps[killAt]})`);
    assert.equal(steps[steps.length - 1], full.steps[killAt]);
    const records = await reopen(dir);
    const where = `after a kill at "${full.steps[killAt]}" (#${killAt})`;
    // Every record read is the one originally at its offset, nothing the clean kept is missing.
    for (const r of records) assert.deepEqual(r, ALL[r.offset], where);
    const offsets = new Set(records.map((r) => r.offset));
    for (const o of compactedOffsets) assert.ok(offsets.has(o), `${where}: offset ${o} is missing`);
    // Every segment is either an old one (all its records) or a cleaned one: whole-segment granularity.
    const leftovers = readdirSync(join(dir, 'c-0')).filter((n) => n.endsWith('.cleaned') || n.endsWith('.swap'));
    assert.deepEqual(leftovers, [], where);
    rmSync(dir, { recursive: true, force: true });
  }
});

/** Open the store as a restarted broker would, check it, let the cleaner finish, and return what a consumer reads. */
async function reopen(dir: string): Promise<{ offset: number; key: string | null; value: string | null }[]> {
  const store = await FileLogStore.open({ logDir: dir, nodeId: 1 });
  try {
    const log = store.log('c', 0)!;
    assert.equal(log.logEndOffset, 16);
    const records = await readRecords(log);
    // The latest value of every key is there whatever the crash point.
    const latest = new Map(records.map((r) => [r.key, r.value]));
    for (let k = 0; k < 4; k++) assert.equal(latest.get(`k${k}`), ALL[12 + k]!.value);
    return records;
  } finally {
    await store.close();
  }
}
