// The records of Confluent's `_schemas` topic: JSON keys and values as its KafkaStore writes them (Jackson's
// SchemaKey, ConfigKey, ModeKey, DeleteSubjectKey, ClearSubjectKey, NoopKey and their values), so a Confluent
// registry reading the topic gregor wrote, or gregor reading one Confluent wrote, sees the same subjects and ids.
import { readMetadata, readRuleSet, type Metadata, type RuleSet } from './metadata.js';
import type { SchemaReference, SchemaType } from './schema-types.js';

export type RegistryKey =
  | { readonly keytype: 'SCHEMA'; readonly subject: string; readonly version: number }
  | { readonly keytype: 'CONFIG' | 'MODE'; readonly subject: string | null }
  | { readonly keytype: 'DELETE_SUBJECT' | 'CLEAR_SUBJECT'; readonly subject: string }
  | { readonly keytype: 'CONTEXT'; readonly tenant: string; readonly context: string }
  | { readonly keytype: 'NOOP' };

export interface SchemaValue {
  readonly subject: string;
  readonly version: number;
  readonly id: number;
  readonly schemaType: SchemaType;
  readonly references: readonly SchemaReference[];
  readonly metadata?: Metadata | undefined;
  readonly ruleSet?: RuleSet | undefined;
  readonly schema: string;
  readonly deleted: boolean;
}

/** A config as Confluent's ConfigValue holds it (what gregor serves of it). */
export interface ConfigValue {
  readonly normalize?: boolean;
  readonly validateFields?: boolean;
  readonly compatibilityLevel?: string;
  readonly compatibilityPolicy?: string;
  readonly compatibilityGroup?: string;
  readonly defaultMetadata?: Metadata;
  readonly overrideMetadata?: Metadata;
  readonly defaultRuleSet?: RuleSet;
  readonly overrideRuleSet?: RuleSet;
}

export const CONFIG_FIELDS = ['normalize', 'validateFields', 'compatibilityLevel', 'compatibilityPolicy', 'compatibilityGroup', 'defaultMetadata', 'overrideMetadata', 'defaultRuleSet', 'overrideRuleSet'] as const;

/** A config in Confluent's order (its subject first, as its SubjectValue writes it), empty fields left out. */
export function configJson(subject: string | null, config: ConfigValue): Record<string, unknown> {
  const out: Record<string, unknown> = subject === null ? {} : { subject };
  for (const field of CONFIG_FIELDS) if (config[field] !== undefined && config[field] !== '') out[field] = config[field];
  return out;
}

/** A config record's value as read back (Confluent's, or gregor's older one without its subject). */
export function decodeConfigValue(bytes: Buffer): ConfigValue {
  const json = JSON.parse(bytes.toString('utf8')) as Record<string, unknown>;
  const flag = (key: string) => (typeof json[key] === 'boolean' ? { [key]: json[key] } : {});
  const text = (key: string) => (typeof json[key] === 'string' ? { [key]: json[key] } : {});
  const metadata = (key: string) => { const m = readMetadata(json[key]); return m === undefined ? {} : { [key]: m }; };
  const ruleSet = (key: string) => { const r = readRuleSet(json[key]); return r === undefined ? {} : { [key]: r }; };
  return {
    ...flag('normalize'), ...flag('validateFields'), ...text('compatibilityLevel'), ...text('compatibilityPolicy'), ...text('compatibilityGroup'),
    ...metadata('defaultMetadata'), ...metadata('overrideMetadata'), ...ruleSet('defaultRuleSet'), ...ruleSet('overrideRuleSet'),
  } as ConfigValue;
}

export type RegistryValue = SchemaValue | ConfigValue | { readonly mode: string } | { readonly subject: string; readonly version: number }
  | { readonly tenant: string; readonly context: string } | null;

export function encodeKey(key: RegistryKey): Buffer {
  switch (key.keytype) {
    case 'SCHEMA':
      return Buffer.from(JSON.stringify({ keytype: 'SCHEMA', subject: key.subject, version: key.version, magic: 1 }));
    case 'NOOP':
      return Buffer.from(JSON.stringify({ keytype: 'NOOP', magic: 0 }));
    case 'CONTEXT':
      return Buffer.from(JSON.stringify({ keytype: 'CONTEXT', tenant: key.tenant, context: key.context, magic: 0 }));
    default:
      return Buffer.from(JSON.stringify({ keytype: key.keytype, subject: key.subject, magic: 0 }));
  }
}

/**
 * A schema's type, references, metadata and rule set as Confluent writes them (in that order): no schemaType for
 * Avro (its default), no empty list, no metadata or rule set when there is none.
 */
export function typeAndReferences(value: { schemaType: SchemaType; references: readonly SchemaReference[]; metadata?: Metadata | undefined; ruleSet?: RuleSet | undefined }): Record<string, unknown> {
  return {
    ...(value.schemaType === 'AVRO' ? {} : { schemaType: value.schemaType }),
    ...(value.references.length === 0 ? {} : { references: value.references }),
    ...(value.metadata === undefined ? {} : { metadata: value.metadata }),
    ...(value.ruleSet === undefined ? {} : { ruleSet: value.ruleSet }),
  };
}

export function encodeSchemaValue(value: SchemaValue): Buffer {
  const { subject, version, id, schema, deleted } = value;
  return Buffer.from(JSON.stringify({ subject, version, id, ...typeAndReferences(value), schema, deleted }));
}

export function encodeValue(value: Exclude<RegistryValue, SchemaValue>): Buffer | null {
  return value === null ? null : Buffer.from(JSON.stringify(value));
}

/** The key of a record, or undefined for a key this registry does not know (Confluent's own extensions). */
export function decodeKey(bytes: Buffer): RegistryKey | undefined {
  const json = JSON.parse(bytes.toString('utf8')) as Record<string, unknown>;
  const keytype = json['keytype'];
  const subject = json['subject'];
  switch (keytype) {
    case 'SCHEMA':
      if (typeof subject !== 'string' || typeof json['version'] !== 'number') throw new Error('a SCHEMA key without subject or version');
      return { keytype, subject, version: json['version'] };
    case 'CONFIG':
    case 'MODE':
      return { keytype, subject: typeof subject === 'string' ? subject : null };
    case 'DELETE_SUBJECT':
    case 'CLEAR_SUBJECT':
      if (typeof subject !== 'string') throw new Error(`a ${keytype} key without subject`);
      return { keytype, subject };
    case 'NOOP':
      return { keytype };
    case 'CONTEXT':
      if (typeof json['context'] !== 'string') throw new Error('a CONTEXT key without context');
      return { keytype, tenant: typeof json['tenant'] === 'string' ? json['tenant'] : 'default', context: json['context'] };
    default:
      return undefined;
  }
}

export function decodeSchemaValue(bytes: Buffer): SchemaValue {
  const json = JSON.parse(bytes.toString('utf8')) as Record<string, unknown>;
  return {
    subject: json['subject'] as string,
    version: json['version'] as number,
    id: json['id'] as number,
    schemaType: (json['schemaType'] as SchemaType | undefined) ?? 'AVRO',
    references: (json['references'] as SchemaReference[] | undefined) ?? [],
    metadata: readMetadata(json['metadata']),
    ruleSet: readRuleSet(json['ruleSet']),
    schema: json['schema'] as string,
    deleted: json['deleted'] === true,
  };
}

export function decodeJson(bytes: Buffer): Record<string, unknown> {
  return JSON.parse(bytes.toString('utf8')) as Record<string, unknown>;
}
