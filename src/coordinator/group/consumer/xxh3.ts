/**
 * XXH3 64-bit with seed 0 and the default secret (the hash Kafka 4.3.1 takes from hash4j for a consumer group's
 * metadata hash). BigInt arithmetic: it hashes a few topics' metadata when they change, never on a hot path.
 */
const M64 = (1n << 64n) - 1n;
const P32_1 = 0x9e3779b1n;
const P32_2 = 0x85ebca77n;
const P32_3 = 0xc2b2ae3dn;
const P64_1 = 0x9e3779b185ebca87n;
const P64_2 = 0xc2b2ae3d27d4eb4fn;
const P64_3 = 0x165667b19e3779f9n;
const P64_4 = 0x85ebca77c2b2ae63n;
const P64_5 = 0x27d4eb2f165667c5n;
const MX1 = 0x165667919e3779f9n;
const MX2 = 0x9fb21c651e98df25n;

const SECRET = Buffer.from(
  'b8fe6c3923a44bbe7c01812cf721ad1cded46de9839097db7240a4a4b7b3671fcb79e64eccc0e578825ad07dccff7221b8084674f743248ee03590e6813a264c' +
    '3c2852bb91c300cb88d0658b1b532ea371644897a20df94e3819ef46a9deacd8a8fa763fe39c343ff9dcbbc7c70b4f1d8a51e04bcdb45931c89f7ec9d9787364' +
    'eac5ac8334d3ebc3c581a0fffa1363eb170ddd51b7f0da49d316552629d4689e2b16be587d47a1fc8ff8b8d17ad031ce45cb3a8f95160428afd7fbcabb4b407e',
  'hex',
);

const mul = (a: bigint, b: bigint): bigint => (a * b) & M64;
const add = (a: bigint, b: bigint): bigint => (a + b) & M64;
const r64 = (b: Buffer, at: number): bigint => b.readBigUInt64LE(at);
const r32 = (b: Buffer, at: number): bigint => BigInt(b.readUInt32LE(at));
const rotl = (v: bigint, r: bigint): bigint => ((v << r) | (v >> (64n - r))) & M64;

function fold(a: bigint, b: bigint): bigint {
  const p = a * b;
  return (p & M64) ^ (p >> 64n);
}

function avalanche(h: bigint): bigint {
  h ^= h >> 37n;
  h = mul(h, MX1);
  return h ^ (h >> 32n);
}

function xxh64Avalanche(h: bigint): bigint {
  h ^= h >> 33n;
  h = mul(h, P64_2);
  h ^= h >> 29n;
  h = mul(h, P64_3);
  return h ^ (h >> 32n);
}

function rrmxmx(h: bigint, len: number): bigint {
  h ^= rotl(h, 49n) ^ rotl(h, 24n);
  h = mul(h, MX2);
  h ^= add(h >> 35n, BigInt(len));
  h = mul(h, MX2);
  return h ^ (h >> 28n);
}

function swap64(v: bigint): bigint {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(v);
  return b.readBigUInt64BE();
}

const mix16 = (input: Buffer, at: number, secretAt: number): bigint => fold(r64(input, at) ^ r64(SECRET, secretAt), r64(input, at + 8) ^ r64(SECRET, secretAt + 8));

/** XXH3_64bits(input), seed 0, as an unsigned 64-bit value. */
export function xxh3(input: Buffer): bigint {
  const len = input.length;
  if (len === 0) return xxh64Avalanche(r64(SECRET, 56) ^ r64(SECRET, 64));
  if (len <= 3) {
    const combined = (BigInt(input[0]!) << 16n) | (BigInt(input[len >> 1]!) << 24n) | BigInt(input[len - 1]!) | (BigInt(len) << 8n);
    return xxh64Avalanche(combined ^ (r32(SECRET, 0) ^ r32(SECRET, 4)));
  }
  if (len <= 8) {
    const v = add(r32(input, len - 4), r32(input, 0) << 32n);
    return rrmxmx(v ^ (r64(SECRET, 8) ^ r64(SECRET, 16)), len);
  }
  if (len <= 16) {
    const lo = r64(input, 0) ^ (r64(SECRET, 24) ^ r64(SECRET, 32));
    const hi = r64(input, len - 8) ^ (r64(SECRET, 40) ^ r64(SECRET, 48));
    return avalanche(add(add(add(BigInt(len), swap64(lo)), hi), fold(lo, hi)));
  }
  if (len <= 128) {
    let acc = mul(BigInt(len), P64_1);
    if (len > 32) {
      if (len > 64) {
        if (len > 96) acc = add(add(acc, mix16(input, 48, 96)), mix16(input, len - 64, 112));
        acc = add(add(acc, mix16(input, 32, 64)), mix16(input, len - 48, 80));
      }
      acc = add(add(acc, mix16(input, 16, 32)), mix16(input, len - 32, 48));
    }
    acc = add(add(acc, mix16(input, 0, 0)), mix16(input, len - 16, 16));
    return avalanche(acc);
  }
  if (len <= 240) {
    let acc = mul(BigInt(len), P64_1);
    for (let i = 0; i < 8; i++) acc = add(acc, mix16(input, 16 * i, 16 * i));
    acc = avalanche(acc);
    for (let i = 8; i < Math.floor(len / 16); i++) acc = add(acc, mix16(input, 16 * i, 16 * (i - 8) + 3));
    return avalanche(add(acc, mix16(input, len - 16, 136 - 17)));
  }
  return hashLong(input);
}

function hashLong(input: Buffer): bigint {
  const len = input.length;
  const acc = [P32_3, P64_1, P64_2, P64_3, P64_4, P32_2, P64_5, P32_1];
  const stripesPerBlock = (SECRET.length - 64) / 8;
  const blockLen = 64 * stripesPerBlock;
  const blocks = Math.floor((len - 1) / blockLen);
  const stripe = (at: number, secretAt: number): void => {
    for (let i = 0; i < 8; i++) {
      const data = r64(input, at + 8 * i);
      const key = data ^ r64(SECRET, secretAt + 8 * i);
      acc[i ^ 1] = add(acc[i ^ 1]!, data);
      acc[i] = add(acc[i]!, (key & 0xffffffffn) * (key >> 32n));
    }
  };
  for (let n = 0; n < blocks; n++) {
    for (let s = 0; s < stripesPerBlock; s++) stripe(n * blockLen + s * 64, s * 8);
    for (let i = 0; i < 8; i++) {
      let a = acc[i]!;
      a ^= a >> 47n;
      a ^= r64(SECRET, SECRET.length - 64 + 8 * i);
      acc[i] = mul(a, P32_1);
    }
  }
  const stripes = Math.floor((len - 1 - blockLen * blocks) / 64);
  for (let s = 0; s < stripes; s++) stripe(blocks * blockLen + s * 64, s * 8);
  stripe(len - 64, SECRET.length - 64 - 7);
  let result = mul(BigInt(len), P64_1);
  for (let i = 0; i < 4; i++) result = add(result, fold(acc[2 * i]! ^ r64(SECRET, 11 + 16 * i), acc[2 * i + 1]! ^ r64(SECRET, 11 + 16 * i + 8)));
  return avalanche(result);
}
