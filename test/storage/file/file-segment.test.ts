import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileSegment, type SegmentContext } from '../../../src/storage/file/file-segment.js';
import { defaultLogConfig } from '../../../src/storage/log-config.js';
import { ManualScheduler } from '../../../src/storage/scheduler.js';

const DEFAULT_CONFIG = defaultLogConfig();

const root = mkdtempSync(join(tmpdir(), 'gregor-segment-'));
after(() => rmSync(root, { recursive: true, force: true }));

function context(name: string): SegmentContext {
  const dir = join(root, name);
  mkdirSync(dir);
  return { dir, scheduler: new ManualScheduler(0), config: () => DEFAULT_CONFIG };
}

test('a new segment creates its .log only; its index files come when it becomes inactive (Kafka LazyIndex)', async () => {
  const ctx = context('lazy');
  const segment = await FileSegment.create(ctx, 0, 0, 0);
  assert.deepEqual(readdirSync(ctx.dir), ['00000000000000000000.log']);
  await segment.onBecomeInactive();
  assert.deepEqual(readdirSync(ctx.dir).sort(), ['00000000000000000000.index', '00000000000000000000.log', '00000000000000000000.timeindex']);
  await segment.close();
});

test('an empty cleaned copy can be renamed into place: every file of it exists after onBecomeInactive', async () => {
  const ctx = context('cleaned');
  const segment = await FileSegment.create(ctx, 5, 0, 0, '.cleaned');
  await segment.onBecomeInactive();
  await segment.renameFiles('');
  assert.deepEqual(readdirSync(ctx.dir).sort(), ['00000000000000000005.index', '00000000000000000005.log', '00000000000000000005.timeindex']);
  await segment.close();
});

test('closing a segment never written leaves its index files uncreated', async () => {
  const ctx = context('untouched');
  const segment = await FileSegment.create(ctx, 0, 0, 0);
  await segment.flush();
  await segment.close();
  assert.deepEqual(readdirSync(ctx.dir), ['00000000000000000000.log']);
});
