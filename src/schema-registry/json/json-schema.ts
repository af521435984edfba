// JSON Schema for the registry: ajv checks a schema against its draft's meta-schema (draft-07 by default, 2019-09
// and 2020-12 by $schema); the text stored is the compact JSON as Jackson writes it (Confluent's canonicalString:
// exact decimals), the normalized one has its keys sorted. Compatibility is Confluent's JsonSchemaDiff (json-schema-diff.ts) over the schema as Confluent's
// loader models it (json-schema-model.ts), with its STRICT set of compatible changes and its texts.
import { Ajv } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ParsedSchema, ResolvedReference, SchemaProvider } from '../schema-types.js';

import { SchemaModel, type Json } from './json-schema-model.js';
import { JavaDecimal, javaJson, parseKeepingDecimals } from '../java-json.js';
import { COMPATIBLE, COMPATIBLE_LENIENT, compareSchemas, differenceText } from './json-schema-diff.js';

const ajvs = new Map<string, Ajv>();
function validatorFor(schema: Json): Ajv {
  const draft = typeof schema === 'object' && schema !== null && !Array.isArray(schema) && typeof schema['$schema'] === 'string' ? schema['$schema'] : '';
  const kind = draft.includes('2020-12') ? '2020' : draft.includes('2019-09') ? '2019' : '7';
  let ajv = ajvs.get(kind);
  if (ajv === undefined) {
    const options = { strict: false, validateFormats: false, allErrors: false };
    ajv = kind === '2020' ? new Ajv2020(options) : kind === '2019' ? new Ajv2019(options) : new Ajv(options);
    ajvs.set(kind, ajv);
  }
  return ajv;
}

/** Keys sorted at every level (Confluent's SortingNodeFactory); a kept number stays as it is. */
function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object' || value instanceof JavaDecimal) return value;
  const object = value as Record<string, unknown>;
  return Object.fromEntries(Object.keys(object).sort().map((key) => [key, sortKeys(object[key])]));
}

export class JsonSchema implements ParsedSchema {
  readonly schemaType = 'JSON' as const;
  readonly canonical: string;
  private model: SchemaModel | undefined;
  /**
   * `exact` is the schema with its numbers as Jackson reads them (exact decimals): what the texts are written from,
   * as Confluent writes them (`1.0` stays `1.0`).
   */
  constructor(readonly json: Json, private readonly references: readonly ResolvedReference[] = [], private readonly exact: unknown = json) {
    this.canonical = javaJson(exact);
  }

  /** The schema as Confluent's diff sees it, loaded on the first comparison. */
  get root() {
    this.model ??= new SchemaModel(this.json, this.references.map((r) => ({ name: r.name, json: JSON.parse(r.schema) as Json })));
    return this.model.root;
  }

  normalized(): string {
    return javaJson(sortKeys(this.exact));
  }

  /** A name under the root's `properties` (JsonSchema.hasTopLevelField). */
  hasTopLevelField(name: string): boolean {
    const json = this.json;
    if (json === null || typeof json !== 'object' || Array.isArray(json)) return false;
    const properties = json['properties'];
    return properties !== null && typeof properties === 'object' && !Array.isArray(properties) && Object.hasOwn(properties, name);
  }

  isBackwardCompatible(previous: ParsedSchema, policy = 'STRICT'): string[] {
    if (!(previous instanceof JsonSchema)) return ['Incompatible because of different schema type'];
    const compatible = policy === 'LENIENT' ? COMPATIBLE_LENIENT : COMPATIBLE;
    return compareSchemas(previous.root, this.root, compatible).filter((d) => !compatible.has(d.type)).map(differenceText);
  }
}

export const jsonProvider: SchemaProvider = {
  parse(text: string, references: readonly ResolvedReference[]): JsonSchema {
    const json = JSON.parse(text) as Json;
    if (typeof json !== 'boolean' && (json === null || typeof json !== 'object' || Array.isArray(json))) throw new Error('a JSON schema is an object or a boolean');
    const ajv = validatorFor(json);
    // A reference is reachable by its name (Confluent resolves $ref to a reference's name the same way).
    const added: string[] = [];
    try {
      for (const reference of references) {
        if (ajv.getSchema(reference.name) === undefined) {
          ajv.addSchema(JSON.parse(reference.schema) as object, reference.name);
          added.push(reference.name);
        }
      }
      if (!ajv.validateSchema(json as object)) throw new Error(ajv.errorsText(ajv.errors));
      ajv.compile(json as object);
    } finally {
      for (const name of added) ajv.removeSchema(name);
      if (typeof json === 'object') ajv.removeSchema(json as object);
    }
    return new JsonSchema(json, references, parseKeepingDecimals(text));
  },
};

