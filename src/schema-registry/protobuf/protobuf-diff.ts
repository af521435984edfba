// Confluent's ProtobufDiff over two parsed files: the package, then each level of types (messages by name, in Java's
// HashSet order of their names, a message's changed position among its siblings as MESSAGE_MOVED; enums by name,
// their constants by tag), each message's oneofs (added, removed, fields newly made mutually exclusive) and its
// fields by tag in tag order (kind, scalar kind, label, map key and value); a message-typed field compares the
// two messages themselves when they come from different references (or one from a reference, one local).
import protobuf from 'protobufjs';
import { hashMapOrder, hashSetOrder } from '../java-hash-order.js';

export interface Difference {
  readonly type: string;
  readonly path: string;
}

export const COMPATIBLE: ReadonlySet<string> = new Set(['MESSAGE_ADDED', 'MESSAGE_MOVED', 'ENUM_ADDED', 'ENUM_REMOVED', 'ENUM_CONST_ADDED',
  'ENUM_CONST_CHANGED', 'ENUM_CONST_REMOVED', 'FIELD_ADDED', 'FIELD_REMOVED', 'FIELD_NAME_CHANGED', 'FIELD_STRING_OR_BYTES_LABEL_CHANGED',
  'ONEOF_ADDED', 'ONEOF_REMOVED', 'ONEOF_FIELD_ADDED', 'ONEOF_FIELD_MOVED_TO_TOP_LEVEL']);

/** Where a type was declared: its file's package and syntax, and the reference it came from (local: '' and -1). */
export interface Origin {
  readonly package: string;
  readonly syntax: string;
  readonly subject: string;
  readonly version: number;
}

/** A file as the diff needs it: its package, its own top-level types, and where every type it can name was declared. */
export interface DiffFile {
  readonly package: string;
  readonly types: readonly (protobuf.Type | protobuf.Enum)[];
  readonly origins: ReadonlyMap<protobuf.ReflectionObject, Origin>;
}

/** A map entry type (a descriptor's nested message with map_entry set), which is a map<k, v> field's, not a message. */
export function isMapEntry(type: protobuf.ReflectionObject | null): type is protobuf.Type {
  return type instanceof protobuf.Type && (type.options?.['map_entry'] === true || type.options?.['mapEntry'] === true);
}

/** proto3's `optional`: a field alone in a synthetic oneof named after it. */
export function isProto3Optional(field: protobuf.Field): boolean {
  return field.options?.['proto3_optional'] === true || (field.partOf !== null && field.partOf.name === `_${field.name}` && field.partOf.fieldsArray.length === 1);
}

/** The group a field of `type` stands for (protobufjs makes a proto2 group a nested type marked `group`), if any. */
export function groupType(type: protobuf.Type, field: protobuf.Field): protobuf.Type | undefined {
  const nested = type.nested?.[field.type];
  return nested instanceof protobuf.Type && (nested as unknown as { group?: boolean }).group === true ? nested : undefined;
}

const isGroup = (type: protobuf.ReflectionObject) => type instanceof protobuf.Type && (type as unknown as { group?: boolean }).group === true;

const realOneof = (field: protobuf.Field): protobuf.OneOf | undefined => (field.partOf !== null && !isProto3Optional(field) ? field.partOf : undefined);

type TypeRef =
  | { readonly kind: 'SCALAR'; readonly scalar: string }
  | { readonly kind: 'MESSAGE'; readonly message: protobuf.Type }
  | { readonly kind: 'MAP'; readonly key: TypeRef; readonly value: TypeRef };

function typeRef(type: string, resolved: protobuf.ReflectionObject | null): TypeRef {
  if (resolved instanceof protobuf.Enum) return { kind: 'SCALAR', scalar: 'enum' };
  if (isMapEntry(resolved)) {
    const [key, value] = [resolved.fieldsArray.find((f) => f.name === 'key')!, resolved.fieldsArray.find((f) => f.name === 'value')!];
    return { kind: 'MAP', key: typeRef(key.type, key.resolvedType), value: typeRef(value.type, value.resolvedType) };
  }
  if (resolved instanceof protobuf.Type) return { kind: 'MESSAGE', message: resolved };
  return { kind: 'SCALAR', scalar: type };
}

function fieldTypeRef(field: protobuf.Field): TypeRef {
  if (field instanceof protobuf.MapField) return { kind: 'MAP', key: typeRef(field.keyType, null), value: typeRef(field.type, field.resolvedType) };
  return typeRef(field.type, field.resolvedType);
}

