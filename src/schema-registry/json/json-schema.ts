// JSON Schema for the registry: ajv checks a schema against its draft's meta-schema (draft-07 by default, 2019-09
// and 2020-12 by $schema); the text stored is the compact JSON (Confluent's canonicalString), the normalized one has
// its keys sorted. Compatibility is Confluent's JsonSchemaDiff for the common keywords (object properties and
// content models, required, additionalProperties, type, enum, string, number and array bounds, items), with its
// difference types, its STRICT set of compatible changes and its texts; combined types (oneOf/anyOf/allOf), $ref,
// dependencies and unevaluated* are compared as equal-or-changed only.
import { Ajv } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ParsedSchema, ResolvedReference, SchemaProvider } from '../schema-types.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

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

function sortKeys(value: Json): Json {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.keys(value).sort().map((key) => [key, sortKeys(value[key]!)]));
}

export class JsonSchema implements ParsedSchema {
  readonly schemaType = 'JSON' as const;
  readonly canonical: string;
  constructor(readonly json: Json) {
    this.canonical = JSON.stringify(json);
  }

  normalized(): string {
    return JSON.stringify(sortKeys(this.json));
  }

  isBackwardCompatible(previous: ParsedSchema): string[] {
    if (!(previous instanceof JsonSchema)) return ['Incompatible because of different schema type'];
    const differences: Difference[] = [];
    compare(previous.json, this.json, [], differences);
    return differences.filter((d) => !COMPATIBLE.has(d.type)).map(differenceText);
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
      ajv.removeSchema(json as object);
    }
    return new JsonSchema(json);
  },
};

// ---- Confluent's JsonSchemaDiff, for the common keywords ----

interface Difference {
  readonly type: string;
  readonly path: string;
}

/** Confluent's COMPATIBLE_CHANGES_STRICT (the default policy), for the difference types compared here. */
const COMPATIBLE = new Set([
  'ID_CHANGED', 'DESCRIPTION_CHANGED', 'TITLE_CHANGED', 'DEFAULT_CHANGED', 'SCHEMA_REMOVED', 'TYPE_EXTENDED',
  'MAX_LENGTH_INCREASED', 'MAX_LENGTH_REMOVED', 'MIN_LENGTH_DECREASED', 'MIN_LENGTH_REMOVED', 'PATTERN_REMOVED',
  'MAXIMUM_INCREASED', 'MAXIMUM_REMOVED', 'MINIMUM_DECREASED', 'MINIMUM_REMOVED', 'EXCLUSIVE_MAXIMUM_INCREASED',
  'EXCLUSIVE_MAXIMUM_REMOVED', 'EXCLUSIVE_MINIMUM_DECREASED', 'EXCLUSIVE_MINIMUM_REMOVED', 'MULTIPLE_OF_REDUCED',
  'MULTIPLE_OF_REMOVED', 'REQUIRED_ATTRIBUTE_WITH_DEFAULT_ADDED', 'REQUIRED_ATTRIBUTE_REMOVED', 'MAX_PROPERTIES_INCREASED',
  'MAX_PROPERTIES_REMOVED', 'MIN_PROPERTIES_DECREASED', 'MIN_PROPERTIES_REMOVED', 'ADDITIONAL_PROPERTIES_ADDED',
  'ADDITIONAL_PROPERTIES_EXTENDED', 'PROPERTY_WITH_EMPTY_SCHEMA_ADDED_TO_OPEN_CONTENT_MODEL',
  'REQUIRED_PROPERTY_WITH_DEFAULT_ADDED_TO_UNOPEN_CONTENT_MODEL', 'OPTIONAL_PROPERTY_ADDED_TO_UNOPEN_CONTENT_MODEL',
  'PROPERTY_WITH_FALSE_REMOVED_FROM_CLOSED_CONTENT_MODEL', 'PROPERTY_REMOVED_FROM_OPEN_CONTENT_MODEL',
  'MAX_ITEMS_INCREASED', 'MAX_ITEMS_REMOVED', 'MIN_ITEMS_DECREASED', 'MIN_ITEMS_REMOVED', 'UNIQUE_ITEMS_REMOVED',
  'ENUM_ARRAY_EXTENDED', 'COMBINED_TYPE_EXTENDED', 'SUM_TYPE_EXTENDED',
]);

