// Confluent Schema Registry's operations (KafkaSchemaRegistry / AbstractSchemaRegistry) over RegistryState: each
// write is a record appended to `_schemas` and applied when read back, one write at a time, so what is served is
// always what the topic holds. Reads catch up with the topic first (records another writer appended).
import { incompatibilities, compatibilityLevel, fieldConflictsWithReserved, reservedFieldRemoved, type CompatibilityLevel } from './compatibility.js';
import {
  contextNotEmpty, incompatibleSchema, invalidRuleSet, invalidCompatibilityLevel, unprocessableBody, invalidMode, invalidSchema, invalidSubject, invalidVersion, operationNotPermitted,
  referenceExists, RegistryError, schemaNotFound, subjectCompatibilityNotConfigured, subjectModeNotConfigured,
  subjectNotFound, subjectNotSoftDeleted, subjectSoftDeleted, versionNotFound, versionNotSoftDeleted, versionSoftDeleted,
} from './errors.js';
import { RegistryState, schemaKey, type StoredSchema } from './registry-state.js';
import { DEFAULT_CONTEXT, contextOf, contextPrefix, qualify, qualifyWithParent } from './contexts.js';
import { BadEntity, mergeMetadata, mergeRuleSets, readMetadata, readRuleSet, reservedFields, ruleSetProblem } from './metadata.js';
import { CONFLUENT_VERSION, contractKey, withConfluentVersion, withoutConfluentVersion, type Metadata, type RuleSet } from './metadata.js';
import { configJson, encodeKey, encodeSchemaValue, encodeValue, type ConfigValue, type SchemaValue } from './schemas-records.js';
import type { SchemasRecord, SchemasTopic } from './schemas-topic.js';
import type { ParsedSchema, ResolvedReference, SchemaProvider, SchemaReference, SchemaType } from './schema-types.js';
import { SCHEMA_TYPES } from './schema-types.js';

export const MODES = ['READWRITE', 'READONLY', 'READONLY_OVERRIDE', 'IMPORT'] as const;
export type Mode = (typeof MODES)[number];

/** The body of POST /subjects/{s}/versions, /subjects/{s} and /compatibility/...: a schema and its references. */
export interface SchemaRequest {
  readonly schema: string;
  readonly schemaType: SchemaType;
  readonly references: readonly SchemaReference[];
  /** IMPORT mode: the version and id to register under (0 / -1: none given). */
  readonly version: number;
  readonly id: number;
  /** Confluent's data contract (undefined: none given, a new version keeps the latest one's). */
  readonly metadata?: Metadata | undefined;
  readonly ruleSet?: RuleSet | undefined;
}

export type Providers = Readonly<Partial<Record<SchemaType, SchemaProvider>>>;

export interface RegistryOptions {
  /** The formats' parsers, loaded on the first schema parsed (avsc, ajv and protobufjs stay unloaded until then). */
  readonly providers: () => Promise<Providers>;
  /** The global compatibility level when none is set (Confluent's schema.compatibility.level). */
  readonly defaultCompatibility?: CompatibilityLevel;
  readonly onBadRecord?: (message: string) => void;
}

const MAX_VERSION = 2 ** 31 - 1;
/** PUT /config's answer: Confluent's ConfigUpdateRequest order. */
const CONFIG_ANSWER_ORDER = ['normalize', 'validateFields', 'compatibility', 'compatibilityPolicy', 'compatibilityGroup', 'defaultMetadata', 'overrideMetadata', 'defaultRuleSet', 'overrideRuleSet'];

/** A CONFIG record's value: Confluent's ConfigValue, its subject first. */
const encodeConfig = (subject: string | null, config: ConfigValue) => Buffer.from(JSON.stringify(configJson(subject, config)));

/** The context a message names: Confluent's qualified context, empty for the default one. */
const contextText = (subject: string) => contextPrefix(contextOf(subject));

/** A version path parameter: a number in [1, 2^31-1], "latest" or -1 (the latest). */
export function parseVersion(text: string): number | 'latest' {
  if (text.toLowerCase() === 'latest' || text === '-1') return 'latest';
  if (!/^[0-9]+$/.test(text)) throw invalidVersion(text);
  const version = Number(text);
  if (version < 1 || version > MAX_VERSION) throw invalidVersion(text);
  return version;
}

