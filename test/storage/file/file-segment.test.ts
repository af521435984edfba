import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open, readFile, type FileHandle } from 'node:fs/promises';
import { FileSegment, writeAllAt, type SegmentContext } from '../../../src/storage/file/file-segment.js';
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

// A resumption that loses its place would loop for ever: the timeout makes that a failure.
test('an append of several parts reaches the file whole and in order even when the kernel takes a few bytes a call', { timeout: 60_000 }, async () => {
  const path = join(root, 'short-writes.log');
  const file = await open(path, 'w+');
  try {
    // A real file whose writes stop after 7 bytes, as a write(2) or pwritev(2) may: the rest must follow.
    const SHORT = 7;
    let calls = 0;
    const short = {
      write: (buf: Buffer, offset: number, length: number, position: number) => (calls++, file.write(buf, offset, Math.min(length, SHORT), position)),
      writev: (buffers: Buffer[], position: number) => {
        calls++;
        const taken: Buffer[] = [];
        let room = SHORT;
        for (const b of buffers) {
          if (room === 0) break;
          taken.push(b.subarray(0, room));
          room -= Math.min(room, b.length);
        }
        return file.writev(taken, position);
      },
    } as unknown as FileHandle;
    const parts = [Buffer.from('first part|'), Buffer.alloc(0), Buffer.from('2|'), Buffer.from('a third, longer part of the append|'), Buffer.from('end')];
    await file.write(Buffer.from('HEAD:'), 0, 5, 0);
    await writeAllAt(short, parts, 5);
    assert.equal((await readFile(path)).toString(), `HEAD:${Buffer.concat(parts).toString()}`);
    assert.ok(calls >= Math.ceil(Buffer.concat(parts).length / SHORT), `${calls} calls`);
    // One part alone goes through write(2), also resumed where it stopped.
    await writeAllAt(short, [Buffer.from('0123456789abcdefghij')], 0);
    assert.equal((await readFile(path)).toString().slice(0, 20), '0123456789abcdefghij');
  } finally {
    await file.close();
  }
});