const KEYWORD_ADDED = new Set(['MAXIMUM_ADDED', 'MINIMUM_ADDED', 'EXCLUSIVE_MAXIMUM_ADDED', 'EXCLUSIVE_MINIMUM_ADDED', 'MULTIPLE_OF_ADDED',
  'MAX_LENGTH_ADDED', 'MIN_LENGTH_ADDED', 'PATTERN_ADDED', 'REQUIRED_ATTRIBUTE_ADDED', 'MAX_PROPERTIES_ADDED', 'MIN_PROPERTIES_ADDED',
  'MAX_ITEMS_ADDED', 'MIN_ITEMS_ADDED', 'UNIQUE_ITEMS_ADDED', 'ADDITIONAL_PROPERTIES_REMOVED']);
const VALUE_INCREASED = new Set(['MIN_LENGTH_INCREASED', 'MINIMUM_INCREASED', 'EXCLUSIVE_MINIMUM_INCREASED', 'MIN_PROPERTIES_INCREASED', 'MIN_ITEMS_INCREASED']);
const VALUE_DECREASED = new Set(['MAX_LENGTH_DECREASED', 'MAXIMUM_DECREASED', 'MAX_ITEMS_DECREASED', 'EXCLUSIVE_MAXIMUM_DECREASED', 'MAX_PROPERTIES_DECREASED']);
const TYPE_NARROWED = new Set(['ENUM_ARRAY_NARROWED', 'ADDITIONAL_PROPERTIES_NARROWED', 'SUM_TYPE_NARROWED']);
const TYPE_CHANGED = new Set(['TYPE_CHANGED', 'TYPE_NARROWED', 'COMBINED_TYPE_CHANGED', 'ENUM_ARRAY_CHANGED']);

/** Confluent's json Difference.toString() (its description's closing quote is a ' as in its source). */
function differenceText(d: Difference): string {
  const path = d.path;
  let description = '';
  if (KEYWORD_ADDED.has(d.type)) description = `The keyword at path '${path}' in the %s schema is not present in the %s schema`;
  else if (VALUE_INCREASED.has(d.type)) description = `The value at path '${path}' in the %s schema is more than its value in the %s schema`;
  else if (VALUE_DECREASED.has(d.type)) description = `The value at path '${path}' in the %s schema is less than its value in the %s schema`;
  else if (d.type === 'PATTERN_CHANGED' || d.type === 'MULTIPLE_OF_CHANGED') description = `The value at path '${path}' is different between the %s and %s schema`;
  else if (TYPE_NARROWED.has(d.type)) description = `An array or combined type at path '${path}' has fewer elements in the %s schema than the %s schema`;
  else if (TYPE_CHANGED.has(d.type)) description = `A type at path '${path}' is different between the %s schema and the %s schema`;
  else if (d.type === 'REQUIRED_PROPERTY_ADDED_TO_OPEN_CONTENT_MODEL' || d.type === 'OPTIONAL_PROPERTY_ADDED_TO_OPEN_CONTENT_MODEL' || d.type === 'REQUIRED_PROPERTY_WITH_DEFAULT_ADDED_TO_OPEN_CONTENT_MODEL') {
    description = `The %s schema has an open content model and has a property or item at path '${path}' which is missing in the %s schema`;
  } else if (d.type === 'REQUIRED_PROPERTY_ADDED_TO_UNOPEN_CONTENT_MODEL') {
    description = `The %s schema has an unopen content model and has a required property at path '${path}' which is missing in the %s schema`;
  } else if (d.type === 'PROPERTY_REMOVED_FROM_CLOSED_CONTENT_MODEL') {
    description = `The %s has a closed content model and is missing a property or item present at path '${path}' in the %s schema`;
  }
  return `{errorType:"${d.type}", description:"${description}'}`;
}

const pathText = (path: readonly string[]) => `#/${path.join('/')}`;

function isObject(value: Json | undefined): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The JSON types a schema admits, from `type` or, without one, from the keywords it uses. */
function typesOf(schema: JsonObject): string[] {
  const type = schema['type'];
  if (typeof type === 'string') return [type === 'integer' ? 'number' : type];
  if (Array.isArray(type)) return [...new Set(type.map((t) => (t === 'integer' ? 'number' : String(t))))].sort();
  if ('properties' in schema || 'required' in schema || 'additionalProperties' in schema) return ['object'];
  if ('items' in schema) return ['array'];
  return [];
}

