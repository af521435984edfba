// Bounds-checked reader over one received frame. Every read checks against `end` (the bytes
// actually received), never against a length the peer claims; bytes come back as views (no copy).
import { ProtocolError } from '../protocol-error.js';

/** Kafka's zero uuid as `Uuid.toString()` prints it (re-exported for the generated codecs). */
export { ZERO_UUID } from '../uuid.js';
/** Shared zero-length buffer (the default of a non-nullable bytes field). */
export const EMPTY_BUFFER: Buffer = Buffer.alloc(0);

export class Reader {
  readonly buf: Buffer;
  position: number;
  readonly end: number;

  constructor(buf: Buffer, offset = 0, end = buf.length) {
    if (!(offset >= 0 && offset <= end && end <= buf.length)) {
      throw new RangeError(`Reader bounds ${offset}..${end} outside buffer of ${buf.length} bytes`);
    }
    this.buf = buf;
    this.position = offset;
    this.end = end;
  }

  get remaining(): number {
    return this.end - this.position;
  }

  private need(n: number): number {
    const p = this.position;
    if (this.end - p < n) {
      throw new ProtocolError('truncated', `need ${n} bytes at offset ${p}, only ${this.end - p} remain`);
    }
    this.position = p + n;
    return p;
  }

  skip(n: number): void {
    if (n < 0) throw new ProtocolError('invalid', `negative skip ${n}`);
    this.need(n);
  }

  int8(): number {
    const p = this.need(1);
    return (this.buf[p]! << 24) >> 24;
  }

  uint8(): number {
    return this.buf[this.need(1)]!;
  }

  bool(): boolean {
    return this.buf[this.need(1)]! !== 0;
  }

  int16(): number {
    const p = this.need(2);
    const b = this.buf;
    return (((b[p]! << 8) | b[p + 1]!) << 16) >> 16;
  }

  uint16(): number {
    const p = this.need(2);
    const b = this.buf;
    return (b[p]! << 8) | b[p + 1]!;
  }

  int32(): number {
    const p = this.need(4);
    const b = this.buf;
    return (b[p]! << 24) | (b[p + 1]! << 16) | (b[p + 2]! << 8) | b[p + 3]!;
  }

  uint32(): number {
    const p = this.need(4);
    const b = this.buf;
    return b[p]! * 0x1000000 + ((b[p + 1]! << 16) | (b[p + 2]! << 8) | b[p + 3]!);
  }

  int64(): bigint {
    return this.buf.readBigInt64BE(this.need(8));
  }

  float64(): number {
    return this.buf.readDoubleBE(this.need(8));
  }

  /** 16 bytes, returned in Kafka's text form: URL-safe base64 without padding (22 chars). */
  uuid(): string {
    const p = this.need(16);
    return this.buf.toString('base64url', p, p + 16);
  }

  /** Unsigned varint of at most 5 bytes holding a 32-bit value (0 .. 2^32-1). */
  uvarint(): number {
    const b = this.buf;
    let p = this.position;
    const end = this.end;
    if (p < end && b[p]! < 0x80) {
      this.position = p + 1;
      return b[p]!;
    }
    let value = 0;
    let mul = 1;
    for (let i = 0; i < 5; i++) {
      if (p >= end) throw new ProtocolError('truncated', `varint runs past the end at offset ${p}`);
      const byte = b[p++]!;
      if (i === 4 && byte > 0x0f) throw new ProtocolError('invalid', `varint overflows 32 bits at offset ${p - 1}`);
      value += (byte & 0x7f) * mul;
      if ((byte & 0x80) === 0) {
        this.position = p;
        return value;
      }
      mul *= 128;
    }
    throw new ProtocolError('invalid', `varint longer than 5 bytes at offset ${this.position}`);
  }

  /** Zigzag-encoded signed 32-bit varint. */
  varint(): number {
    const u = this.uvarint();
    return (u >>> 1) ^ -(u & 1);
  }

