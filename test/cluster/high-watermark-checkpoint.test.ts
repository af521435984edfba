// replication-offset-checkpoint: high watermarks saved in Kafka's checkpoint format and restored into replicated logs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HighWatermarkCheckpoint, REPLICATION_OFFSET_CHECKPOINT } from '../../src/cluster/high-watermark-checkpoint.js';
import type { LogStore } from '../../src/storage/log-store.js';
import { defaultLogConfig } from '../../src/storage/log-config.js';
import { createMemoryLog } from '../../src/storage/memory/memory-log.js';
import { ManualScheduler } from '../../src/storage/scheduler.js';
import { batch, values } from '../broker/data-harness.js';

async function logWith(topic: string, records: number) {
  const log = createMemoryLog(topic, 0, defaultLogConfig(), new ManualScheduler(Date.now()));
  for (let i = 0; i < records; i++) await log.append(batch(values(`r${i}`)), { leaderEpoch: 0 });
  log.holdHighWatermark();
  return log;
}

test('saved as Kafka writes it, restored within each log; a log it does not name starts at 0', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gregor-hw-'));
  try {
    const store = { logDir: dir } as unknown as LogStore;
    const first = await HighWatermarkCheckpoint.open(store);
    const a = await logWith('a', 5);
    a.setHighWatermark(3);
    const b = await logWith('b', 2);
    await first.save([a, b]);
    assert.equal(readFileSync(join(dir, REPLICATION_OFFSET_CHECKPOINT), 'utf8'), '0\n2\na 0 3\nb 0 2\n');
    const again = await HighWatermarkCheckpoint.open(store);
    const a2 = await logWith('a', 5);
    again.restore(a2);
    assert.equal(a2.highWatermark, 3);
    const b2 = await logWith('b', 1);
    again.restore(b2);
    assert.equal(b2.highWatermark, 1, 'never past the log end');
    const c = await logWith('c', 4);
    again.restore(c);
    assert.equal(c.highWatermark, 0);
    // The memory engine (no log dir) keeps none: a log keeps its own.
    const none = await HighWatermarkCheckpoint.open({} as LogStore);
    const d = await logWith('d', 2);
    none.restore(d);
    assert.equal(d.highWatermark, 2);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