export class SchemaRegistry {
  private state = new RegistryState();
  /** Writes run one after another (Confluent's leader holds a lock per write). */
  private writing: Promise<unknown> = Promise.resolve();
  private readonly defaultCompatibility: CompatibilityLevel;
  private providers: Providers | undefined;

  private constructor(private readonly topic: SchemasTopic, private readonly options: RegistryOptions) {
    this.defaultCompatibility = options.defaultCompatibility ?? 'BACKWARD';
  }

  /** Reads the whole topic, then serves. */
  static async open(topic: SchemasTopic, options: RegistryOptions): Promise<SchemaRegistry> {
    const registry = new SchemaRegistry(topic, options);
    await registry.catchUp();
    return registry;
  }

  /** Applies the records appended since the last read (by the registry or any other writer). */
  async catchUp(): Promise<void> {
    await this.topic.catchUp((record, offset) => {
      try {
        this.state.apply(record.key, record.value);
      } catch (error) {
        this.options.onBadRecord?.(`_schemas offset ${offset}: ${(error as Error).message}`);
      }
    }, () => {
      this.state = new RegistryState();
    });
  }

  private write<T>(run: () => Promise<T>): Promise<T> {
    const next = this.writing.then(async () => {
      await this.catchUp();
      return run();
    });
    this.writing = next.catch(() => undefined);
    return next;
  }

  private async append(records: SchemasRecord[]): Promise<void> {
    await this.topic.append(records);
    await this.catchUp();
  }

  // ---- reading ----

  schemaTypes(): readonly SchemaType[] {
    return SCHEMA_TYPES;
  }

  /** Subjects of every context by default (Confluent's `:*:`); a prefix `:*:x` matches the name within any context. */
  subjects(deleted: boolean, prefix = ''): string[] {
    const matches = prefix.startsWith(':*:') ? (s: string) => qualify(s).subject.startsWith(prefix.slice(3)) : (s: string) => s.startsWith(prefix);
    return [...this.state.subjects.keys()].filter((s) => matches(s) && this.state.hasSubject(s, deleted)).sort();
  }

  versions(subject: string, deleted: boolean, deletedOnly = false): number[] {
    const versions = this.state.versions(subject, deleted || deletedOnly).filter((v) => !deletedOnly || v.deleted);
    if (versions.length === 0 && !this.state.hasSubject(subject, deleted || deletedOnly)) throw subjectNotFound(subject);
    return versions.map((v) => v.version);
  }

  /** GET /subjects/{s}/versions/{v}: the latest among the undeleted (or all, with `deleted`). */
  version(subject: string, versionText: string, deleted: boolean): SchemaValue {
    const version = parseVersion(versionText);
    const versions = this.state.versions(subject, deleted);
    const found = version === 'latest' ? versions.at(-1) : versions.find((v) => v.version === version);
    if (found !== undefined) return found;
    if (!this.state.hasSubject(subject, deleted)) throw subjectNotFound(subject);
    throw versionNotFound(version === 'latest' ? -1 : version);
  }

  /**
   * The context an id is read in (Confluent's getSchemaKeyUsingContexts): the subject's (the default one without a
   * subject); an unqualified subject's id not in the default context is looked for in each context in turn.
   */
  private contextOfId(id: number, subject: string | undefined): string {
    if (subject === undefined) return DEFAULT_CONTEXT;
    const q = qualify(subject);
    if (q.context !== DEFAULT_CONTEXT || q.subject === '' || this.state.schemaById(DEFAULT_CONTEXT, id) !== undefined) return q.context;
    return [...this.state.contexts].sort().find((context) => this.state.schemaById(context, id) !== undefined) ?? DEFAULT_CONTEXT;
  }

  /** GET /schemas/ids/{id}[?subject=]: the schema of an id in a context. */
  schemaById(id: number, subject?: string): StoredSchema {
    const found = this.state.schemaById(this.contextOfId(id, subject), id);
    if (found === undefined) throw schemaNotFound(id);
    return found;
  }

  /** GET /schemas/ids/{id}/versions: every subject and version holding the id (in its context). */
  versionsOfId(id: number, deleted: boolean, subject?: string): { subject: string; version: number }[] {
    this.schemaById(id, subject);
    return this.state.versionsOfId(this.contextOfId(id, subject), id, deleted).map((v) => ({ subject: v.subject, version: v.version }));
  }

  subjectsOfId(id: number, deleted: boolean, subject?: string): string[] {
    return [...new Set(this.versionsOfId(id, deleted, subject).map((v) => v.subject))];
  }

