// The two texts of an Avro schema the registry stores: Java Avro's Schema.toString(references, false) (Confluent's
// canonicalString: compact, attributes in Avro's order, a named type written in full once and by name after, the
// references' types by name), and Confluent's normalized form (AvroSchemaUtils.toNormalizedString: full names,
// name first, props sorted, field order and defaults written out), which `normalize=true` stores instead.
import { PRIMITIVES, typeName, type AvroName, type AvroNode, type Props } from './avro-model.js';
import { javaJson } from '../java-json.js';

/** Jackson's JSON: a default or prop written as a double keeps Java's form (1.0, 1.0E10). */
const json = (value: unknown): string => javaJson(value);

function props(list: Props): string {
  return list.map(([key, value]) => `,${json(key)}:${json(value)}`).join('');
}

/** Java's Name.getQualified: the short name inside its own namespace, unless it is also a type's name. */
function qualified(name: AvroName, space: string | null): string {
  return name.space !== null && name.space === space && !PRIMITIVES.includes(name.name) && !['record', 'enum', 'fixed', 'array', 'map', 'union', 'error'].includes(name.name)
    ? name.name : name.full;
}

function writeName(name: AvroName, space: string | null): string {
  let out = `"name":${json(name.name)}`;
  if (name.space !== null) {
    if (name.space !== space) out += `,"namespace":${json(name.space)}`;
  } else if (space !== null) out += ',"namespace":""';
  return out;
}

/** Java Avro's Schema.toString(referencedTypes, false). */
export function canonicalText(node: AvroNode, referencedNames: readonly string[]): string {
  const known = new Set(referencedNames);
  const write = (n: AvroNode, space: string | null): string => {
    switch (n.type) {
      case 'union':
        return `[${n.types.map((t) => write(t, space)).join(',')}]`;
      case 'array':
        return `{"type":"array","items":${write(n.items, space)}${props(n.props)}}`;
      case 'map':
        return `{"type":"map","values":${write(n.values, space)}${props(n.props)}}`;
      case 'record':
      case 'enum':
      case 'fixed': {
        if (known.has(n.name.full)) return json(qualified(n.name, space));
        known.add(n.name.full);
        const aliases = n.aliases.length === 0 ? '' : `,"aliases":[${n.aliases.map((a) => json(qualified(a, n.name.space))).join(',')}]`;
        const doc = n.doc === undefined ? '' : `,"doc":${json(n.doc)}`;
        if (n.type === 'enum') {
          const def = n.default === undefined ? '' : `,"default":${json(n.default)}`;
          return `{"type":"enum",${writeName(n.name, space)}${doc},"symbols":${json(n.symbols)}${def}${props(n.props)}${aliases}}`;
        }
        if (n.type === 'fixed') return `{"type":"fixed",${writeName(n.name, space)}${doc},"size":${n.size}${props(n.props)}${aliases}}`;
        const fields = n.fields.map((f) => {
          let out = `{"name":${json(f.name)},"type":${write(f.type, n.name.space)}`;
          if (f.doc !== undefined) out += `,"doc":${json(f.doc)}`;
          if (f.hasDefault) out += `,"default":${json(f.default)}`;
          if (f.order !== 'ascending') out += `,"order":${json(f.order)}`;
          if (f.aliases.length > 0) out += `,"aliases":${json(f.aliases)}`;
          return `${out}${props(f.props)}}`;
        });
        return `{"type":${json(n.isError ? 'error' : 'record')},${writeName(n.name, space)}${doc},"fields":[${fields.join(',')}]${props(n.props)}${aliases}}`;
      }
      default:
        return n.props.length === 0 ? json(n.type) : `{"type":${json(n.type)}${props(n.props)}}`;
    }
  };
  return write(node, null);
}