function compareBound(add: (type: string, at: string) => void, original: JsonObject, update: JsonObject, key: string, name: string): void {
  const a = original[key];
  const b = update[key];
  if (a === b) return;
  if (a === undefined) add(`${name}_ADDED`, key);
  else if (b === undefined) add(`${name}_REMOVED`, key);
  else if (typeof a === 'number' && typeof b === 'number') add(`${name}_${b > a ? 'INCREASED' : 'DECREASED'}`, key);
}

/** Confluent's SchemaDiff.compare(original, update) for the keywords above, differences appended to `out`. */
function compare(original: Json | undefined, update: Json | undefined, path: string[], out: Difference[]): void {
  const add = (type: string, ...at: string[]): void => void out.push({ type, path: pathText([...path, ...at]) });
  if (original === undefined && update === undefined) return;
  if (original === undefined) return add('SCHEMA_ADDED');
  if (update === undefined) return add('SCHEMA_REMOVED');
  if (typeof original === 'boolean' || typeof update === 'boolean') {
    if (original !== update && !(update === true || (isObject(update) && Object.keys(update).length === 0))) add('TYPE_CHANGED');
    return;
  }
  if (!isObject(original) || !isObject(update)) return;
  for (const [key, type] of [['$id', 'ID_CHANGED'], ['title', 'TITLE_CHANGED'], ['description', 'DESCRIPTION_CHANGED']] as const) {
    if (JSON.stringify(original[key]) !== JSON.stringify(update[key])) add(type);
  }
  if (JSON.stringify(original['default']) !== JSON.stringify(update['default'])) add('DEFAULT_CHANGED');
  if ('enum' in original || 'enum' in update) {
    const a = (original['enum'] ?? []) as Json[];
    const b = (update['enum'] ?? []) as Json[];
    const as = a.map((v) => JSON.stringify(v));
    const bs = b.map((v) => JSON.stringify(v));
    if (as.join() !== bs.join()) {
      if (as.every((v) => bs.includes(v))) add('ENUM_ARRAY_EXTENDED');
      else if (bs.every((v) => as.includes(v))) add('ENUM_ARRAY_NARROWED');
      else add('ENUM_ARRAY_CHANGED');
    }
    return;
  }
  const combined = ['oneOf', 'anyOf', 'allOf', 'not', '$ref'];
  if (combined.some((k) => k in original || k in update)) {
    if (JSON.stringify(combined.map((k) => original[k])) !== JSON.stringify(combined.map((k) => update[k]))) add('COMBINED_TYPE_CHANGED');
    return;
  }
  const a = typesOf(original);
  const b = typesOf(update);
  if (a.join() !== b.join()) {
    if (a.length > 0 && b.length > 0 && a.every((t) => b.includes(t))) add('TYPE_EXTENDED');
    else if (a.length > 0 && b.length > 0 && b.every((t) => a.includes(t))) add('TYPE_NARROWED');
    else if (b.length > 0) return add('TYPE_CHANGED');
  }
  const both = b.filter((t) => a.includes(t));
  if (both.includes('string')) {
    compareBound(add, original, update, 'maxLength', 'MAX_LENGTH');
    compareBound(add, original, update, 'minLength', 'MIN_LENGTH');
    if (original['pattern'] !== update['pattern']) add(original['pattern'] === undefined ? 'PATTERN_ADDED' : update['pattern'] === undefined ? 'PATTERN_REMOVED' : 'PATTERN_CHANGED', 'pattern');
  }
  if (both.includes('number')) {
    compareBound(add, original, update, 'maximum', 'MAXIMUM');
    compareBound(add, original, update, 'minimum', 'MINIMUM');
    compareBound(add, original, update, 'exclusiveMaximum', 'EXCLUSIVE_MAXIMUM');
    compareBound(add, original, update, 'exclusiveMinimum', 'EXCLUSIVE_MINIMUM');
  }
  if (both.includes('array')) {
    compareBound(add, original, update, 'maxItems', 'MAX_ITEMS');
    compareBound(add, original, update, 'minItems', 'MIN_ITEMS');
    if (original['uniqueItems'] !== update['uniqueItems']) add(update['uniqueItems'] === true ? 'UNIQUE_ITEMS_ADDED' : 'UNIQUE_ITEMS_REMOVED', 'uniqueItems');
    if (!Array.isArray(original['items']) && !Array.isArray(update['items'])) compare(original['items'] ?? true, update['items'] ?? true, [...path, 'items'], out);
  }
  if (both.includes('object')) compareObjects(original, update, path, out);
}