  /** DELETE /contexts/{context}: a context no subject (not even a deleted one) is in any more is forgotten. */
  deleteContext(delimited: string): Promise<void> {
    const context = contextOf(delimited);
    return this.write(async () => {
      if ([...this.state.subjects.keys()].some((s) => contextOf(s) === context && this.state.hasSubject(s, true))) {
        throw contextNotEmpty(delimited);
      }
      if (this.state.contexts.has(context)) await this.append([{ key: encodeKey({ keytype: 'CONTEXT', tenant: 'default', context }), value: null }]);
    });
  }

  /** GET /contexts: the default context, then those CONTEXT records named. */
  contexts(): string[] {
    return [DEFAULT_CONTEXT, ...[...this.state.contexts].filter((c) => c !== DEFAULT_CONTEXT).sort()];
  }

  /** The ids of the schemas whose references name this subject and version. */
  referencedBy(subject: string, versionText: string, deleted = false): number[] {
    const target = this.version(subject, versionText, true);
    const ids = new Set<number>();
    for (const versions of this.state.subjects.values()) {
      for (const value of versions.values()) {
        if ((deleted || !value.deleted) && value.references.some((r) => qualifyWithParent(value.subject, r.subject) === subject && r.version === target.version)) ids.add(value.id);
      }
    }
    return [...ids].sort((a, b) => a - b);
  }

  // ---- parsing ----

  /** A reference's schema and, before it, the schemas it references (Confluent's resolveReferences). */
  private resolve(parent: string, references: readonly SchemaReference[], out: ResolvedReference[] = [], seen = new Set<string>()): ResolvedReference[] {
    for (const reference of references) {
      // An unqualified reference is to a subject of the referencing subject's context.
      const subject = qualifyWithParent(parent, reference.subject);
      const value = this.state.versions(subject, true).find((v) =>
        reference.version === -1 ? false : v.version === reference.version) ??
        (reference.version === -1 ? this.state.versions(subject, false).at(-1) : undefined);
      if (value === undefined) {
        throw invalidSchema(`Invalid schema of type ${'AVRO'}, details: No schema reference found for subject "${reference.subject}" and version ${reference.version}`);
      }
      const key = `${value.subject}/${value.version}`;
      if (seen.has(key)) continue;
      seen.add(key);
      this.resolve(value.subject, value.references, out, seen);
      out.push({ name: reference.name, schema: value.schema, subject: value.subject, version: value.version });
    }
    return out;
  }

  private async loadProviders(): Promise<void> {
    this.providers ??= await this.options.providers();
  }

  /** Parses with the providers loaded (loadProviders first). */
  private parse(subject: string, schemaType: SchemaType, text: string, references: readonly SchemaReference[]): ParsedSchema {
    const provider = this.providers![schemaType];
    if (provider === undefined) throw invalidSchema(`Invalid schema type ${schemaType}`);
    let resolved: ResolvedReference[];
    try {
      resolved = this.resolve(subject, references);
    } catch (error) {
      if (error instanceof RegistryError) throw invalidSchema(error.message.replace('of type AVRO', `of type ${schemaType}`));
      throw error;
    }
    try {
      return provider.parse(text, resolved);
    } catch (error) {
      throw invalidSchema(`Invalid schema of type ${schemaType}, details: ${(error as Error).message}`);
    }
  }

  private parseStored(value: { subject?: string; schemaType: SchemaType; schema: string; references: readonly SchemaReference[] }): ParsedSchema {
    return this.parse(value.subject ?? '', value.schemaType, value.schema, value.references);
  }

  /**
   * A stored schema's text in a `format` (Confluent's formattedString): Protobuf's `serialized` is the base64
   * FileDescriptorProto; anything else, or another type, is the stored text.
   */
  async formatted(stored: StoredSchema, format: string | undefined): Promise<string> {
    if (format !== 'serialized' || stored.schemaType !== 'PROTOBUF') return stored.schema;
    await this.loadProviders();
    const parsed = this.parseStored(stored) as ParsedSchema & { serialized?: () => string };
    return parsed.serialized?.() ?? stored.schema;
  }

  // ---- settings ----

  /**
   * The config above a subject that has none of its own (Confluent's lookupCache.config): its context's (`:.ctx:`)
   * for a subject of another context, else the global one; then the `:.__GLOBAL:` context's.
   */
  private fallbackConfig(subject: string | null): ConfigValue | undefined {
    const context = subject === null ? DEFAULT_CONTEXT : contextOf(subject);
    const above = context === DEFAULT_CONTEXT ? this.state.configs.get(null) : this.state.configs.get(contextPrefix(context));
    return above ?? this.state.configs.get(':.__GLOBAL:');
  }