const SCALAR_KINDS: Record<string, string> = {
  enum: 'GENERAL_NUMBER', int32: 'GENERAL_NUMBER', int64: 'GENERAL_NUMBER', uint32: 'GENERAL_NUMBER', uint64: 'GENERAL_NUMBER', bool: 'GENERAL_NUMBER',
  sint32: 'SIGNED_NUMBER', sint64: 'SIGNED_NUMBER', fixed32: 'FIXED32', sfixed32: 'FIXED32', fixed64: 'FIXED64', sfixed64: 'FIXED64',
  float: 'FLOAT', double: 'DOUBLE', string: 'STRING_OR_BYTES', bytes: 'STRING_OR_BYTES',
};

class Context {
  readonly differences: Difference[] = [];
  constructor(
    readonly original: DiffFile,
    readonly update: DiffFile,
    readonly path: string[] = [],
    /** Messages being compared higher up (a recursive type is compared once). */
    readonly inProgress: Set<protobuf.Type> = new Set(),
  ) {}

  add(type: string, ...at: (string | number)[]): void {
    this.differences.push({ type, path: `#/${[...this.path, ...at].join('/')}` });
  }

  within(step: string | number, body: () => void): void {
    this.path.push(String(step));
    try {
      body();
    } finally {
      this.path.pop();
    }
  }

  get compatible(): boolean {
    return this.differences.every((d) => COMPATIBLE.has(d.type));
  }
}

/** SchemaDiff.compare(original, update): every difference, compatible or not. */
export function compareFiles(original: DiffFile, update: DiffFile): Difference[] {
  const ctx = new Context(original, update);
  if (original.package !== update.package) ctx.add('PACKAGE_CHANGED');
  compareTypes(ctx, original.types, update.types);
  return ctx.differences;
}

function compareTypes(ctx: Context, original: readonly protobuf.ReflectionObject[], update: readonly protobuf.ReflectionObject[]): void {
  const index = (types: readonly protobuf.ReflectionObject[]) => {
    const messages = new Map<string, { type: protobuf.Type; index: number }>();
    const enums = new Map<string, protobuf.Enum>();
    for (const type of types) {
      // Groups are not among Square's nested types (nor their fields among a message's fields).
      if (type instanceof protobuf.Type && !isMapEntry(type as protobuf.ReflectionObject) && !isGroup(type)) messages.set(type.name, { type, index: messages.size });
      else if (type instanceof protobuf.Enum) enums.set(type.name, type);
    }
    return { messages, enums };
  };
  const a = index(original);
  const b = index(update);
  for (const name of hashSetOrder(hashMapOrder([...a.messages.keys()]), hashMapOrder([...b.messages.keys()]))) {
    ctx.within(name, () => {
      const before = a.messages.get(name);
      const after = b.messages.get(name);
      if (after === undefined) return ctx.add('MESSAGE_REMOVED');
      if (before === undefined) return ctx.add('MESSAGE_ADDED');
      compareMessages(ctx, before.type, after.type);
      // A moved or reordered message is compatible: a record's message indexes go with its own schema id.
      if (before.index !== after.index) ctx.add('MESSAGE_MOVED');
    });
  }
  for (const name of hashSetOrder(hashMapOrder([...a.enums.keys()]), hashMapOrder([...b.enums.keys()]))) {
    ctx.within(name, () => {
      const before = a.enums.get(name);
      const after = b.enums.get(name);
      if (after === undefined) return ctx.add('ENUM_REMOVED');
      if (before === undefined) return ctx.add('ENUM_ADDED');
      compareEnums(ctx, before, after);
    });
  }
}

function compareEnums(ctx: Context, original: protobuf.Enum, update: protobuf.Enum): void {
  const byTag = (e: protobuf.Enum) => new Map(Object.entries(e.values).map(([name, tag]) => [tag, name]));
  const [a, b] = [byTag(original), byTag(update)];
  for (const tag of hashSetOrder(hashMapOrder([...a.keys()]), hashMapOrder([...b.keys()]))) {
    const before = a.get(tag);
    const after = b.get(tag);
    if (after === undefined) ctx.add('ENUM_CONST_REMOVED', tag);
    else if (before === undefined) ctx.add('ENUM_CONST_ADDED', tag);
    else if (before !== after) ctx.add('ENUM_CONST_CHANGED', tag);
  }
}

function compareMessages(ctx: Context, original: protobuf.Type, update: protobuf.Type): void {
  if (!ctx.inProgress.has(original)) {
    ctx.inProgress.add(original);
    try {
      compareMessageBody(ctx, original, update);
    } finally {
      ctx.inProgress.delete(original);
    }
  }
  compareTypes(ctx, original.nestedArray, update.nestedArray);
}

