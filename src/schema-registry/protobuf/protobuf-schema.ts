// Protobuf for the registry: protobufjs parses a .proto text (or, as Confluent accepts from serializers such as
// confluent-kafka-python's, a base64 FileDescriptorProto, read with protobufjs' descriptor extension); the text
// stored is the file printed back in one layout (Confluent prints it with Square's wire-schema); `format=serialized`
// answers the base64 FileDescriptorProto. Compatibility is Confluent's ProtobufDiff (protobuf-diff.ts).
import protobuf from 'protobufjs';
import descriptor from 'protobufjs/ext/descriptor/index.js';
import type { ParsedSchema, ResolvedReference, SchemaProvider } from '../schema-types.js';
import { COMPATIBLE, compareFiles, differenceText, isMapEntry, isProto3Optional, type DiffFile, type Difference, type Origin } from './protobuf-diff.js';

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

  constructor(readonly file: ProtoFile, private readonly diffFile: DiffFile) {
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

  /** Every difference from `previous` to this schema, compatible or not (Confluent's SchemaDiff.compare). */
  differences(previous: ProtobufSchema): Difference[] {
    return compareFiles(previous.diffFile, this.diffFile);
  }

  isBackwardCompatible(previous: ParsedSchema): string[] {
    if (!(previous instanceof ProtobufSchema)) return ['Incompatible because of different schema type'];
    return this.differences(previous).filter((d) => !COMPATIBLE.has(d.type)).map(differenceText);
  }
}

export const protobufProvider: SchemaProvider = {
  parse(text: string, references: readonly ResolvedReference[]): ProtobufSchema {
    const root = new protobuf.Root();
    const origins = new Map<protobuf.ReflectionObject, Origin>();
    const declared = (file: ProtoFile, subject: string, version: number) => {
      const origin: Origin = { package: file.package, syntax: file.syntax, subject, version };
      const walk = (type: protobuf.ReflectionObject) => {
        origins.set(type, origin);
        if (type instanceof protobuf.Type) type.nestedArray.forEach(walk);
      };
      file.types.forEach(walk);
    };
    for (const reference of references) declared(parseInto(reference.schema, root), reference.subject ?? reference.name, reference.version ?? 0);
    const file = parseInto(text, root);
    declared(file, '', -1);
    // A well-known import (google/protobuf/*.proto) no reference carries: protobufjs' own copy, as Confluent has its own.
    const referenced = new Set(references.map((r) => r.name));
    for (const name of file.imports) {
      const common = referenced.has(name) ? null : (protobuf as unknown as { common: { get(file: string): protobuf.INamespace | null } }).common.get(name);
      if (common?.nested !== undefined) root.addJSON(common.nested);
    }
    root.resolveAll();
    return new ProtobufSchema(file, { package: file.package, types: file.types, origins });
  },
};
