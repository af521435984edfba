/**
 * Where dynamic broker configs outlive a restart. Kafka keeps them as ConfigRecords in the KRaft metadata
 * log; gregor has no metadata log, so the file engine keeps both layers (this node's and the cluster
 * default) in one small JSON file in the first log dir, replaced atomically on every change. The memory
 * engine keeps them in memory only; cluster mode keeps them in etcd, one key per config (dynamicConfigEntries).
 * Logger levels are never stored (Kafka does not persist them either).
 *
 * A file that cannot be read as this format stops start-up with a one-line error rather than being
 * ignored: ignoring it would silently bring back the static values, e.g. a shorter retention that
 * deletes data the operator had chosen to keep.
 */
import { fileStateStore, memoryStateStore, parseStateFile, type StateEntries, type StateStore } from '../../storage/file/state-file.js';

export const DYNAMIC_CONFIGS_FILE = 'gregor-dynamic-configs.json';
const FORMAT_VERSION = 1;

/** Both stored layers, raw text by Kafka name. */
export interface StoredDynamicConfigs {
  readonly perBroker: ReadonlyMap<string, string>;
  readonly clusterDefault: ReadonlyMap<string, string>;
}

export type DynamicConfigStore = StateStore<StoredDynamicConfigs>;

/** Kept for the life of the process only (gregor.log.engine=memory, tests). */
export function memoryDynamicConfigStore(): DynamicConfigStore {
  return memoryStateStore('stored dynamic broker configs', (configs) => ({ perBroker: new Map(configs.perBroker), clusterDefault: new Map(configs.clusterDefault) }));
}

/** The JSON file in `logDir`. */
export function fileDynamicConfigStore(logDir: string): DynamicConfigStore {
  return fileStateStore(logDir, DYNAMIC_CONFIGS_FILE, formatDynamicConfigs, parseDynamicConfigs);
}

export function formatDynamicConfigs(configs: StoredDynamicConfigs): string {
  const sorted = (layer: ReadonlyMap<string, string>) => Object.fromEntries([...layer].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return JSON.stringify({
    version: FORMAT_VERSION,
    perBroker: sorted(configs.perBroker),
    clusterDefault: sorted(configs.clusterDefault),
  }, null, 2) + '\n';
}

/** Reads the file's text; a one-line Error naming the file and what is wrong when it is not this format. */
export function parseDynamicConfigs(text: string, path: string): StoredDynamicConfigs {
  const { record, fail } = parseStateFile(text, path, FORMAT_VERSION, 'the dynamic broker configs');
  const layer = (name: string): Map<string, string> => {
    const value = record[name] ?? {};
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return fail(`"${name}" must be an object of strings`);
    const out = new Map<string, string>();
    for (const [key, raw] of Object.entries(value)) {
      if (typeof raw !== 'string') return fail(`"${name}"."${key}" must be a string`);
      out.set(key, raw);
    }
    return out;
  };
  return { perBroker: layer('perBroker'), clusterDefault: layer('clusterDefault') };
}

const CLUSTER_DEFAULT = 'default';

/**
 * Cluster mode: one entry per config, `default/<key>` for the cluster default (every broker's) and `<node.id>/<key>`
 * for one broker's own; this broker reads the default and its own, and writes only those.
 */
export function dynamicConfigEntries(nodeId: number): StateEntries<StoredDynamicConfigs> {
  const own = String(nodeId);
  return {
    holds: 'the dynamic broker configs',
    toEntries: (configs) => new Map([
      ...[...configs.clusterDefault].map(([key, value]): [string, string] => [`${CLUSTER_DEFAULT}/${encodeURIComponent(key)}`, value]),
      ...[...configs.perBroker].map(([key, value]): [string, string] => [`${own}/${encodeURIComponent(key)}`, value]),
    ]),
    fromEntries: (entries) => {
      const perBroker = new Map<string, string>();
      const clusterDefault = new Map<string, string>();
      for (const [name, value] of entries) {
        const slash = name.indexOf('/');
        const layer = name.slice(0, slash);
        const key = decodeURIComponent(name.slice(slash + 1));
        if (layer === CLUSTER_DEFAULT) clusterDefault.set(key, value);
        else if (layer === own) perBroker.set(key, value);
      }
      return { perBroker, clusterDefault };
    },
  };
}