  /** Unsigned varint of at most 10 bytes holding a 64-bit value. */
  uvarlong(): bigint {
    const b = this.buf;
    let p = this.position;
    const end = this.end;
    let value = 0n;
    let shift = 0n;
    for (let i = 0; i < 10; i++) {
      if (p >= end) throw new ProtocolError('truncated', `varlong runs past the end at offset ${p}`);
      const byte = b[p++]!;
      if (i === 9 && byte > 0x01) throw new ProtocolError('invalid', `varlong overflows 64 bits at offset ${p - 1}`);
      value |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) {
        this.position = p;
        return value;
      }
      shift += 7n;
    }
    throw new ProtocolError('invalid', `varlong longer than 10 bytes at offset ${this.position}`);
  }

  /** Zigzag-encoded signed 64-bit varint. */
  varlong(): bigint {
    const u = this.uvarlong();
    return BigInt.asIntN(64, (u >> 1n) ^ -(u & 1n));
  }

  private text(length: number): string {
    const p = this.need(length);
    return this.buf.toString('utf8', p, p + length);
  }

  private view(length: number): Buffer {
    const p = this.need(length);
    return this.buf.subarray(p, p + length);
  }

  string(): string {
    const n = this.int16();
    if (n < 0) throw new ProtocolError('invalid', 'non-nullable string is null');
    return this.text(n);
  }

  nullableString(): string | null {
    const n = this.int16();
    return n < 0 ? null : this.text(n);
  }

  compactString(): string {
    const n = this.uvarint() - 1;
    if (n < 0) throw new ProtocolError('invalid', 'non-nullable compact string is null');
    if (n > 0x7fff) throw new ProtocolError('invalid', `compact string length ${n} exceeds 32767`);
    return this.text(n);
  }

  compactNullableString(): string | null {
    const n = this.uvarint() - 1;
    if (n < 0) return null;
    if (n > 0x7fff) throw new ProtocolError('invalid', `compact string length ${n} exceeds 32767`);
    return this.text(n);
  }

  bytes(): Buffer {
    const n = this.int32();
    if (n < 0) throw new ProtocolError('invalid', 'non-nullable bytes are null');
    return this.view(n);
  }

  nullableBytes(): Buffer | null {
    const n = this.int32();
    return n < 0 ? null : this.view(n);
  }

  compactBytes(): Buffer {
    const n = this.uvarint() - 1;
    if (n < 0) throw new ProtocolError('invalid', 'non-nullable compact bytes are null');
    return this.view(n);
  }

  compactNullableBytes(): Buffer | null {
    const n = this.uvarint() - 1;
    return n < 0 ? null : this.view(n);
  }

  /** A view of the next `length` bytes (for record batches and other raw payloads). */
  raw(length: number): Buffer {
    return this.view(length);
  }

  private checkCount(count: number, minElementSize: number): number {
    if (count * minElementSize > this.end - this.position) {
      throw new ProtocolError(
        'too-large',
        `array of ${count} elements (at least ${minElementSize} bytes each) exceeds the ${this.end - this.position} bytes remaining`,
      );
    }
    return count;
  }

  /** int32 element count; -1 (null) is rejected. */
  arrayLength(minElementSize: number): number {
    const n = this.int32();
    if (n < 0) throw new ProtocolError('invalid', 'non-nullable array is null');
    return this.checkCount(n, minElementSize);
  }

  /** int32 element count, or -1 for a null array. */
  nullableArrayLength(minElementSize: number): number {
    const n = this.int32();
    return n < 0 ? -1 : this.checkCount(n, minElementSize);
  }

  /** uvarint count+1; 0 (null) is rejected. */
  compactArrayLength(minElementSize: number): number {
    const n = this.uvarint() - 1;
    if (n < 0) throw new ProtocolError('invalid', 'non-nullable compact array is null');
    return this.checkCount(n, minElementSize);
  }

  /** uvarint count+1, or -1 for a null array. */
  compactNullableArrayLength(minElementSize: number): number {
    const n = this.uvarint() - 1;
    return n < 0 ? -1 : this.checkCount(n, minElementSize);
  }

  /** Reads a tagged-field header; returns the offset where this field's value must end. */
  taggedFieldEnd(): number {
    const size = this.uvarint();
    if (size > this.end - this.position) {
      throw new ProtocolError('truncated', `tagged field of ${size} bytes exceeds the ${this.end - this.position} remaining`);
    }
    return this.position + size;
  }

  /** Checks that a known tagged field's value used exactly the size it declared. */
  checkTaggedFieldEnd(end: number, tag: number): void {
    if (this.position !== end) {
      throw new ProtocolError('invalid', `tagged field ${tag} does not end where its declared size says`);
    }
  }

  /** Skips a whole tagged-field section (count, then tag/size/value triples). */
  skipTaggedFields(): void {
    const count = this.uvarint();
    for (let i = 0; i < count; i++) {
      this.uvarint();
      this.skip(this.uvarint());
    }
  }
}