  /** The config in force at a subject (getConfigInScope): its own over the global one, or the one above it. */
  private scopeConfig(subject: string | null): ConfigValue {
    const own = subject === null ? undefined : this.state.configs.get(subject);
    if (own === undefined) return this.fallbackConfig(subject) ?? {};
    const global = this.state.configs.get(null) ?? {};
    const merged: Record<string, unknown> = { ...global };
    for (const [key, value] of Object.entries(own)) if (value !== undefined) merged[key] = value;
    return merged as ConfigValue;
  }

  compatibility(subject: string | null): CompatibilityLevel {
    return compatibilityLevel(this.scopeConfig(subject).compatibilityLevel) ?? this.defaultCompatibility;
  }

  private normalizeOf(subject: string): boolean {
    return this.configOf(subject, 'normalize') ?? false;
  }

  /** A config field at a subject: its own, else the global one (Confluent's config in scope). */
  private configOf<K extends keyof ConfigValue>(subject: string | null, field: K): ConfigValue[K] | undefined {
    return this.scopeConfig(subject)[field];
  }

  /** GET /config[/{s}]: the subject's own config (40408 without one, unless defaultToGlobal), in Confluent's order. */
  config(subject: string | null, defaultToGlobal: boolean): Record<string, unknown> {
    const own = this.state.configs.get(subject);
    if (subject !== null && own === undefined && !defaultToGlobal) throw subjectCompatibilityNotConfigured(subject);
    const base = subject === null || own === undefined ? this.fallbackConfig(subject) : own;
    return configJson(null, { ...(base ?? {}), compatibilityLevel: compatibilityLevel(base?.compatibilityLevel) ?? this.defaultCompatibility });
  }

  /**
   * PUT /config[/{s}]: each field given replaces the stored one (null clears it); the answer is the whole config
   * as Confluent's ConfigUpdateRequest (its level named `compatibility`).
   */
  setConfig(subject: string | null, body: Record<string, unknown>): Promise<Record<string, unknown>> {
    const level = body['compatibility'] === undefined || body['compatibility'] === null ? undefined : compatibilityLevel(body['compatibility']);
    if (body['compatibility'] !== undefined && body['compatibility'] !== null && level === undefined) throw invalidCompatibilityLevel();
    const given: Record<string, unknown> = {};
    const take = (field: string, value: unknown, valid: boolean, what: string) => {
      if (!(field in body) && !(field === 'compatibilityLevel' && 'compatibility' in body)) return;
      if (value !== null && value !== undefined && !valid) throw unprocessableBody(`${what}`);
      given[field] = value ?? undefined;
    };
    take('normalize', body['normalize'], typeof body['normalize'] === 'boolean', 'normalize must be a boolean');
    take('validateFields', body['validateFields'], typeof body['validateFields'] === 'boolean', 'validateFields must be a boolean');
    take('compatibilityLevel', level, true, '');
    const policy = typeof body['compatibilityPolicy'] === 'string' ? body['compatibilityPolicy'].toUpperCase() : body['compatibilityPolicy'];
    take('compatibilityPolicy', policy, typeof policy === 'string' && ['STRICT', 'LENIENT', 'LOGICAL'].includes(policy), 'Invalid compatibility policy. Valid values are STRICT, LENIENT and LOGICAL');
    take('compatibilityGroup', body['compatibilityGroup'], typeof body['compatibilityGroup'] === 'string', 'compatibilityGroup must be a string');
    try {
      for (const field of ['defaultMetadata', 'overrideMetadata'] as const) take(field, readMetadata(body[field]), true, '');
      for (const field of ['defaultRuleSet', 'overrideRuleSet'] as const) {
        const ruleSet = readRuleSet(body[field]);
        const problem = ruleSetProblem(ruleSet);
        if (problem !== undefined) throw invalidRuleSet(problem);
        take(field, ruleSet, true, '');
      }
    } catch (error) {
      if (error instanceof BadEntity) throw unprocessableBody(error.message);
      throw error;
    }
    return this.write(async () => {
      const next: ConfigValue = { ...(this.state.configs.get(subject) ?? {}), ...given };
      await this.append([{ key: encodeKey({ keytype: 'CONFIG', subject }), value: encodeConfig(subject, next) }]);
      const { compatibilityLevel: stored, ...rest } = configJson(null, next);
      const answer: Record<string, unknown> = {};
      for (const [key, value] of Object.entries({ ...rest, compatibility: stored })) if (value !== undefined) answer[key] = value;
      return Object.fromEntries(CONFIG_ANSWER_ORDER.filter((k) => k in answer).map((k) => [k, answer[k]]));
    });
  }

