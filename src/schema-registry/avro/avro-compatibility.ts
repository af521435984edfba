// Avro's schema resolution as Java Avro's SchemaCompatibility checks it (ReaderWriterCompatibilityChecker): can a
// reader schema read what a writer schema wrote, and where not, each incompatibility with its type, JSON-pointer
// location and message; then Confluent's Difference text for each ("{errorType:'...', description:'...',
// additionalInfo:'...'}", with %s left for "new"/"old" as its SchemaValidatorBuilder fills them).
import { typeName, type AvroField, type AvroNamed, type AvroNode, type AvroRecord } from './avro-model.js';

export type IncompatibilityType =
  | 'NAME_MISMATCH' | 'FIXED_SIZE_MISMATCH' | 'MISSING_ENUM_SYMBOLS' | 'READER_FIELD_MISSING_DEFAULT_VALUE'
  | 'TYPE_MISMATCH' | 'MISSING_UNION_BRANCH';

export interface Incompatibility {
  readonly type: IncompatibilityType;
  readonly message: string;
  /** Java's getLocation(): a JSON pointer below the root. */
  readonly location: string;
}

type Result = readonly Incompatibility[] | 'recursion';

/** Java's Schema.Type names, upper case, as Avro's messages print them. */
const upper = (node: AvroNode): string => node.type.toUpperCase();

class Checker {
  private readonly memo = new Map<AvroNode, Map<AvroNode, Result>>();

  check(reader: AvroNode, writer: AvroNode): readonly Incompatibility[] {
    return this.compat('', reader, writer, []);
  }

  private compat(token: string, reader: AvroNode, writer: AvroNode, location: string[]): readonly Incompatibility[] {
    location.push(token);
    let byWriter = this.memo.get(reader);
    if (byWriter === undefined) this.memo.set(reader, (byWriter = new Map()));
    const seen = byWriter.get(writer);
    let result: readonly Incompatibility[];
    if (seen !== undefined) result = seen === 'recursion' ? [] : seen;
    else {
      byWriter.set(writer, 'recursion');
      result = this.calculate(reader, writer, location);
      byWriter.set(writer, result);
    }
    location.pop();
    return result;
  }

