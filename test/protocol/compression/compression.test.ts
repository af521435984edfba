import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { compressFrameSync, decompressFrameSync } from 'lz4-napi';
import { Codec, compress, compressAsync, decompress, decompressAsync } from '../../../src/protocol/compression/index.js';
import { isXerialFramed, snappyCompressRaw } from '../../../src/protocol/compression/snappy.js';
import { zstdOutputBound } from '../../../src/protocol/compression/zstd.js';
import { ProtocolError } from '../../../src/protocol/protocol-error.js';

const require = createRequire(import.meta.url);
const snappyjs = require('snappyjs') as { compress(b: Buffer): Buffer; uncompress(b: Buffer): Buffer };
const kafkajsGzip = require('kafkajs/src/protocol/message/compression/gzip') as {
  compress(encoder: { buffer: Buffer }): Promise<Buffer>;
  decompress(buffer: Buffer): Promise<Buffer>;
};

const MiB = 1024 * 1024;

function sampleRecords(bytes: number): Buffer {
  const lines: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const line = JSON.stringify({ id: i, user: `user-${i % 977}`, ts: 1_700_000_000_000 + i * 13, event: ['click', 'view', 'buy'][i % 3] });
    lines.push(line);
    size += line.length + 1;
  }
  return Buffer.from(lines.join('\n')).subarray(0, bytes);
}

function isProtocolError(kind: ProtocolError['kind']) {
  return (e: unknown) => e instanceof ProtocolError && e.kind === kind;
}

const inputs = [Buffer.alloc(0), Buffer.from('x'), sampleRecords(1000), sampleRecords(300_000), Buffer.alloc(200_000, 7)];
const random = Buffer.from(Array.from({ length: 100_000 }, (_, i) => (i * 2654435761) >>> 24 ^ (i * 40503) & 0xff));

for (const [name, codec] of Object.entries(Codec)) {
  test(`${name}: compress/decompress round trip (text, empty, incompressible)`, async () => {
    // zstd frames without a declared size are bounded block by block: up to 128 KiB above the real size.
    const slack = codec === Codec.ZSTD ? 128 * 1024 : 0;
    for (const input of [...inputs, random]) {
      const packed = compress(codec, input);
      assert.deepEqual(decompress(codec, packed, input.length + slack), input);
      assert.deepEqual(await decompressAsync(codec, await compressAsync(codec, input), input.length + slack), input);
    }
  });
}

for (const [name, codec] of Object.entries(Codec)) {
  if (codec === Codec.NONE) continue;
  test(`${name}: output beyond maxOutputBytes is refused`, () => {
    const zeros = Buffer.alloc(4 * MiB);
    const packed = compress(codec, zeros);
    assert.ok(packed.length < MiB / 4);
    assert.throws(() => decompress(codec, packed, MiB), isProtocolError('too-large'));
    assert.throws(() => decompress(codec, packed, zeros.length - 1), isProtocolError('too-large'));
    assert.equal(decompress(codec, packed, zeros.length).length, zeros.length);
  });

  test(`${name}: garbage and truncated input give ProtocolError 'invalid'`, () => {
    const packed = compress(codec, sampleRecords(100_000));
    for (const bad of [Buffer.from('definitely not compressed data, at all'), packed.subarray(0, packed.length >> 1), packed.subarray(0, 3), Buffer.alloc(0)]) {
      assert.throws(() => decompress(codec, bad, 10 * MiB), isProtocolError('invalid'), `${name} ${bad.length} bytes`);
    }
  });
}

test('lz4: a corrupt block is invalid, not too large, also when the budget is below the block\'s bound', () => {
  const packed = Buffer.from(compress(Codec.LZ4, sampleRecords(200_000)));
  const flags = packed[4]!;
  const blockStart = 4 + 2 + (flags & 0x08 ? 8 : 0) + 1 + 4;
  const blockSize = packed.readUInt32LE(blockStart - 4) & 0x7fffffff;
  packed.fill(0xff, blockStart, blockStart + blockSize);
  for (const budget of [1024, 10 * MiB]) assert.throws(() => decompress(Codec.LZ4, packed, budget), isProtocolError('invalid'), `budget ${budget}`);
});

test('unknown codec ids are rejected', () => {
  assert.throws(() => compress(5, Buffer.from('x')), isProtocolError('invalid'));
  assert.throws(() => decompress(7, Buffer.from('x'), 10), isProtocolError('invalid'));
});

test('gzip: interoperates with kafkajs gzip codec', async () => {
  const input = sampleRecords(50_000);
  assert.deepEqual(decompress(Codec.GZIP, await kafkajsGzip.compress({ buffer: input }), MiB), input);
  assert.deepEqual(await kafkajsGzip.decompress(compress(Codec.GZIP, input)), input);
});

test('snappy: we write the xerial framing; raw snappy from snappyjs decodes', () => {
  const input = sampleRecords(100_000);
  const framed = compress(Codec.SNAPPY, input);
  assert.ok(isXerialFramed(framed));
  assert.equal(framed.subarray(0, 16).toString('hex'), '82534e41505059000000000100000001');
  // Walk our chunks by the spec and decode each with another implementation.
  const parts: Buffer[] = [];
  for (let pos = 16; pos < framed.length; ) {
    const len = framed.readInt32BE(pos);
    parts.push(snappyjs.uncompress(framed.subarray(pos + 4, pos + 4 + len)));
    pos += 4 + len;
  }
  assert.equal(parts.length, Math.ceil(input.length / 32768));
  assert.deepEqual(Buffer.concat(parts), input);
  assert.deepEqual(decompress(Codec.SNAPPY, snappyjs.compress(input), MiB), input);
  assert.deepEqual(snappyjs.uncompress(snappyCompressRaw(input)), input);
});

