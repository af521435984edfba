/**
 * Where client quotas outlive a restart. Kafka keeps them as ClientQuotaRecords in the KRaft metadata log;
 * gregor has no metadata log, so the file engine keeps them in one small JSON file in the first log dir,
 * replaced atomically on every change (as dynamic-config-store.ts keeps the dynamic broker configs). The
 * memory engine keeps them in memory only; cluster mode keeps them in etcd, one key per entity (CLIENT_QUOTA_ENTRIES).
 *
 * A file that cannot be read as this format stops start-up with a one-line error rather than being ignored:
 * ignoring it would silently drop every quota the operator had set.
 */

import { entryObject, fileStateStore, memoryStateStore, parseStateFile, type StateEntries, type StateStore } from '../../storage/file/state-file.js';

export const CLIENT_QUOTAS_FILE = 'gregor-client-quotas.json';
const FORMAT_VERSION = 1;

/** One entity (entity type → name, null for the default) and its quotas, each in the order served. */
export interface StoredQuotaEntity {
  readonly entity: readonly (readonly [string, string | null])[];
  readonly quotas: readonly (readonly [string, number])[];
}

export type ClientQuotaStore = StateStore<readonly StoredQuotaEntity[]>;

/** Kept for the life of the process only (gregor.log.engine=memory, tests). */
export function memoryClientQuotaStore(): ClientQuotaStore {
  return memoryStateStore('stored client quotas', (entities) => entities);
}

/** The JSON file in `logDir`. */
export function fileClientQuotaStore(logDir: string): ClientQuotaStore {
  return fileStateStore(logDir, CLIENT_QUOTAS_FILE, formatClientQuotas, parseClientQuotas);
}

/** Values are written as text: a quota may be Infinity or NaN (Kafka accepts them for the DOUBLE keys), which JSON has no number for. */
export function formatClientQuotas(entities: readonly StoredQuotaEntity[]): string {
  return JSON.stringify({
    version: FORMAT_VERSION,
    entities: entities.map((e) => ({
      entity: Object.fromEntries(e.entity),
      quotas: Object.fromEntries(e.quotas.map(([key, value]) => [key, String(value)])),
    })),
  }, null, 2) + '\n';
}

/** Reads the file's text; a one-line Error naming the file and what is wrong when it is not this format. */
export function parseClientQuotas(text: string, path: string): StoredQuotaEntity[] {
  const { record: parsed, fail } = parseStateFile(text, path, FORMAT_VERSION, 'the client quotas');
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  const entities = parsed['entities'];
  if (!Array.isArray(entities)) return fail('"entities" must be an array');
  return entities.map((item: unknown, i): StoredQuotaEntity => {
    if (!isObject(item) || !isObject(item['entity']) || !isObject(item['quotas'])) return fail(`entities[${i}] must hold "entity" and "quotas" objects`);
    const entity = Object.entries(item['entity']).map(([type, name]): [string, string | null] =>
      typeof name === 'string' || name === null ? [type, name] : fail(`entities[${i}].entity."${type}" must be a string or null`));
    const quotas = Object.entries(item['quotas']).map(([key, value]): [string, number] =>
      typeof value === 'string' && (value === 'NaN' || !Number.isNaN(Number(value))) && value.trim() !== '' ? [key, Number(value)] : fail(`entities[${i}].quotas."${key}" must be a number as text`));
    return { entity, quotas };
  });
}

/**
 * Cluster mode: one entry per entity, named by its (type, name) pairs in type order, holding them and its quotas
 * (values as text, as in the file: Infinity and NaN have no JSON number).
 */
export const CLIENT_QUOTA_ENTRIES: StateEntries<readonly StoredQuotaEntity[]> = {
  holds: 'the client quotas',
  toEntries: (entities) => new Map(entities.map((e): [string, string] => [
    encodeURIComponent(JSON.stringify([...e.entity].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))),
    JSON.stringify({ entity: e.entity, quotas: e.quotas.map(([key, value]) => [key, String(value)]) }),
  ])),
  fromEntries: (entries) => [...entries].map(([name, value]): StoredQuotaEntity => {
    const record = entryObject('the client quotas', name, value);
    const fail = (): never => { throw new Error(`the client quotas: entry ${name} must hold "entity" pairs and "quotas" pairs of a key and a number as text`); };
    const pairs = (field: string): unknown[][] => {
      const list = record[field];
      return Array.isArray(list) && list.every((p) => Array.isArray(p) && p.length === 2 && typeof p[0] === 'string') ? list as unknown[][] : fail();
    };
    const entity = pairs('entity').map(([type, entityName]): [string, string | null] =>
      typeof entityName === 'string' || entityName === null ? [type as string, entityName] : fail());
    const quotas = pairs('quotas').map(([key, text]): [string, number] =>
      typeof text === 'string' && text.trim() !== '' && (text === 'NaN' || !Number.isNaN(Number(text))) ? [key as string, Number(text)] : fail());
    return { entity, quotas };
  }),
};
