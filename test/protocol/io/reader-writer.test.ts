import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Reader, ZERO_UUID } from '../../../src/protocol/io/reader.js';
import { Writer, recordsToBuffer } from '../../../src/protocol/io/writer.js';
import { ProtocolError } from '../../../src/protocol/protocol-error.js';

function bytes(write: (w: Writer) => void): Buffer {
  const w = new Writer(16);
  write(w);
  return w.toBuffer();
}

function hex(write: (w: Writer) => void): string {
  return bytes(write).toString('hex');
}

function throwsKind(fn: () => unknown, kind: ProtocolError['kind']): void {
  assert.throws(fn, (e: unknown) => e instanceof ProtocolError && e.kind === kind);
}

test('fixed-width integers are big-endian and sign-correct', () => {
  assert.equal(hex((w) => w.int8(-1)), 'ff');
  assert.equal(hex((w) => w.int16(-2)), 'fffe');
  assert.equal(hex((w) => w.uint16(65535)), 'ffff');
  assert.equal(hex((w) => w.int32(0x01020304)), '01020304');
  assert.equal(hex((w) => w.int32(-2147483648)), '80000000');
  assert.equal(hex((w) => w.uint32(0xfffffffe)), 'fffffffe');
  assert.equal(hex((w) => w.int64(-1n)), 'ffffffffffffffff');
  assert.equal(hex((w) => w.int64(9223372036854775807n)), '7fffffffffffffff');
  assert.equal(hex((w) => w.float64(1.5)), '3ff8000000000000');
  assert.equal(hex((w) => w.bool(true)), '01');

  const r = new Reader(Buffer.from('ff' + 'fffe' + 'ffff' + '80000000' + 'fffffffe' + 'ffffffffffffffff' + '3ff8000000000000' + '02', 'hex'));
  assert.equal(r.int8(), -1);
  assert.equal(r.int16(), -2);
  assert.equal(r.uint16(), 65535);
  assert.equal(r.int32(), -2147483648);
  assert.equal(r.uint32(), 0xfffffffe);
  assert.equal(r.int64(), -1n);
  assert.equal(r.float64(), 1.5);
  assert.equal(r.bool(), true, 'any non-zero byte is true');
  assert.equal(r.remaining, 0);
});

test('unsigned varints: edge values and their exact encodings', () => {
  const cases: [number, string][] = [
    [0, '00'],
    [1, '01'],
    [127, '7f'],
    [128, '8001'],
    [300, 'ac02'],
    [16383, 'ff7f'],
    [16384, '808001'],
    [2 ** 31 - 1, 'ffffffff07'],
    [2 ** 32 - 1, 'ffffffff0f'],
  ];
  for (const [value, encoded] of cases) {
    assert.equal(hex((w) => w.uvarint(value)), encoded, `encode ${value}`);
    const r = new Reader(Buffer.from(encoded, 'hex'));
    assert.equal(r.uvarint(), value, `decode ${encoded}`);
    assert.equal(r.remaining, 0);
  }
});

test('zigzag varints and varlongs round-trip at the edges', () => {
  const ints = [0, -1, 1, -64, 63, 64, -65, 2147483647, -2147483648, 123456, -987654];
  for (const v of ints) {
    const r = new Reader(bytes((w) => w.varint(v)));
    assert.equal(r.varint(), v);
    assert.equal(r.remaining, 0);
  }
  assert.equal(hex((w) => w.varint(-1)), '01');
  assert.equal(hex((w) => w.varint(1)), '02');
  assert.equal(hex((w) => w.varint(-2147483648)), 'ffffffff0f');
  const longs = [0n, -1n, 1n, 9223372036854775807n, -9223372036854775808n, 1n << 40n, -(1n << 50n)];
  for (const v of longs) {
    const r = new Reader(bytes((w) => w.varlong(v)));
    assert.equal(r.varlong(), v);
    assert.equal(r.remaining, 0);
  }
  assert.equal(hex((w) => w.varlong(-9223372036854775808n)), 'ffffffffffffffffff01');
});

test('malformed varints are invalid, cut-off varints are truncated', () => {
  throwsKind(() => new Reader(Buffer.from('ffffffffff01', 'hex')).uvarint(), 'invalid');
  throwsKind(() => new Reader(Buffer.from('ffffffff1f', 'hex')).uvarint(), 'invalid');
  throwsKind(() => new Reader(Buffer.from('8080', 'hex')).uvarint(), 'truncated');
  throwsKind(() => new Reader(Buffer.from('ffffffffffffffffff7f', 'hex')).varlong(), 'invalid');
  throwsKind(() => new Reader(Buffer.from('ffffffffffffffffffff01', 'hex')).varlong(), 'invalid');
  throwsKind(() => new Reader(Buffer.from('80', 'hex')).varlong(), 'truncated');
});

