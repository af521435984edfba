import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { verifyBatchCrc } from '../../../src/protocol/records/batch.js';
import { FileLogStore } from '../../../src/storage/file/file-store.js';
import { batchesOf, offsetsOf } from '../log-contract.js';

const root = mkdtempSync(join(tmpdir(), 'gregor-sigkill-'));
after(() => rmSync(root, { recursive: true, force: true }));
const child = fileURLToPath(new URL('./crash-child.js', import.meta.url));

/** Run the appender until it has acknowledged `acks` batches, then SIGKILL it; returns the last acked offset. */
function runAndKill(logDir: string, acks: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [child, logDir], { stdio: ['ignore', 'pipe', 'inherit'] });
    let seen = 0;
    let lastAcked = -1;
    let pending = '';
    proc.stdout.on('data', (chunk: Buffer) => {
      pending += chunk.toString();
      const lines = pending.split('\n');
      pending = lines.pop()!;
      for (const line of lines) {
        lastAcked = Number(line);
        if (++seen === acks) proc.kill('SIGKILL');
      }
    });
    proc.on('error', reject);
    proc.on('exit', (_code, signal) => (signal === 'SIGKILL' ? resolve(lastAcked) : reject(new Error(`appender exited without being killed`))));
  });
}

test('SIGKILL during appends loses no acknowledged batch and serves no corrupt one', async () => {
  const logDir = join(root, 'dir');
  let previousEnd = 0;
  for (const acks of [40, 173, 311, 97]) {
    const lastAcked = await runAndKill(logDir, acks);
    const store = await FileLogStore.open({ logDir, nodeId: 1 });
    assert.equal(store.loadStats.cleanShutdown, false);
    const log = store.log('crash', 0)!;
    assert.ok(log.logEndOffset > lastAcked, `acked up to ${lastAcked}, log ends at ${log.logEndOffset}`);
    assert.ok(log.logEndOffset > previousEnd);
    let expected = 0;
    for (let offset = 0; offset < log.logEndOffset; ) {
      const batches = batchesOf((await log.read(offset, 64 * 1024)).records);
      for (const b of batches) assert.ok(verifyBatchCrc(b, 0, b.length), 'no corrupt batch is served');
      for (const [base, last] of offsetsOf(batches)) {
        assert.equal(base, expected, 'offsets are contiguous');
        expected = last + 1;
      }
      offset = expected;
    }
    previousEnd = log.logEndOffset;
    // Close without the clean marker mattering: the next child run appends after this end.
    await store.close();
  }
});
