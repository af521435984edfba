// A JSON schema as Confluent's JsonSchemaDiff sees it: the schema objects Everit's loader builds (Confluent loads
// drafts 4 to 7 with it, and translates 2019-09/2020-12 into the same classes). What decides a comparison is
// which class a schema becomes: a `type` gives its class (a list of types: an anyOf of one per type); without
// one, the keywords used give it (properties: an object, minLength: a string, ...); enum, const, not, allOf,
// anyOf and oneOf are classes of their own; several of these in one schema make a synthetic allOf, in Everit's
// order (enum, the combined keywords, not, const, the type's schema, then the schemas the left keywords imply).
// `$ref` (up to draft 7 its siblings are ignored; from 2019-09 they apply beside it) resolves within the
// document, to a schema reference by its name, or to a subschema's $id, lazily, so recursive schemas load.
import { hashMapOrder } from '../java-hash-order.js';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };
export type Criterion = 'allOf' | 'anyOf' | 'oneOf';

interface Common {
  readonly id?: string | undefined;
  readonly title?: string | undefined;
  readonly description?: string | undefined;
  /** The default's JSON text (undefined: no default). */
  readonly defaultValue?: string | undefined;
  readonly connectType?: Json | undefined;
  /** The schema's text, what tells two subschemas of a combined type apart. */
  readonly text: string;
}

export interface ObjectNode extends Common {
  readonly kind: 'object';
  readonly properties: Map<string, Node>;
  readonly required: readonly string[];
  readonly permitsAdditional: boolean;
  readonly additionalSchema?: Node | undefined;
  readonly patterns: readonly (readonly [RegExp, Node])[];
  readonly propertyDependencies: Map<string, readonly string[]>;
  readonly schemaDependencies: Map<string, Node>;
  readonly minProperties?: number | undefined;
  readonly maxProperties?: number | undefined;
  readonly unevaluated?: Node | undefined;
}

export interface ArrayNode extends Common {
  readonly kind: 'array';
  readonly allItems?: Node | undefined;
  readonly itemSchemas?: readonly Node[] | undefined;
  readonly permitsAdditional: boolean;
  readonly additionalSchema?: Node | undefined;
  readonly minItems?: number | undefined;
  readonly maxItems?: number | undefined;
  readonly uniqueItems: boolean;
  readonly minContains?: number | undefined;
  readonly maxContains?: number | undefined;
  readonly unevaluated?: Node | undefined;
}

export type Node = Common & (
  | { readonly kind: 'empty' | 'true' | 'false' | 'boolean' | 'null' | 'conditional' }
  | { readonly kind: 'string'; readonly minLength?: number | undefined; readonly maxLength?: number | undefined; readonly pattern?: string | undefined }
  | {
    readonly kind: 'number'; readonly integer: boolean; readonly minimum?: number | undefined; readonly maximum?: number | undefined;
    readonly exclusiveMinimum?: number | undefined; readonly exclusiveMaximum?: number | undefined; readonly multipleOf?: number | undefined;
  }
  | { readonly kind: 'enum'; readonly values: readonly string[] }
  | { readonly kind: 'const'; readonly value: string }
  | { readonly kind: 'combined'; readonly criterion: Criterion; readonly subschemas: readonly Node[] }
  | { readonly kind: 'not'; readonly schema: Node }
  | { readonly kind: 'ref'; readonly target: () => Node | undefined }
  | ObjectNode
  | ArrayNode
);

type Draft = 4 | 6 | 7 | 2019 | 2020;

const STRING_KEYWORDS = ['minLength', 'maxLength', 'pattern', 'format'];
const NUMBER_KEYWORDS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'];
const OBJECT_KEYWORDS = ['properties', 'required', 'minProperties', 'maxProperties', 'dependencies', 'patternProperties', 'additionalProperties', 'propertyNames'];
const ARRAY_KEYWORDS = ['items', 'additionalItems', 'minItems', 'maxItems', 'uniqueItems', 'contains'];
const MODERN_OBJECT_KEYWORDS = [...OBJECT_KEYWORDS, 'dependentRequired', 'dependentSchemas', 'unevaluatedProperties'];
const MODERN_ARRAY_KEYWORDS = [...ARRAY_KEYWORDS, 'prefixItems', 'minContains', 'maxContains', 'unevaluatedItems'];