  /** DELETE /config[/{s}]: the config that was set, then none (the global one goes back to the default). */
  deleteConfig(subject: string | null): Promise<Record<string, unknown>> {
    return this.write(async () => {
      const own = this.state.configs.get(subject);
      if (subject !== null && own === undefined) throw subjectNotFound(subject);
      const answer = this.config(subject, true);
      await this.append([{ key: encodeKey({ keytype: 'CONFIG', subject }), value: null }]);
      return answer;
    });
  }

  mode(subject: string | null, defaultToGlobal: boolean): Mode {
    const own = this.state.modes.get(subject);
    if (subject !== null && own === undefined && !defaultToGlobal) throw subjectModeNotConfigured(subject);
    // Above a subject's own mode: its context's (`:.ctx:`) or the global one, then the `:.__GLOBAL:` context's.
    const context = subject === null ? DEFAULT_CONTEXT : contextOf(subject);
    const above = context === DEFAULT_CONTEXT ? this.state.modes.get(null) : this.state.modes.get(contextPrefix(context));
    return (own ?? above ?? this.state.modes.get(':.__GLOBAL:') ?? 'READWRITE') as Mode;
  }

  setMode(subject: string | null, modeText: unknown, force: boolean): Promise<Mode> {
    const mode = typeof modeText === 'string' ? MODES.find((m) => m === modeText.toUpperCase()) : undefined;
    if (mode === undefined) throw invalidMode();
    return this.write(async () => {
      const records: SchemasRecord[] = [];
      if (mode === 'IMPORT' && this.mode(subject, true) !== 'IMPORT' && !force) {
        // Confluent: only an empty registry (or subject) goes into IMPORT; soft-deleted versions are dropped.
        // A context's mode (`:.ctx:`) covers the subjects in it.
        const inContext = subject !== null && qualify(subject).subject === '';
        const scope = subject === null ? [...this.state.subjects.keys()]
          : inContext ? [...this.state.subjects.keys()].filter((s) => contextOf(s) === contextOf(subject)) : [subject];
        if (scope.some((s) => this.state.hasSubject(s, false))) throw operationNotPermitted('Cannot import since found existing subjects');
        for (const s of scope) for (const v of this.state.versions(s, true)) records.push({ key: encodeKey({ keytype: 'SCHEMA', subject: s, version: v.version }), value: null });
      }
      // Confluent's ModeValue: its subject first (none for the global mode).
      records.push({ key: encodeKey({ keytype: 'MODE', subject }), value: encodeValue({ ...(subject === null ? {} : { subject }), mode }) });
      await this.append(records);
      return mode;
    });
  }

  deleteMode(subject: string): Promise<Mode> {
    return this.write(async () => {
      const own = this.state.modes.get(subject);
      if (own === undefined) throw subjectNotFound(subject);
      await this.append([{ key: encodeKey({ keytype: 'MODE', subject }), value: null }]);
      return own as Mode;
    });
  }

  // ---- registering and looking up ----

  /** The stored text of a schema: canonical, or normalized when asked or configured. */
  private textOf(parsed: ParsedSchema, normalize: boolean): string {
    return normalize ? parsed.normalized() : parsed.canonical;
  }

  /**
   * Confluent's maybePopulateFromPrevious: a body without a schema registers the latest version's again, and one
   * without metadata or a rule set keeps the latest version's; confluent:version is set to the new version when a
   * version was asked for or the metadata carries one already.
   */
  private populateFromPrevious(subject: string, request: SchemaRequest, latest: SchemaValue | undefined, newVersion: number | undefined): SchemaRequest {
    let next = request;
    if (next.schema.trim() === '' && latest !== undefined) next = { ...next, schema: latest.schema, schemaType: latest.schemaType, references: latest.references };
    // The config's defaults under what is given (or kept), its overrides over it.
    const metadata = mergeMetadata(mergeMetadata(this.configOf(subject, 'defaultMetadata'), next.metadata ?? latest?.metadata), this.configOf(subject, 'overrideMetadata'));
    const ruleSet = mergeRuleSets(mergeRuleSets(this.configOf(subject, 'defaultRuleSet'), next.ruleSet ?? latest?.ruleSet), this.configOf(subject, 'overrideRuleSet'));
    let withVersion = metadata;
    if (newVersion !== undefined && (next.version !== 0 || metadata?.properties?.[CONFLUENT_VERSION] !== undefined)) withVersion = withConfluentVersion(metadata, newVersion);
    return { ...next, metadata: withVersion, ruleSet };
  }

