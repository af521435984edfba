// The broker's own small JSON state files (dynamic configs, finalized features, client quotas, group and client
// metrics configs): a versioned object, read strictly, replaced atomically.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { readTextIfExists, writeFileAtomic } from './atomic-file.js';

/** A reader's one-line failure: names the file, what is wrong, and what the file holds. */
export type StateFileFail = (problem: string) => never;

/**
 * The object in `text` once it is JSON of format `version`, with the fail function for the caller's own checks;
 * anything else throws a one-line Error naming `path` and saying to fix or remove the file (which holds `holds`).
 */
export function parseStateFile(text: string, path: string, version: number, holds: string): { record: Record<string, unknown>; fail: StateFileFail } {
  const fail: StateFileFail = (problem) => {
    throw new Error(`${path}: ${problem}; fix or remove the file (it holds ${holds})`);
  };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return fail('not valid JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return fail('expects a JSON object');
  const record = parsed as Record<string, unknown>;
  if (record['version'] !== version) return fail(`unsupported version ${JSON.stringify(record['version'])} (expects ${version})`);
  return { record, fail };
}

/** Where one piece of the broker's own state outlives a restart (file engine) or the process (memory engine). */
export interface StateStore<T> {
  /** What errors name: the file, or what the memory holds. */
  readonly description: string;
  /** What is stored; undefined when nothing was ever stored. */
  load(): Promise<T | undefined>;
  /** Replaces what is stored; durable when the promise resolves. */
  save(value: T): Promise<void>;
}

/** Kept for the life of the process only (gregor.log.engine=memory, tests); `copy` detaches what was saved. */
export function memoryStateStore<T>(description: string, copy: (value: T) => T): StateStore<T> {
  let stored: T | undefined;
  return {
    description,
    load: () => Promise.resolve(stored),
    save: (value) => {
      stored = copy(value);
      return Promise.resolve();
    },
  };
}

/**
 * The JSON file `name` in `logDir`, replaced atomically on every save (created with the directory on the first).
 * `parse` throws a one-line Error naming the file when its text is not the format.
 */
export function fileStateStore<T>(logDir: string, name: string, format: (value: T) => string, parse: (text: string, path: string) => T): StateStore<T> {
  const path = join(logDir, name);
  return {
    description: path,
    async load() {
      const text = await readTextIfExists(path);
      return text === undefined ? undefined : parse(text, path);
    },
    async save(value) {
      await mkdir(logDir, { recursive: true });
      await writeFileAtomic(path, format(value));
    },
  };
}
