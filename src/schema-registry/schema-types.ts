// What the registry asks of a schema format (Confluent's SchemaProvider and ParsedSchema): parse a schema text
// with its resolved references, the text to store (canonical) or, with `normalize`, the normalized one, and the
// reasons a schema cannot read another (isBackwardCompatible, Confluent's Difference texts with %s for "new"/"old").

export type SchemaType = 'AVRO' | 'JSON' | 'PROTOBUF';
export const SCHEMA_TYPES: readonly SchemaType[] = ['JSON', 'PROTOBUF', 'AVRO'];

export interface SchemaReference {
  readonly name: string;
  readonly subject: string;
  readonly version: number;
}

/** A reference resolved to the text it names, in dependency order (a reference's own references first). */
export interface ResolvedReference {
  readonly name: string;
  readonly schema: string;
  /** The subject and version it was read from (Protobuf's diff compares a type from two references only when they differ). */
  readonly subject?: string;
  readonly version?: number;
}

export interface ParsedSchema {
  readonly schemaType: SchemaType;
  /** What Confluent stores and returns (canonicalString). */
  readonly canonical: string;
  /** Confluent's normalize(): the canonical text of the normalized schema. */
  normalized(): string;
  /** Whether the schema has a top-level field of this name (what a reserved field may not be). */
  hasTopLevelField(name: string): boolean;
  /**
   * The reasons this schema, as reader (or the new one), cannot stand for `previous` (empty: compatible), under
   * a compatibility policy (STRICT by default; LENIENT changes what JSON Schema allows).
   */
  isBackwardCompatible(previous: ParsedSchema, policy?: string): string[];
}

export interface SchemaProvider {
  /** Throws an Error whose message is the parser's reason. */
  parse(text: string, references: readonly ResolvedReference[]): ParsedSchema;
}