  /** POST /subjects/{s}/versions. */
  register(subject: string, request: SchemaRequest, normalizeAsked: boolean): Promise<SchemaValue> {
    // Confluent's QualifiedSubject.isValidSubject: no control characters, not its reserved names.
    if (/[\u0000-\u001f\u007f-\u009f]/.test(subject) || subject === '__GLOBAL' || subject === '__EMPTY') throw invalidSubject(subject);
    return this.write(async () => {
      await this.loadProviders();
      const mode = this.mode(subject, true);
      if (mode === 'READONLY' || mode === 'READONLY_OVERRIDE') throw operationNotPermitted(`Subject ${subject} in context ${contextText(subject)} is in read-only mode`);
      const importing = request.id >= 0;
      if (importing && mode !== 'IMPORT') throw operationNotPermitted(`Subject ${subject} in context ${contextText(subject)} is not in import mode`);
      if (!importing && mode !== 'READWRITE') throw operationNotPermitted(`Subject ${subject} in context ${contextText(subject)} is not in read-write mode`);
      const all = this.state.versions(subject, true);
      const undeleted = all.filter((v) => !v.deleted);
      const newVersion = Math.max(1, ...all.map((v) => v.version + 1));
      const normalize = normalizeAsked || this.normalizeOf(subject);
      const latest = undeleted.at(-1);
      // What the body leaves out (schema, metadata, rule set) comes from the latest version, outside IMPORT.
      if (mode !== 'IMPORT') request = this.populateFromPrevious(subject, request, latest, newVersion);
      if (request.schema.trim() === '') throw invalidSchema('Empty schema');
      const parsed = this.parse(subject, request.schemaType, request.schema, request.references);
      const stored: StoredSchema = {
        schemaType: request.schemaType, references: request.references, metadata: request.metadata, ruleSet: request.ruleSet, schema: this.textOf(parsed, normalize),
      };
      let id = request.id;
      const context = contextOf(subject);
      const existingId = this.state.idOf(context, stored);
      if (existingId !== undefined && (id < 0 || id === existingId)) {
        const here = undeleted.find((v) => v.id === existingId);
        if (request.version === 0 && here !== undefined) return here;
        id = existingId;
      }
      if (request.version === 0) {
        // The same schema sent in another form (not normalized, or another canonical text) is the version it matches.
        for (const value of [...undeleted].reverse()) {
          if ((id < 0 || id === value.id) && value.schemaType === stored.schemaType && sameContract(value, stored) && sameSchema(this.parseStored(value), parsed)) return value;
        }
      }
      if (mode !== 'IMPORT') {
        const messages = this.compatibilityWithPrevious(subject, parsed, stored.metadata, undeleted);
        if (messages.length > 0) {
          throw incompatibleSchema(`Schema being registered is incompatible with an earlier schema for subject "${subject}", details: [${messages.join(', ')}]`);
        }
      }
      let version = newVersion;
      if (request.version > 0) {
        if (request.version !== newVersion && mode !== 'IMPORT') throw invalidSchema('Version is not one more than previous version');
        version = request.version;
      }
      if (id >= 0 && importing) {
        const holder = this.state.schemaById(context, id);
        if (holder !== undefined && schemaKey(holder) !== schemaKey(stored)) {
          throw new RegistryError(422, 42207, `Schema already registered with id ${id} instead of input id ${request.id}`);
        }
      }
      if (id < 0) id = this.state.maxId(context) + 1;
      const records: SchemasRecord[] = [];
      // A context's first schema: Confluent records the context (what /contexts lists).
      if (context !== DEFAULT_CONTEXT && !this.state.contexts.has(context)) {
        const named = { tenant: 'default', context };
        records.push({ key: encodeKey({ keytype: 'CONTEXT', ...named }), value: encodeValue(named) });
      }
      // A soft-deleted earlier version of the same id is dropped (Confluent tombstones it) unless referenced.
      for (const value of all) {
        if (value.deleted && value.id === id && value.version < version && this.referencedBy(subject, String(value.version), true).length === 0) {
          records.push({ key: encodeKey({ keytype: 'SCHEMA', subject, version: value.version }), value: null });
        }
      }
      const value: SchemaValue = { subject, version, id, ...stored, deleted: false };
      records.push({ key: encodeKey({ keytype: 'SCHEMA', subject, version }), value: encodeSchemaValue(value) });
      await this.append(records);
      return value;
    });
  }

