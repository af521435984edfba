// Protobuf for the registry: protobufjs parses a .proto text (or, as Confluent accepts from serializers such as
// confluent-kafka-python's, a base64 FileDescriptorProto, read with protobufjs' descriptor extension); the text
// stored is the file printed back as Confluent prints it (protobuf-text.ts); `format=serialized` answers the base64
// FileDescriptorProto. Compatibility is Confluent's ProtobufDiff (protobuf-diff.ts).
import protobuf from 'protobufjs';
import descriptor from 'protobufjs/ext/descriptor/index.js';
import { createRequire } from 'node:module';
import type { ParsedSchema, ResolvedReference, SchemaProvider } from '../schema-types.js';
import { COMPATIBLE, compareFiles, differenceText, type DiffFile, type Difference, type Origin } from './protobuf-diff.js';
import { printFile, type PrintableFile } from './protobuf-text.js';

interface ProtoFile extends PrintableFile {
  /** Every named type by full name (no leading dot): the file's own and its references'. */
  readonly root: protobuf.Root;
  /** The file's own top-level types, in order. */
  readonly types: readonly (protobuf.Type | protobuf.Enum)[];
}

const descriptorJson = createRequire(import.meta.url)('protobufjs/google/protobuf/descriptor.json') as protobuf.INamespace;

const BASE64 = /^[A-Za-z0-9+/\s]+={0,2}$/;

interface FileDescriptor {
  name?: string;
  options?: Record<string, unknown>;
  package?: string;
  syntax?: string;
  dependency?: string[];
  messageType?: unknown[];
  enumType?: unknown[];
}

/** FileOptions Confluent prints from a descriptor, in its order: [descriptor field, option name]. */
const FILE_OPTIONS: readonly (readonly [string, string])[] = [
  ['javaPackage', 'java_package'], ['javaOuterClassname', 'java_outer_classname'], ['javaMultipleFiles', 'java_multiple_files'],
  ['javaGenerateEqualsAndHash', 'java_generate_equals_and_hash'], ['javaStringCheckUtf8', 'java_string_check_utf8'], ['optimizeFor', 'optimize_for'],
  ['goPackage', 'go_package'], ['ccGenericServices', 'cc_generic_services'], ['javaGenericServices', 'java_generic_services'],
  ['pyGenericServices', 'py_generic_services'], ['deprecated', 'deprecated'], ['ccEnableArenas', 'cc_enable_arenas'],
  ['objcClassPrefix', 'objc_class_prefix'], ['csharpNamespace', 'csharp_namespace'], ['swiftPrefix', 'swift_prefix'],
  ['phpClassPrefix', 'php_class_prefix'], ['phpNamespace', 'php_namespace'], ['phpMetadataNamespace', 'php_metadata_namespace'],
  ['rubyPackage', 'ruby_package'],
];
const OPTIMIZE_FOR = ['', 'SPEED', 'CODE_SIZE', 'LITE_RUNTIME'];

/** A descriptor's file options as Confluent's toProtoFile lists them (those set, in its order). */
function fileOptions(options: Record<string, unknown> | undefined): [string, unknown][] {
  if (options === undefined || options === null) return [];
  return FILE_OPTIONS.filter(([field]) => Object.hasOwn(options, field))
    .map(([field, name]) => [name, field === 'optimizeFor' ? (OPTIMIZE_FOR[Number(options[field])] ?? options[field]) : options[field]]);
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
  // protobufjs marks a map entry's parent, not the entry, with map_entry: set it from each message's own options.
  const markEntries = (type: protobuf.Type, d: { name?: string; options?: { mapEntry?: boolean }; nestedType?: unknown[] }) => {
    if (d.options?.mapEntry === true) type.setOption('map_entry', true);
    else if (type.options !== undefined) delete type.options['map_entry'];
    for (const nested of (d.nestedType ?? []) as { name?: string }[]) {
      const inner = type.nested?.[nested.name ?? ''];
      if (inner instanceof protobuf.Type) markEntries(inner, nested);
    }
  };
  (file.messageType ?? []).forEach((d, i) => markEntries(types[i] as protobuf.Type, d as never));
  return {
    syntax, syntaxDeclared: true, package: file.package ?? '', imports: file.dependency ?? [], publicImports: [], options: fileOptions(file.options), root, types,
    extensions: [], services: [],
  };
}