export function isObject(value: Json | undefined): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function draftOf(schema: Json): Draft {
  const uri = isObject(schema) && typeof schema['$schema'] === 'string' ? schema['$schema'] : '';
  if (uri.includes('2020-12')) return 2020;
  if (uri.includes('2019-09')) return 2019;
  if (uri.includes('draft-04')) return 4;
  if (uri.includes('draft-06')) return 6;
  return 7;
}

const numberOrUndefined = (value: Json | undefined): number | undefined => (typeof value === 'number' ? value : undefined);

/** Loads a schema and the references it may name (by name, in the registry's order). */
export class SchemaModel {
  private readonly loaded = new Map<object, Node>();
  private readonly draft: Draft;
  readonly root: Node;

  constructor(private readonly json: Json, private readonly references: readonly { readonly name: string; readonly json: Json }[] = []) {
    this.draft = draftOf(json);
    this.root = this.load(json, json);
  }

  private get modern(): boolean {
    return this.draft >= 2019;
  }

  private load(raw: Json, document: Json): Node {
    if (raw === true) return { kind: 'true', text: 'true' };
    if (raw === false) return { kind: 'false', text: 'false' };
    if (!isObject(raw)) return { kind: 'empty', text: '{}' };
    const known = this.loaded.get(raw);
    if (known !== undefined) return known;
    const node = this.build(raw, document);
    this.loaded.set(raw, node);
    return node;
  }

  private build(raw: JsonObject, document: Json): Node {
    const left = new Set(Object.keys(raw));
    const consume = (keys: readonly string[]) => keys.forEach((key) => left.delete(key));
    const parts: Node[] = [];
    const child = (value: Json) => this.load(value, document);
    const text = JSON.stringify(raw);
    const hasRef = '$ref' in raw && typeof raw['$ref'] === 'string';
    if (hasRef) {
      const reference = raw['$ref'] as string;
      parts.push({ kind: 'ref', text: `$ref${text}`, target: () => this.resolve(reference, document) });
      consume(['$ref']);
    }
    // Up to draft 7 a $ref's siblings are ignored; from 2019-09 they apply beside it (an allOf of both).
    if (!hasRef || this.modern) {
      if (Array.isArray(raw['enum'])) {
        consume(['enum']);
        parts.push({ kind: 'enum', text: `enum${text}`, values: [...new Set(raw['enum'].map((v) => JSON.stringify(v)))] });
      }
      const criteria = hashMapOrder(['allOf', 'anyOf', 'oneOf'].filter((key) => Array.isArray(raw[key]))) as Criterion[];
      for (const criterion of criteria) {
        consume([criterion]);
        parts.push({ kind: 'combined', text: `${criterion}${text}`, criterion, subschemas: (raw[criterion] as Json[]).map(child) });
      }
      if ('not' in raw) {
        consume(['not']);
        parts.push({ kind: 'not', text: `not${text}`, schema: child(raw['not']!) });
      }
      if (this.draft !== 4 && 'const' in raw) {
        consume(['const']);
        parts.push({ kind: 'const', text: `const${text}`, value: JSON.stringify(raw['const']) });
      }
      const objectKeywords = this.modern ? MODERN_OBJECT_KEYWORDS : OBJECT_KEYWORDS;
      const arrayKeywords = this.modern ? MODERN_ARRAY_KEYWORDS : ARRAY_KEYWORDS;
      const ofType = (type: string): Node => {
        const text = `${JSON.stringify({ type })}${JSON.stringify(raw)}`;
        switch (type) {
          case 'string': consume(STRING_KEYWORDS); return this.stringNode(raw, text);
          case 'integer': consume(NUMBER_KEYWORDS); return this.numberNode(raw, text, true);
          case 'number': consume(NUMBER_KEYWORDS); return this.numberNode(raw, text, false);
          case 'boolean': return { kind: 'boolean', text };
          case 'null': return { kind: 'null', text };
          case 'array': consume(arrayKeywords); return this.arrayNode(raw, text, child);
          case 'object': consume(objectKeywords); return this.objectNode(raw, text, child);
          default: return { kind: 'empty', text };
        }
      };
      const type = raw['type'];
      if (typeof type === 'string') parts.push(ofType(type));
      else if (Array.isArray(type)) parts.push({ kind: 'combined', text, criterion: 'anyOf', subschemas: type.map((t) => ofType(String(t))) });
      consume(['type']);
      // 2019-09/2020-12 as Confluent translates them: an empty `properties` makes no object schema.
      if (this.modern && isObject(raw['properties']) && Object.keys(raw['properties']).length === 0) left.delete('properties');
      const has = (keys: readonly string[]) => keys.some((key) => left.has(key));
      if (has(arrayKeywords)) parts.push(ofType('array'));
      if (has(objectKeywords)) parts.push(ofType('object'));
      if (has(NUMBER_KEYWORDS)) parts.push(ofType('number'));
      if (has(STRING_KEYWORDS)) parts.push(ofType('string'));
      if (has(['if', 'then', 'else'])) parts.push({ kind: 'conditional', text });
    }
    const idKeyword = this.draft === 4 ? 'id' : '$id';
    const common: Common = {
      // 2019-09/2020-12: the root's $id is its base URI, which Confluent's translation does not carry as an id.
      id: typeof raw[idKeyword] === 'string' && !(this.modern && raw === this.json) ? (raw[idKeyword] as string) : undefined,
      title: typeof raw['title'] === 'string' ? raw['title'] : undefined,
      description: typeof raw['description'] === 'string' ? raw['description'] : undefined,
      defaultValue: 'default' in raw ? JSON.stringify(raw['default']) : undefined,
      connectType: raw['connect.type'],
      text,
    };
    if (parts.length === 0) return { kind: 'empty', ...common };
    if (parts.length === 1) return { ...parts[0]!, ...common };
    return { kind: 'combined', criterion: 'allOf', subschemas: parts, ...common };
  }

