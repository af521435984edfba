// Protobuf for the registry: protobufjs parses a .proto text (or, as Confluent accepts from serializers such as
// confluent-kafka-python's, a base64 FileDescriptorProto, read with protobufjs' descriptor extension); the text
// stored is the file printed back in one layout (Confluent prints it with Square's wire-schema); `format=serialized`
// answers the base64 FileDescriptorProto. Compatibility is Confluent's ProtobufDiff for packages, messages, enums
// and fields by tag (kind, scalar kind, label, named type, oneofs), its compatible set and texts.
import protobuf from 'protobufjs';
import descriptor from 'protobufjs/ext/descriptor/index.js';
import type { ParsedSchema, ResolvedReference, SchemaProvider } from '../schema-types.js';

interface ProtoFile {
  readonly syntax: 'proto2' | 'proto3';
  readonly package: string;
  readonly imports: readonly string[];
  /** Every named type by full name (no leading dot): the file's own and its references'. */
  readonly root: protobuf.Root;
  /** The file's own top-level types, in order. */
  readonly types: readonly (protobuf.Type | protobuf.Enum)[];
}

const BASE64 = /^[A-Za-z0-9+/\s]+={0,2}$/;

interface FileDescriptor {
  name?: string;
  package?: string;
  syntax?: string;
  dependency?: string[];
  messageType?: unknown[];
  enumType?: unknown[];
}

/** A FileDescriptorProto's types added to `root` (unresolved: an imported type may come later, from protobufjs' copies). */
function fromDescriptorBytes(bytes: Uint8Array, root: protobuf.Root): ProtoFile {
  const file = descriptor.FileDescriptorProto.decode(bytes) as unknown as FileDescriptor;
  const syntax = file.syntax === 'proto3' ? 'proto3' : 'proto2';
  const reflection = protobuf as unknown as {
    Type: { fromDescriptor(d: unknown, edition: string): protobuf.Type };
    Enum: { fromDescriptor(d: unknown, edition: string): protobuf.Enum };
  };
  const types = [
    ...(file.messageType ?? []).map((d) => reflection.Type.fromDescriptor(d, syntax)),
    ...(file.enumType ?? []).map((d) => reflection.Enum.fromDescriptor(d, syntax)),
  ];
  const target = file.package ? root.define(file.package) : root;
  for (const type of types) target.add(type);
  return { syntax, package: file.package ?? '', imports: file.dependency ?? [], root, types };
}

function fromText(text: string, root: protobuf.Root, before: ReadonlySet<protobuf.ReflectionObject>): ProtoFile {
  const result = protobuf.parse(text, root, { keepCase: true, alternateCommentMode: true });
  const ns = result.package ? root.lookup(result.package) as protobuf.Namespace : root;
  return {
    syntax: (text.match(/syntax\s*=\s*"(proto2|proto3)"/)?.[1] as 'proto2' | 'proto3' | undefined) ?? 'proto2',
    package: result.package ?? '',
    imports: [...(result.imports ?? []), ...(result.weakImports ?? [])],
    root,
    // The file's own types: those parse added (a reference's were there before).
    types: ns.nestedArray.filter((n): n is protobuf.Type | protobuf.Enum => (n instanceof protobuf.Type || n instanceof protobuf.Enum) && !before.has(n)),
  };
}

/** Parses a schema's text (or base64 descriptor) into `root`, beside the types already there (its references'). */
function parseInto(text: string, root: protobuf.Root): ProtoFile {
  const trimmed = text.trim();
  const before = new Set(allTypes(root));
  return !/\b(message|enum|syntax|package)\b/.test(trimmed) && BASE64.test(trimmed)
    ? fromDescriptorBytes(Buffer.from(trimmed, 'base64'), root)
    : fromText(text, root, before);
}

function allTypes(ns: protobuf.NamespaceBase): protobuf.ReflectionObject[] {
  return ns.nestedArray.flatMap((n) => [n, ...(n instanceof protobuf.Namespace ? allTypes(n) : [])]);
}

// ---- printing (the stored text) ----

