import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FrameDecoder, FrameError } from '../../src/server/frame-decoder.js';

function frame(body: Buffer): Buffer {
  const size = Buffer.alloc(4);
  size.writeInt32BE(body.length);
  return Buffer.concat([size, body]);
}

function drain(decoder: FrameDecoder): Buffer[] {
  const out: Buffer[] = [];
  for (let f = decoder.next(); f !== null; f = decoder.next()) out.push(Buffer.from(f));
  return out;
}

test('one frame split over many chunks, down to single bytes', () => {
  const body = Buffer.from('hello kafka frame body');
  const bytes = frame(body);
  const decoder = new FrameDecoder(1024);
  const got: Buffer[] = [];
  for (let i = 0; i < bytes.length; i++) {
    decoder.push(bytes.subarray(i, i + 1));
    got.push(...drain(decoder));
    if (i < bytes.length - 1) assert.equal(got.length, 0);
  }
  assert.deepEqual(got, [body]);
  assert.equal(decoder.bufferedBytes, 0);
});

test('many frames in one chunk come out in order, as views of that chunk', () => {
  const bodies = Array.from({ length: 50 }, (_, i) => Buffer.alloc(i, i));
  const chunk = Buffer.concat(bodies.map(frame));
  const decoder = new FrameDecoder(1024);
  decoder.push(chunk);
  const frames: Buffer[] = [];
  for (let f = decoder.next(); f !== null; f = decoder.next()) frames.push(f);
  assert.deepEqual(frames.map((f) => Buffer.from(f)), bodies);
  const nonEmpty = frames.find((f) => f.length > 0)!;
  assert.equal(nonEmpty.buffer, chunk.buffer, 'a frame inside one chunk is not copied');
});

test('frames straddling chunk boundaries at every split point', () => {
  const bodies = [Buffer.from('abc'), Buffer.from(''), Buffer.from('0123456789'), Buffer.from('z')];
  const all = Buffer.concat(bodies.map(frame));
  for (let cut = 0; cut <= all.length; cut++) {
    const decoder = new FrameDecoder(64);
    decoder.push(all.subarray(0, cut));
    const got = drain(decoder);
    decoder.push(all.subarray(cut));
    got.push(...drain(decoder));
    assert.deepEqual(got, bodies, `split at ${cut}`);
  }
});

test('a zero-length frame is returned empty', () => {
  const decoder = new FrameDecoder(16);
  decoder.push(frame(Buffer.alloc(0)));
  assert.deepEqual(decoder.next(), Buffer.alloc(0));
  assert.equal(decoder.next(), null);
});

test('a negative size is rejected', () => {
  const decoder = new FrameDecoder(16);
  decoder.push(Buffer.from([0xff, 0xff, 0xff, 0xfe]));
  assert.throws(() => decoder.next(), (err: unknown) => err instanceof FrameError && /invalid frame size -2/.test(err.message));
});

test('a size above the limit is rejected from the prefix alone, before the body arrives', () => {
  const decoder = new FrameDecoder(100);
  decoder.push(Buffer.from([0, 0, 0, 101]));
  assert.throws(() => decoder.next(), (err: unknown) => err instanceof FrameError && /101.*socket\.request\.max\.bytes \(100\)/.test(err.message));
  const big = new FrameDecoder(100 * 1024 * 1024);
  big.push(Buffer.from([0x7f, 0xff, 0xff, 0xff]));
  assert.throws(() => big.next(), FrameError);
});

test('a size exactly at the limit is accepted', () => {
  const decoder = new FrameDecoder(5);
  decoder.push(frame(Buffer.from('12345')));
  assert.deepEqual(decoder.next(), Buffer.from('12345'));
});

test('a size prefix split across chunks is read correctly', () => {
  const decoder = new FrameDecoder(1 << 20);
  const body = Buffer.alloc(70000, 7);
  const bytes = frame(body);
  decoder.push(bytes.subarray(0, 2));
  assert.equal(decoder.next(), null);
  decoder.push(bytes.subarray(2, 3));
  decoder.push(bytes.subarray(3, 40000));
  assert.equal(decoder.next(), null);
  decoder.push(bytes.subarray(40000));
  assert.deepEqual(decoder.next(), body);
});
