// What the registry knows, rebuilt from the `_schemas` records alone (Confluent's KafkaStoreMessageHandler and
// lookup cache): each subject's versions (soft-deleted ones flagged), each id's schema, the compatibility and
// mode settings (global: subject null), and the highest id seen, which the next new schema's id follows.
import {
  decodeJson, decodeKey, decodeSchemaValue, type ConfigValue, type RegistryKey, type SchemaValue,
} from './schemas-records.js';
import { contractKey, type Metadata, type RuleSet } from './metadata.js';
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
  readonly schemasById = new Map<number, StoredSchema>();
  readonly idsByKey = new Map<string, number>();
  readonly configs = new Map<string | null, ConfigValue>();
  readonly modes = new Map<string | null, string>();
  maxId = 0;

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
          if (removed !== undefined) this.forgetUnused(removed.id);
          return;
        }
        const value = decodeSchemaValue(valueBytes);
        if (versions === undefined) this.subjects.set(key.subject, new Map([[key.version, value]]));
        else versions.set(key.version, value);
        const stored: StoredSchema = { schemaType: value.schemaType, references: value.references, metadata: value.metadata, ruleSet: value.ruleSet, schema: value.schema };
        if (!this.schemasById.has(value.id)) this.schemasById.set(value.id, stored);
        const lookup = schemaKey(stored);
        if (!this.idsByKey.has(lookup)) this.idsByKey.set(lookup, value.id);
        this.maxId = Math.max(this.maxId, value.id);
        return;
      }
      case 'CONFIG':
        if (valueBytes === null) this.configs.delete(key.subject);
        else this.configs.set(key.subject, decodeJson(valueBytes) as ConfigValue);
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
  private forgetUnused(id: number): void {
    for (const versions of this.subjects.values()) for (const value of versions.values()) if (value.id === id) return;
    const stored = this.schemasById.get(id);
    this.schemasById.delete(id);
    if (stored !== undefined && this.idsByKey.get(schemaKey(stored)) === id) this.idsByKey.delete(schemaKey(stored));
  }

  /** Every (subject, version) holding an id, soft-deleted ones only when asked. */
  versionsOfId(id: number, deleted: boolean): SchemaValue[] {
    const out: SchemaValue[] = [];
    for (const versions of this.subjects.values()) for (const value of versions.values()) if (value.id === id && (deleted || !value.deleted)) out.push(value);
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