function fieldType(field: protobuf.Field, scope: protobuf.NamespaceBase): string {
  const resolved = field.resolvedType;
  if (resolved === null) return field.type;
  // The shortest name that finds the same type from the message's scope by protoc's rules (as written in a .proto).
  const parts = resolved.fullName.slice(1).split('.');
  for (let i = parts.length - 1; i >= 0; i--) {
    if (resolveScoped(scope, parts.slice(i)) === resolved) return parts.slice(i).join('.');
  }
  return resolved.fullName.slice(1);
}

/** protoc's name resolution: the innermost enclosing scope holding the first part, then the rest inside it. */
function resolveScoped(scope: protobuf.NamespaceBase, parts: readonly string[]): protobuf.ReflectionObject | undefined {
  for (let ns: protobuf.NamespaceBase | null = scope; ns !== null; ns = ns.parent) {
    let found: protobuf.ReflectionObject | undefined = ns.nested?.[parts[0]!];
    if (found === undefined) continue;
    for (const part of parts.slice(1)) found = found instanceof protobuf.Namespace ? found.nested?.[part] : undefined;
    return found;
  }
  return undefined;
}

/** A map entry type (descriptor input: a nested message with map_entry set), which prints as map<k, v>. */
function isMapEntry(type: protobuf.ReflectionObject | null): type is protobuf.Type {
  return type instanceof protobuf.Type && (type.options?.['map_entry'] === true || type.options?.['mapEntry'] === true);
}

/** proto3's `optional`: a field alone in a synthetic oneof named after it. */
function isProto3Optional(field: protobuf.Field): boolean {
  return field.options?.['proto3_optional'] === true || (field.partOf !== null && field.partOf.name === `_${field.name}` && field.partOf.fieldsArray.length === 1);
}

function printField(field: protobuf.Field, syntax: string, indent: string, scope: protobuf.NamespaceBase): string {
  if (field instanceof protobuf.MapField) return `${indent}map<${field.keyType}, ${fieldType(field, scope)}> ${field.name} = ${field.id};\n`;
  if (isMapEntry(field.resolvedType)) {
    const [key, value] = [field.resolvedType.fieldsArray[0]!, field.resolvedType.fieldsArray[1]!];
    return `${indent}map<${key.type}, ${fieldType(value, field.resolvedType)}> ${field.name} = ${field.id};\n`;
  }
  let label = '';
  if (field.repeated) label = 'repeated ';
  else if (field.required) label = 'required ';
  else if (syntax === 'proto2' || isProto3Optional(field)) label = 'optional ';
  const packed = syntax === 'proto2' && field.repeated && field.options?.['packed'] === true ? ' [packed = true]' : '';
  return `${indent}${label}${fieldType(field, scope)} ${field.name} = ${field.id}${packed};\n`;
}

function printEnum(e: protobuf.Enum, indent: string): string {
  const values = Object.entries(e.values).map(([name, id]) => `${indent}  ${name} = ${id};\n`).join('');
  return `${indent}enum ${e.name} {\n${values}${indent}}\n`;
}

function printMessage(type: protobuf.Type, syntax: string, indent: string): string {
  let out = `${indent}message ${type.name} {\n`;
  const inner = `${indent}  `;
  const oneofs = type.oneofsArray.filter((o) => !(o.fieldsArray.length === 1 && isProto3Optional(o.fieldsArray[0]!)));
  const inOneof = new Set(oneofs.flatMap((o) => o.fieldsArray));
  const printedOneofs = new Set<protobuf.OneOf>();
  for (const field of type.fieldsArray) {
    if (!inOneof.has(field)) {
      out += printField(field, syntax, inner, type);
      continue;
    }
    const oneof = field.partOf!;
    if (printedOneofs.has(oneof)) continue;
    printedOneofs.add(oneof);
    out += `${inner}oneof ${oneof.name} {\n${oneof.fieldsArray.map((f) => printField(f, 'proto3', `${inner}  `, type)).join('')}${inner}}\n`;
  }
  for (const nested of type.nestedArray) {
    if (nested instanceof protobuf.Type && !isMapEntry(nested)) out += `\n${printMessage(nested, syntax, inner)}`;
    else if (nested instanceof protobuf.Enum) out += `\n${printEnum(nested, inner)}`;
  }
  return `${out}${indent}}\n`;
}

