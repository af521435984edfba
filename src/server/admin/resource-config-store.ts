/**
 * Where group configs and client metrics subscriptions outlive a restart. Kafka keeps both as ConfigRecords in
 * the KRaft metadata log; gregor keeps them as dynamic-config-store.ts keeps the broker's: one small JSON file in
 * the first log dir (file engine), replaced atomically on every change, or memory only (memory engine), or in etcd
 * one key per resource (cluster mode, RESOURCE_CONFIG_ENTRIES). A file
 * that cannot be read as this format stops start-up with a one-line error rather than being ignored.
 */

import { entryObject, fileStateStore, memoryStateStore, parseStateFile, type StateEntries, type StateStore } from '../../storage/file/state-file.js';

export const RESOURCE_CONFIGS_FILE = 'gregor-resource-configs.json';
const FORMAT_VERSION = 1;

/** Raw text by Kafka name, per resource name; a resource without configs is absent. */
export type ResourceLayer = ReadonlyMap<string, ReadonlyMap<string, string>>;

export interface StoredResourceConfigs {
  /** GROUP resources by group id. */
  readonly groups: ResourceLayer;
  /** CLIENT_METRICS resources by subscription name. */
  readonly clientMetrics: ResourceLayer;
}

export type ResourceConfigStore = StateStore<StoredResourceConfigs>;

function copyLayer(layer: ResourceLayer): Map<string, Map<string, string>> {
  return new Map([...layer].map(([name, configs]) => [name, new Map(configs)]));
}

/** Kept for the life of the process only (gregor.log.engine=memory, tests). */
export function memoryResourceConfigStore(): ResourceConfigStore {
  return memoryStateStore('stored group and client metrics configs', (configs) => ({ groups: copyLayer(configs.groups), clientMetrics: copyLayer(configs.clientMetrics) }));
}

/** The JSON file in `logDir`. */
export function fileResourceConfigStore(logDir: string): ResourceConfigStore {
  return fileStateStore(logDir, RESOURCE_CONFIGS_FILE, formatResourceConfigs, parseResourceConfigs);
}

const byName = <T>(entries: Iterable<[string, T]>) => [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

export function formatResourceConfigs(configs: StoredResourceConfigs): string {
  const layer = (resources: ResourceLayer) =>
    Object.fromEntries(byName(resources).map(([name, values]) => [name, Object.fromEntries(byName(values))]));
  return JSON.stringify({ version: FORMAT_VERSION, groups: layer(configs.groups), clientMetrics: layer(configs.clientMetrics) }, null, 2) + '\n';
}

export function parseResourceConfigs(text: string, path: string): StoredResourceConfigs {
  const { record: parsed, fail } = parseStateFile(text, path, FORMAT_VERSION, 'the group and client metrics configs');
  const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
  const layer = (field: string): Map<string, Map<string, string>> => {
    const value = parsed[field] ?? {};
    if (!isObject(value)) return fail(`"${field}" must be an object of objects of strings`);
    const out = new Map<string, Map<string, string>>();
    for (const [name, configs] of Object.entries(value)) {
      if (!isObject(configs)) return fail(`"${field}"."${name}" must be an object of strings`);
      const values = new Map<string, string>();
      for (const [key, raw] of Object.entries(configs)) {
        if (typeof raw !== 'string') return fail(`"${field}"."${name}"."${key}" must be a string`);
        values.set(key, raw);
      }
      out.set(name, values);
    }
    return out;
  };
  return { groups: layer('groups'), clientMetrics: layer('clientMetrics') };
}

const ENTRY_KINDS = { groups: 'groups', clientMetrics: 'client-metrics' } as const;

/** Cluster mode: one entry per resource, `groups/<group id>` or `client-metrics/<name>`, its configs as a JSON object. */
export const RESOURCE_CONFIG_ENTRIES: StateEntries<StoredResourceConfigs> = {
  holds: 'the group and client metrics configs',
  toEntries: (configs) => new Map((['groups', 'clientMetrics'] as const).flatMap((kind) =>
    [...configs[kind]].map(([name, values]): [string, string] => [`${ENTRY_KINDS[kind]}/${encodeURIComponent(name)}`, JSON.stringify(Object.fromEntries(values))]))),
  fromEntries: (entries) => {
    const layers = { groups: new Map<string, Map<string, string>>(), clientMetrics: new Map<string, Map<string, string>>() };
    for (const [entry, value] of entries) {
      const slash = entry.indexOf('/');
      const kind = slash < 0 ? undefined : (['groups', 'clientMetrics'] as const).find((k) => ENTRY_KINDS[k] === entry.slice(0, slash));
      if (kind === undefined) throw new Error(`the group and client metrics configs: entry ${entry} is not groups/<name> or client-metrics/<name>`);
      const values = new Map<string, string>();
      for (const [key, raw] of Object.entries(entryObject('the group and client metrics configs', entry, value))) {
        if (typeof raw !== 'string') throw new Error(`the group and client metrics configs: entry ${entry} holds a value that is not a string (${key})`);
        values.set(key, raw);
      }
      layers[kind].set(decodeURIComponent(entry.slice(slash + 1)), values);
    }
    return layers;
  },
};
