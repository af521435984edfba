/**
 * Client quotas (AlterClientQuotas, DescribeClientQuotas): quota values per entity, an entity being a user,
 * a client id, both, or an ip, each named or the default (a null name). Validation, messages and answers are
 * Kafka 4.3.1's (ClientQuotaControlManager for alterations, ClientQuotasImage for descriptions); entities,
 * their names and their values come in the order Kafka's HashMaps give them (java-hash-map.ts), the image
 * being rebuilt after each alteration as Kafka's ClientQuotasDelta does.
 *
 * Enforced by the broker's quota managers (broker/quota/), which hear of the image at start-up and after every
 * alteration (subscribe).
 */
import { isIP } from 'node:net';
import { lookup } from 'node:dns/promises';
import type { ApiError } from '../../protocol/api-error.js';
import { ErrorCode } from '../../protocol/error-codes.js';
import { KafkaError } from '../../protocol/kafka-error.js';
import type { BrokerState } from '../handler.js';
import { JavaHashMap, javaStringHash, javaStringMapHash } from '../../coordinator/runtime/java-hash-map.js';
import type { ClientQuotaEntry } from '../../broker/quota/quota-managers.js';
import { memoryClientQuotaStore, type ClientQuotaStore, type StoredQuotaEntity } from './client-quota-store.js';

export const USER = 'user';
export const CLIENT_ID = 'client-id';
export const IP = 'ip';

/** An entity's (type, name) pairs in the order of the Java map Kafka holds it in. */
export type QuotaEntity = readonly (readonly [string, string | null])[];

type QuotaType = 'LONG' | 'INT' | 'DOUBLE';
/** QuotaConfig.userAndClientQuotaConfigs and ipConfigs: the keys each kind of entity accepts, with their types. */
const USER_AND_CLIENT_KEYS: ReadonlyMap<string, QuotaType> = new Map([
  ['producer_byte_rate', 'LONG'], ['consumer_byte_rate', 'LONG'], ['request_percentage', 'DOUBLE'], ['controller_mutation_rate', 'DOUBLE'],
]);
const IP_KEYS: ReadonlyMap<string, QuotaType> = new Map([['connection_creation_rate', 'INT']]);

/** Long.MAX_VALUE and Integer.MAX_VALUE as Java compares them with a double. */
const LONG_MAX = 2 ** 63;
const INT_MAX = 2 ** 31 - 1;

// DescribeClientQuotas match types.
const MATCH_TYPE_EXACT = 0;
const MATCH_TYPE_DEFAULT = 1;
const MATCH_TYPE_SPECIFIED = 2;

const NONE: ApiError = { code: ErrorCode.NONE, message: null };
const invalid = (message: string): ApiError => ({ code: ErrorCode.INVALID_REQUEST, message });