function fromText(text: string, root: protobuf.Root, before: ReadonlySet<protobuf.ReflectionObject>): ProtoFile {
  const options = { keepCase: true, alternateCommentMode: true };
  const result = protobuf.parse(text, root, options);
  const ns = result.package ? root.lookup(result.package) as protobuf.Namespace : root;
  const own = ns.nestedArray.filter((n) => !before.has(n));
  // The file's own options, read alone (in `root` they sit on a package namespace its references may share).
  const alone = protobuf.parse(text, new protobuf.Root(), options);
  const aloneNs = (alone.package ? alone.root.lookup(alone.package) : alone.root) as unknown as { parsedOptions?: Record<string, unknown>[] | null };
  const isPublic = (name: string) => new RegExp(`import\\s+public\\s+["']${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}["']`).test(text);
  const imports = [...(result.imports ?? []), ...(result.weakImports ?? [])];
  return {
    syntax: (text.match(/syntax\s*=\s*"(proto2|proto3)"/)?.[1] as 'proto2' | 'proto3' | undefined) ?? 'proto2',
    syntaxDeclared: /(^|\n)\s*syntax\s*=/.test(text),
    package: result.package ?? '',
    imports: imports.filter((i) => !isPublic(i)),
    publicImports: imports.filter(isPublic),
    options: (aloneNs.parsedOptions ?? []).flatMap((o) => Object.entries(o)),
    root,
    // The file's own types: those parse added (a reference's were there before).
    types: own.filter((n): n is protobuf.Type | protobuf.Enum => n instanceof protobuf.Type || n instanceof protobuf.Enum),
    extensions: own.filter((n): n is protobuf.Field => n instanceof protobuf.Field),
    services: own.filter((n): n is protobuf.Service => n instanceof protobuf.Service),
    source: text,
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
    return printFile(this.file, true);
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

  /** A field (outside a oneof) of one of the file's top-level messages (ProtobufSchema.hasTopLevelField). */
  hasTopLevelField(name: string): boolean {
    return this.file.types.some((t) => t instanceof protobuf.Type && t.fieldsArray.some((f) => f.name === name && (f.partOf === null || f.partOf.name === `_${f.name}`)));
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
      if (referenced.has(name)) continue;
      // descriptor.proto (what custom options extend) is not among protobufjs' common files, but ships with it.
      const common = name === 'google/protobuf/descriptor.proto'
        ? descriptorJson
        : (protobuf as unknown as { common: { get(file: string): protobuf.INamespace | null } }).common.get(name);
      if (common?.nested !== undefined && root.lookup(name === 'google/protobuf/descriptor.proto' ? 'google.protobuf.FileDescriptorProto' : '.__none__') === null) root.addJSON(common.nested);
    }
    root.resolveAll();
    const scope = (file.package === '' ? root : root.lookup(file.package)) as protobuf.Namespace;
    const extensionName = (name: string) => {
      const found = scope.lookup(name.replace(/^\./, ''));
      return found instanceof protobuf.Field ? found.fullName.slice(1) : undefined;
    };
    const schema = new ProtobufSchema({ ...file, extensionName }, { package: file.package, types: file.types, origins });
    // What is stored must read back: a text protobufjs cannot parse again is refused now, not on a later read.
    try {
      protobuf.parse(schema.canonical, new protobuf.Root(), { keepCase: true, alternateCommentMode: true });
    } catch (error) {
      throw new Error(`its printed form does not parse again (${(error as Error).message})`);
    }
    return schema;
  },
};
