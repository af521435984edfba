// Growable writer. Small values go into one preallocated buffer (grown geometrically); large
// buffers (record batches) are appended by reference as separate chunks, so a Fetch response
// never copies log data. `finish()` hands the chunks to socket writev/cork.
import { ProtocolError } from '../protocol-error.js';

/** What a `records` field encodes from: one buffer, or several appended back to back. */
export type RecordsValue = Buffer | readonly Buffer[];

/** Buffers shorter than this are copied rather than referenced: a chunk costs more than a copy. */
const REF_THRESHOLD = 512;
const MIN_CAPACITY = 64;

export class Writer {
  private buf: Buffer;
  private pos = 0;
  /** Start of the bytes in `buf` not yet moved to `chunks`. */
  private segStart = 0;
  private readonly chunks: Buffer[] = [];
  /** Parallel to `chunks`: true for our own bytes (patchable), false for referenced buffers. */
  private readonly owned: boolean[] = [];
  /** Total bytes already in `chunks`. */
  private flushed = 0;

  constructor(initialCapacity = 1024) {
    this.buf = Buffer.allocUnsafe(Math.max(initialCapacity, MIN_CAPACITY));
  }

  /** Total bytes written so far. */
  get length(): number {
    return this.flushed + this.pos - this.segStart;
  }

  private ensure(n: number): void {
    if (this.pos + n > this.buf.length) this.grow(n);
  }