test('strings: classic, nullable, compact; UTF-8 lengths are byte lengths', () => {
  assert.equal(hex((w) => w.string('ab')), '00026162');
  assert.equal(hex((w) => w.nullableString(null)), 'ffff');
  assert.equal(hex((w) => w.compactString('ab')), '036162');
  assert.equal(hex((w) => w.compactNullableString(null)), '00');
  assert.equal(hex((w) => w.compactString('')), '01');
  assert.equal(hex((w) => w.string('é')), '0002c3a9');

  const r = new Reader(bytes((w) => {
    w.string('héllo ✓');
    w.nullableString(null);
    w.compactString('kafka');
    w.compactNullableString(null);
    w.compactNullableString('x');
  }));
  assert.equal(r.string(), 'héllo ✓');
  assert.equal(r.nullableString(), null);
  assert.equal(r.compactString(), 'kafka');
  assert.equal(r.compactNullableString(), null);
  assert.equal(r.compactNullableString(), 'x');
  throwsKind(() => new Reader(Buffer.from('ffff', 'hex')).string(), 'invalid');
  throwsKind(() => new Reader(Buffer.from('00', 'hex')).compactString(), 'invalid');
  throwsKind(() => new Writer().string('x'.repeat(40000)), 'too-large');
});

test('bytes decode as views into the frame, not copies', () => {
  const frame = bytes((w) => {
    w.bytes(Buffer.from('0102', 'hex'));
    w.nullableBytes(null);
    w.compactBytes(Buffer.from('03', 'hex'));
    w.compactNullableBytes(null);
  });
  assert.equal(frame.toString('hex'), '000000020102' + 'ffffffff' + '0203' + '00');
  const r = new Reader(frame);
  const b = r.bytes();
  assert.deepEqual([...b], [1, 2]);
  b[0] = 9;
  assert.equal(frame[4], 9, 'a write through the view shows in the frame');
  assert.equal(r.nullableBytes(), null);
  assert.deepEqual([...r.compactBytes()], [3]);
  assert.equal(r.compactNullableBytes(), null);
  throwsKind(() => new Reader(Buffer.from('ffffffff', 'hex')).bytes(), 'invalid');
});

test('uuid uses Kafka text form (URL-safe base64, no padding)', () => {
  const raw = Buffer.from('fbffefbeadde00112233445566778899', 'hex');
  const text = new Reader(raw).uuid();
  assert.equal(text, raw.toString('base64url'));
  assert.equal(text.length, 22);
  assert.ok(!text.includes('=') && !text.includes('+') && !text.includes('/'));
  assert.equal(hex((w) => w.uuid(text)), raw.toString('hex'));
  assert.equal(hex((w) => w.uuid(ZERO_UUID)), '00'.repeat(16));
  throwsKind(() => new Writer().uuid('short'), 'invalid');
  throwsKind(() => new Writer().uuid('!!!!!!!!!!!!!!!!!!!!!!'), 'invalid');
});

test('array lengths: null forms, and huge counts rejected before allocation', () => {
  assert.equal(new Reader(Buffer.from('ffffffff', 'hex')).nullableArrayLength(4), -1);
  assert.equal(new Reader(Buffer.from('00', 'hex')).compactNullableArrayLength(4), -1);
  throwsKind(() => new Reader(Buffer.from('ffffffff', 'hex')).arrayLength(4), 'invalid');
  throwsKind(() => new Reader(Buffer.from('00', 'hex')).compactArrayLength(4), 'invalid');
  // 2 elements of at least 4 bytes need 8 bytes; 7 remain.
  const seven = Buffer.concat([Buffer.from('00000002', 'hex'), Buffer.alloc(7)]);
  throwsKind(() => new Reader(seven).arrayLength(4), 'too-large');
  assert.equal(new Reader(Buffer.concat([seven, Buffer.alloc(1)])).arrayLength(4), 2);
  // A 2 GB claim inside a 100-byte frame fails at once.
  const frame = Buffer.alloc(100);
  frame.writeInt32BE(0x7fffffff, 0);
  throwsKind(() => new Reader(frame).arrayLength(1), 'too-large');
  const compact = Buffer.alloc(100);
  compact.set([0xff, 0xff, 0xff, 0xff, 0x07]);
  throwsKind(() => new Reader(compact).compactArrayLength(1), 'too-large');
});