  private incompatible(type: IncompatibilityType, message: string, location: readonly string[]): Incompatibility[] {
    const pointer = '/' + location.slice(1).map((c) => c.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');
    return [{ type, message, location: pointer }];
  }

  private typeMismatch(reader: AvroNode, writer: AvroNode, location: readonly string[]): Incompatibility[] {
    return this.incompatible('TYPE_MISMATCH', `reader type: ${upper(reader)} not compatible with writer type: ${upper(writer)}`, location);
  }

  private calculate(reader: AvroNode, writer: AvroNode, location: string[]): readonly Incompatibility[] {
    if (reader.type === writer.type) {
      switch (reader.type) {
        case 'array':
          return this.compat('items', reader.items, (writer as typeof reader).items, location);
        case 'map':
          return this.compat('values', reader.values, (writer as typeof reader).values, location);
        case 'fixed': {
          const w = writer as typeof reader;
          const out = this.names(reader, w, location);
          location.push('size');
          if (reader.size !== w.size) out.push(...this.incompatible('FIXED_SIZE_MISMATCH', `expected: ${w.size}, found: ${reader.size}`, location));
          location.pop();
          return out;
        }
        case 'enum': {
          const w = writer as typeof reader;
          const out = this.names(reader, w, location);
          location.push('symbols');
          const missing = [...new Set(w.symbols)].filter((s) => !reader.symbols.includes(s)).sort();
          const defaulted = reader.default !== undefined && reader.symbols.includes(reader.default);
          if (missing.length > 0 && !defaulted) out.push(...this.incompatible('MISSING_ENUM_SYMBOLS', `[${missing.join(', ')}]`, location));
          location.pop();
          return out;
        }
        case 'record': {
          const out = this.names(reader, writer as AvroRecord, location);
          out.push(...this.fields(reader, writer as AvroRecord, location));
          return out;
        }
        case 'union': {
          const out: Incompatibility[] = [];
          (writer as typeof reader).types.forEach((branch, i) => {
            location.push(String(i));
            if (this.check(reader, branch).length > 0) {
              out.push(...this.incompatible('MISSING_UNION_BRANCH', `reader union lacking writer type: ${upper(branch)}`, location));
            }
            location.pop();
          });
          return out;
        }
        default:
          return [];
      }
    }
    if (writer.type === 'union') return writer.types.flatMap((branch, i) => this.compat(String(i), reader, branch, location));
    switch (reader.type) {
      case 'long':
        return writer.type === 'int' ? [] : this.typeMismatch(reader, writer, location);
      case 'float':
        return writer.type === 'int' || writer.type === 'long' ? [] : this.typeMismatch(reader, writer, location);
      case 'double':
        return writer.type === 'int' || writer.type === 'long' || writer.type === 'float' ? [] : this.typeMismatch(reader, writer, location);
      case 'bytes':
        return writer.type === 'string' ? [] : this.typeMismatch(reader, writer, location);
      case 'string':
        return writer.type === 'bytes' ? [] : this.typeMismatch(reader, writer, location);
      case 'union':
        if (reader.types.some((branch) => this.check(branch, writer).length === 0)) return [];
        return this.incompatible('MISSING_UNION_BRANCH', `reader union lacking writer type: ${upper(writer)}`, location);
      default:
        return this.typeMismatch(reader, writer, location);
    }
  }

  private names(reader: AvroNamed, writer: AvroNamed, location: string[]): Incompatibility[] {
    location.push('name');
    const equal = reader.name.name === writer.name.name || reader.aliases.some((alias) => alias.full === writer.name.full);
    const out = equal ? [] : this.incompatible('NAME_MISMATCH', `expected: ${writer.name.full}`, location);
    location.pop();
    return out;
  }

  private fields(reader: AvroRecord, writer: AvroRecord, location: string[]): Incompatibility[] {
    const out: Incompatibility[] = [];
    location.push('fields');
    for (const field of reader.fields) {
      location.push(String(field.pos));
      const writerField = lookupWriterField(writer, field);
      if (writerField === undefined) {
        if (!field.hasDefault) {
          if (field.type.type === 'enum' && field.type.default !== undefined) out.push(...this.compat('type', field.type, writer, location));
          else out.push(...this.incompatible('READER_FIELD_MISSING_DEFAULT_VALUE', field.name, location));
        }
      } else out.push(...this.compat('type', field.type, writerField.type, location));
      location.pop();
    }
    location.pop();
    return out;
  }
}

function lookupWriterField(writer: AvroRecord, field: AvroField): AvroField | undefined {
  const found = [writer.fields.find((f) => f.name === field.name), ...field.aliases.map((alias) => writer.fields.find((f) => f.name === alias))]
    .filter((f): f is AvroField => f !== undefined);
  if (found.length > 1) throw new Error(`Reader record field ${field.name} matches multiple fields in writer record schema ${writer.name.full}`);
  return found[0];
}

/** Every reason `reader` cannot read what `writer` wrote (none: it can). */
export function readerWriterIncompatibilities(reader: AvroNode, writer: AvroNode): readonly Incompatibility[] {
  return new Checker().check(reader, writer);
}

/** Confluent's avro Difference.toString(), its two %s for the reader's and the writer's side ("new"/"old"). */
export function differenceText(i: Incompatibility): string {
  const path = i.location;
  let description = '';
  switch (i.type) {
    case 'FIXED_SIZE_MISMATCH':
      description = `The size of FIXED type field at path '${path}' in the %s schema does not match with the %s schema`;
      break;
    case 'TYPE_MISMATCH':
      description = `The type (path '${path}') of a field in the %s schema does not match with the %s schema`;
      break;
    case 'NAME_MISMATCH':
      description = `The name of the schema has changed (path '${path}')`;
      break;
    case 'MISSING_ENUM_SYMBOLS':
      description = `The %s schema is missing enum symbols '${i.message}' at path '${path}' in the %s schema`;
      break;
    case 'MISSING_UNION_BRANCH':
      description = `The %s schema is missing a type inside a union field at path '${path}' in the %s schema`;
      break;
    case 'READER_FIELD_MISSING_DEFAULT_VALUE':
      description = `The field '${i.message}' at path '${path}' in the %s schema has no default value and is missing in the %s schema`;
      break;
  }
  return `{errorType:'${i.type}', description:'${description}', additionalInfo:'${i.message}'}`;
}

export { typeName };
