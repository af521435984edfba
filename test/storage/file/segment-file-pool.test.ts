import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { descriptorLimit, fileBudget } from '../../../src/storage/file/descriptor-limit.js';
import { SegmentFilePool } from '../../../src/storage/file/segment-file-pool.js';

const root = mkdtempSync(join(tmpdir(), 'gregor-pool-'));
after(() => rmSync(root, { recursive: true, force: true }));

function files(pool: SegmentFilePool, count: number) {
  return Array.from({ length: count }, (_, i) => {
    const path = join(root, `f${i}-${Math.random()}`);
    writeFileSync(path, `file ${i}`);
    return { path, file: pool.file(() => path) };
  });
}

/** Lets every pending promise callback run (no timer involved). */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

test('at most `capacity` files are open: the least recently used idle one is closed, and opens again on use', async () => {
  const pool = new SegmentFilePool(2);
  const [a, b, c] = files(pool, 3);
  const read = (f: typeof a) => f!.file.use(async (h) => (await h.read(Buffer.alloc(6), 0, 6, 0)).buffer.toString());
  assert.equal(await read(a), 'file 0');
  assert.equal(await read(b), 'file 1');
  assert.equal(await read(a), 'file 0');
  assert.equal(await read(c), 'file 2');
  assert.equal(pool.openFiles, 2);
  assert.deepEqual([a!.file.isOpen, b!.file.isOpen, c!.file.isOpen], [true, false, true], 'b was the least recently used');
  assert.equal(await read(b), 'file 1');
  assert.deepEqual([a!.file.isOpen, b!.file.isOpen, c!.file.isOpen], [false, true, true]);
  await Promise.all([a, b, c].map((f) => f!.file.close()));
  assert.equal(pool.openFiles, 0);
});

test('a file in use is never closed: a use beyond capacity waits for one to finish', async () => {
  const pool = new SegmentFilePool(1);
  const [a, b] = files(pool, 2);
  let finishA!: () => void;
  let aStarted!: () => void;
  const order: string[] = [];
  const usingA = a!.file.use(async () => {
    order.push('a starts');
    aStarted();
    await new Promise<void>((resolve) => (finishA = resolve));
    order.push('a ends');
  });
  await new Promise<void>((resolve) => (aStarted = resolve));
  const usingB = b!.file.use(async (h) => {
    order.push('b starts');
    return (await h.read(Buffer.alloc(6), 0, 6, 0)).buffer.toString();
  });
  await settle();
  assert.deepEqual(order, ['a starts']);
  // Closing waits for the job too.
  const closing = a!.file.close().then(() => order.push('a closed'));
  finishA();
  assert.equal(await usingB, 'file 1');
  await Promise.all([usingA, closing]);
  // b takes a's descriptor once a's job ended (whether close or b gets to it first).
  assert.deepEqual(order.slice(0, 2), ['a starts', 'a ends']);
  assert.deepEqual(order.slice(2).sort(), ['a closed', 'b starts']);
  assert.equal(a!.file.isOpen, false);
  assert.equal(pool.openFiles, 1);
  await b!.file.close();
});

test('a new file opened for writing is truncated once, then reopened without truncating', async () => {
  const pool = new SegmentFilePool(1);
  const path = join(root, 'new');
  writeFileSync(path, 'old contents');
  const created = pool.file(() => path, 'w+');
  await created.use((h) => h.write('abc', 0).then(() => undefined));
  const [other] = files(pool, 1);
  await other!.file.use(async () => undefined);
  assert.equal(created.isOpen, false);
  await created.use((h) => h.write('def', 3).then(() => undefined));
  await created.close();
  assert.equal(readFileSync(path, 'utf8'), 'abcdef');
  await other!.file.close();
});

test('the budget is a share of the descriptor limit read from the process', () => {
  assert.deepEqual(fileBudget(256), { segments: 128, shortLived: 32 });
  assert.deepEqual(fileBudget(20), { segments: 10, shortLived: 4 });
  assert.deepEqual(fileBudget(Infinity), { segments: Infinity, shortLived: Infinity });
  const line = /^Max open files\s+(\S+)/m.exec(readFileSync('/proc/self/limits', 'utf8'))![1]!;
  assert.equal(descriptorLimit(), line === 'unlimited' ? Infinity : Number(line));
});