test('every read past end throws truncated, and end bounds the reader', () => {
  const buf = Buffer.from('0001020304050607', 'hex');
  const r = new Reader(buf, 2, 5);
  assert.equal(r.remaining, 3);
  assert.equal(r.int16(), 0x0203);
  throwsKind(() => r.int16(), 'truncated');
  assert.equal(r.position, 4, 'a failed read does not move the position');
  throwsKind(() => new Reader(Buffer.alloc(3)).int32(), 'truncated');
  throwsKind(() => new Reader(Buffer.alloc(7)).int64(), 'truncated');
  throwsKind(() => new Reader(Buffer.alloc(15)).uuid(), 'truncated');
  throwsKind(() => new Reader(Buffer.from('0005616263', 'hex')).string(), 'truncated');
  throwsKind(() => new Reader(Buffer.from('0000000501', 'hex')).bytes(), 'truncated');
  throwsKind(() => new Reader(Buffer.from('06616263', 'hex')).compactString(), 'truncated');
  throwsKind(() => new Reader(Buffer.alloc(2)).skip(3), 'truncated');
  assert.throws(() => new Reader(buf, 5, 4), RangeError);
});

test('tagged fields: skipping a section and checking declared sizes', () => {
  const section = bytes((w) => {
    w.uvarint(2);
    w.uvarint(0);
    w.uvarint(3);
    w.raw(Buffer.from('aabbcc', 'hex'));
    w.uvarint(7);
    w.uvarint(0);
  });
  const r = new Reader(Buffer.concat([section, Buffer.from('ee', 'hex')]));
  r.skipTaggedFields();
  assert.equal(r.uint8(), 0xee);

  const r2 = new Reader(Buffer.from('0201020304', 'hex'));
  const end = r2.taggedFieldEnd();
  assert.equal(end, 1 + 2);
  r2.int8();
  assert.throws(() => r2.checkTaggedFieldEnd(end, 5), ProtocolError);
  r2.int8();
  r2.checkTaggedFieldEnd(end, 5);
  throwsKind(() => new Reader(Buffer.from('0501', 'hex')).taggedFieldEnd(), 'truncated');
});

test('writer grows geometrically and keeps earlier bytes', () => {
  const w = new Writer(1);
  for (let i = 0; i < 10000; i++) w.int32(i);
  assert.equal(w.length, 40000);
  const b = w.toBuffer();
  for (let i = 0; i < 10000; i += 999) assert.equal(b.readInt32BE(i * 4), i);
});

test('bytesRef appends large buffers by reference as separate chunks', () => {
  const big = Buffer.alloc(4096, 7);
  const small = Buffer.from('0102', 'hex');
  const w = new Writer(16);
  w.int32(0); // size prefix, patched below
  w.int16(1);
  w.bytesRef(big);
  w.bytesRef(small);
  w.int8(-1);
  w.bytesRef(big);
  assert.equal(w.length, 4 + 2 + 4096 + 2 + 1 + 4096);
  const chunks = w.finish();
  assert.equal(chunks.length, 4, 'own bytes, big, own bytes, big');
  assert.equal(chunks[1], big, 'the very same Buffer object, not a copy');
  assert.equal(chunks[3], big);
  assert.equal(chunks[2]!.toString('hex'), '0102ff');

  w.patchInt32(0, w.length - 4);
  const all = w.toBuffer();
  assert.equal(all.readInt32BE(0), all.length - 4);
  assert.equal(all.length, w.length);
  assert.throws(() => w.patchInt32(10, 1), RangeError, 'patching inside a referenced buffer is refused');
  assert.throws(() => w.patchInt32(w.length - 2, 1), RangeError);
});

test('patchInt32 works in the current segment, after growth, and in earlier chunks', () => {
  const w = new Writer(8);
  w.int8(1);
  const at = w.length;
  w.int32(0);
  for (let i = 0; i < 100; i++) w.int32(i);
  w.patchInt32(at, 0x11223344); // still in the current (grown) segment
  w.bytesRef(Buffer.alloc(1000));
  const at2 = w.length;
  w.int32(0);
  w.bytesRef(Buffer.alloc(1000));
  w.patchInt32(at2, -5); // now inside an earlier owned chunk
  w.patchInt32(at, 0x55667788); // the first chunk
  const b = w.toBuffer();
  assert.equal(b.readInt32BE(at), 0x55667788);
  assert.equal(b.readInt32BE(at2), -5);
});

test('records fields encode from one buffer or several, by reference', () => {
  const a = Buffer.alloc(600, 1);
  const c = Buffer.alloc(700, 2);
  const w = new Writer();
  w.records([a, c]);
  w.compactRecords(null);
  w.records(null);
  const chunks = w.finish();
  assert.ok(chunks.includes(a) && chunks.includes(c));
  const r = new Reader(w.toBuffer());
  const view = r.nullableBytes();
  assert.deepEqual(view, Buffer.concat([a, c]));
  assert.equal(r.compactNullableBytes(), null);
  assert.equal(r.nullableBytes(), null);
  assert.deepEqual(recordsToBuffer([a, c]), Buffer.concat([a, c]));
  assert.equal(recordsToBuffer(a), a);
});
