// Zigzag varints as record v2 uses them (Kafka's ByteUtils.readVarint / readVarlong), on plain numbers.
// A cursor object keeps the position so the record walkers can read without allocating per field.

import { ProtocolError } from '../protocol-error.js';

export interface Cursor {
  pos: number;
}

/** Zigzag varint of at most 5 bytes (int32). */
export function readVarint(buf: Buffer, c: Cursor, end: number): number {
  let raw = 0;
  let shift = 0;
  for (let i = 0; i < 5; i++) {
    if (c.pos >= end) throw new ProtocolError('truncated', 'varint runs past the end of the record data');
    const b = buf[c.pos++]!;
    raw |= (b & 0x7f) << shift;
    if ((b & 0x80) === 0) return (raw >>> 1) ^ -(raw & 1);
    shift += 7;
  }
  throw new ProtocolError('invalid', 'varint longer than 5 bytes');
}

/** Zigzag varlong of at most 10 bytes, as a number (exact below 2^53). */
export function readVarlong(buf: Buffer, c: Cursor, end: number): number {
  let raw = 0;
  let scale = 1;
  for (let i = 0; i < 10; i++) {
    if (c.pos >= end) throw new ProtocolError('truncated', 'varlong runs past the end of the record data');
    const b = buf[c.pos++]!;
    raw += (b & 0x7f) * scale;
    if ((b & 0x80) === 0) return raw % 2 === 0 ? raw / 2 : -(raw + 1) / 2;
    scale *= 128;
  }
  throw new ProtocolError('invalid', 'varlong longer than 10 bytes');
}

function zigzag(value: number): number {
  return value >= 0 ? value * 2 : -value * 2 - 1;
}

export function sizeOfVarint(value: number): number {
  let raw = zigzag(value);
  let size = 1;
  while (raw >= 0x80) {
    raw = Math.floor(raw / 128);
    size++;
  }
  return size;
}

/** Writes a zigzag varint/varlong at pos, returns the new position. */
export function writeVarint(buf: Buffer, pos: number, value: number): number {
  let raw = zigzag(value);
  while (raw >= 0x80) {
    buf[pos++] = (raw % 128) | 0x80;
    raw = Math.floor(raw / 128);
  }
  buf[pos++] = raw;
  return pos;
}
