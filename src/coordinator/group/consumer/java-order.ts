/**
 * The iteration order of a java.util.HashMap/HashSet filled by puts, which is the order Kafka writes the topics and
 * partitions of an assignment in: bucket by bucket ((h ^ h >>> 16) masked by the table size: 16, doubled while the
 * size passes three quarters of it), each bucket in insertion order. Tree bins (8+ keys in one bucket) are not
 * modelled: assignments do not produce them.
 */

/** Integer.hashCode. */
export function javaIntegerHash(value: number): number {
  return value | 0;
}

/** Kafka's Uuid.hashCode over its text form: the xor of the four big-endian int32 words of its 16 bytes. */
export function javaUuidHash(uuid: string): number {
  const b = Buffer.from(uuid, 'base64url');
  return b.readInt32BE(0) ^ b.readInt32BE(4) ^ b.readInt32BE(8) ^ b.readInt32BE(12);
}

export function javaHashOrder<K>(keys: readonly K[], hash: (key: K) => number): K[] {
  let capacity = 16;
  while (keys.length > capacity * 0.75) capacity *= 2;
  const mask = capacity - 1;
  const bucket = (key: K): number => {
    const h = hash(key);
    return (h ^ (h >>> 16)) & mask;
  };
  return keys
    .map((key, i) => ({ key, i, b: bucket(key) }))
    .sort((x, y) => x.b - y.b || x.i - y.i)
    .map((e) => e.key);
}
