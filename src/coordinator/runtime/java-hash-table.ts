/**
 * The iteration order of java.util.HashMap / HashSet, which Kafka's assignors depend on: which topic's partitions are
 * handed out first, which partitions a member keeps when it is over its quota, which member comes first. A Java hash
 * table iterates its buckets in index order (index = spread hash & (capacity - 1)); its capacity is a power of two that
 * depends on how the table was created and on the calls made since, and a bucket's order on whether keys were put
 * (appended) or computed-if-absent (prepended). `JavaHashTable` models both as Java 17 (the JVM of the reference
 * broker here) does; the order inside buckets Java has turned into trees (8 keys or more, in tables of 64 buckets or
 * more) is not modelled.
 */
import { javaStringHashCode } from './java-hash.js';

const MAX_CAPACITY = 1 << 30;

/** HashMap.tableSizeFor: the power of two at or above the requested capacity (at least 1). */
export function tableSizeFor(requested: number): number {
  let capacity = 1;
  while (capacity < requested && capacity < MAX_CAPACITY) capacity *= 2;
  return capacity;
}

/** The capacity `new HashSet<>(collection)` starts with for `size` keys (Java 17; Java 19 and later size it slightly differently). */
export function copyCapacity(size: number): number {
  return tableSizeFor(Math.max(Math.floor(Math.fround(size / Math.fround(0.75))) + 1, 16));
}

/** The capacity request `(int) (n / 0.75f) + 1` that Kafka passes to size a table for n keys. */
export function presizedRequest(size: number): number {
  return Math.floor(Math.fround(size / Math.fround(0.75))) + 1;
}

const TREEIFY_THRESHOLD = 8;
const MIN_TREEIFY_CAPACITY = 64;

function bucketOf(hash: number, capacity: number): number {
  return (hash ^ (hash >>> 16)) & (capacity - 1);
}

/**
 * A hash table's keys (and values) with the layout Java's table would have after the same calls: its capacity
 * (allocated on first use, doubled past 3/4 full, or when a bucket of a table under 64 reaches Java's tree threshold)
 * and each bucket's order (`set` is put/add: appends to its bucket; `computeIfAbsent` prepends).
 */
export class JavaHashTable<K, V> {
  private readonly entries = new Map<K, { value: V; hash: number; rank: number }>();
  private capacity = 0;
  /** Java's `threshold`: before allocation, the capacity to allocate (0: the default 16). */
  private threshold: number;
  private clock = 0;
  /** Keys per bucket at the current capacity. */
  private bucketSizes = new Map<number, number>();

  /** `requestedCapacity` as passed to Java's constructor (`new HashMap<>(n)`); none for the no-argument one. */
  constructor(
    private readonly hash: (key: K) => number,
    requestedCapacity?: number,
  ) {
    this.threshold = requestedCapacity === undefined ? 0 : tableSizeFor(requestedCapacity);
  }

  get size(): number {
    return this.entries.size;
  }

  has(key: K): boolean {
    return this.entries.has(key);
  }

  get(key: K): V | undefined {
    return this.entries.get(key)?.value;
  }

  /** HashMap.put / HashSet.add. */
  set(key: K, value: V): void {
    if (this.capacity === 0) this.resize();
    const entry = this.entries.get(key);
    if (entry !== undefined) {
      entry.value = value;
      return;
    }
    const hash = this.hash(key);
    if (this.insert(key, value, hash, ++this.clock) > TREEIFY_THRESHOLD) this.treeifyBin();
    if (this.entries.size > this.threshold) this.resize();
  }

  /** HashMap.computeIfAbsent. */
  computeIfAbsent(key: K, create: () => V): V {
    if (this.entries.size > this.threshold || this.capacity === 0) this.resize();
    const entry = this.entries.get(key);
    if (entry !== undefined) return entry.value;
    const value = create();
    if (this.insert(key, value, this.hash(key), -++this.clock) >= TREEIFY_THRESHOLD) this.treeifyBin();
    return value;
  }

  delete(key: K): void {
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    this.entries.delete(key);
    const bucket = bucketOf(entry.hash, this.capacity);
    this.bucketSizes.set(bucket, this.bucketSizes.get(bucket)! - 1);
  }

  /** The keys in Java's iteration order. */
  keys(): K[] {
    const mask = this.capacity - 1;
    const listed = [...this.entries].map(([key, { hash, rank }]) => ({ key, bucket: (hash ^ (hash >>> 16)) & mask, rank }));
    listed.sort((a, b) => a.bucket - b.bucket || a.rank - b.rank);
    return listed.map((entry) => entry.key);
  }

  /** The entries in Java's iteration order. */
  entriesInOrder(): [K, V][] {
    return this.keys().map((key) => [key, this.entries.get(key)!.value]);
  }

  /**
   * Adds a key; returns its bucket's size. Within a bucket, keys appended come after those already there and keys
   * prepended before them, and a resize keeps that order: ordering by rank (prepends ranked -time, appends +time)
   * gives the bucket's order.
   */
  private insert(key: K, value: V, hash: number, rank: number): number {
    this.entries.set(key, { value, hash, rank });
    const bucket = bucketOf(hash, this.capacity);
    const size = (this.bucketSizes.get(bucket) ?? 0) + 1;
    this.bucketSizes.set(bucket, size);
    return size;
  }

  /** Java turns a long bucket into a tree, but grows a small table instead (trees themselves are not modelled). */
  private treeifyBin(): void {
    if (this.capacity < MIN_TREEIFY_CAPACITY) this.resize();
  }

  private resize(): void {
    if (this.capacity > 0) {
      if (this.capacity >= MAX_CAPACITY) return;
      const grown = this.capacity * 2;
      this.threshold = this.capacity >= 16 ? this.threshold * 2 : Math.floor(grown * 0.75);
      this.capacity = grown;
    } else {
      this.capacity = this.threshold > 0 ? this.threshold : 16;
      this.threshold = Math.floor(this.capacity * 0.75);
    }
    this.bucketSizes = new Map();
    for (const { hash } of this.entries.values()) {
      const bucket = bucketOf(hash, this.capacity);
      this.bucketSizes.set(bucket, (this.bucketSizes.get(bucket) ?? 0) + 1);
    }
  }
}

/**
 * Member ids in the order Kafka's TargetAssignmentBuilder hands them to an assignor: a `new HashMap<String, ...>()`
 * filled in the given order (the group's members, then the members being added or updated). GroupSpec.memberIds takes
 * this order; ids that share a bucket keep the given order.
 */
export function kafkaMemberOrder(memberIds: Iterable<string>): string[] {
  const table = new JavaHashTable<string, true>(javaStringHashCode);
  for (const memberId of memberIds) table.set(memberId, true);
  return table.keys();
}
