// Random message values for the codec tests, built from the generated test-only schema descriptor.
// Values are valid for one version: fields absent in it keep their defaults, nulls appear only where
// that version allows them, tagged fields are sometimes left at their default (and so not encoded).
import { seededRandom } from '../../src/seeded-random.js';
import type { FieldSchema, MessageSchema } from './generated/schemas.js';

export type Rng = () => number;

/** Seeded: failures reproduce from the seed in the test name. */
export const seededRng: (seed: number) => Rng = seededRandom;

const inRange = (r: [number, number] | undefined, v: number): boolean => r !== undefined && v >= r[0] && v <= r[1];
const int = (rng: Rng, lo: number, hi: number): number => lo + Math.floor(rng() * (hi - lo + 1));

const STRING_ALPHABET = ['a', 'b', 'z', 'K', '0', '-', '.', '_', ' ', 'é', 'ß', '中', '✓', '😀'];

function randomString(rng: Rng): string {
  const n = int(rng, 0, 12);
  let s = '';
  for (let i = 0; i < n; i++) s += STRING_ALPHABET[int(rng, 0, STRING_ALPHABET.length - 1)];
  return s;
}

function randomBytes(rng: Rng, max: number): Buffer {
  const b = Buffer.alloc(int(rng, 0, max));
  for (let i = 0; i < b.length; i++) b[i] = int(rng, 0, 255);
  return b;
}

function randomInt64(rng: Rng): bigint {
  const pick = rng();
  if (pick < 0.1) return -1n;
  if (pick < 0.15) return 9223372036854775807n;
  if (pick < 0.2) return -9223372036854775808n;
  const hi = BigInt(int(rng, 0, 0xffffffff));
  const lo = BigInt(int(rng, 0, 0xffffffff));
  return BigInt.asIntN(64, (hi << 32n) | lo);
}

function randomScalar(schema: MessageSchema, f: FieldSchema, version: number, rng: Rng, depth: number): unknown {
  switch (f.type) {
    case 'int8': return int(rng, -128, 127);
    case 'int16': return int(rng, -32768, 32767);
    case 'uint16': return int(rng, 0, 65535);
    case 'int32': return rng() < 0.1 ? -1 : int(rng, -2147483648, 2147483647);
    case 'uint32': return int(rng, 0, 0xffffffff);
    case 'int64': return randomInt64(rng);
    case 'float64': return (rng() - 0.5) * 1e6;
    case 'bool': return rng() < 0.5;
    case 'uuid': return Buffer.from(Array.from({ length: 16 }, () => (rng() < 0.1 ? 0 : int(rng, 0, 255)))).toString('base64url');
    case 'string': return randomString(rng);
    case 'bytes': return randomBytes(rng, 20);
    case 'records': return randomBytes(rng, 80);
    case 'struct': return randomStruct(schema, f.struct!, version, rng, depth + 1);
    default: throw new Error(`no random value for ${f.type}`);
  }
}

/** A random value of struct `name` valid at `version`. */
export function randomStruct(schema: MessageSchema, name: string, version: number, rng: Rng, depth = 0): Record<string, unknown> {
  const struct = schema.structs[name];
  if (!struct) throw new Error(`no struct ${name} in ${schema.name}`);
  const defaults = struct.create() as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const f of struct.fields) {
    if (!inRange(f.versions, version) || (inRange(f.tagged, version) && rng() < 0.4)) {
      out[f.prop] = defaults[f.prop];
      continue;
    }
    if (inRange(f.nullable, version) && rng() < 0.2) {
      out[f.prop] = null;
      continue;
    }
    if (f.array) {
      const n = depth > 4 ? 0 : int(rng, 0, 3);
      out[f.prop] = Array.from({ length: n }, () => randomScalar(schema, f, version, rng, depth));
    } else {
      out[f.prop] = randomScalar(schema, f, version, rng, depth);
    }
  }
  return out;
}

export function randomMessage(schema: MessageSchema, version: number, rng: Rng): Record<string, unknown> {
  return randomStruct(schema, schema.root, version, rng);
}
