/**
 * The orders Kafka's own maps list names in, where a Kafka answer exposes them (ListConfigResources, and the tools
 * that print its list): Java hash order, not sorted.
 */
import { javaStringHashCode } from '../../coordinator/runtime/java-hash.js';

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