  private stringNode(raw: JsonObject, text: string): Node {
    return { kind: 'string', text, minLength: numberOrUndefined(raw['minLength']), maxLength: numberOrUndefined(raw['maxLength']), pattern: typeof raw['pattern'] === 'string' ? raw['pattern'] : undefined };
  }

  private numberNode(raw: JsonObject, text: string, integer: boolean): Node {
    return {
      kind: 'number', text, integer, minimum: numberOrUndefined(raw['minimum']), maximum: numberOrUndefined(raw['maximum']),
      // Draft 4's exclusiveMinimum/Maximum are flags on minimum/maximum, not limits of their own.
      exclusiveMinimum: numberOrUndefined(raw['exclusiveMinimum']), exclusiveMaximum: numberOrUndefined(raw['exclusiveMaximum']),
      multipleOf: numberOrUndefined(raw['multipleOf']),
    };
  }

  private objectNode(raw: JsonObject, text: string, child: (value: Json) => Node): ObjectNode {
    const properties = new Map<string, Node>();
    if (isObject(raw['properties'])) for (const [key, value] of Object.entries(raw['properties'])) properties.set(key, child(value));
    const extra = raw['additionalProperties'];
    const patterns: [RegExp, Node][] = [];
    if (isObject(raw['patternProperties'])) {
      for (const [pattern, value] of Object.entries(raw['patternProperties'])) {
        try {
          patterns.push([new RegExp(pattern, 'u'), child(value)]);
        } catch {
          patterns.push([new RegExp(pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')), child(value)]);
        }
      }
    }
    const propertyDependencies = new Map<string, readonly string[]>();
    const schemaDependencies = new Map<string, Node>();
    const dependencies = { ...(isObject(raw['dependencies']) ? raw['dependencies'] : {}) };
    if (this.modern) {
      Object.assign(dependencies, isObject(raw['dependentRequired']) ? raw['dependentRequired'] : {}, isObject(raw['dependentSchemas']) ? raw['dependentSchemas'] : {});
    }
    for (const [key, value] of Object.entries(dependencies)) {
      if (Array.isArray(value)) propertyDependencies.set(key, [...new Set(value.map(String))]);
      else schemaDependencies.set(key, child(value));
    }
    const unevaluated = raw['unevaluatedProperties'];
    return {
      kind: 'object', text, properties, required: Array.isArray(raw['required']) ? raw['required'].map(String) : [],
      permitsAdditional: extra !== false, additionalSchema: isObject(extra) ? child(extra) : undefined, patterns,
      propertyDependencies, schemaDependencies, minProperties: numberOrUndefined(raw['minProperties']), maxProperties: numberOrUndefined(raw['maxProperties']),
      unevaluated: this.modern && unevaluated !== undefined ? child(unevaluated) : undefined,
    };
  }

  private arrayNode(raw: JsonObject, text: string, child: (value: Json) => Node): ArrayNode {
    let items: Json | undefined = raw['items'];
    let additional: Json | undefined = raw['additionalItems'];
    let tuple: Json | undefined = Array.isArray(items) ? items : undefined;
    if (this.draft === 2020) {
      // 2020-12: prefixItems is the tuple, and items the schema of the items after it (true: as if absent; false:
      // no more items, whether or not there is a tuple).
      tuple = Array.isArray(raw['prefixItems']) ? raw['prefixItems'] : undefined;
      if (items === true) items = undefined;
      if (items === false || tuple !== undefined) {
        additional = items;
        items = undefined;
      }
    }
    const unevaluated = raw['unevaluatedItems'];
    return {
      kind: 'array', text,
      allItems: items !== undefined && !Array.isArray(items) ? child(items) : undefined,
      itemSchemas: Array.isArray(tuple) ? tuple.map(child) : undefined,
      permitsAdditional: additional !== false, additionalSchema: isObject(additional) ? child(additional) : undefined,
      minItems: numberOrUndefined(raw['minItems']), maxItems: numberOrUndefined(raw['maxItems']), uniqueItems: raw['uniqueItems'] === true,
      // Confluent's translation of 2019-09/2020-12 gives every `contains` its minContains (1 unless set).
      minContains: numberOrUndefined(raw['minContains']) ?? (this.modern && 'contains' in raw ? 1 : undefined),
      maxContains: numberOrUndefined(raw['maxContains']),
      unevaluated: this.modern && unevaluated !== undefined ? child(unevaluated) : undefined,
    };
  }

  /** A $ref: a JSON pointer in its document, a reference's name (and a pointer in it), or a subschema's $id. */
  private resolve(reference: string, document: Json): Node | undefined {
    const hash = reference.indexOf('#');
    const location = hash < 0 ? reference : reference.slice(0, hash);
    const pointer = hash < 0 ? '' : reference.slice(hash + 1);
    let target: Json | undefined = document;
    if (location !== '') {
      const bare = (name: string) => name.replace(/^\.\//, '');
      const named = this.references.find((r) => bare(r.name) === bare(location) || location.endsWith(`/${bare(r.name)}`));
      target = named?.json ?? findById(document, location);
      if (target === undefined) return undefined;
    }
    const found = evaluatePointer(target, pointer);
    return found === undefined ? undefined : this.load(found, location === '' ? document : target);
  }
}

function evaluatePointer(document: Json, pointer: string): Json | undefined {
  if (pointer === '' || pointer === '/') return document;
  if (!pointer.startsWith('/')) return findAnchor(document, pointer);
  const steps = pointer.slice(1).split('/').map((step) => decodeURIComponent(step).replace(/~1/g, '/').replace(/~0/g, '~'));
  let at: Json | undefined = document;
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i]!;
    if (Array.isArray(at)) at = at[Number(step)];
    else if (isObject(at)) {
      // Confluent copies top-level definitions into $defs, so #/$defs/X also finds a definitions entry.
      at = at[step] ?? (i === 0 && step === '$defs' && isObject(at['definitions']) ? at['definitions'] : undefined);
    } else return undefined;
    if (at === undefined) return undefined;
  }
  return at;
}

function findById(document: Json, id: string): Json | undefined {
  const walk = (value: Json): Json | undefined => {
    if (Array.isArray(value)) {
      for (const item of value) {
        const found = walk(item);
        if (found !== undefined) return found;
      }
    } else if (isObject(value)) {
      const own = value['$id'] ?? value['id'];
      if (typeof own === 'string' && (own === id || own.endsWith(`/${id}`))) return value;
      for (const item of Object.values(value)) {
        const found = walk(item);
        if (found !== undefined) return found;
      }
    }
    return undefined;
  };
  return walk(document);
}

function findAnchor(document: Json, anchor: string): Json | undefined {
  return findById(document, `#${anchor}`) ?? (() => {
    const walk = (value: Json): Json | undefined => {
      if (Array.isArray(value)) return value.map(walk).find((v) => v !== undefined);
      if (!isObject(value)) return undefined;
      if (value['$anchor'] === anchor) return value;
      return Object.values(value).map(walk).find((v) => v !== undefined);
    };
    return walk(document);
  })();
}
