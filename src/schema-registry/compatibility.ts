// Confluent's compatibility levels (CompatibilityChecker + SchemaValidatorBuilder): which previous versions a new
// schema is checked against (the latest, or all of them newest first), in which direction (the new one reads
// the old: BACKWARD; the old reads the new: FORWARD; both: FULL), and the messages of a refusal.
import type { ParsedSchema } from './schema-types.js';

export const COMPATIBILITY_LEVELS = ['NONE', 'BACKWARD', 'BACKWARD_TRANSITIVE', 'FORWARD', 'FORWARD_TRANSITIVE', 'FULL', 'FULL_TRANSITIVE'] as const;
export type CompatibilityLevel = (typeof COMPATIBILITY_LEVELS)[number];

export function compatibilityLevel(text: unknown): CompatibilityLevel | undefined {
  return typeof text === 'string' ? COMPATIBILITY_LEVELS.find((level) => level === text.toUpperCase()) : undefined;
}

/** A previous version: its schema and version number (what the messages name). */
export interface Previous {
  readonly schema: ParsedSchema;
  readonly version: number;
}

const MAX_SCHEMA_SIZE_FOR_LOGGING = 10 * 1024;

function format(messages: string[], reader: string, writer: string, existing: Previous | undefined): string[] {
  if (messages.length === 0) return messages;
  const out = messages.map((m) => m.replace('%s', reader).replace('%s', writer));
  if (existing !== undefined) {
    out.push(`{oldSchemaVersion: ${existing.version}}`);
    const text = existing.schema.canonical;
    out.push(text.length <= MAX_SCHEMA_SIZE_FOR_LOGGING ? `{oldSchema: '${text}'}` : `{oldSchema: <truncated> '${text.slice(0, MAX_SCHEMA_SIZE_FOR_LOGGING)}...'}`);
  }
  return out;
}

function validate(level: CompatibilityLevel, schema: ParsedSchema, existing: Previous, policy: string): string[] {
  if (schema.schemaType !== existing.schema.schemaType) return ['Incompatible because of different schema type'];
  if (level.startsWith('BACKWARD')) return format(schema.isBackwardCompatible(existing.schema, policy), 'new', 'old', existing);
  if (level.startsWith('FORWARD')) return format(existing.schema.isBackwardCompatible(schema, policy), 'old', 'new', existing);
  const out = format(existing.schema.isBackwardCompatible(schema, policy), 'old', 'new', undefined);
  return out.concat(format(schema.isBackwardCompatible(existing.schema, policy), 'new', 'old', existing));
}

/** Confluent's texts for a reserved field (a schema's confluent:reserved metadata) removed or used. */
export const reservedFieldRemoved = (field: string) => `The new schema has reserved field ${field} removed from its metadata which is present in the old schema's metadata.`;
export const fieldConflictsWithReserved = (field: string) => `The new schema has field that conflicts with the reserved field ${field}.`;

/**
 * The reasons `schema` is refused at `level` against `previous` (oldest first); empty when compatible. `first`
 * are reasons found before (the reserved fields' checks). A refusal ends with Confluent's
 * "{validateFields: 'false', compatibility: 'LEVEL'}".
 */
export function incompatibilities(level: CompatibilityLevel, schema: ParsedSchema, previous: readonly Previous[], validateFields = false, first: readonly string[] = [], policy = 'STRICT'): string[] {
  const messages = [...first, ...levelIncompatibilities(level, schema, previous, policy)];
  if (messages.length > 0) messages.push(`{validateFields: '${validateFields}', compatibility: '${level}'}`);
  return messages;
}

function levelIncompatibilities(level: CompatibilityLevel, schema: ParsedSchema, previous: readonly Previous[], policy: string): string[] {
  if (level === 'NONE' || previous.length === 0) return [];
  const newestFirst = [...previous].reverse();
  let messages: string[] = [];
  if (level.endsWith('_TRANSITIVE')) {
    for (const existing of newestFirst) {
      messages = validate(level, schema, existing, policy);
      if (messages.length > 0) break;
    }
  } else messages = validate(level, schema, newestFirst[0]!, policy);
  return messages;
}
