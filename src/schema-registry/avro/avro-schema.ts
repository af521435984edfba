// Avro schemas for the registry: avsc parses and checks the schema (names, defaults, types), then the model
// (avro-model.ts) gives Java Avro's canonical string, Confluent's normalized form and Avro's compatibility.
import avsc from 'avsc';
import type { ParsedSchema, ResolvedReference, SchemaProvider } from '../schema-types.js';
import { buildModel, type AvroNode, type NamedTypes } from './avro-model.js';
import { canonicalText, normalizedText } from './avro-text.js';
import { parseKeepingDoubles } from '../java-json.js';
import { differenceText, readerWriterIncompatibilities } from './avro-compatibility.js';

export class AvroSchema implements ParsedSchema {
  readonly schemaType = 'AVRO' as const;
  readonly canonical: string;

  constructor(readonly node: AvroNode, private readonly referencedNames: readonly string[]) {
    this.canonical = canonicalText(node, referencedNames);
  }

  normalized(): string {
    return normalizedText(this.node, this.referencedNames);
  }

  /** A record's field (AvroSchema.hasTopLevelField). */
  hasTopLevelField(name: string): boolean {
    return this.node.type === 'record' && this.node.fields.some((f) => f.name === name);
  }

  isBackwardCompatible(previous: ParsedSchema): string[] {
    if (!(previous instanceof AvroSchema)) return ['Incompatible because of different schema type'];
    try {
      return readerWriterIncompatibilities(this.node, previous.node).map(differenceText);
    } catch (error) {
      return [`Unexpected exception during compatibility check: ${(error as Error).message}`];
    }
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    // A bare name ("string", or a referenced type's name) as Java's parser accepts it unquoted is not JSON.
    if (/^[A-Za-z_][A-Za-z0-9_.]*$/.test(text.trim())) return text.trim();
    throw error;
  }
}

export const avroProvider: SchemaProvider = {
  parse(text: string, references: readonly ResolvedReference[]): AvroSchema {
    const registry: Record<string, avsc.Type> = {};
    const names: NamedTypes = new Map();
    for (const reference of references) {
      const json = parseJson(reference.schema);
      avsc.Type.forSchema(json as avsc.Schema, { registry });
      buildModel(json, names);
    }
    const referencedNames = [...names.keys()];
    const json = parseJson(text);
    avsc.Type.forSchema(json as avsc.Schema, { registry });
    // The model reads doubles as Java does, so the stored text prints them as Confluent's does.
    return new AvroSchema(buildModel(typeof json === 'string' ? json : parseKeepingDoubles(text), names), referencedNames);
  },
};
