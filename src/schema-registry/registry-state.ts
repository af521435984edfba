// What the registry knows, rebuilt from the `_schemas` records alone (Confluent's KafkaStoreMessageHandler and
// lookup cache): each subject's versions (soft-deleted ones flagged), each id's schema, the compatibility and
// mode settings (global: subject null), and the highest id seen, which the next new schema's id follows.
import {
  decodeConfigValue, decodeJson, decodeKey, decodeSchemaValue, type ConfigValue, type RegistryKey, type SchemaValue,
} from './schemas-records.js';
import { contractKey, type Metadata, type RuleSet } from './metadata.js';
import { contextOf } from './contexts.js';
import type { SchemaReference, SchemaType } from './schema-types.js';

export interface StoredSchema {
  readonly schemaType: SchemaType;
  readonly references: readonly SchemaReference[];
  readonly metadata?: Metadata | undefined;
  readonly ruleSet?: RuleSet | undefined;
  readonly schema: string;
}

/** The lookup key of a schema: the same text, type, references, metadata and rule set are the same schema (one id). */
export function schemaKey(schema: StoredSchema): string {
  return JSON.stringify([schema.schemaType, schema.schema, schema.references.map((r) => [r.name, r.subject, r.version]), contractKey(schema.metadata, schema.ruleSet)]);
}

export class RegistryState {
  readonly subjects = new Map<string, Map<number, SchemaValue>>();
  /** Per context (Confluent's ids are numbered per context): each id's schema, each schema's id, the highest id. */
  private readonly schemasById = new Map<string, Map<number, StoredSchema>>();
  private readonly idsByKey = new Map<string, Map<string, number>>();
  private readonly maxIds = new Map<string, number>();
  readonly configs = new Map<string | null, ConfigValue>();
  readonly modes = new Map<string | null, string>();
  /** The contexts CONTEXT records named (Confluent writes one when a context's first schema is registered). */
  readonly contexts = new Set<string>();

  schemaById(context: string, id: number): StoredSchema | undefined {
    return this.schemasById.get(context)?.get(id);
  }

  idOf(context: string, schema: StoredSchema): number | undefined {
    return this.idsByKey.get(context)?.get(schemaKey(schema));
  }

  maxId(context: string): number {
    return this.maxIds.get(context) ?? 0;
  }

  private inContext<V>(map: Map<string, Map<V, unknown>>, context: string): Map<V, unknown> {
    let inner = map.get(context);
    if (inner === undefined) map.set(context, (inner = new Map()));
    return inner;
  }

  /** Applies one record of the topic (a tombstone: value null). Throws on a record it cannot read. */
  apply(keyBytes: Buffer, valueBytes: Buffer | null): void {
    const key = decodeKey(keyBytes);
    if (key === undefined) return;
    this.applyKey(key, valueBytes);
  }

  private applyKey(key: RegistryKey, valueBytes: Buffer | null): void {
    switch (key.keytype) {
      case 'SCHEMA': {
        const versions = this.subjects.get(key.subject);
        if (valueBytes === null) {
          const removed = versions?.get(key.version);
          versions?.delete(key.version);
          if (versions?.size === 0) this.subjects.delete(key.subject);
          if (removed !== undefined) this.forgetUnused(contextOf(key.subject), removed.id);
          return;
        }
        const value = decodeSchemaValue(valueBytes);
        if (versions === undefined) this.subjects.set(key.subject, new Map([[key.version, value]]));
        else versions.set(key.version, value);
        const stored: StoredSchema = { schemaType: value.schemaType, references: value.references, metadata: value.metadata, ruleSet: value.ruleSet, schema: value.schema };
        const context = contextOf(key.subject);
        const byId = this.inContext(this.schemasById, context) as Map<number, StoredSchema>;
        if (!byId.has(value.id)) byId.set(value.id, stored);
        const byKey = this.inContext(this.idsByKey, context) as Map<string, number>;
        const lookup = schemaKey(stored);
        if (!byKey.has(lookup)) byKey.set(lookup, value.id);
        this.maxIds.set(context, Math.max(this.maxId(context), value.id));
        return;
      }
      case 'CONTEXT':
        if (valueBytes === null) this.contexts.delete(key.context);
        else this.contexts.add(key.context);
        return;
      case 'CONFIG':
        if (valueBytes === null) this.configs.delete(key.subject);
        else this.configs.set(key.subject, decodeConfigValue(valueBytes));
        return;
      case 'MODE': {
        const mode = valueBytes === null ? undefined : decodeJson(valueBytes)['mode'];
        if (typeof mode === 'string') this.modes.set(key.subject, mode);
        else this.modes.delete(key.subject);
        return;
      }
      case 'DELETE_SUBJECT': {
        const until = valueBytes === null ? 0 : (decodeJson(valueBytes)['version'] as number);
        for (const [version, value] of this.subjects.get(key.subject) ?? []) {
          if (version <= until && !value.deleted) this.subjects.get(key.subject)!.set(version, { ...value, deleted: true });
        }
        return;
      }
      case 'CLEAR_SUBJECT': {
        const versions = this.subjects.get(key.subject);
        for (const [version, value] of versions ?? []) if (value.deleted) versions!.delete(version);
        if (versions?.size === 0) this.subjects.delete(key.subject);
        return;
      }
      case 'NOOP':
        return;
    }
  }

  /** A hard-deleted version's id, once no version holds it: unknown (its number is not given again). */
  private forgetUnused(context: string, id: number): void {
    if (this.versionsOfId(context, id, true).length > 0) return;
    const stored = this.schemaById(context, id);
    this.schemasById.get(context)?.delete(id);
    if (stored !== undefined && this.idOf(context, stored) === id) this.idsByKey.get(context)?.delete(schemaKey(stored));
  }

  /** Every (subject, version) of a context holding an id, soft-deleted ones only when asked. */
  versionsOfId(context: string, id: number, deleted: boolean): SchemaValue[] {
    const out: SchemaValue[] = [];
    for (const [subject, versions] of this.subjects) {
      if (contextOf(subject) !== context) continue;
      for (const value of versions.values()) if (value.id === id && (deleted || !value.deleted)) out.push(value);
    }
    return out.sort((a, b) => (a.subject < b.subject ? -1 : a.subject > b.subject ? 1 : a.version - b.version));
  }

  /** A subject's versions in ascending order, soft-deleted ones only when asked. */
  versions(subject: string, deleted: boolean): SchemaValue[] {
    const versions = [...(this.subjects.get(subject)?.values() ?? [])].filter((v) => deleted || !v.deleted);
    return versions.sort((a, b) => a.version - b.version);
  }

  hasSubject(subject: string, deleted: boolean): boolean {
    return this.versions(subject, deleted).length > 0;
  }
}
