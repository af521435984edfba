// The order Java's HashMap and HashSet iterate string (and Integer) keys in. Confluent's JsonSchemaDiff and
// ProtobufDiff walk property names, message names and enum tags through such sets, so the order of their
// differences (and of the messages in a 409) follows it: buckets by the spread hashCode() under the table's final
// capacity, and insertion order within a bucket.

function stringHash(text: string): number {
  let hash = 0;
  for (let i = 0; i < text.length; i++) hash = (Math.imul(hash, 31) + text.charCodeAt(i)) | 0;
  return hash;
}

function tableSizeFor(capacity: number): number {
  let size = 1;
  while (size < capacity) size *= 2;
  return size;
}

function ordered<K extends string | number>(keys: readonly K[], initialCapacity: number): K[] {
  const unique = [...new Set(keys)];
  let capacity = tableSizeFor(initialCapacity);
  while (unique.length > capacity * 0.75) capacity *= 2;
  const bucket = (key: K) => {
    // Integer.hashCode() is the value itself.
    const h = typeof key === 'number' ? key | 0 : stringHash(key);
    return (h ^ (h >>> 16)) & (capacity - 1);
  };
  return unique.map((key, i) => ({ key, i, b: bucket(key) })).sort((x, y) => x.b - y.b || x.i - y.i).map((e) => e.key);
}

/** `new HashMap<>()` filled with `keys` in order: its keySet() order. */
export function hashMapOrder<K extends string | number>(keys: readonly K[]): K[] {
  return ordered(keys, 16);
}

/** `new HashSet<>(first)` then `addAll(second)`: its iteration order. */
export function hashSetOrder<K extends string | number>(first: readonly K[], second: readonly K[] = []): K[] {
  const initial = Math.max(Math.trunc(new Set(first).size / 0.75) + 1, 16);
  return ordered([...first, ...second], initial);
}