  /** POST /subjects/{s}: the version of the subject holding this schema. */
  async lookup(subject: string, request: SchemaRequest, normalizeAsked: boolean, deleted: boolean): Promise<SchemaValue> {
    await this.loadProviders();
    const versions = this.state.versions(subject, deleted);
    if (versions.length === 0) throw subjectNotFound(subject);
    const normalize = normalizeAsked || this.normalizeOf(subject);
    const parsed = this.parse(subject, request.schemaType, request.schema, request.references);
    const text = this.textOf(parsed, normalize);
    const refs = JSON.stringify(request.references.map((r) => [r.name, r.subject, r.version]));
    const find = (asked: SchemaRequest) => {
      const matches = (v: SchemaValue) => v.schemaType === asked.schemaType && JSON.stringify(v.references.map((r) => [r.name, r.subject, r.version])) === refs;
      return [...versions].reverse().find((v) => matches(v) && v.schema === text && contractKey(v.metadata, v.ruleSet) === contractKey(asked.metadata, asked.ruleSet)) ??
        [...versions].reverse().find((v) => matches(v) && sameContract(v, asked) && sameSchema(this.parseStored(v), parsed, normalize));
    };
    // As Confluent, a schema sent without its metadata or rule set is looked up again with the latest version's.
    const latest = this.state.versions(subject, false).at(-1);
    const found = find(request) ?? (latest === undefined ? undefined : find(this.populateFromPrevious(subject, request, latest, undefined)));
    if (found === undefined) throw schemaNotFound();
    return found;
  }

  /** POST /compatibility/subjects/{s}/versions[/{v}]: the messages of a refusal (empty: compatible). */
  async checkCompatibility(subject: string, versionText: string | undefined, request: SchemaRequest, normalize: boolean): Promise<string[]> {
    await this.loadProviders();
    const parsed = this.parse(subject, request.schemaType, request.schema, request.references);
    const undeleted = this.state.versions(subject, false);
    let previous: SchemaValue[];
    if (versionText === undefined) previous = undeleted;
    else {
      const version = parseVersion(versionText);
      if (undeleted.length === 0 && version === 'latest') previous = [];
      else previous = [this.version(subject, versionText, false)];
    }
    const candidate = normalize ? this.parse(subject, request.schemaType, parsed.normalized(), request.references) : parsed;
    return this.compatibilityWithPrevious(subject, candidate, request.metadata, previous);
  }

  /**
   * Confluent's isCompatibleWithPrevious: with validateFields, the reserved fields (confluent:reserved) may not
   * be dropped from the latest version's metadata nor be fields; with a compatibilityGroup, only the versions
   * whose metadata has the same value of that property are checked.
   */
  private compatibilityWithPrevious(subject: string, parsed: ParsedSchema, metadata: Metadata | undefined, previous: readonly SchemaValue[]): string[] {
    const validateFields = this.configOf(subject, 'validateFields') ?? false;
    const first: string[] = [];
    if (validateFields) {
      const reserved = reservedFields(metadata);
      const latest = previous.at(-1);
      if (latest !== undefined) for (const field of reservedFields(latest.metadata)) if (!reserved.has(field)) first.push(reservedFieldRemoved(field));
      for (const field of reserved) if (parsed.hasTopLevelField(field)) first.push(fieldConflictsWithReserved(field));
    }
    const group = this.configOf(subject, 'compatibilityGroup');
    const groupValue = (m: Metadata | undefined) => (group === undefined ? undefined : m?.properties?.[group]);
    const checked = group === undefined ? previous : previous.filter((v) => groupValue(v.metadata) === groupValue(metadata));
    // LOGICAL (Confluent's Flink/Iceberg checks, not made here) is STRICT for the formats' own checks.
    const policy = this.configOf(subject, 'compatibilityPolicy') ?? 'STRICT';
    return incompatibilities(this.compatibility(subject), parsed, checked.map((v) => ({ schema: this.parseStored(v), version: v.version })), validateFields, first, policy);
  }