test('snappy: xerial frames built by hand from snappyjs blocks, including a concatenated stream', () => {
  const a = sampleRecords(40_000);
  const b = Buffer.from('second stream');
  const header = Buffer.from('82534e41505059000000000100000001', 'hex');
  const chunk = (data: Buffer) => {
    const block = snappyjs.compress(data);
    const len = Buffer.alloc(4);
    len.writeInt32BE(block.length);
    return Buffer.concat([len, block]);
  };
  const framed = Buffer.concat([header, chunk(a.subarray(0, 10_000)), chunk(a.subarray(10_000)), header, chunk(b)]);
  assert.deepEqual(decompress(Codec.SNAPPY, framed, MiB), Buffer.concat([a, b]));
  const lying = Buffer.from(framed);
  lying.writeInt32BE(1 << 30, 16);
  assert.throws(() => decompress(Codec.SNAPPY, lying, MiB), isProtocolError('invalid'));
});

test('lz4: we write Kafka\'s frame header; frames from lz4_flex decode both ways', () => {
  const input = sampleRecords(200_000);
  const ours = compress(Codec.LZ4, input);
  assert.equal(ours.subarray(0, 7).toString('hex'), '04224d18604082');
  assert.deepEqual(decompressFrameSync(ours), input);
  const theirs = compressFrameSync(input);
  assert.deepEqual(decompress(Codec.LZ4, theirs, MiB), input);
  const checked = compressFrameSync(input, { blockChecksums: true, contentChecksum: true });
  assert.deepEqual(decompress(Codec.LZ4, checked, MiB), input);
});

test('lz4: a bad header checksum, a dependent-block frame and a bad block checksum are refused', () => {
  const input = sampleRecords(10_000);
  const badHc = Buffer.from(compress(Codec.LZ4, input));
  badHc[6] ^= 0xff;
  assert.throws(() => decompress(Codec.LZ4, badHc, MiB), /descriptor checksum/);
  const dependent = Buffer.from(compress(Codec.LZ4, input));
  dependent[4] = 0x40; // version 1, block independence cleared
  assert.throws(() => decompress(Codec.LZ4, dependent, MiB), /dependent blocks/);
  const checked = Buffer.from(compressFrameSync(input, { blockChecksums: true }));
  const firstBlockSize = checked.readUInt32LE(7) & 0x7fffffff;
  checked[7 + 4 + firstBlockSize] ^= 0x01;
  assert.throws(() => decompress(Codec.LZ4, checked, MiB), /block checksum/);
});

test('zstd: a streaming-style frame (no content size, raw and RLE blocks) decodes; its bound is exact', () => {
  const raw = Buffer.from('hello zstd raw block');
  const blockHeader = (last: boolean, type: number, size: number) => {
    const v = (last ? 1 : 0) | (type << 1) | (size << 3);
    return Buffer.from([v & 0xff, (v >> 8) & 0xff, (v >> 16) & 0xff]);
  };
  const frame = Buffer.concat([
    Buffer.from([0x28, 0xb5, 0x2f, 0xfd]),
    Buffer.from([0x00, 0x00]), // no content size, not single segment; window 1 KiB
    blockHeader(false, 0, raw.length), raw,
    blockHeader(true, 1, 500), Buffer.from([0x41]),
  ]);
  assert.equal(zstdOutputBound(frame), raw.length + 500);
  assert.deepEqual(decompress(Codec.ZSTD, frame, 1000), Buffer.concat([raw, Buffer.alloc(500, 0x41)]));
  assert.throws(() => decompress(Codec.ZSTD, frame, raw.length + 499), isProtocolError('too-large'));
});

test('zstd: a bomb of RLE blocks is refused from its headers alone', () => {
  const blocks: Buffer[] = [Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x50])];
  for (let i = 0; i < 10_000; i++) {
    const last = i === 9_999 ? 1 : 0;
    const v = last | (1 << 1) | ((128 * 1024) << 3);
    blocks.push(Buffer.from([v & 0xff, (v >> 8) & 0xff, (v >> 16) & 0xff, 0]));
  }
  const bomb = Buffer.concat(blocks);
  assert.equal(zstdOutputBound(bomb), 10_000 * 128 * 1024);
  assert.throws(() => decompress(Codec.ZSTD, bomb, 64 * MiB), isProtocolError('too-large'));
});

test('mutated or cut compressed input fails only with ProtocolError (deterministic fuzz)', () => {
  let seed = 12345;
  const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  const input = sampleRecords(60_000);
  for (const codec of [Codec.GZIP, Codec.SNAPPY, Codec.LZ4, Codec.ZSTD]) {
    const packed = compress(codec, input);
    for (let n = 0; n < 300; n++) {
      const b = Buffer.from(packed);
      for (let j = 0; j < 1 + n % 4; j++) b[Math.floor(rnd() * b.length)] = Math.floor(rnd() * 256);
      const cut = n % 5 === 0 ? b.subarray(0, Math.floor(rnd() * b.length)) : b;
      try {
        decompress(codec, cut, MiB);
      } catch (e) {
        assert.ok(e instanceof ProtocolError, `codec ${codec} mutation ${n}: ${String(e)}`);
      }
    }
  }
});

test('a limit beyond any buffer size (or Infinity) means no limit, for every codec', () => {
  for (const codec of Object.values(Codec)) {
    const packed = compress(codec, Buffer.from('hello'));
    assert.equal(decompress(codec, packed, Number.MAX_SAFE_INTEGER).toString(), 'hello');
    assert.equal(decompress(codec, packed, Infinity).toString(), 'hello');
  }
});
