/**
 * Where client quotas outlive a restart. Kafka keeps them as ClientQuotaRecords in the KRaft metadata log;
 * gregor has no metadata log, so the file engine keeps them in one small JSON file in the first log dir,
 * replaced atomically on every change (as dynamic-config-store.ts keeps the dynamic broker configs). The
 * memory engine keeps them in memory only.
 *
 * A file that cannot be read as this format stops start-up with a one-line error rather than being ignored:
 * ignoring it would silently drop every quota the operator had set.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { readTextIfExists, writeFileAtomic } from '../../storage/file/atomic-file.js';

export const CLIENT_QUOTAS_FILE = 'gregor-client-quotas.json';
const FORMAT_VERSION = 1;

/** One entity (entity type → name, null for the default) and its quotas, each in the order served. */
export interface StoredQuotaEntity {
  readonly entity: readonly (readonly [string, string | null])[];
  readonly quotas: readonly (readonly [string, number])[];
}

export interface ClientQuotaStore {
  /** The stored entities; undefined when nothing was ever stored. */
  load(): Promise<readonly StoredQuotaEntity[] | undefined>;
  /** Replaces what is stored; durable when the promise resolves. */
  save(entities: readonly StoredQuotaEntity[]): Promise<void>;
}

/** Kept for the life of the process only (gregor.log.engine=memory, tests). */
export function memoryClientQuotaStore(): ClientQuotaStore {
  let stored: readonly StoredQuotaEntity[] | undefined;
  return {
    load: () => Promise.resolve(stored),
    save: (entities) => {
      stored = entities;
      return Promise.resolve();
    },
  };
}

/** The JSON file in `logDir` (created with the directory on the first save). */
export function fileClientQuotaStore(logDir: string): ClientQuotaStore {
  const path = join(logDir, CLIENT_QUOTAS_FILE);
  return {
    async load() {
      const text = await readTextIfExists(path);
      return text === undefined ? undefined : parseClientQuotas(text, path);
    },
    async save(entities) {
      await mkdir(logDir, { recursive: true });
      await writeFileAtomic(path, formatClientQuotas(entities));
    },
  };
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
  const fail = (problem: string): never => {
    throw new Error(`${path}: ${problem}; fix or remove the file (it holds the client quotas)`);
  };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return fail('not valid JSON');
  }
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (!isObject(parsed)) return fail('expects a JSON object');
  if (parsed['version'] !== FORMAT_VERSION) return fail(`unsupported version ${JSON.stringify(parsed['version'])} (expects ${FORMAT_VERSION})`);
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