  private grow(n: number): void {
    const used = this.pos - this.segStart;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, used + n, MIN_CAPACITY));
    // Only the current segment moves; bytes already in `chunks` stay where they are.
    this.buf.copy(next, 0, this.segStart, this.pos);
    this.buf = next;
    this.segStart = 0;
    this.pos = used;
  }

  int8(v: number): void {
    this.ensure(1);
    this.buf[this.pos++] = v & 0xff;
  }

  uint8(v: number): void {
    this.int8(v);
  }

  bool(v: boolean): void {
    this.ensure(1);
    this.buf[this.pos++] = v ? 1 : 0;
  }

  int16(v: number): void {
    this.ensure(2);
    const b = this.buf;
    const p = this.pos;
    b[p] = (v >>> 8) & 0xff;
    b[p + 1] = v & 0xff;
    this.pos = p + 2;
  }

  uint16(v: number): void {
    this.int16(v);
  }

  int32(v: number): void {
    this.ensure(4);
    const b = this.buf;
    const p = this.pos;
    b[p] = (v >>> 24) & 0xff;
    b[p + 1] = (v >>> 16) & 0xff;
    b[p + 2] = (v >>> 8) & 0xff;
    b[p + 3] = v & 0xff;
    this.pos = p + 4;
  }

  uint32(v: number): void {
    this.int32(v >>> 0);
  }

  int64(v: bigint): void {
    this.ensure(8);
    this.pos = this.buf.writeBigInt64BE(BigInt.asIntN(64, v), this.pos);
  }

  float64(v: number): void {
    this.ensure(8);
    this.pos = this.buf.writeDoubleBE(v, this.pos);
  }

  /** A uuid in Kafka's text form (22 chars of URL-safe base64) as its 16 bytes. */
  uuid(v: string): void {
    if (v.length !== 22) throw new ProtocolError('invalid', `uuid "${v}" is not 22 base64url characters`);
    this.ensure(16);
    const written = this.buf.write(v, this.pos, 16, 'base64url');
    if (written !== 16) throw new ProtocolError('invalid', `uuid "${v}" is not valid base64url`);
    this.pos += 16;
  }

  uvarint(v: number): void {
    this.ensure(5);
    const b = this.buf;
    let p = this.pos;
    while (v >= 0x80) {
      b[p++] = (v & 0x7f) | 0x80;
      v = Math.floor(v / 128);
    }
    b[p++] = v;
    this.pos = p;
  }

  /** Zigzag-encoded signed 32-bit varint. */
  varint(v: number): void {
    this.uvarint(((v << 1) ^ (v >> 31)) >>> 0);
  }

  uvarlong(v: bigint): void {
    this.ensure(10);
    const b = this.buf;
    let p = this.pos;
    let u = BigInt.asUintN(64, v);
    while (u >= 0x80n) {
      b[p++] = Number(u & 0x7fn) | 0x80;
      u >>= 7n;
    }
    b[p++] = Number(u);
    this.pos = p;
  }

  /** Zigzag-encoded signed 64-bit varint. */
  varlong(v: bigint): void {
    const s = BigInt.asIntN(64, v);
    this.uvarlong((s << 1n) ^ (s >> 63n));
  }

  private utf8(s: string, len: number): void {
    this.ensure(len);
    this.pos += this.buf.write(s, this.pos, len, 'utf8');
  }

  string(s: string): void {
    const len = Buffer.byteLength(s, 'utf8');
    if (len > 0x7fff) throw new ProtocolError('too-large', `string of ${len} bytes exceeds 32767`);
    this.int16(len);
    this.utf8(s, len);
  }

  nullableString(s: string | null): void {
    if (s === null) this.int16(-1);
    else this.string(s);
  }

  compactString(s: string): void {
    const len = Buffer.byteLength(s, 'utf8');
    if (len > 0x7fff) throw new ProtocolError('too-large', `string of ${len} bytes exceeds 32767`);
    this.uvarint(len + 1);
    this.utf8(s, len);
  }

  compactNullableString(s: string | null): void {
    if (s === null) this.uvarint(0);
    else this.compactString(s);
  }

  bytes(b: Buffer): void {
    this.int32(b.length);
    this.bytesRef(b);
  }

  nullableBytes(b: Buffer | null): void {
    if (b === null) this.int32(-1);
    else this.bytes(b);
  }

  compactBytes(b: Buffer): void {
    this.uvarint(b.length + 1);
    this.bytesRef(b);
  }

  compactNullableBytes(b: Buffer | null): void {
    if (b === null) this.uvarint(0);
    else this.compactBytes(b);
  }

  /** A `records` field: int32 length (-1 for null), then the batches by reference. */
  records(r: RecordsValue | null): void {
    if (r === null) {
      this.int32(-1);
      return;
    }
    this.int32(recordsLength(r));
    this.recordsBody(r);
  }

  /** A compact `records` field: uvarint length+1 (0 for null), then the batches by reference. */
  compactRecords(r: RecordsValue | null): void {
    if (r === null) {
      this.uvarint(0);
      return;
    }
    this.uvarint(recordsLength(r) + 1);
    this.recordsBody(r);
  }

  private recordsBody(r: RecordsValue): void {
    if (Buffer.isBuffer(r)) this.bytesRef(r);
    else for (const part of r) this.bytesRef(part);
  }

  /** Copies `b` into the writer. */
  raw(b: Buffer): void {
    this.ensure(b.length);
    b.copy(this.buf, this.pos);
    this.pos += b.length;
  }

  /** Appends `b` by reference (no copy) unless it is small. The caller must not change it afterwards. */
  bytesRef(b: Buffer): void {
    if (b.length < REF_THRESHOLD) {
      this.raw(b);
      return;
    }
    this.flushSegment();
    this.chunks.push(b);
    this.owned.push(false);
    this.flushed += b.length;
  }

  private flushSegment(): void {
    if (this.pos > this.segStart) {
      this.chunks.push(this.buf.subarray(this.segStart, this.pos));
      this.owned.push(true);
      this.flushed += this.pos - this.segStart;
      this.segStart = this.pos;
    }
  }

  /** Appends everything another writer holds (small chunks copied, large ones referenced). */
  append(other: Writer): void {
    for (const chunk of other.finish()) this.bytesRef(chunk);
  }

  /** A tagged field whose value was encoded into `value`: tag, size, then the bytes. */
  taggedField(tag: number, value: Writer): void {
    this.uvarint(tag);
    this.uvarint(value.length);
    this.append(value);
  }

  /** Overwrites 4 bytes this writer wrote earlier at absolute `position` (e.g. a size prefix). */
  patchInt32(position: number, value: number): void {
    if (!Number.isInteger(position) || position < 0 || position + 4 > this.length) {
      throw new RangeError(`patchInt32 at ${position} outside the ${this.length} bytes written`);
    }
    if (position >= this.flushed) {
      this.buf.writeInt32BE(value | 0, this.segStart + position - this.flushed);
      return;
    }
    let start = 0;
    for (let i = 0; i < this.chunks.length; i++) {
      const chunk = this.chunks[i]!;
      if (position < start + chunk.length) {
        if (!this.owned[i] || position + 4 > start + chunk.length) {
          throw new RangeError(`patchInt32 at ${position} would modify a buffer appended by reference`);
        }
        chunk.writeInt32BE(value | 0, position - start);
        return;
      }
      start += chunk.length;
    }
  }

  /** The written bytes as chunks, ready for writev. The writer may keep being appended to. */
  finish(): Buffer[] {
    this.flushSegment();
    return this.chunks.slice();
  }

  /** All written bytes in one buffer (copies when there is more than one chunk). */
  toBuffer(): Buffer {
    const chunks = this.finish();
    if (chunks.length === 1) return chunks[0]!;
    return Buffer.concat(chunks, this.flushed);
  }
}

/** Total byte length of a records value. */
export function recordsLength(r: RecordsValue): number {
  if (Buffer.isBuffer(r)) return r.length;
  let n = 0;
  for (const part of r) n += part.length;
  return n;
}

/** A records value as one buffer (concatenating only when it is several). */
export function recordsToBuffer(r: RecordsValue): Buffer {
  if (Buffer.isBuffer(r)) return r;
  if (r.length === 1) return r[0]!;
  return Buffer.concat(r as Buffer[]);
}