function compareMessageBody(ctx: Context, original: protobuf.Type, update: protobuf.Type): void {
  const collect = (type: protobuf.Type) => {
    const byTag = new Map(type.fieldsArray.filter((f) => groupType(type, f) === undefined).map((f) => [f.id, f]));
    const oneofOf = new Map<number, string>();
    const oneofs = new Map<string, protobuf.OneOf>();
    for (const oneof of type.oneofsArray) {
      if (oneof.fieldsArray.length === 1 && isProto3Optional(oneof.fieldsArray[0]!)) continue;
      oneofs.set(oneof.name, oneof);
      for (const field of oneof.fieldsArray) oneofOf.set(field.id, oneof.name);
    }
    return { byTag, oneofOf, oneofs };
  };
  const a = collect(original);
  const b = collect(update);
  // A oneof gone with every one of its fields is a deletion (compatible); its fields are not reported one by one.
  const deleted = new Set([...a.oneofs].filter(([name, oneof]) => !b.oneofs.has(name) && !oneof.fieldsArray.some((f) => b.byTag.has(f.id))).map(([name]) => name));
  // Fields that were independent and now share a oneof can no longer all be set.
  for (const oneof of b.oneofs.values()) {
    ctx.within(oneof.name, () => {
      const groups = new Set<string>();
      let movedIn = 0;
      for (const field of oneof.fieldsArray) {
        if (a.oneofOf.has(field.id)) groups.add(`oneof:${a.oneofOf.get(field.id)}`);
        else if (a.byTag.has(field.id)) {
          groups.add(`field:${field.id}`);
          movedIn++;
        }
      }
      if (groups.size > 1) ctx.add(movedIn > 1 ? 'MULTIPLE_FIELDS_MOVED_TO_ONEOF' : 'FIELD_MOVED_TO_EXISTING_ONEOF');
    });
  }
  for (const name of [...new Set([...a.oneofs.keys(), ...b.oneofs.keys()])].sort()) {
    if (!b.oneofs.has(name)) ctx.add('ONEOF_REMOVED', name);
    else if (!a.oneofs.has(name)) ctx.add('ONEOF_ADDED', name);
  }
  for (const tag of [...new Set([...a.byTag.keys(), ...b.byTag.keys()])].sort((x, y) => x - y)) {
    const before = a.byTag.get(tag);
    const after = b.byTag.get(tag);
    const [oneofBefore, oneofAfter] = [a.oneofOf.get(tag), b.oneofOf.get(tag)];
    if (after === undefined) {
      if (oneofBefore === undefined) ctx.add(before!.required ? 'REQUIRED_FIELD_REMOVED' : 'FIELD_REMOVED', tag);
      else if (!deleted.has(oneofBefore)) ctx.add('ONEOF_FIELD_REMOVED', oneofBefore, tag);
    } else if (before === undefined) {
      if (oneofAfter !== undefined) ctx.add('ONEOF_FIELD_ADDED', oneofAfter, tag);
      else ctx.add(after.required ? 'REQUIRED_FIELD_ADDED' : 'FIELD_ADDED', tag);
    } else {
      if (oneofBefore !== undefined && oneofAfter === undefined) ctx.add('ONEOF_FIELD_MOVED_TO_TOP_LEVEL', tag);
      const compareHere = () => ctx.within(tag, () => compareFields(ctx, before, after));
      if (oneofAfter !== undefined) ctx.within(oneofAfter, compareHere);
      else compareHere();
    }
  }
}

/** A field's label as Square's wire-schema reads it: none for a proto3 singular field or a oneof's. */
function labelOf(field: protobuf.Field, syntax: string): string | undefined {
  if (field.repeated) return 'REPEATED';
  if (field.required) return 'REQUIRED';
  if (realOneof(field) !== undefined) return undefined;
  return syntax === 'proto2' || isProto3Optional(field) ? 'OPTIONAL' : undefined;
}

function compareFields(ctx: Context, original: protobuf.Field, update: protobuf.Field): void {
  if (original.name !== update.name) ctx.add('FIELD_NAME_CHANGED');
  const syntax = (f: protobuf.Field, file: DiffFile) => file.origins.get(f.parent!)?.syntax ?? 'proto3';
  compareTypeRefs(ctx, labelOf(original, syntax(original, ctx.original)), labelOf(update, syntax(update, ctx.update)), fieldTypeRef(original), fieldTypeRef(update));
}