  // ---- deleting ----

  /** DELETE /subjects/{s}: the versions deleted. */
  deleteSubject(subject: string, permanent: boolean): Promise<number[]> {
    return this.write(async () => {
      if (!this.state.hasSubject(subject, true)) throw subjectNotFound(subject);
      if (!permanent && !this.state.hasSubject(subject, false)) throw subjectSoftDeleted(subject);
      this.readWrite(subject);
      const versions = this.state.versions(subject, permanent);
      for (const value of versions) {
        const others = this.referencedBy(subject, String(value.version), permanent).filter((id) => this.state.versionsOfId(contextOf(subject), id, true).some((v) => v.subject !== subject));
        if (others.length > 0) throw referenceExists(schemaKeyText(subject, value.version));
        if (permanent && !value.deleted) throw subjectNotSoftDeleted(subject);
      }
      const records: SchemasRecord[] = [];
      if (!permanent) {
        records.push({ key: encodeKey({ keytype: 'DELETE_SUBJECT', subject }), value: encodeValue({ subject, version: versions.at(-1)!.version }) });
      } else {
        for (const value of [...versions].reverse()) records.push({ key: encodeKey({ keytype: 'SCHEMA', subject, version: value.version }), value: null });
        if (this.state.modes.has(subject)) records.push({ key: encodeKey({ keytype: 'MODE', subject }), value: null });
        if (this.state.configs.has(subject)) records.push({ key: encodeKey({ keytype: 'CONFIG', subject }), value: null });
      }
      await this.append(records);
      return versions.map((v) => v.version);
    });
  }

  /** DELETE /subjects/{s}/versions/{v}: the version deleted. */
  deleteVersion(subject: string, versionText: string, permanent: boolean): Promise<number> {
    const parsedVersion = parseVersion(versionText);
    return this.write(async () => {
      if (!this.state.hasSubject(subject, true)) throw subjectNotFound(subject);
      const all = this.state.versions(subject, true);
      const value = parsedVersion === 'latest' ? this.state.versions(subject, false).at(-1) : all.find((v) => v.version === parsedVersion);
      if (value === undefined) throw versionNotFound(parsedVersion === 'latest' ? -1 : parsedVersion);
      if (!permanent && value.deleted) throw versionSoftDeleted(subject, value.version);
      this.readWrite(subject);
      if (this.referencedBy(subject, String(value.version), permanent).length > 0) throw referenceExists(schemaKeyText(subject, value.version));
      if (permanent && !value.deleted) throw versionNotSoftDeleted(subject, value.version);
      const key = encodeKey({ keytype: 'SCHEMA', subject, version: value.version });
      const records: SchemasRecord[] = [];
      if (!permanent) records.push({ key, value: encodeSchemaValue({ ...value, deleted: true }) });
      else {
        records.push({ key, value: null });
        if (all.length === 1) {
          if (this.state.modes.has(subject)) records.push({ key: encodeKey({ keytype: 'MODE', subject }), value: null });
          if (this.state.configs.has(subject)) records.push({ key: encodeKey({ keytype: 'CONFIG', subject }), value: null });
        }
      }
      await this.append(records);
      return value.version;
    });
  }

  private readWrite(subject: string): void {
    const mode = this.mode(subject, true);
    if (mode === 'READONLY' || mode === 'READONLY_OVERRIDE') throw operationNotPermitted(`Subject ${subject} in context ${contextText(subject)} is in read-only mode`);
  }
}

/** Confluent's SchemaKey.toString(), which its reference-exists message shows. */
function schemaKeyText(subject: string, version: number): string {
  return `{magic=1,keytype=SCHEMA,subject=${subject},version=${version}}`;
}

/** Whether two schemas carry the same metadata (confluent:version aside) and rule set. */
function sameContract(a: { metadata?: Metadata | undefined; ruleSet?: RuleSet | undefined }, b: { metadata?: Metadata | undefined; ruleSet?: RuleSet | undefined }): boolean {
  return contractKey(withoutConfluentVersion(a.metadata), a.ruleSet) === contractKey(withoutConfluentVersion(b.metadata), b.ruleSet);
}

/** Whether two parsed schemas are the same schema (Confluent's canLookup: equal canonical or normalized forms). */
function sameSchema(a: ParsedSchema, b: ParsedSchema, normalize = true): boolean {
  return a.canonical === b.canonical || (normalize && a.normalized() === b.normalized());
}

