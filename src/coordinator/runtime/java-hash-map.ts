/**
 * The iteration orders of Java's maps, where a Kafka answer or record takes its order from one: java.util.HashMap
 * (client quota entities, their names and their values; the topics and partitions of a consumer group's assignment
 * records), ConcurrentHashMap and pcollections' HashTreePMap (ListConfigResources' names). Kafka's admin client reads those answers back into HashMaps
 * whose small tables keep the broker's order among keys sharing a bucket, so the order shows in what
 * `kafka-configs --describe` prints.
 *
 * A HashMap iterates bucket by bucket (the spread hash masked by the table size), each bucket in insertion
 * order (a resize splits a bucket keeping that order); the table starts at the capacity asked for (16 by
 * default), rounded up to a power of two, and doubles when the size passes three quarters of it. Bins turned
 * into trees (8 keys in one bucket of a 64+ table) are not modelled: their order does not arise here.
 */
import { javaStringHashCode } from './java-hash.js';

/** Objects.hashCode of a string: String.hashCode, 0 for null. */
export function javaStringHash(s: string | null): number {
  return s === null ? 0 : javaStringHashCode(s);
}

/** java.util.AbstractMap.hashCode of a map of strings: the sum of key hash ^ value hash. */
export function javaStringMapHash(entries: Iterable<readonly [string, string | null]>): number {
  let sum = 0;
  for (const [key, value] of entries) sum = (sum + (javaStringHash(key) ^ javaStringHash(value))) | 0;
  return sum;
}

/** HashMap.tableSizeFor: the smallest power of two at least `capacity` (1 for 0). */
function tableSizeFor(capacity: number): number {
  let size = 1;
  while (size < capacity) size *= 2;
  return size;
}

interface Slot<K, V> {
  readonly key: K;
  readonly hash: number;
  value: V;
  readonly seq: number;
}

/** Keys are told apart by `id` (Java's equals) and placed by `hash` (Java's hashCode). */
export class JavaHashMap<K, V> {
  private readonly slots = new Map<string, Slot<K, V>>();
  private capacity = 0;
  private threshold: number;
  private nextSeq = 0;

  /** `initialCapacity` as given to `new HashMap<>(n)`; undefined: `new HashMap<>()`. */
  constructor(private readonly id: (key: K) => string, private readonly hashOf: (key: K) => number, initialCapacity?: number) {
    this.threshold = initialCapacity === undefined ? 0 : tableSizeFor(initialCapacity);
  }

  get size(): number {
    return this.slots.size;
  }

  has(key: K): boolean {
    return this.slots.has(this.id(key));
  }

  get(key: K): V | undefined {
    return this.slots.get(this.id(key))?.value;
  }

  /** A new key goes last in its bucket; an existing one keeps its place (and its first key object). */
  set(key: K, value: V): this {
    const id = this.id(key);
    const slot = this.slots.get(id);
    if (slot !== undefined) {
      slot.value = value;
      return this;
    }
    if (this.capacity === 0) this.resize();
    this.slots.set(id, { key, hash: this.hashOf(key), value, seq: this.nextSeq++ });
    if (this.slots.size > this.threshold) this.resize();
    return this;
  }

  delete(key: K): boolean {
    return this.slots.delete(this.id(key));
  }

  /** Entries in the order the Java map iterates them. */
  entries(): [K, V][] {
    const mask = this.capacity - 1;
    const bucket = (h: number) => (h ^ (h >>> 16)) & mask;
    return [...this.slots.values()]
      .sort((a, b) => bucket(a.hash) - bucket(b.hash) || a.seq - b.seq)
      .map((slot) => [slot.key, slot.value]);
  }

  keys(): K[] {
    return this.entries().map(([key]) => key);
  }

  /** HashMap.resize: the first table takes the initial capacity (16 by default), later ones double. */
  private resize(): void {
    const oldCapacity = this.capacity;
    const oldThreshold = this.threshold;
    let newThreshold = 0;
    if (oldCapacity > 0) {
      this.capacity = oldCapacity * 2;
      if (oldCapacity >= 16) newThreshold = oldThreshold * 2;
    } else {
      this.capacity = oldThreshold > 0 ? oldThreshold : 16;
    }
    this.threshold = newThreshold !== 0 ? newThreshold : Math.trunc(this.capacity * 0.75);
  }
}

/**
 * A java.util.concurrent.ConcurrentHashMap<String, ?> holding `names` (Kafka's GroupConfigManager and
 * ClientMetricsManager): bins in index order, the table grown from 16 as that many insertions grow it; names in one
 * bin keep the given order (Kafka's depends on its history, which gregor does not keep).
 */
export function concurrentHashMapOrder(names: readonly string[]): string[] {
  let table = 16;
  while (names.length >= table - (table >>> 2)) table *= 2;
  const bin = (name: string): number => {
    const hash = javaStringHashCode(name);
    return ((hash ^ (hash >>> 16)) & 0x7fffffff) & (table - 1);
  };
  return names.map((name, at) => ({ name, at, bin: bin(name) })).sort((a, b) => a.bin - b.bin || a.at - b.at).map((entry) => entry.name);
}

/** Kafka's metadata image's topic map (a pcollections HashTreePMap): by String.hashCode, lowest first. */
export function hashTreeMapOrder(names: readonly string[]): string[] {
  return names.map((name) => ({ name, hash: javaStringHashCode(name) }))
    .sort((a, b) => a.hash - b.hash || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)).map((entry) => entry.name);
}

/**
 * The order of a HashMap/HashSet filled by puts of `keys` in this order, never removed from: bucket by bucket at the
 * final table size (16, doubled while the size passes three quarters of it), each bucket in insertion order.
 */
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
