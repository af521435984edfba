// SCRAM credentials per user and mechanism, as Kafka's ScramControlManager validates and keeps them (Kafka: records in
// the metadata log; gregor: <log.dir>/gregor-scram-credentials.json through a StateStore, the memory engine in memory,
// cluster mode one etcd key per user and mechanism (SCRAM_ENTRIES), each broker following every change).
// Stored: salt, StoredKey, ServerKey, iterations, never a password. Results come in the order the caller gives;
// the handlers order them as Kafka's HashMaps do.
import { entryObject, fileStateStore, memoryStateStore, parseStateFile, type StateEntries, type StateStore } from '../../storage/file/state-file.js';
import {
  credentialFromSaltedPassword,
  SCRAM_MAX_ITERATIONS,
  scramMechanismByType,
  SCRAM_MECHANISMS,
  type ScramCredential,
  type ScramMechanism,
} from './scram-formatter.js';

export const SCRAM_CREDENTIALS_FILE = 'gregor-scram-credentials.json';
const FORMAT_VERSION = 1;

/** user → mechanism name → credential. */
export type StoredScramCredentials = ReadonlyMap<string, ReadonlyMap<string, ScramCredential>>;
export type ScramCredentialStore = StateStore<StoredScramCredentials>;

export function memoryScramCredentialStore(): ScramCredentialStore {
  return memoryStateStore('stored SCRAM credentials', (value) => new Map([...value].map(([u, m]) => [u, new Map(m)])));
}

export function fileScramCredentialStore(logDir: string): ScramCredentialStore {
  return fileStateStore(logDir, SCRAM_CREDENTIALS_FILE, formatScramCredentials, parseScramCredentials);
}

const storedCredential = (c: ScramCredential) =>
  ({ salt: c.salt.toString('base64'), storedKey: c.storedKey.toString('base64'), serverKey: c.serverKey.toString('base64'), iterations: c.iterations });

export function formatScramCredentials(value: StoredScramCredentials): string {
  const users: Record<string, Record<string, unknown>> = {};
  for (const [user, byMechanism] of value) {
    users[user] = Object.fromEntries([...byMechanism].map(([name, c]) => [name, storedCredential(c)]));
  }
  return JSON.stringify({ version: FORMAT_VERSION, users }, null, 2) + '\n';
}

export function parseScramCredentials(text: string, path: string): StoredScramCredentials {
  const { record, fail } = parseStateFile(text, path, FORMAT_VERSION, 'the SCRAM credentials');
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  const users = record['users'];
  if (!isObject(users)) return fail('"users" must be an object');
  const result = new Map<string, Map<string, ScramCredential>>();
  for (const [user, byMechanism] of Object.entries(users)) {
    if (!isObject(byMechanism)) return fail(`users."${user}" must be an object`);
    const credentials = new Map<string, ScramCredential>();
    for (const [name, c] of Object.entries(byMechanism)) credentials.set(name, credentialOf(name, c, (problem) => fail(`users."${user}"."${name}" ${problem}`)));
    result.set(user, credentials);
  }
  return result;
}

function credentialOf(mechanism: string, c: unknown, fail: (problem: string) => never): ScramCredential {
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  const base64 = (v: unknown) => (typeof v === 'string' ? Buffer.from(v, 'base64') : fail('needs base64 salt, storedKey and serverKey'));
  if (!SCRAM_MECHANISMS.some((m) => m.name === mechanism) || !isObject(c) || !Number.isInteger(c['iterations'])) {
    return fail('must be a SCRAM mechanism holding salt, storedKey, serverKey and iterations');
  }
  return { salt: base64(c['salt']), storedKey: base64(c['storedKey']), serverKey: base64(c['serverKey']), iterations: c['iterations'] as number };
}

/** Cluster mode: one entry per user and mechanism, `<user>/<mechanism>` (salt, StoredKey, ServerKey, iterations). */
export const SCRAM_ENTRIES: StateEntries<StoredScramCredentials> = {
  holds: 'the SCRAM credentials',
  toEntries: (value) => new Map([...value].flatMap(([user, byMechanism]) =>
    [...byMechanism].map(([mechanism, c]): [string, string] => [`${encodeURIComponent(user)}/${mechanism}`, JSON.stringify(storedCredential(c))]))),
  fromEntries: (entries) => {
    const result = new Map<string, Map<string, ScramCredential>>();
    for (const [name, value] of entries) {
      const [user, mechanism, extra] = name.split('/');
      const fail = (problem: string): never => { throw new Error(`the SCRAM credentials: entry ${name} ${problem}`); };
      if (user === undefined || mechanism === undefined || extra !== undefined) fail('is not named <user>/<mechanism>');
      const userName = decodeURIComponent(user!);
      const byMechanism = result.get(userName) ?? new Map<string, ScramCredential>();
      byMechanism.set(mechanism!, credentialOf(mechanism!, entryObject('the SCRAM credentials', name, value), fail));
      result.set(userName, byMechanism);
    }
    return result;
  },
};

export interface ScramResult {
  readonly user: string;
  readonly errorCode: 'NONE' | 'DUPLICATE_RESOURCE' | 'RESOURCE_NOT_FOUND' | 'UNACCEPTABLE_CREDENTIAL' | 'UNSUPPORTED_SASL_MECHANISM';
  readonly errorMessage: string | null;
}

export interface DescribeResult extends ScramResult {
  readonly credentials: readonly { readonly mechanism: number; readonly iterations: number }[];
}

export interface Deletion { readonly name: string; readonly mechanism: number }
export interface Upsertion extends Deletion { readonly iterations: number; readonly salt: Buffer; readonly saltedPassword: Buffer }