/** additionalProperties absent or true: any property may appear (Confluent's open content model, ignoring patterns). */
function isOpen(schema: JsonObject): boolean {
  const extra = schema['additionalProperties'];
  return (extra === undefined || extra === true) && !isObject(schema['patternProperties']);
}

function compareObjects(original: JsonObject, update: JsonObject, path: string[], out: Difference[]): void {
  const add = (type: string, ...at: string[]): void => void out.push({ type, path: pathText([...path, ...at]) });
  const props = (s: JsonObject) => (isObject(s['properties']) ? s['properties'] : {});
  const required = (s: JsonObject) => new Set(Array.isArray(s['required']) ? s['required'].map(String) : []);
  const [aProps, bProps, aReq, bReq] = [props(original), props(update), required(original), required(update)];
  const hasDefault = (s: Json | undefined) => isObject(s) && 'default' in s;
  for (const key of Object.keys(aProps)) {
    if (!(key in bProps)) continue;
    if (aReq.has(key) && !bReq.has(key)) add('REQUIRED_ATTRIBUTE_REMOVED', 'required', key);
    else if (!aReq.has(key) && bReq.has(key)) add(hasDefault(bProps[key]) ? 'REQUIRED_ATTRIBUTE_WITH_DEFAULT_ADDED' : 'REQUIRED_ATTRIBUTE_ADDED', 'required', key);
  }
  for (const key of [...new Set([...Object.keys(aProps), ...Object.keys(bProps)])]) {
    const before = aProps[key];
    const after = bProps[key];
    if (after === undefined) {
      if (isOpen(update)) add('PROPERTY_REMOVED_FROM_OPEN_CONTENT_MODEL', 'properties', key);
      else add(before === false ? 'PROPERTY_WITH_FALSE_REMOVED_FROM_CLOSED_CONTENT_MODEL' : 'PROPERTY_REMOVED_FROM_CLOSED_CONTENT_MODEL', 'properties', key);
    } else if (before === undefined) {
      if (isOpen(original)) {
        if (after === true || (isObject(after) && Object.keys(after).length === 0)) add('PROPERTY_WITH_EMPTY_SCHEMA_ADDED_TO_OPEN_CONTENT_MODEL', 'properties', key);
        else if (bReq.has(key)) add(hasDefault(after) ? 'REQUIRED_PROPERTY_WITH_DEFAULT_ADDED_TO_OPEN_CONTENT_MODEL' : 'REQUIRED_PROPERTY_ADDED_TO_OPEN_CONTENT_MODEL', 'properties', key);
        else add('OPTIONAL_PROPERTY_ADDED_TO_OPEN_CONTENT_MODEL', 'properties', key);
      } else if (bReq.has(key)) {
        add(hasDefault(after) ? 'REQUIRED_PROPERTY_WITH_DEFAULT_ADDED_TO_UNOPEN_CONTENT_MODEL' : 'REQUIRED_PROPERTY_ADDED_TO_UNOPEN_CONTENT_MODEL', 'properties', key);
      } else add('OPTIONAL_PROPERTY_ADDED_TO_UNOPEN_CONTENT_MODEL', 'properties', key);
    } else compare(before, after, [...path, 'properties', key], out);
  }
  const aExtra = original['additionalProperties'];
  const bExtra = update['additionalProperties'];
  const permits = (v: Json | undefined) => v !== false;
  if (permits(aExtra) !== permits(bExtra)) add(permits(bExtra) ? 'ADDITIONAL_PROPERTIES_ADDED' : 'ADDITIONAL_PROPERTIES_REMOVED', 'additionalProperties');
  else if (!isObject(aExtra) && isObject(bExtra)) add('ADDITIONAL_PROPERTIES_NARROWED', 'additionalProperties');
  else if (isObject(aExtra) && !isObject(bExtra)) add('ADDITIONAL_PROPERTIES_EXTENDED', 'additionalProperties');
  else if (isObject(aExtra) && isObject(bExtra)) compare(aExtra, bExtra, [...path, 'additionalProperties'], out);
  compareBound(add, original, update, 'maxProperties', 'MAX_PROPERTIES');
  compareBound(add, original, update, 'minProperties', 'MIN_PROPERTIES');
}