/** Logical types Java Avro knows, with the type each annotates: their props are written as logical ones. */
const LOGICAL: Record<string, readonly string[]> = {
  decimal: ['bytes', 'fixed'], uuid: ['string', 'fixed'], date: ['int'], 'time-millis': ['int'], 'time-micros': ['long'],
  'timestamp-millis': ['long'], 'timestamp-micros': ['long'], 'timestamp-nanos': ['long'], 'local-timestamp-millis': ['long'],
  'local-timestamp-micros': ['long'], 'local-timestamp-nanos': ['long'], duration: ['fixed'], 'big-decimal': ['bytes'],
};

/** The props after the logical type's, sorted by key (Confluent's setLogicalProps + setSimpleProps). */
function normalizedProps(type: string, list: Props): string {
  const logical = list.find(([key]) => key === 'logicalType')?.[1];
  let out = '';
  let rest = list;
  if (typeof logical === 'string' && LOGICAL[logical]?.includes(type)) {
    out += `,"logicalType":${json(logical)}`;
    rest = rest.filter(([key]) => key !== 'logicalType');
    if (logical === 'decimal') {
      const precision = list.find(([key]) => key === 'precision')?.[1];
      const scale = list.find(([key]) => key === 'scale')?.[1];
      out += `,"precision":${json(precision)}`;
      if (typeof scale === 'number' && scale !== 0) out += `,"scale":${scale}`;
      rest = rest.filter(([key]) => key !== 'precision' && key !== 'scale');
    }
  }
  const sorted = [...rest].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return out + props(sorted);
}

/** Confluent's AvroSchemaUtils.toNormalizedString. */
export function normalizedText(node: AvroNode, referencedNames: readonly string[]): string {
  const env = new Set(referencedNames);
  const write = (n: AvroNode): string => {
    switch (n.type) {
      case 'union':
        return `[${n.types.map(write).join(',')}]`;
      case 'array':
        return `{"type":"array","items":${write(n.items)}${normalizedProps('array', n.props)}}`;
      case 'map':
        return `{"type":"map","values":${write(n.values)}${normalizedProps('map', n.props)}}`;
      case 'record':
      case 'enum':
      case 'fixed': {
        if (env.has(n.name.full)) return json(n.name.full);
        env.add(n.name.full);
        let out = `{"name":${json(n.name.full)},"type":${json(n.type)}`;
        if (n.type === 'enum') out += `,"symbols":${json(n.symbols)}`;
        else if (n.type === 'fixed') out += `,"size":${n.size}`;
        else {
          out += `,"fields":[${n.fields.map((f) => {
            let field = `{"name":${json(f.name)},"type":${write(f.type)},"order":${json(f.order.toUpperCase())}`;
            if (f.doc !== undefined) field += `,"doc":${json(f.doc)}`;
            if (f.aliases.length > 0) field += `,"aliases":${json([...f.aliases].sort())}`;
            if (f.hasDefault) field += `,"default":${json(f.default)}`;
            const sorted = [...f.props].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
            return `${field}${props(sorted)}}`;
          }).join(',')}]`;
        }
        let complex = '';
        if (n.doc !== undefined && n.doc !== '') complex += `,"doc":${json(n.doc)}`;
        if (n.aliases.length > 0) complex += `,"aliases":${json(n.aliases.map((a) => a.full).sort())}`;
        if (n.type === 'enum' && n.default !== undefined) complex += `,"default":${json(n.default)}`;
        const logical = normalizedProps(n.type, n.props);
        // Confluent writes the logical props, then doc/aliases/default, then the other props.
        const logicalPart = logical.startsWith(',"logicalType"') ? logical.slice(0, logicalEnd(logical)) : '';
        return `${out}${logicalPart}${complex}${logical.slice(logicalPart.length)}}`;
      }
      default:
        return n.props.length === 0 ? json(typeName(n)) : `{"type":${json(n.type)}${normalizedProps(n.type, n.props)}}`;
    }
  };
  return write(node);
}

/** Where the logical props (logicalType, precision, scale) end in a normalizedProps string. */
function logicalEnd(text: string): number {
  const match = /^,"logicalType":"[^"]*"(,"precision":[^,}]*)?(,"scale":\d+)?/.exec(text);
  return match === null ? 0 : match[0].length;
}