function printFile(file: ProtoFile): string {
  let out = `syntax = "${file.syntax}";\n`;
  if (file.package !== '') out += `package ${file.package};\n`;
  if (file.imports.length > 0) out += `\n${file.imports.map((i) => `import "${i}";\n`).join('')}`;
  for (const type of file.types) out += `\n${type instanceof protobuf.Type ? printMessage(type, file.syntax, '') : printEnum(type, '')}`;
  return out;
}

// ---- the descriptor (format=serialized) ----

interface FieldProto { name: string; typeName?: string; type?: number }
interface DescriptorProto { name: string; field: FieldProto[]; nestedType: DescriptorProto[]; options?: { mapEntry?: boolean } }

/**
 * What protobufjs' toDescriptor leaves for protoc's conventions: a map's entry type is named <Field>Entry, and every
 * type name is fully qualified (.package.Message), as a descriptor pool (the Python client's) requires.
 */
function qualify(type: protobuf.Type, proto: DescriptorProto): void {
  const entries = new Map<string, string>();
  for (const nested of proto.nestedType) {
    if (nested.options?.mapEntry === true) {
      const field = proto.field.find((f) => f.typeName === nested.name);
      if (field !== undefined) {
        const name = `${field.name.replace(/(^|_)([a-z])/g, (_m, _u, c: string) => c.toUpperCase())}Entry`;
        entries.set(nested.name, name);
        nested.name = name;
      }
    }
  }
  for (const field of proto.field) {
    if (field.typeName === undefined) continue;
    const entry = entries.get(field.typeName);
    if (entry !== undefined) field.typeName = `${type.fullName}.${entry}`;
    else {
      const resolved = type.fields[field.name]?.resolvedType;
      if (resolved) field.typeName = resolved.fullName;
    }
  }
  for (const nested of proto.nestedType) {
    const inner = type.nested?.[nested.name];
    if (inner instanceof protobuf.Type) qualify(inner, nested);
    else for (const f of nested.field) {
      // A map entry's value type, resolved from the map field's.
      const mapField = type.fieldsArray.find((m) => entries.get(m.name) === nested.name || `${m.name.replace(/(^|_)([a-z])/g, (_x, _u, c: string) => c.toUpperCase())}Entry` === nested.name);
      if (f.name === 'value' && f.typeName !== undefined && mapField?.resolvedType) f.typeName = mapField.resolvedType.fullName;
    }
  }
}

// ---- the parsed schema ----

export class ProtobufSchema implements ParsedSchema {
  readonly schemaType = 'PROTOBUF' as const;
  readonly canonical: string;

  constructor(readonly file: ProtoFile) {
    this.canonical = printFile(file);
  }

  normalized(): string {
    return this.canonical;
  }

  /** The base64 FileDescriptorProto (Confluent's format=serialized). */
  serialized(): string {
    const D = descriptor as unknown as Record<string, { create(o: unknown): unknown; encode(m: unknown): { finish(): Uint8Array } }>;
    const file = D['FileDescriptorProto']!.create({
      name: 'default',
      package: this.file.package,
      dependency: this.file.imports,
      syntax: this.file.syntax,
      messageType: this.file.types.filter((t) => t instanceof protobuf.Type).map((t) => {
        const proto = (t as unknown as { toDescriptor(s: string): DescriptorProto }).toDescriptor(this.file.syntax);
        qualify(t as protobuf.Type, proto);
        return proto;
      }),
      enumType: this.file.types.filter((t) => t instanceof protobuf.Enum).map((t) => (t as unknown as { toDescriptor(): unknown }).toDescriptor()),
    });
    return Buffer.from(D['FileDescriptorProto']!.encode(file).finish()).toString('base64');
  }

