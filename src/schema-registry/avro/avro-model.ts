// An Avro schema as Java's Avro holds it after parsing (Schema.Parser): named types resolved to one object each
// (so a recursive type is a cycle), namespaces inherited, the other attributes kept as props in their order.
// avsc checks a schema first (avro-schema.ts); this model is what the canonical string, the normalized form and
// the compatibility check read, as Confluent's registry reads Java's Schema.

export type Primitive = 'null' | 'boolean' | 'int' | 'long' | 'float' | 'double' | 'bytes' | 'string';
export const PRIMITIVES: readonly string[] = ['null', 'boolean', 'int', 'long', 'float', 'double', 'bytes', 'string'];

export type Props = [string, unknown][];

export interface AvroName {
  readonly name: string;
  /** null: the null namespace. */
  readonly space: string | null;
  readonly full: string;
}

export interface AvroField {
  readonly name: string;
  readonly type: AvroNode;
  readonly doc: string | undefined;
  readonly hasDefault: boolean;
  readonly default: unknown;
  readonly order: 'ascending' | 'descending' | 'ignore';
  readonly aliases: readonly string[];
  readonly props: Props;
  readonly pos: number;
}

export type AvroNode =
  | { readonly type: Primitive; readonly props: Props }
  | { readonly type: 'array'; readonly items: AvroNode; readonly props: Props }
  | { readonly type: 'map'; readonly values: AvroNode; readonly props: Props }
  | { readonly type: 'union'; readonly types: readonly AvroNode[] }
  | AvroNamed;

export type AvroNamed = AvroRecord | AvroEnum | AvroFixed;

interface NamedBase {
  readonly name: AvroName;
  readonly doc: string | undefined;
  readonly aliases: readonly AvroName[];
  readonly props: Props;
}
export interface AvroRecord extends NamedBase {
  readonly type: 'record';
  readonly isError: boolean;
  fields: AvroField[];
}
export interface AvroEnum extends NamedBase {
  readonly type: 'enum';
  readonly symbols: readonly string[];
  readonly default: string | undefined;
}
export interface AvroFixed extends NamedBase {
  readonly type: 'fixed';
  readonly size: number;
}

export function isNamed(node: AvroNode): node is AvroNamed {
  return node.type === 'record' || node.type === 'enum' || node.type === 'fixed';
}

/** Java's Schema.getName(): a named type's short name, a union's "union", else the type's name. */
export function typeName(node: AvroNode): string {
  return isNamed(node) ? node.name.name : node.type;
}

const SCHEMA_RESERVED = new Set(['type', 'name', 'namespace', 'fields', 'items', 'size', 'symbols', 'values', 'aliases', 'doc', 'default']);
const FIELD_RESERVED = new Set(['name', 'type', 'doc', 'default', 'order', 'aliases']);

function propsOf(json: Record<string, unknown>, reserved: Set<string>): Props {
  return Object.entries(json).filter(([key]) => !reserved.has(key));
}

export function makeName(name: string, space: string | null): AvroName {
  const dot = name.lastIndexOf('.');
  if (dot >= 0) return { name: name.slice(dot + 1), space: name.slice(0, dot) === '' ? null : name.slice(0, dot), full: name };
  const ns = space === '' ? null : space;
  return { name, space: ns, full: ns === null ? name : `${ns}.${name}` };
}

/** The named types known while parsing: those of the references first, then the schema's own. */
export type NamedTypes = Map<string, AvroNamed>;

/**
 * Builds the model of a JSON schema avsc has accepted (so shapes are not checked again here).
 * `names` gains the schema's named types.
 */
export function buildModel(json: unknown, names: NamedTypes, space: string | null = null): AvroNode {
  if (typeof json === 'string') {
    if (PRIMITIVES.includes(json)) return { type: json as Primitive, props: [] };
    const found = names.get(makeName(json, space).full) ?? names.get(json);
    if (found === undefined) throw new Error(`"${json}" is not a defined name.`);
    return found;
  }
  if (Array.isArray(json)) return { type: 'union', types: json.map((branch) => buildModel(branch, names, space)) };
  const object = json as Record<string, unknown>;
  const type = object['type'];
  if (typeof type !== 'string') return buildModel(type, names, space);
  switch (type) {
    case 'record':
    case 'error': {
      const record: AvroRecord = { type: 'record', isError: type === 'error', ...namedBase(object, space), fields: [] };
      names.set(record.name.full, record);
      const fields = (object['fields'] as Record<string, unknown>[]) ?? [];
      record.fields = fields.map((field, pos) => ({
        name: field['name'] as string,
        type: buildModel(field['type'], names, record.name.space),
        doc: field['doc'] as string | undefined,
        hasDefault: 'default' in field,
        default: field['default'],
        order: (field['order'] as AvroField['order'] | undefined) ?? 'ascending',
        aliases: (field['aliases'] as string[] | undefined) ?? [],
        props: propsOf(field, FIELD_RESERVED),
        pos,
      }));
      return record;
    }
    case 'enum': {
      const node: AvroEnum = { type: 'enum', ...namedBase(object, space), symbols: object['symbols'] as string[], default: object['default'] as string | undefined };
      names.set(node.name.full, node);
      return node;
    }
    case 'fixed': {
      const node: AvroFixed = { type: 'fixed', ...namedBase(object, space), size: object['size'] as number };
      names.set(node.name.full, node);
      return node;
    }
    case 'array':
      return { type: 'array', items: buildModel(object['items'], names, space), props: propsOf(object, SCHEMA_RESERVED) };
    case 'map':
      return { type: 'map', values: buildModel(object['values'], names, space), props: propsOf(object, SCHEMA_RESERVED) };
    default:
      if (PRIMITIVES.includes(type)) return { type: type as Primitive, props: propsOf(object, SCHEMA_RESERVED) };
      return buildModel(type, names, space);
  }
}

function namedBase(object: Record<string, unknown>, space: string | null): NamedBase {
  const namespace = object['namespace'];
  const name = makeName(object['name'] as string, typeof namespace === 'string' ? namespace : space);
  const aliases = ((object['aliases'] as string[] | undefined) ?? []).map((alias) => makeName(alias, name.space));
  return { name, doc: object['doc'] as string | undefined, aliases, props: propsOf(object, SCHEMA_RESERVED) };
}
