// lz4Decompress hands lz4-napi each block in place (the frame's size word briefly holds the capacity): the
// caller's frame must come back byte for byte, whether decompression succeeds or fails.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { xxh32 } from '@node-rs/xxhash';
import { lz4Compress, lz4Decompress } from '../../../src/protocol/compression/lz4.js';

function sample(size: number): Buffer {
  const data = Buffer.alloc(size);
  for (let i = 0; i < size; i++) data[i] = (i * 7919) % 251 < 120 ? i % 13 : (i * 31) & 0xff;
  return data;
}

/** The same blocks with FLG's block-checksum bit set and an xxh32 after each block. */
function withBlockChecksums(frame: Buffer): Buffer {
  const header = Buffer.from(frame.subarray(0, 7));
  header[4] = header[4]! | 0x10;
  header[6] = (xxh32(header.subarray(4, 6), 0) >>> 8) & 0xff;
  const parts: Buffer[] = [header];
  let pos = 7;
  for (;;) {
    const word = frame.readUInt32LE(pos);
    const size = word & 0x7fffffff;
    parts.push(frame.subarray(pos, pos + 4 + size));
    if (word === 0) break;
    const sum = Buffer.alloc(4);
    sum.writeUInt32LE(xxh32(frame.subarray(pos + 4, pos + 4 + size), 0) >>> 0, 0);
    parts.push(sum);
    pos += 4 + size;
  }
  return Buffer.concat(parts);
}

test('lz4 frames of one and several blocks decompress and leave the frame untouched', () => {
  for (const size of [1, 1000, 64 * 1024, 64 * 1024 + 1, 200_000]) {
    const data = sample(size);
    for (const frame of [lz4Compress(data), withBlockChecksums(lz4Compress(data))]) {
      const before = Buffer.from(frame);
      const out = lz4Decompress(frame, 1 << 20);
      assert.deepEqual(out, data, `${size} bytes`);
      assert.deepEqual(frame, before, `${size} bytes: frame unchanged`);
      // A view into a larger buffer too (as a batch inside a request).
      const outer = Buffer.concat([Buffer.from([9, 9, 9]), frame, Buffer.from([8])]);
      assert.deepEqual(lz4Decompress(outer.subarray(3, 3 + frame.length), 1 << 20), data);
      assert.deepEqual(outer.subarray(3, 3 + frame.length), before);
    }
  }
});

test('a failing block leaves the frame untouched too', () => {
  const data = sample(100_000);
  const frame = lz4Compress(data);
  const before = Buffer.from(frame);
  assert.throws(() => lz4Decompress(frame, 70_000), /exceed 70000 bytes/);
  assert.deepEqual(frame, before);
  const corruptFrame = Buffer.from(frame);
  corruptFrame.fill(0xff, 20, 60);
  const corruptBefore = Buffer.from(corruptFrame);
  assert.throws(() => lz4Decompress(corruptFrame, 1 << 20), /lz4/);
  assert.deepEqual(corruptFrame, corruptBefore);
});