const entityId = (entity: QuotaEntity): string => JSON.stringify([...entity].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
/** ClientQuotaEntity.hashCode: Objects.hash(entries). */
const entityHash = (entity: QuotaEntity): number => (31 + javaStringMapHash(entity)) | 0;
const keyOf = (key: string): string => key;

type Quotas = JavaHashMap<string, number>;
type Image = JavaHashMap<QuotaEntity, Quotas>;
/** A quota to set, or null to remove. */
type Changes = JavaHashMap<string, number | null>;

const newEntityMap = <V>(initialCapacity?: number) => new JavaHashMap<QuotaEntity, V>(entityId, entityHash, initialCapacity);
const newKeyMap = <V>(initialCapacity?: number) => new JavaHashMap<string, V>(keyOf, javaStringHash, initialCapacity);

/** An entity as a Java map built from (type, name) pairs holds it: a later pair of the same type replaces an earlier one. */
function javaEntity(pairs: Iterable<readonly [string, string | null]>, initialCapacity?: number): QuotaEntity {
  const map = new JavaHashMap<string, string | null>(keyOf, javaStringHash, initialCapacity);
  for (const [type, name] of pairs) map.set(type, name);
  return map.entries();
}

/** ClientQuotaEntity.toString: `ClientQuotaEntity(entries={user=bob})`. */
function describeEntity(entity: QuotaEntity): string {
  return `ClientQuotaEntity(entries={${entity.map(([type, name]) => `${type}=${name}`).join(', ')}})`;
}

export interface QuotaAlteration {
  readonly entity: readonly { readonly entityType: string; readonly entityName: string | null }[];
  /** value null: remove the key. */
  readonly ops: readonly { readonly key: string; readonly value: number | null }[];
}

export interface QuotaFilterComponent {
  readonly entityType: string;
  readonly matchType: number;
  readonly match: string | null;
}

interface QuotaRecord {
  readonly entity: QuotaEntity;
  readonly key: string;
  readonly value: number | null;
}

export class ClientQuotas {
  private image: Image = newEntityMap();
  /** Alterations and descriptions are taken one at a time in arrival order (an alteration may wait for DNS). */
  private queue: Promise<unknown> = Promise.resolve();
  private readonly listeners: ((image: readonly ClientQuotaEntry[]) => void)[] = [];

  private constructor(private readonly store: ClientQuotaStore, private readonly isValidHost: (host: string) => Promise<boolean>) {}

  /** Reads what is stored, replayed as Kafka replays its snapshot's records into an empty image. */
  static async open(store: ClientQuotaStore = memoryClientQuotaStore(), isValidHost = resolvable): Promise<ClientQuotas> {
    const quotas = new ClientQuotas(store, isValidHost);
    quotas.image = imageOf((await store.load()) ?? []);
    // Cluster mode: quotas altered through another broker, taken in turn with this broker's alterations and enforced.
    store.watch?.((stored) => {
      const done = quotas.queue.then(() => {
        quotas.image = imageOf(stored);
        for (const listener of quotas.listeners) listener(quotas.enforced());
      });
      quotas.queue = done.catch(() => undefined);
      return done;
    });
    return quotas;
  }

  /**
   * ClientQuotaControlManager.alterClientQuotas: one result per distinct entity (a repeated entity is refused,
   * a repeated key refuses its entity), keyed and ordered as Kafka's result map. Unless `validateOnly`, the
   * accepted changes take effect together and are durable when the promise resolves.
   */
  alter(alterations: readonly QuotaAlteration[], validateOnly: boolean): Promise<[QuotaEntity, ApiError][]> {
    const run = async () => {
      const hosts = await this.checkHosts(alterations);
      const results = newEntityMap<ApiError>();
      const records: QuotaRecord[] = [];
      for (const alteration of alterations) {
        const entity = javaEntity(alteration.entity.map((e) => [e.entityType, e.entityName]), alteration.entity.length);
        const changes: Changes = newKeyMap(alteration.ops.length);
        for (const op of alteration.ops) {
          if (changes.has(op.key)) {
            results.set(entity, invalid(`Duplicate quota key ${op.key} not updating quota for this entity ${describeEntity(entity)}`));
          } else {
            changes.set(op.key, op.value);
          }
        }
        if (results.has(entity)) {
          results.set(entity, invalid(`Ignoring duplicate entity ${describeEntity(entity)}`));
        } else {
          results.set(entity, this.alterEntity(entity, changes, hosts, records));
        }
      }
      if (!validateOnly && records.length > 0) {
        // Served only once durable: a failed save changes nothing, as a failed commit does in Kafka.
        const next = applyRecords(this.image, records);
        await this.store.save(storedForm(next), storedForm(this.image));
        this.image = next;
        for (const listener of this.listeners) listener(this.enforced());
      }
      return results.entries();
    };
    const done = this.queue.then(run);
    this.queue = done.catch(() => undefined);
    return done;
  }

  /** Hears the user and client-id quotas now, and again after each alteration that changes them. */
  subscribe(listener: (image: readonly ClientQuotaEntry[]) => void): void {
    this.listeners.push(listener);
    listener(this.enforced());
  }

  /** The user / client-id entities and their quotas (ip entities are connection-rate quotas, not enforced here). */
  private enforced(): ClientQuotaEntry[] {
    return this.image.entries().flatMap(([entity, quotas]) => {
      const sides = new Map(entity);
      if (sides.has(IP)) return [];
      return [{ user: sides.get(USER), clientId: sides.get(CLIENT_ID), quotas: quotas.entries() }];
    });
  }

  /** ClientQuotasImage.describe: throws KafkaError (INVALID_REQUEST, UNSUPPORTED_VERSION) for a filter Kafka refuses. */
  describe(components: readonly QuotaFilterComponent[], strict: boolean): Promise<{ entity: QuotaEntity; values: [string, number][] }[]> {
    const run = () => {
      const exact = new Map<string, string | null>();
      const specified = new Set<string>();
      for (const component of components) {
        const type = component.entityType;
        if (type === '') throw new KafkaError('INVALID_REQUEST', 'Invalid empty entity type.');
        if (exact.has(type) || specified.has(type)) {
          throw new KafkaError('INVALID_REQUEST', `Entity type ${type} cannot appear more than once in the filter.`);
        }
        if (type !== IP && type !== USER && type !== CLIENT_ID) throw new KafkaError('UNSUPPORTED_VERSION', `Unsupported entity type ${type}`);
        switch (component.matchType) {
          case MATCH_TYPE_EXACT:
            if (component.match === null) throw new KafkaError('INVALID_REQUEST', 'Request specified MATCH_TYPE_EXACT, but set match string to null.');
            exact.set(type, component.match);
            break;
          case MATCH_TYPE_DEFAULT:
            if (component.match !== null) throw new KafkaError('INVALID_REQUEST', 'Request specified MATCH_TYPE_DEFAULT, but also specified a match string.');
            exact.set(type, null);
            break;
          case MATCH_TYPE_SPECIFIED:
            if (component.match !== null) throw new KafkaError('INVALID_REQUEST', 'Request specified MATCH_TYPE_SPECIFIED, but also specified a match string.');
            specified.add(type);
            break;
          default:
            throw new KafkaError('INVALID_REQUEST', `Unknown match type ${component.matchType}`);
        }
      }
      const filters = (type: string) => exact.has(type) || specified.has(type);
      if (filters(IP) && (filters(USER) || filters(CLIENT_ID))) {
        throw new KafkaError('INVALID_REQUEST',
          'Invalid entity filter component combination. IP filter component should not be used with user or clientId filter component.');
      }
      // A "specified" component matches any entity having that type, the default one included (as in Kafka).
      const matches = (entity: QuotaEntity): boolean => {
        if (strict && entity.length !== exact.size + specified.size) return false;
        const names = new Map(entity);
        for (const [type, name] of exact) if (!names.has(type) || names.get(type) !== name) return false;
        for (const type of specified) if (!names.has(type)) return false;
        return true;
      };
      return this.image.entries()
        .filter(([entity]) => matches(entity))
        .map(([entity, quotas]) => ({ entity, values: quotas.entries() }));
    };
    const done = this.queue.then(run);
    this.queue = done.catch(() => undefined);
    return done;
  }

  /** ClientQuotaControlManager.alterClientQuotaEntity: the entity's result; its records appended when accepted. */
  private alterEntity(entity: QuotaEntity, changes: Changes, hosts: ReadonlyMap<string, boolean>, records: QuotaRecord[]): ApiError {
    if (entity.length === 0) return invalid('Invalid empty client quota entity');
    const validated = new JavaHashMap<string, string | null>(keyOf, javaStringHash, 3);
    for (const [type, name] of entity) {
      if (type !== USER && type !== CLIENT_ID && type !== IP) return invalid(`Unhandled client quota entity type: ${type}`);
      validated.set(type, name);
      if (name === '') return invalid(`Empty ${type} not supported`);
    }
    let keys: ReadonlyMap<string, QuotaType>;
    if (validated.has(IP)) {
      if (validated.has(USER) || validated.has(CLIENT_ID)) {
        // Kafka's message runs "should" and "not" together.
        return invalid('Invalid quota entity combination, IP entity shouldnot be combined with User or ClientId');
      }
      const ip = validated.get(IP)!;
      if (ip !== null && hosts.get(ip) !== true) return invalid(`${ip} is not a valid IP or resolvable host.`);
      keys = IP_KEYS;
    } else {
      keys = USER_AND_CLIENT_KEYS;
    }
    const recordEntity = validated.entries();
    const current = this.image.get(entity);
    const added: QuotaRecord[] = [];
    for (const [key, value] of changes.entries()) {
      if (value === null) {
        if (current?.has(key) === true) added.push({ entity: recordEntity, key, value: null });
        continue;
      }
      const problem = quotaValueProblem(keys, key, value);
      if (problem !== null) return invalid(problem);
      if (!sameDouble(current?.get(key), value)) added.push({ entity: recordEntity, key, value });
    }
    records.push(...added);
    return NONE;
  }

  /** Whether each ip named is an address or a name that resolves (Kafka: InetAddress.getByName). */
  private async checkHosts(alterations: readonly QuotaAlteration[]): Promise<Map<string, boolean>> {
    const names = new Set<string>();
    for (const alteration of alterations) {
      for (const e of alteration.entity) if (e.entityType === IP && e.entityName !== null && e.entityName !== '') names.add(e.entityName);
    }
    const checked = new Map<string, boolean>();
    for (const name of names) checked.set(name, await this.isValidHost(name));
    return checked;
  }
}

/** What is stored, replayed as Kafka replays its snapshot's records into an empty image. */
function imageOf(stored: readonly StoredQuotaEntity[]): Image {
  return applyRecords(newEntityMap(), stored.flatMap((e) => e.quotas.map(([key, value]) => ({ entity: e.entity, key, value }))));
}

function storedForm(image: Image): StoredQuotaEntity[] {
  return image.entries().map(([entity, quotas]) => ({ entity, quotas: quotas.entries() }));
}

/** ClientQuotaControlManager.validateQuotaKeyValue: Kafka's message, or null when the value is accepted. */
function quotaValueProblem(keys: ReadonlyMap<string, QuotaType>, key: string, value: number): string | null {
  const type = keys.get(key);
  if (type === undefined) return `Invalid configuration key ${key}`;
  if (value <= 0) return `Quota ${key} must be greater than 0`;
  if (type === 'DOUBLE') return null;
  if (type === 'INT' && value > INT_MAX) return `Proposed value for ${key} is too large for an INT.`;
  if (type === 'LONG' && value > LONG_MAX) return `Proposed value for ${key} is too large for a LONG.`;
  return Math.abs(value % 1) > 1e-6 ? `${key} cannot be a fractional value.` : null;
}

/** Double.equals: NaN equals NaN, 0.0 differs from -0.0. */
function sameDouble(a: number | undefined, b: number): boolean {
  return a !== undefined && Object.is(a, b);
}

/** ClientQuotasDelta.replay then apply: the new image, each map rebuilt in Kafka's order. */
function applyRecords(image: Image, records: readonly QuotaRecord[]): Image {
  const changes = newEntityMap<Changes>();
  for (const record of records) {
    const entity = javaEntity(record.entity);
    let change = changes.get(entity);
    if (change === undefined) changes.set(entity, (change = newKeyMap()));
    change.set(record.key, record.value);
  }
  const next: Image = newEntityMap(image.size);
  for (const [entity, quotas] of image.entries()) {
    const change = changes.get(entity);
    const applied = change === undefined ? quotas : applyChanges(quotas, change);
    if (applied.size > 0) next.set(entity, applied);
  }
  for (const [entity, change] of changes.entries()) {
    if (next.has(entity)) continue;
    const applied = applyChanges(image.get(entity) ?? newKeyMap(), change);
    if (applied.size > 0) next.set(entity, applied);
  }
  return next;
}

/** ClientQuotaDelta.apply. */
function applyChanges(quotas: Quotas, changes: Changes): Quotas {
  const next: Quotas = newKeyMap(quotas.size);
  for (const [key, value] of quotas.entries()) {
    const change = changes.has(key) ? changes.get(key)! : value;
    if (change !== null) next.set(key, change);
  }
  for (const [key, change] of changes.entries()) {
    if (!next.has(key) && change !== null) next.set(key, change);
  }
  return next;
}

/** InetAddress.getByName succeeds: an address literal (an IPv6 one may be bracketed), or a name that resolves. */
async function resolvable(host: string): Promise<boolean> {
  if (isIP(host) !== 0) return true;
  if (host.startsWith('[') && host.endsWith(']') && isIP(host.slice(1, -1)) === 6) return true;
  try {
    await lookup(host);
    return true;
  } catch {
    return false;
  }
}

const byBroker = new WeakMap<BrokerState, ClientQuotas>();

/** Ties a broker's client quotas to its state (startBroker does this before serving requests). */
export function attachClientQuotas(broker: BrokerState, quotas: ClientQuotas): void {
  byBroker.set(broker, quotas);
}

export function clientQuotas(broker: BrokerState): ClientQuotas {
  const quotas = byBroker.get(broker);
  if (quotas === undefined) throw new Error('no client quotas are attached to this broker');
  return quotas;
}
