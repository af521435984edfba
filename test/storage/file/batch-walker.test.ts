import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setBaseOffset } from '../../../src/protocol/records/batch.js';
import { walkBatches, walkHeadersBelow } from '../../../src/storage/file/batch-walker.js';
import { batchOf } from '../batch-fixtures.js';

const root = mkdtempSync(join(tmpdir(), 'gregor-walker-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** Small batches, then batches larger than the walker's 1 MiB chunks, then small ones: offsets assigned in order. */
async function mixedLog(): Promise<{ bytes: Buffer; sizes: number[] }> {
  const parts: Buffer[] = [];
  let offset = 0;
  const add = (batch: Buffer, count: number) => {
    setBaseOffset(batch, 0, offset);
    offset += count;
    parts.push(batch);
  };
  for (let i = 0; i < 40; i++) add(await batchOf(5, 1_000, 20_000), 5);
  for (let i = 0; i < 5; i++) add(await batchOf(3, 2_000, 700_000), 3);
  for (let i = 0; i < 40; i++) add(await batchOf(2, 3_000, 30), 2);
  return { bytes: Buffer.concat(parts), sizes: parts.map((p) => p.length) };
}

async function walkAll(path: string, verify: boolean) {
  const file = await open(path, 'r');
  try {
    const walk = walkBatches(file, 0, (await file.stat()).size, { verify });
    const seen: Array<[number, number]> = [];
    let r = await walk.next();
    while (!r.done) {
      for (const b of r.value.batches) {
        assert.equal(r.value.bytes.readInt32BE(b.position + 8) + 12, b.size, 'positions are relative to the chunk');
        seen.push([r.value.filePosition + b.position, b.baseOffset]);
      }
      r = await walk.next();
    }
    return { seen, validEnd: r.value.validEnd };
  } finally {
    await file.close();
  }
}

test('walks small and larger-than-a-chunk batches alike, each once and in order', async () => {
  const { bytes, sizes } = await mixedLog();
  const path = join(root, 'mixed.log');
  writeFileSync(path, bytes);
  for (const verify of [false, true]) {
    const { seen, validEnd } = await walkAll(path, verify);
    assert.equal(seen.length, sizes.length);
    let position = 0;
    for (let i = 0; i < sizes.length; i++) {
      assert.equal(seen[i]![0], position);
      position += sizes[i]!;
    }
    assert.equal(validEnd, bytes.length);
  }
});

test('a corrupt batch ends a verifying walk there, whatever was read ahead', async () => {
  const { bytes, sizes } = await mixedLog();
  const victim = 42;
  const at = sizes.slice(0, victim).reduce((a, b) => a + b, 0);
  const corrupt = Buffer.from(bytes);
  corrupt[at + 100] = corrupt[at + 100]! ^ 0xff;
  const path = join(root, 'corrupt.log');
  writeFileSync(path, corrupt);
  const { seen, validEnd } = await walkAll(path, true);
  assert.equal(seen.length, victim);
  assert.equal(validEnd, at);
  assert.equal((await walkAll(path, false)).validEnd, bytes.length, 'without verifying only the framing counts');
});

test('the header walk stops at the batch holding the target offset and rejects a start that is no boundary', async () => {
  const { bytes, sizes } = await mixedLog();
  const path = join(root, 'headers.log');
  writeFileSync(path, bytes);
  const file = await open(path, 'r');
  try {
    // Offsets 0-199 are in the first 40 batches; 200-214 in the large ones.
    const walked = await walkHeadersBelow(file, 0, bytes.length, 206, -1);
    assert.equal(walked!.batches.length, 42, 'batch 42 holds 206');
    assert.equal(walked!.position, sizes.slice(0, 42).reduce((a, b) => a + b, 0));
    const all = await walkHeadersBelow(file, 0, bytes.length, 1_000_000, -1);
    assert.equal(all!.position, bytes.length);
    assert.equal(await walkHeadersBelow(file, 1, bytes.length, 206, -1), undefined);
    assert.equal(await walkHeadersBelow(file, sizes[0]!, bytes.length, 206, 10), undefined, 'offsets must follow the previous batch');
  } finally {
    await file.close();
  }
});
