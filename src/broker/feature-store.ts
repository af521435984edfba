/**
 * Where finalized feature levels outlive a restart. Kafka keeps them as FeatureLevelRecords in the KRaft
 * metadata log; gregor has no metadata log, so the file engine keeps them, with their epoch, in one small JSON
 * file in the first log dir, replaced atomically on every change (nothing is written until the first change: a
 * log dir without the file is at this broker's defaults). The memory engine keeps them in memory only.
 *
 * A file that cannot be read as this format stops start-up with a one-line error rather than being ignored:
 * ignoring it would silently bring back the defaults, e.g. transaction.version 2 after an operator chose 0.
 */
import { fileStateStore, memoryStateStore, parseStateFile, type StateStore } from '../storage/file/state-file.js';

export const FEATURES_FILE = 'gregor-features.json';
const FORMAT_VERSION = 1;

export interface StoredFeatures {
  readonly epoch: bigint;
  /** Every supported feature's finalized level, 0 included. */
  readonly levels: ReadonlyMap<string, number>;
}

export type FeatureStore = StateStore<StoredFeatures>;

/** Kept for the life of the process only (gregor.log.engine=memory, tests). */
export function memoryFeatureStore(): FeatureStore {
  return memoryStateStore('stored feature levels', (features) => ({ epoch: features.epoch, levels: new Map(features.levels) }));
}

/** The JSON file in `logDir`. */
export function fileFeatureStore(logDir: string): FeatureStore {
  return fileStateStore(logDir, FEATURES_FILE, formatStoredFeatures, parseStoredFeatures);
}

export function formatStoredFeatures(features: StoredFeatures): string {
  const levels = Object.fromEntries([...features.levels].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return JSON.stringify({ version: FORMAT_VERSION, epoch: features.epoch.toString(), levels }, null, 2) + '\n';
}

/** Reads the file's text; a one-line Error naming the file and what is wrong when it is not this format. */
export function parseStoredFeatures(text: string, path: string): StoredFeatures {
  const { record, fail } = parseStateFile(text, path, FORMAT_VERSION, 'the finalized feature levels');
  const epoch = record['epoch'];
  if (typeof epoch !== 'string' || !/^\d{1,19}$/.test(epoch)) return fail('"epoch" must be a decimal string');
  const rawLevels = record['levels'];
  if (typeof rawLevels !== 'object' || rawLevels === null || Array.isArray(rawLevels)) return fail('"levels" must be an object of numbers');
  const levels = new Map<string, number>();
  for (const [name, level] of Object.entries(rawLevels)) {
    if (typeof level !== 'number' || !Number.isInteger(level) || level < 0 || level > 0x7fff) {
      return fail(`"levels"."${name}" must be a level from 0 to 32767`);
    }
    levels.set(name, level);
  }
  return { epoch: BigInt(epoch), levels };
}