export class ScramCredentials {
  private constructor(private readonly store: ScramCredentialStore, private users: Map<string, Map<string, ScramCredential>>) {}

  static async open(store: ScramCredentialStore): Promise<ScramCredentials> {
    const copy = (stored: StoredScramCredentials) => new Map([...stored].map(([u, m]) => [u, new Map(m)]));
    const credentials = new ScramCredentials(store, copy((await store.load()) ?? new Map()));
    // Cluster mode: a user added or removed through another broker logs in, or no longer does, here too.
    store.watch?.((stored) => { credentials.users = copy(stored); });
    return credentials;
  }

  /** The credential SCRAM authentication checks against. */
  get(user: string, mechanism: ScramMechanism): ScramCredential | undefined {
    return this.users.get(user)?.get(mechanism.name);
  }

  /** Every user holding a credential, for a describe of all. */
  userNames(): string[] {
    return [...this.users.keys()];
  }

  /** Kafka's ScramImage.describe for the given unique names; `duplicated` are named twice in the request. */
  describe(user: string, duplicated: boolean): DescribeResult {
    if (duplicated) {
      return { user, errorCode: 'DUPLICATE_RESOURCE', errorMessage: `Cannot describe SCRAM credentials for the same user twice in a single request: ${user}`, credentials: [] };
    }
    const byMechanism = this.users.get(user);
    if (byMechanism === undefined || byMechanism.size === 0) {
      return { user, errorCode: 'RESOURCE_NOT_FOUND', errorMessage: `Attempt to describe a user credential that does not exist: ${user}`, credentials: [] };
    }
    const credentials = SCRAM_MECHANISMS.flatMap((m) => {
      const c = byMechanism.get(m.name);
      return c === undefined ? [] : [{ mechanism: m.type, iterations: c.iterations }];
    });
    return { user, errorCode: 'NONE', errorMessage: null, credentials };
  }

  /**
   * Kafka's ScramControlManager.alterCredentials: each user altered at most once per request, deletions of existing
   * credentials, upsertions within the mechanism's iteration bounds. Valid changes are applied and persisted together.
   * Returns the successes (deletions, then upsertions) and the failures, each keyed by user.
   */
  async alter(deletions: readonly Deletion[], upsertions: readonly Upsertion[]): Promise<{ deleted: string[]; upserted: string[]; failed: Map<string, ScramResult> }> {
    const failed = new Map<string, ScramResult>();
    const fail = (user: string, errorCode: ScramResult['errorCode'], errorMessage: string) => failed.set(user, { user, errorCode, errorMessage });
    const toDelete = new Map<string, Deletion>();
    const toUpsert = new Map<string, Upsertion>();
    const twice = 'A user credential cannot be altered twice in the same request';
    for (const d of deletions) {
      if (failed.has(d.name)) continue;
      if (toDelete.delete(d.name)) fail(d.name, 'DUPLICATE_RESOURCE', twice);
      else {
        const error = validateNameAndMechanism(d.name, d.mechanism) ??
          (this.users.get(d.name)?.has(scramMechanismByType(d.mechanism)!.name) === true ? undefined
            : ['RESOURCE_NOT_FOUND', 'Attempt to delete a user credential that does not exist'] as const);
        if (error !== undefined) fail(d.name, ...error);
        else toDelete.set(d.name, d);
      }
    }
    for (const u of upsertions) {
      if (failed.has(u.name)) continue;
      if (toDelete.delete(u.name) || toUpsert.delete(u.name)) fail(u.name, 'DUPLICATE_RESOURCE', twice);
      else {
        const error = validateUpsertion(u);
        if (error !== undefined) fail(u.name, ...error);
        else toUpsert.set(u.name, u);
      }
    }
    if (toDelete.size > 0 || toUpsert.size > 0) {
      const next = new Map([...this.users].map(([user, m]) => [user, new Map(m)]));
      for (const d of toDelete.values()) {
        const byMechanism = next.get(d.name)!;
        byMechanism.delete(scramMechanismByType(d.mechanism)!.name);
        if (byMechanism.size === 0) next.delete(d.name);
      }
      for (const u of toUpsert.values()) {
        const mechanism = scramMechanismByType(u.mechanism)!;
        const byMechanism = next.get(u.name) ?? new Map<string, ScramCredential>();
        byMechanism.set(mechanism.name, credentialFromSaltedPassword(mechanism, u.salt, u.saltedPassword, u.iterations));
        next.set(u.name, byMechanism);
      }
      await this.store.save(next, this.users);
      this.users = next;
    }
    return { deleted: [...toDelete.keys()], upserted: [...toUpsert.keys()], failed };
  }
}

type Refusal = readonly [ScramResult['errorCode'], string];

function validateNameAndMechanism(name: string, mechanism: number): Refusal | undefined {
  if (name === '') return ['UNACCEPTABLE_CREDENTIAL', 'Username must not be empty'];
  if (scramMechanismByType(mechanism) === undefined) return ['UNSUPPORTED_SASL_MECHANISM', 'Unknown SCRAM mechanism'];
  return undefined;
}

function validateUpsertion(u: Upsertion): Refusal | undefined {
  const error = validateNameAndMechanism(u.name, u.mechanism);
  if (error !== undefined) return error;
  if (u.iterations < scramMechanismByType(u.mechanism)!.minIterations) return ['UNACCEPTABLE_CREDENTIAL', 'Too few iterations'];
  if (u.iterations > SCRAM_MAX_ITERATIONS) return ['UNACCEPTABLE_CREDENTIAL', 'Too many iterations'];
  return undefined;
}
