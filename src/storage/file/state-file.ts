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
  /**
   * Replaces what is stored; durable when the promise resolves. `previous` is the value the change was made from:
   * a store several brokers share (cluster mode) writes only what differs between the two, so a change another
   * broker made meanwhile is kept.
   */
  save(value: T, previous?: T): Promise<void>;
  /**
   * Present on a store several brokers share (cluster mode): `listener` hears the whole stored value after every
   * change, made by any broker; after this broker's own save it hears it once that save has resolved (and the owner
   * has taken its new value), so what the owner holds ends as what is stored. A file or memory store has none.
   */
  watch?(listener: (value: T) => void | Promise<void>): void;
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

/**
 * A state value as named entries, each kept on its own by a store several brokers share (cluster mode: one etcd key
 * per entry, so two brokers changing different entries never undo each other). Names are '/'-separated segments of
 * URI-encoded text; values are text (JSON where structured). fromEntries gets the entries in the order they were first
 * stored and throws a one-line Error on one it cannot read.
 */
export interface StateEntries<T> {
  /** What the entries hold, for messages. */
  readonly holds: string;
  toEntries(value: T): Map<string, string>;
  fromEntries(entries: Iterable<readonly [string, string]>): T;
}

/** The object a structured entry's JSON value holds, or a one-line Error naming the entry. */
export function entryObject(holds: string, name: string, value: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new Error(`${holds}: entry ${name} is not valid JSON`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error(`${holds}: entry ${name} must be a JSON object`);
  return parsed as Record<string, unknown>;
}
