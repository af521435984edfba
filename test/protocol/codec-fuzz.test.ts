// Hostile input: every strict prefix of an encoded message fails with ProtocolError; random byte
// mutations either decode or throw ProtocolError, never any other exception.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Reader } from '../../src/protocol/io/reader.js';
import { Writer } from '../../src/protocol/io/writer.js';
import { ProtocolError } from '../../src/protocol/protocol-error.js';
import { schemas, type MessageSchema } from './generated/schemas.js';
import { randomMessage, seededRng, type Rng } from './codec-random.js';

const MAX_PREFIXES = 48;
const MUTATIONS_PER_VERSION = 40;

function encode(schema: MessageSchema, value: unknown, version: number): Buffer {
  const w = new Writer(32);
  schema.encode(w, value, version);
  return w.toBuffer();
}

/** Decodes `bytes`; returns 'ok' or the ProtocolError kind; rethrows anything else with context. */
function tryDecode(schema: MessageSchema, bytes: Buffer, version: number): string {
  try {
    schema.decode(new Reader(bytes), version);
    return 'ok';
  } catch (e) {
    if (e instanceof ProtocolError) return e.kind;
    throw new Error(`${schema.name} v${version} threw a non-ProtocolError on ${bytes.toString('hex')}: ${String(e)}`);
  }
}

function prefixLengths(length: number, rng: Rng): number[] {
  if (length <= MAX_PREFIXES) return Array.from({ length }, (_, i) => i);
  const set = new Set([0, 1, length - 1, length - 2]);
  while (set.size < MAX_PREFIXES) set.add(Math.floor(rng() * length));
  return [...set];
}

for (const [index, schema] of schemas.entries()) {
  const seed = 5000 + index;
  test(`truncated and mutated ${schema.name} (seed ${seed})`, () => {
    const rng = seededRng(seed);
    for (let version = schema.minVersion; version <= schema.maxVersion; version++) {
      const bytes = encode(schema, randomMessage(schema, version, rng), version);
      for (const n of prefixLengths(bytes.length, rng)) {
        const result = tryDecode(schema, bytes.subarray(0, n), version);
        assert.notEqual(result, 'ok', `${schema.name} v${version}: a ${n}-byte prefix of ${bytes.length} decoded`);
      }
      for (let i = 0; i < MUTATIONS_PER_VERSION && bytes.length > 0; i++) {
        const mutated = Buffer.from(bytes);
        const flips = 1 + Math.floor(rng() * 3);
        for (let k = 0; k < flips; k++) {
          const at = Math.floor(rng() * mutated.length);
          mutated[at] = rng() < 0.3 ? 0xff : Math.floor(rng() * 256);
        }
        tryDecode(schema, mutated, version);
        // Extra trailing garbage is never read past; it may or may not be valid inside the message.
        tryDecode(schema, Buffer.concat([mutated, Buffer.from([0x80, 0xff])]), version);
      }
      for (let i = 0; i < 5; i++) {
        const garbage = Buffer.from(Array.from({ length: Math.floor(rng() * 64) }, () => Math.floor(rng() * 256)));
        tryDecode(schema, garbage, version);
      }
    }
  });
}

test('a huge array count inside a small frame is refused before allocating', () => {
  const produce = schemas.find((s) => s.name === 'ProduceRequest')!;
  // Produce v3: transactional_id (int16 -1), acks, timeout, then the topic array count.
  const frame = Buffer.alloc(100);
  frame.writeInt16BE(-1, 0);
  frame.writeInt16BE(1, 2);
  frame.writeInt32BE(1000, 4);
  frame.writeInt32BE(0x7fffffff, 8);
  assert.equal(tryDecode(produce, frame, 3), 'too-large');
});