  isBackwardCompatible(previous: ParsedSchema): string[] {
    if (!(previous instanceof ProtobufSchema)) return ['Incompatible because of different schema type'];
    const differences: { type: string; path: string }[] = [];
    compareFiles(previous.file, this.file, differences);
    return differences.filter((d) => !COMPATIBLE.has(d.type)).map(differenceText);
  }
}

export const protobufProvider: SchemaProvider = {
  parse(text: string, references: readonly ResolvedReference[]): ProtobufSchema {
    const root = new protobuf.Root();
    for (const reference of references) parseInto(reference.schema, root);
    const file = parseInto(text, root);
    // A well-known import (google/protobuf/*.proto) no reference carries: protobufjs' own copy, as Confluent has its own.
    const referenced = new Set(references.map((r) => r.name));
    for (const name of file.imports) {
      const common = referenced.has(name) ? null : (protobuf as unknown as { common: { get(file: string): protobuf.INamespace | null } }).common.get(name);
      if (common?.nested !== undefined) root.addJSON(common.nested);
    }
    root.resolveAll();
    return new ProtobufSchema(file);
  },
};

// ---- Confluent's ProtobufDiff ----

const COMPATIBLE = new Set(['MESSAGE_ADDED', 'MESSAGE_MOVED', 'ENUM_ADDED', 'ENUM_REMOVED', 'ENUM_CONST_ADDED', 'ENUM_CONST_CHANGED',
  'ENUM_CONST_REMOVED', 'FIELD_ADDED', 'FIELD_REMOVED', 'FIELD_NAME_CHANGED', 'FIELD_STRING_OR_BYTES_LABEL_CHANGED', 'ONEOF_ADDED',
  'ONEOF_REMOVED', 'ONEOF_FIELD_ADDED', 'ONEOF_FIELD_MOVED_TO_TOP_LEVEL']);

function differenceText(d: { type: string; path: string }): string {
  const p = d.path;
  const descriptions: Record<string, string> = {
    PACKAGE_CHANGED: `The package at '${p}' in the %s schema does not match the package in the %s schema`,
    MESSAGE_REMOVED: `The %s schema is missing a MESSAGE type at path '${p}' in the %s schema`,
    FIELD_KIND_CHANGED: `The type of a field at path '${p}' in the %s schema does not match the %s schema`,
    FIELD_SCALAR_KIND_CHANGED: `The kind of a SCALAR field at path '${p}' in the %s schema does not match its kind in the %s schema`,
    FIELD_NAMED_TYPE_CHANGED: `The type of a MESSAGE field at path '${p}' in the %s schema does not match its type in the %s schema`,
    FIELD_NUMERIC_LABEL_CHANGED: `The label for a NUMERIC field at path '${p}' in the %s schema does not match its label in the %s schema`,
    REQUIRED_FIELD_ADDED: `A required field  at path '${p}' in the %s schema is missing in the %s schema`,
    REQUIRED_FIELD_REMOVED: `The %s schema is missing a required field at path: '${p}' in the %s schema`,
    ONEOF_FIELD_REMOVED: `The %s schema is missing a oneof field at path '${p}' in the %s schema`,
  };
  return `{errorType:"${d.type}", description:"${descriptions[d.type] ?? ''}"}`;
}

const SCALAR_KINDS: Record<string, string> = {
  int32: 'GENERAL_NUMBER', int64: 'GENERAL_NUMBER', uint32: 'GENERAL_NUMBER', uint64: 'GENERAL_NUMBER', bool: 'GENERAL_NUMBER',
  sint32: 'SIGNED_NUMBER', sint64: 'SIGNED_NUMBER', fixed32: 'FIXED32', sfixed32: 'FIXED32', fixed64: 'FIXED64', sfixed64: 'FIXED64',
  float: 'FLOAT', double: 'DOUBLE', string: 'STRING_OR_BYTES', bytes: 'STRING_OR_BYTES',
};

function kindOf(field: protobuf.Field): string {
  if (field instanceof protobuf.MapField) return 'MAP';
  if (field.resolvedType instanceof protobuf.Enum) return 'SCALAR';
  if (field.resolvedType instanceof protobuf.Type) return 'MESSAGE';
  return 'SCALAR';
}