function compareTypeRefs(ctx: Context, labelBefore: string | undefined, labelAfter: string | undefined, before: TypeRef, after: TypeRef): void {
  if (before.kind !== after.kind) return ctx.add('FIELD_KIND_CHANGED');
  if (before.kind === 'SCALAR' && after.kind === 'SCALAR') {
    const kind = SCALAR_KINDS[before.scalar];
    if (kind !== SCALAR_KINDS[after.scalar]) return ctx.add('FIELD_SCALAR_KIND_CHANGED');
    if (labelBefore !== undefined && labelAfter !== undefined && labelBefore !== labelAfter) {
      ctx.add(kind === 'STRING_OR_BYTES' ? 'FIELD_STRING_OR_BYTES_LABEL_CHANGED' : 'FIELD_NUMERIC_LABEL_CHANGED');
    }
  } else if (before.kind === 'MESSAGE' && after.kind === 'MESSAGE') {
    compareMessageTypes(ctx, before.message, after.message);
  } else if (before.kind === 'MAP' && after.kind === 'MAP') {
    compareTypeRefs(ctx, undefined, undefined, before.key, after.key);
    compareTypeRefs(ctx, undefined, undefined, before.value, after.value);
  }
}

/** The type's package: the namespaces above its outermost enclosing message. */
function packageOf(type: protobuf.ReflectionObject): string {
  let at: protobuf.ReflectionObject = type;
  while (at.parent instanceof protobuf.Type) at = at.parent;
  return at.parent === null ? '' : at.parent.fullName.replace(/^\./, '');
}

function compareMessageTypes(ctx: Context, original: protobuf.Type, update: protobuf.Type): void {
  const origin = (type: protobuf.Type, file: DiffFile): Origin => file.origins.get(type) ?? { package: packageOf(type), syntax: 'proto3', subject: `common:${packageOf(type)}`, version: 0 };
  const [a, b] = [origin(original, ctx.original), origin(update, ctx.update)];
  const local = (type: protobuf.Type, o: Origin) => {
    const full = type.fullName.replace(/^\./, '');
    return full.startsWith(`${o.package}.`) ? full.slice(o.package.length + 1) : full;
  };
  const name = local(original, a);
  if (name !== local(update, b)) return ctx.add('FIELD_NAMED_TYPE_CHANGED');
  // Both local, or the same subject and version: the same type, nothing to compare.
  if (a.subject === b.subject && a.version === b.version) return;
  const sub = new Context(ctx.original, ctx.update, name.split('.'), new Set(ctx.inProgress));
  compareMessages(sub, original, update);
  ctx.differences.push(...sub.differences);
  if (!sub.compatible) ctx.add('FIELD_NAMED_TYPE_CHANGED');
}

/** Confluent's Difference.toString(), "%s" standing for the reader and writer ("new"/"old"). */
export function differenceText({ type, path }: Difference): string {
  const descriptions: Record<string, string> = {
    PACKAGE_CHANGED: `The package at '${path}' in the %s schema does not match the package in the %s schema`,
    MESSAGE_REMOVED: `The %s schema is missing a MESSAGE type at path '${path}' in the %s schema`,
    FIELD_KIND_CHANGED: `The type of a field at path '${path}' in the %s schema does not match the %s schema`,
    FIELD_SCALAR_KIND_CHANGED: `The kind of a SCALAR field at path '${path}' in the %s schema does not match its kind in the %s schema`,
    FIELD_NAMED_TYPE_CHANGED: `The type of a MESSAGE field at path '${path}' in the %s schema does not match its type in the %s schema`,
    FIELD_NUMERIC_LABEL_CHANGED: `The label for a NUMERIC field at path '${path}' in the %s schema does not match its label in the %s schema`,
    REQUIRED_FIELD_ADDED: `A required field  at path '${path}' in the %s schema is missing in the %s schema`,
    REQUIRED_FIELD_REMOVED: `The %s schema is missing a required field at path: '${path}' in the %s schema`,
    ONEOF_FIELD_REMOVED: `The %s schema is missing a oneof field at path '${path}' in the %s schema`,
    ONEOF_FIELD_MOVED_TO_TOP_LEVEL: `The oneof field at path '${path}' in the %s schema was moved out of its oneof to a top-level field in the %s schema`,
    MULTIPLE_FIELDS_MOVED_TO_ONEOF: `Multiple fields in the oneof at path '${path}' in the %s schema are outside a oneof in the %s schema`,
    FIELD_MOVED_TO_EXISTING_ONEOF: `A field in the oneof at path '${path}' in the %s schema is outside an existing oneof in the %s schema`,
  };
  return `{errorType:"${type}", description:"${descriptions[type] ?? ''}"}`;
}