function scalarKind(field: protobuf.Field): string {
  return field.resolvedType instanceof protobuf.Enum ? 'GENERAL_NUMBER' : SCALAR_KINDS[field.type] ?? field.type;
}

function labelOf(field: protobuf.Field): string {
  return field.repeated ? 'REPEATED' : field.required ? 'REQUIRED' : 'OPTIONAL';
}

function messagesOf(file: ProtoFile): Map<string, protobuf.Type> {
  const out = new Map<string, protobuf.Type>();
  const walk = (type: protobuf.Type | protobuf.Enum, prefix: string) => {
    if (!(type instanceof protobuf.Type)) return;
    const name = `${prefix}${type.name}`;
    out.set(name, type);
    for (const nested of type.nestedArray) if (nested instanceof protobuf.Type) walk(nested, `${name}.`);
  };
  for (const type of file.types) walk(type, '');
  return out;
}

function compareFiles(original: ProtoFile, update: ProtoFile, out: { type: string; path: string }[]): void {
  if (original.package !== update.package) out.push({ type: 'PACKAGE_CHANGED', path: '#/' });
  const a = messagesOf(original);
  const b = messagesOf(update);
  for (const [name, type] of a) {
    const other = b.get(name);
    if (other === undefined) out.push({ type: 'MESSAGE_REMOVED', path: `#/${name}` });
    else compareMessages(type, other, name, out);
  }
  for (const name of b.keys()) if (!a.has(name)) out.push({ type: 'MESSAGE_ADDED', path: `#/${name}` });
}

function compareMessages(original: protobuf.Type, update: protobuf.Type, name: string, out: { type: string; path: string }[]): void {
  const add = (type: string, ...at: (string | number)[]) => out.push({ type, path: `#/${[name, ...at].join('/')}` });
  const byTag = (t: protobuf.Type) => new Map(t.fieldsArray.map((f) => [f.id, f]));
  const [a, b] = [byTag(original), byTag(update)];
  const realOneof = (f: protobuf.Field) => (f.partOf !== null && !isProto3Optional(f) ? f.partOf.name : undefined);
  for (const [tag, field] of a) {
    const other = b.get(tag);
    if (other === undefined) {
      add(field.required ? 'REQUIRED_FIELD_REMOVED' : realOneof(field) !== undefined ? 'ONEOF_FIELD_REMOVED' : 'FIELD_REMOVED', tag);
      continue;
    }
    if (realOneof(field) !== undefined && realOneof(other) === undefined) add('ONEOF_FIELD_MOVED_TO_TOP_LEVEL', tag);
    if (realOneof(field) === undefined && realOneof(other) !== undefined) add('FIELD_MOVED_TO_EXISTING_ONEOF', realOneof(other)!, tag);
    if (field.name !== other.name) add('FIELD_NAME_CHANGED', tag);
    const [ka, kb] = [kindOf(field), kindOf(other)];
    if (ka !== kb) add('FIELD_KIND_CHANGED', tag);
    else if (ka === 'SCALAR') {
      if (scalarKind(field) !== scalarKind(other)) add('FIELD_SCALAR_KIND_CHANGED', tag);
      else if (labelOf(field) !== labelOf(other)) add(scalarKind(field) === 'STRING_OR_BYTES' ? 'FIELD_STRING_OR_BYTES_LABEL_CHANGED' : 'FIELD_NUMERIC_LABEL_CHANGED', tag);
    } else if (ka === 'MESSAGE' && field.resolvedType!.fullName.split('.').pop() !== other.resolvedType!.fullName.split('.').pop()) {
      add('FIELD_NAMED_TYPE_CHANGED', tag);
    }
  }
  for (const [tag, field] of b) {
    if (!a.has(tag)) add(field.required ? 'REQUIRED_FIELD_ADDED' : realOneof(field) !== undefined ? 'ONEOF_FIELD_ADDED' : 'FIELD_ADDED', tag);
  }
}
