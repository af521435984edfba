// Confluent's JsonSchemaDiff: the differences between an original and an updated JSON schema (as json-schema-model
// loads them), each a type and a JSON path, in the order Confluent finds them; COMPATIBLE holds the types its
// default (STRICT) policy allows. Combined types are compared branch by branch: the update's branches must match
// the original's one to one (a maximum bipartite matching over the compatible pairs). A pair already being
// compared higher up (a recursive $ref) counts as compatible, and the whole comparison is repeated with the pairs
// found incompatible until nothing changes, as Confluent does.
import { hashMapOrder, hashSetOrder } from '../java-hash-order.js';
import type { ArrayNode, Node, ObjectNode } from './json-schema-model.js';

export interface Difference {
  readonly type: string;
  readonly path: string;
}

export const COMPATIBLE: ReadonlySet<string> = new Set([
  'ID_CHANGED', 'DESCRIPTION_CHANGED', 'TITLE_CHANGED', 'DEFAULT_CHANGED', 'SCHEMA_REMOVED', 'TYPE_EXTENDED',
  'MAX_LENGTH_INCREASED', 'MAX_LENGTH_REMOVED', 'MIN_LENGTH_DECREASED', 'MIN_LENGTH_REMOVED', 'PATTERN_REMOVED',
  'MAXIMUM_INCREASED', 'MAXIMUM_REMOVED', 'MINIMUM_DECREASED', 'MINIMUM_REMOVED', 'EXCLUSIVE_MAXIMUM_INCREASED',
  'EXCLUSIVE_MAXIMUM_REMOVED', 'EXCLUSIVE_MINIMUM_DECREASED', 'EXCLUSIVE_MINIMUM_REMOVED', 'MULTIPLE_OF_REDUCED',
  'MULTIPLE_OF_REMOVED', 'REQUIRED_ATTRIBUTE_WITH_DEFAULT_ADDED', 'REQUIRED_ATTRIBUTE_REMOVED', 'DEPENDENCY_ARRAY_NARROWED',
  'DEPENDENCY_ARRAY_REMOVED', 'DEPENDENCY_SCHEMA_REMOVED', 'MAX_PROPERTIES_INCREASED', 'MAX_PROPERTIES_REMOVED',
  'MIN_PROPERTIES_DECREASED', 'MIN_PROPERTIES_REMOVED', 'ADDITIONAL_PROPERTIES_ADDED', 'ADDITIONAL_PROPERTIES_EXTENDED',
  'UNEVALUATED_PROPERTIES_ADDED', 'UNEVALUATED_PROPERTIES_EXTENDED', 'PROPERTY_WITH_EMPTY_SCHEMA_ADDED_TO_OPEN_CONTENT_MODEL',
  'REQUIRED_PROPERTY_WITH_DEFAULT_ADDED_TO_UNOPEN_CONTENT_MODEL', 'OPTIONAL_PROPERTY_ADDED_TO_UNOPEN_CONTENT_MODEL',
  'PROPERTY_WITH_FALSE_REMOVED_FROM_CLOSED_CONTENT_MODEL', 'PROPERTY_REMOVED_FROM_OPEN_CONTENT_MODEL',
  'PROPERTY_ADDED_IS_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL', 'PROPERTY_REMOVED_IS_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL',
  'MAX_ITEMS_INCREASED', 'MAX_ITEMS_REMOVED', 'MIN_ITEMS_DECREASED', 'MIN_ITEMS_REMOVED', 'MAX_CONTAINS_INCREASED',
  'MAX_CONTAINS_REMOVED', 'MIN_CONTAINS_DECREASED', 'MIN_CONTAINS_REMOVED', 'UNIQUE_ITEMS_REMOVED', 'ADDITIONAL_ITEMS_ADDED',
  'ADDITIONAL_ITEMS_EXTENDED', 'UNEVALUATED_ITEMS_ADDED', 'UNEVALUATED_ITEMS_EXTENDED', 'ITEM_WITH_EMPTY_SCHEMA_ADDED_TO_OPEN_CONTENT_MODEL',
  'ITEM_ADDED_TO_CLOSED_CONTENT_MODEL', 'ITEM_WITH_FALSE_REMOVED_FROM_CLOSED_CONTENT_MODEL', 'ITEM_REMOVED_FROM_OPEN_CONTENT_MODEL',
  'ITEM_ADDED_IS_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL', 'ITEM_REMOVED_IS_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL',
  'ENUM_ARRAY_EXTENDED', 'COMBINED_TYPE_EXTENDED', 'PRODUCT_TYPE_NARROWED', 'SUM_TYPE_EXTENDED', 'NOT_TYPE_NARROWED',
]);

/** Confluent's COMPATIBLE_CHANGES_LENIENT (compatibilityPolicy LENIENT): also content models opened or closed. */
export const COMPATIBLE_LENIENT: ReadonlySet<string> = new Set([...COMPATIBLE, 'ADDITIONAL_PROPERTIES_NARROWED', 'ADDITIONAL_PROPERTIES_REMOVED',
  'UNEVALUATED_PROPERTIES_NARROWED', 'UNEVALUATED_PROPERTIES_REMOVED', 'REQUIRED_PROPERTY_WITH_DEFAULT_ADDED_TO_OPEN_CONTENT_MODEL',
  'OPTIONAL_PROPERTY_ADDED_TO_OPEN_CONTENT_MODEL', 'PROPERTY_REMOVED_FROM_OPEN_CONTENT_MODEL', 'PROPERTY_REMOVED_FROM_CLOSED_CONTENT_MODEL',
  'PROPERTY_ADDED_NOT_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL', 'PROPERTY_REMOVED_NOT_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL']);

/** Schema pairs compared so far (by identity): their differences relative to the pair. */
type PairMemo = Map<Node, Map<Node, Difference[]>>;

interface Shared {
  readonly memo: PairMemo;
  readonly inProgress: Map<Node, Set<Node>>;
  readonly incompatibleSeed: PairMemo;
  readonly compatibleChanges: ReadonlySet<string>;
  optimistic: boolean;
}

const getPair = (memo: PairMemo, a: Node, b: Node) => memo.get(a)?.get(b);
function setPair(memo: PairMemo, a: Node, b: Node, value: Difference[]): void {
  let inner = memo.get(a);
  if (inner === undefined) memo.set(a, (inner = new Map()));
  inner.set(b, value);
}

class Context {
  readonly differences: Difference[] = [];
  constructor(readonly shared: Shared, readonly path: string[] = []) {}

  sub(): Context {
    return new Context(this.shared, [...this.path]);
  }

  add(type: string, ...at: string[]): void {
    this.differences.push({ type, path: `#/${[...this.path, ...at].join('/')}` });
  }

  within<T>(step: string, body: () => T): T {
    this.path.push(step);
    try {
      return body();
    } finally {
      this.path.pop();
    }
  }

  get compatible(): boolean {
    return this.differences.every((d) => this.shared.compatibleChanges.has(d.type));
  }
}

/** SchemaDiff.compare(original, update): every difference, compatible or not. */
export function compareSchemas(original: Node, update: Node, compatibleChanges: ReadonlySet<string> = COMPATIBLE): Difference[] {
  let seed: PairMemo = new Map();
  for (;;) {
    const shared: Shared = { memo: new Map(), inProgress: new Map(), incompatibleSeed: seed, compatibleChanges, optimistic: false };
    const context = new Context(shared);
    compare(context, original, update);
    const incompatible: PairMemo = new Map();
    let count = 0;
    let same = true;
    for (const [a, inner] of shared.memo) {
      for (const [b, diffs] of inner) {
        if (diffs.every((d) => compatibleChanges.has(d.type))) continue;
        setPair(incompatible, a, b, diffs);
        count++;
        if (getPair(seed, a, b) === undefined) same = false;
      }
    }
    const seedCount = [...seed.values()].reduce((n, inner) => n + inner.size, 0);
    if (!shared.optimistic || (same && count === seedCount)) return context.differences;
    seed = incompatible;
  }
}

function resolved(node: Node): Node {
  let at: Node | undefined = node;
  for (let hops = 0; at !== undefined && at.kind === 'ref' && hops < 100; hops++) at = at.target();
  return at ?? { kind: 'empty', text: '{}' };
}

function compare(ctx: Context, original: Node | undefined, update: Node | undefined): void {
  if (original === undefined && update === undefined) return;
  if (original === undefined) return ctx.add('SCHEMA_ADDED');
  if (update === undefined) return ctx.add('SCHEMA_REMOVED');
  const a = resolved(original);
  const b = resolved(update);
  const rebase = (diffs: readonly Difference[]) => {
    const prefix = `#/${ctx.path.join('/')}`;
    for (const d of diffs) {
      ctx.differences.push({ type: d.type, path: ctx.path.length === 0 ? d.path : d.path.length <= 2 ? prefix : `${prefix}/${d.path.slice(2)}` });
    }
  };
  const { shared } = ctx;
  const cached = getPair(shared.memo, a, b);
  if (cached !== undefined) return rebase(cached);
  let active = shared.inProgress.get(a);
  if (active?.has(b)) {
    const seeded = getPair(shared.incompatibleSeed, a, b);
    if (seeded !== undefined) return rebase(seeded);
    shared.optimistic = true;
    return;
  }
  if (active === undefined) shared.inProgress.set(a, (active = new Set()));
  active.add(b);
  try {
    const pair = new Context(shared);
    compareTypes(pair, a, b);
    setPair(shared.memo, a, b, pair.differences);
    rebase(pair.differences);
  } finally {
    active.delete(b);
  }
}

const isEmpty = (node: Node) => node.kind === 'empty' || node.kind === 'true';

function compareTypes(ctx: Context, original: Node, update: Node): void {
  if (original.kind !== 'combined' && update.kind === 'combined') {
    if (update.subschemas.length === 1) {
      const sub = ctx.sub();
      compare(sub, original, update.subschemas[0]);
      if (sub.compatible) return void ctx.differences.push(...sub.differences);
    } else if (update.criterion !== 'allOf') {
      for (const branch of update.subschemas) {
        const sub = ctx.sub();
        compare(sub, original, branch);
        if (sub.compatible) {
          ctx.differences.push(...sub.differences);
          return ctx.add('SUM_TYPE_EXTENDED');
        }
      }
    }
  } else if (original.kind === 'combined' && update.kind !== 'combined') {
    if (original.subschemas.length === 1) {
      const sub = ctx.sub();
      compare(sub, original.subschemas[0], update);
      if (sub.compatible) return void ctx.differences.push(...sub.differences);
    } else if (original.criterion === 'allOf') {
      for (const branch of original.subschemas) {
        const sub = ctx.sub();
        compare(sub, branch, update);
        if (sub.compatible) {
          ctx.differences.push(...sub.differences);
          return ctx.add('PRODUCT_TYPE_NARROWED');
        }
      }
    }
  }
  if (original.kind !== update.kind) {
    if (original.kind === 'false' || isEmpty(update)) return;
    // Two schemas Kafka Connect marks as bytes stand for each other (Confluent's decimal fix).
    if (original.connectType === 'bytes' && update.connectType === 'bytes') return;
    return ctx.add('TYPE_CHANGED');
  }
  if (original.id !== update.id) ctx.add('ID_CHANGED');
  if (original.title !== update.title) ctx.add('TITLE_CHANGED');
  if (original.description !== update.description) ctx.add('DESCRIPTION_CHANGED');
  if (original.defaultValue !== update.defaultValue) ctx.add('DEFAULT_CHANGED');
  switch (original.kind) {
    case 'string': {
      const u = update as typeof original;
      bound(ctx, 'maxLength', 'MAX_LENGTH', original.maxLength, u.maxLength);
      bound(ctx, 'minLength', 'MIN_LENGTH', original.minLength, u.minLength);
      if (original.pattern === undefined && u.pattern !== undefined) ctx.add('PATTERN_ADDED', 'pattern');
      else if (original.pattern !== undefined && u.pattern === undefined) ctx.add('PATTERN_REMOVED', 'pattern');
      else if (original.pattern !== u.pattern) ctx.add('PATTERN_CHANGED', 'pattern');
      return;
    }
    case 'number': {
      const u = update as typeof original;
      bound(ctx, 'maximum', 'MAXIMUM', original.maximum, u.maximum);
      bound(ctx, 'minimum', 'MINIMUM', original.minimum, u.minimum);
      bound(ctx, 'exclusiveMaximum', 'EXCLUSIVE_MAXIMUM', original.exclusiveMaximum, u.exclusiveMaximum);
      bound(ctx, 'exclusiveMinimum', 'EXCLUSIVE_MINIMUM', original.exclusiveMinimum, u.exclusiveMinimum);
      multipleOf(ctx, original.multipleOf, u.multipleOf);
      if (original.integer !== u.integer) ctx.add(original.integer ? 'TYPE_EXTENDED' : 'TYPE_NARROWED');
      return;
    }
    case 'const':
      if (original.value !== (update as typeof original).value) ctx.add('ENUM_ARRAY_CHANGED', 'const');
      return;
    case 'enum': {
      const before = original.values;
      const after = (update as typeof original).values;
      const contains = (all: readonly string[], some: readonly string[]) => some.every((v) => all.includes(v));
      if (before.length === after.length && contains(after, before)) return;
      if (contains(after, before)) ctx.add('ENUM_ARRAY_EXTENDED', 'enum');
      else if (contains(before, after)) ctx.add('ENUM_ARRAY_NARROWED', 'enum');
      else ctx.add('ENUM_ARRAY_CHANGED', 'enum');
      return;
    }
    case 'combined':
      return compareCombined(ctx, original, update as typeof original);
    case 'not':
      return ctx.within('not', () => {
        const sub = ctx.sub();
        compare(sub, (update as typeof original).schema, original.schema);
        ctx.add(sub.compatible ? 'NOT_TYPE_NARROWED' : 'NOT_TYPE_EXTENDED');
      });
    case 'object':
      return compareObjects(ctx, original, update as ObjectNode);
    case 'array':
      return compareArrays(ctx, original, update as ArrayNode);
    default:
      return;
  }
}

function bound(ctx: Context, keyword: string, name: string, before: number | undefined, after: number | undefined): void {
  if (before === after) return;
  if (before === undefined) ctx.add(`${name}_ADDED`, keyword);
  else if (after === undefined) ctx.add(`${name}_REMOVED`, keyword);
  else if (before < after) ctx.add(`${name}_INCREASED`, keyword);
  else if (before > after) ctx.add(`${name}_DECREASED`, keyword);
}

/** Exact remainders of decimal numbers (0.3 % 0.1 is 0 here, as with Java's BigDecimal). */
function divides(divisor: number, value: number): boolean {
  const decimals = (n: number) => (String(n).split('.')[1] ?? '').length;
  const scale = 10 ** Math.max(decimals(divisor), decimals(value));
  const d = Math.round(divisor * scale);
  return d !== 0 && Math.round(value * scale) % d === 0;
}

function multipleOf(ctx: Context, before: number | undefined, after: number | undefined): void {
  if (before === after) return;
  if (before === undefined) ctx.add('MULTIPLE_OF_ADDED', 'multipleOf');
  else if (after === undefined) ctx.add('MULTIPLE_OF_REMOVED', 'multipleOf');
  else if (divides(before, after)) ctx.add('MULTIPLE_OF_EXPANDED', 'multipleOf');
  else if (divides(after, before)) ctx.add('MULTIPLE_OF_REDUCED', 'multipleOf');
  else ctx.add('MULTIPLE_OF_CHANGED', 'multipleOf');
}

function compareCombined(ctx: Context, original: Node & { kind: 'combined' }, update: Node & { kind: 'combined' }): void {
  if (original.criterion !== update.criterion) {
    const single = (n: typeof original) => n.subschemas.length === 1;
    const extended = update.criterion === 'anyOf' || (single(original) && single(update)) || (single(original) && update.criterion === 'oneOf')
      || (single(update) && original.criterion === 'allOf');
    if (!extended) return ctx.add('COMBINED_TYPE_CHANGED');
    ctx.add('COMBINED_TYPE_EXTENDED');
  }
  const distinct = (nodes: readonly Node[]) => [...new Map(nodes.map((n) => [n.text, n])).values()];
  const before = distinct(original.subschemas);
  const after = distinct(update.subschemas);
  if (before.length < after.length) ctx.add(update.criterion === 'allOf' ? 'PRODUCT_TYPE_EXTENDED' : 'SUM_TYPE_EXTENDED');
  else if (before.length > after.length) ctx.add(original.criterion === 'allOf' ? 'PRODUCT_TYPE_NARROWED' : 'SUM_TYPE_NARROWED');
  const edges = before.map((b, i) => ctx.within(`${original.criterion}/${i}`, () => after.map((u) => {
    const sub = ctx.sub();
    compare(sub, b, u);
    return sub.compatible ? sub.differences : undefined;
  })));
  const matchOf = maximumMatching(edges);
  let matched = 0;
  matchOf.forEach((j, i) => {
    if (j < 0) return;
    matched++;
    ctx.differences.push(...edges[i]![j]!);
  });
  if (matched < Math.min(before.length, after.length)) ctx.add('COMBINED_TYPE_SUBSCHEMAS_CHANGED');
}

/** A maximum bipartite matching (augmenting paths): for each left vertex, its right vertex or -1. */
function maximumMatching(edges: readonly (readonly (unknown | undefined)[])[]): number[] {
  const rightOf = edges.map(() => -1);
  const leftOf: number[] = [];
  const augment = (i: number, seen: Set<number>): boolean => {
    const row = edges[i]!;
    for (let j = 0; j < row.length; j++) {
      if (row[j] === undefined || seen.has(j)) continue;
      seen.add(j);
      if (leftOf[j] === undefined || leftOf[j] < 0 || augment(leftOf[j]!, seen)) {
        leftOf[j] = i;
        rightOf[i] = j;
        return true;
      }
    }
    return false;
  };
  for (let i = 0; i < edges.length; i++) augment(i, new Set());
  return rightOf;
}

function isOpenObject(schema: ObjectNode): boolean {
  if (!schema.permitsAdditional || schema.additionalSchema !== undefined || schema.patterns.length > 0) return false;
  return schema.unevaluated === undefined || isEmpty(schema.unevaluated);
}

function partialObjectSchema(schema: ObjectNode, key: string): Node | undefined {
  for (const [pattern, node] of schema.patterns) if (pattern.test(key)) return node;
  if (schema.additionalSchema !== undefined) return schema.additionalSchema;
  const u = schema.unevaluated;
  if (schema.permitsAdditional && u !== undefined && u.kind !== 'false' && !isEmpty(u)) return u;
  return undefined;
}

function compareObjects(ctx: Context, original: ObjectNode, update: ObjectNode): void {
  ctx.within('required', () => {
    for (const key of hashMapOrder([...original.properties.keys()])) {
      if (!update.properties.has(key)) continue;
      const before = original.required.includes(key);
      const after = update.required.includes(key);
      if (before && !after) ctx.add('REQUIRED_ATTRIBUTE_REMOVED', key);
      else if (!before && after) ctx.add(update.properties.get(key)!.defaultValue !== undefined ? 'REQUIRED_ATTRIBUTE_WITH_DEFAULT_ADDED' : 'REQUIRED_ATTRIBUTE_ADDED', key);
    }
  });
  ctx.within('properties', () => {
    for (const key of hashSetOrder(hashMapOrder([...original.properties.keys()]), [...update.properties.keys()])) {
      ctx.within(key, () => {
        const before = original.properties.get(key);
        const after = update.properties.get(key);
        if (after === undefined) {
          if (isOpenObject(update)) return ctx.add('PROPERTY_REMOVED_FROM_OPEN_CONTENT_MODEL');
          const partial = partialObjectSchema(update, key);
          if (partial !== undefined) {
            const sub = ctx.sub();
            compare(sub, before, partial);
            ctx.differences.push(...sub.differences);
            return ctx.add(sub.compatible ? 'PROPERTY_REMOVED_IS_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL' : 'PROPERTY_REMOVED_NOT_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL');
          }
          return ctx.add(before!.kind === 'false' ? 'PROPERTY_WITH_FALSE_REMOVED_FROM_CLOSED_CONTENT_MODEL' : 'PROPERTY_REMOVED_FROM_CLOSED_CONTENT_MODEL');
        }
        if (before !== undefined) return compare(ctx, before, after);
        const required = update.required.includes(key);
        if (isOpenObject(original)) {
          if (isEmpty(after)) return ctx.add('PROPERTY_WITH_EMPTY_SCHEMA_ADDED_TO_OPEN_CONTENT_MODEL');
          if (required) return ctx.add(after.defaultValue !== undefined ? 'REQUIRED_PROPERTY_WITH_DEFAULT_ADDED_TO_OPEN_CONTENT_MODEL' : 'REQUIRED_PROPERTY_ADDED_TO_OPEN_CONTENT_MODEL');
          return ctx.add('OPTIONAL_PROPERTY_ADDED_TO_OPEN_CONTENT_MODEL');
        }
        const partial = partialObjectSchema(original, key);
        if (partial !== undefined) {
          const sub = ctx.sub();
          compare(sub, partial, after);
          ctx.differences.push(...sub.differences);
          ctx.add(sub.compatible ? 'PROPERTY_ADDED_IS_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL' : 'PROPERTY_ADDED_NOT_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL');
        }
        if (required) ctx.add(after.defaultValue !== undefined ? 'REQUIRED_PROPERTY_WITH_DEFAULT_ADDED_TO_UNOPEN_CONTENT_MODEL' : 'REQUIRED_PROPERTY_ADDED_TO_UNOPEN_CONTENT_MODEL');
        else ctx.add('OPTIONAL_PROPERTY_ADDED_TO_UNOPEN_CONTENT_MODEL');
      });
    }
  });
  ctx.within('dependencies', () => {
    for (const key of hashSetOrder(hashMapOrder([...original.propertyDependencies.keys()]), [...update.propertyDependencies.keys()])) {
      const before = original.propertyDependencies.get(key);
      const after = update.propertyDependencies.get(key);
      if (after === undefined) ctx.add('DEPENDENCY_ARRAY_REMOVED', key);
      else if (before === undefined) ctx.add('DEPENDENCY_ARRAY_ADDED', key);
      else if (!(before.length === after.length && before.every((v) => after.includes(v)))) {
        if (before.every((v) => after.includes(v))) ctx.add('DEPENDENCY_ARRAY_EXTENDED', key);
        else if (after.every((v) => before.includes(v))) ctx.add('DEPENDENCY_ARRAY_NARROWED', key);
        else ctx.add('DEPENDENCY_ARRAY_CHANGED', key);
      }
    }
    for (const key of hashSetOrder(hashMapOrder([...original.schemaDependencies.keys()]), [...update.schemaDependencies.keys()])) {
      const before = original.schemaDependencies.get(key);
      const after = update.schemaDependencies.get(key);
      if (after === undefined) ctx.add('DEPENDENCY_SCHEMA_REMOVED', key);
      else if (before === undefined) ctx.add('DEPENDENCY_SCHEMA_ADDED', key);
      else ctx.within(key, () => compare(ctx, before, after));
    }
  });
  ctx.within('additionalProperties', () => {
    if (original.permitsAdditional !== update.permitsAdditional) ctx.add(update.permitsAdditional ? 'ADDITIONAL_PROPERTIES_ADDED' : 'ADDITIONAL_PROPERTIES_REMOVED');
    else if (original.additionalSchema === undefined && update.additionalSchema !== undefined) ctx.add('ADDITIONAL_PROPERTIES_NARROWED');
    else if (update.additionalSchema === undefined && original.additionalSchema !== undefined) ctx.add('ADDITIONAL_PROPERTIES_EXTENDED');
    else compare(ctx, original.additionalSchema, update.additionalSchema);
  });
  compareUnevaluated(ctx, 'unevaluatedProperties', 'UNEVALUATED_PROPERTIES', original.unevaluated, update.unevaluated);
  bound(ctx, 'maxProperties', 'MAX_PROPERTIES', original.maxProperties, update.maxProperties);
  bound(ctx, 'minProperties', 'MIN_PROPERTIES', original.minProperties, update.minProperties);
}

function compareUnevaluated(ctx: Context, keyword: string, name: string, before: Node | undefined, after: Node | undefined): void {
  if (before === undefined && after === undefined) return;
  ctx.within(keyword, () => {
    const isFalse = (n: Node | undefined) => n?.kind === 'false';
    const empty = (n: Node | undefined) => n !== undefined && isEmpty(n);
    if (before === undefined) ctx.add(isFalse(after) ? `${name}_REMOVED` : `${name}_NARROWED`);
    else if (after === undefined) ctx.add(isFalse(before) ? `${name}_ADDED` : `${name}_EXTENDED`);
    else if (isFalse(before) && !isFalse(after)) ctx.add(`${name}_ADDED`);
    else if (!isFalse(before) && isFalse(after)) ctx.add(`${name}_REMOVED`);
    else if (empty(before) && !empty(after)) ctx.add(`${name}_NARROWED`);
    else if (!empty(before) && empty(after)) ctx.add(`${name}_EXTENDED`);
    else compare(ctx, before, after);
  });
}

function isOpenArray(schema: ArrayNode): boolean {
  if (!schema.permitsAdditional || schema.additionalSchema !== undefined) return false;
  return schema.unevaluated === undefined || isEmpty(schema.unevaluated);
}

function partialArraySchema(schema: ArrayNode): Node | undefined {
  if (schema.additionalSchema !== undefined) return schema.additionalSchema;
  const u = schema.unevaluated;
  if (schema.permitsAdditional && u !== undefined && u.kind !== 'false' && !isEmpty(u)) return u;
  return undefined;
}

function compareArrays(ctx: Context, original: ArrayNode, update: ArrayNode): void {
  ctx.within('items', () => compare(ctx, original.allItems, update.allItems));
  const before = original.itemSchemas ?? [];
  const after = update.itemSchemas ?? [];
  const shared = Math.min(before.length, after.length);
  for (let i = 0; i < shared; i++) ctx.within(`items/${i}`, () => compare(ctx, before[i], after[i]));
  for (let i = shared; i < before.length; i++) {
    ctx.within(`items/${i}`, () => {
      if (isOpenArray(update)) return ctx.add('ITEM_REMOVED_FROM_OPEN_CONTENT_MODEL');
      const partial = partialArraySchema(update);
      if (partial !== undefined) {
        const sub = ctx.sub();
        compare(sub, before[i], partial);
        ctx.differences.push(...sub.differences);
        return ctx.add(sub.compatible ? 'ITEM_REMOVED_IS_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL' : 'ITEM_REMOVED_NOT_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL');
      }
      ctx.add(before[i]!.kind === 'false' ? 'ITEM_WITH_FALSE_REMOVED_FROM_CLOSED_CONTENT_MODEL' : 'ITEM_REMOVED_FROM_CLOSED_CONTENT_MODEL');
    });
  }
  for (let i = shared; i < after.length; i++) {
    ctx.within(`items/${i}`, () => {
      if (isOpenArray(original)) return ctx.add(isEmpty(after[i]!) ? 'ITEM_WITH_EMPTY_SCHEMA_ADDED_TO_OPEN_CONTENT_MODEL' : 'ITEM_ADDED_TO_OPEN_CONTENT_MODEL');
      const partial = partialArraySchema(original);
      if (partial === undefined) return ctx.add('ITEM_ADDED_TO_CLOSED_CONTENT_MODEL');
      const sub = ctx.sub();
      compare(sub, partial, after[i]);
      ctx.differences.push(...sub.differences);
      ctx.add(sub.compatible ? 'ITEM_ADDED_IS_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL' : 'ITEM_ADDED_NOT_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL');
    });
  }
  ctx.within('additionalItems', () => {
    if (original.permitsAdditional !== update.permitsAdditional) ctx.add(original.permitsAdditional ? 'ADDITIONAL_ITEMS_REMOVED' : 'ADDITIONAL_ITEMS_ADDED');
    else if (original.additionalSchema === undefined && update.additionalSchema !== undefined) ctx.add('ADDITIONAL_ITEMS_NARROWED');
    else if (update.additionalSchema === undefined && original.additionalSchema !== undefined) ctx.add('ADDITIONAL_ITEMS_EXTENDED');
    else compare(ctx, original.additionalSchema, update.additionalSchema);
  });
  compareUnevaluated(ctx, 'unevaluatedItems', 'UNEVALUATED_ITEMS', original.unevaluated, update.unevaluated);
  bound(ctx, 'maxItems', 'MAX_ITEMS', original.maxItems, update.maxItems);
  bound(ctx, 'minItems', 'MIN_ITEMS', original.minItems, update.minItems);
  if (original.uniqueItems !== update.uniqueItems) ctx.add(original.uniqueItems ? 'UNIQUE_ITEMS_REMOVED' : 'UNIQUE_ITEMS_ADDED', 'uniqueItems');
  bound(ctx, 'maxContains', 'MAX_CONTAINS', original.maxContains, update.maxContains);
  bound(ctx, 'minContains', 'MIN_CONTAINS', original.minContains, update.minContains);
}

const KEYWORD_ADDED = new Set(['MAXIMUM_ADDED', 'MINIMUM_ADDED', 'EXCLUSIVE_MAXIMUM_ADDED', 'EXCLUSIVE_MINIMUM_ADDED', 'MULTIPLE_OF_ADDED',
  'MAX_LENGTH_ADDED', 'MIN_LENGTH_ADDED', 'PATTERN_ADDED', 'REQUIRED_ATTRIBUTE_ADDED', 'MAX_PROPERTIES_ADDED', 'MIN_PROPERTIES_ADDED',
  'DEPENDENCY_ARRAY_ADDED', 'DEPENDENCY_SCHEMA_ADDED', 'MAX_ITEMS_ADDED', 'MIN_ITEMS_ADDED', 'MAX_CONTAINS_ADDED', 'MIN_CONTAINS_ADDED',
  'UNIQUE_ITEMS_ADDED', 'ADDITIONAL_ITEMS_REMOVED', 'ADDITIONAL_PROPERTIES_REMOVED', 'UNEVALUATED_PROPERTIES_REMOVED', 'UNEVALUATED_ITEMS_REMOVED']);
const VALUE_INCREASED = new Set(['MIN_LENGTH_INCREASED', 'MINIMUM_INCREASED', 'EXCLUSIVE_MINIMUM_INCREASED', 'MIN_PROPERTIES_INCREASED',
  'MULTIPLE_OF_EXPANDED', 'MIN_ITEMS_INCREASED', 'MIN_CONTAINS_INCREASED']);
const VALUE_DECREASED = new Set(['MAX_LENGTH_DECREASED', 'MAXIMUM_DECREASED', 'MAX_ITEMS_DECREASED', 'MAX_CONTAINS_DECREASED',
  'EXCLUSIVE_MAXIMUM_DECREASED', 'MAX_PROPERTIES_DECREASED']);
const VALUE_CHANGED = new Set(['PATTERN_CHANGED', 'MULTIPLE_OF_CHANGED', 'DEPENDENCY_ARRAY_CHANGED']);
const TYPE_NARROWED = new Set(['ADDITIONAL_ITEMS_NARROWED', 'ENUM_ARRAY_NARROWED', 'SUM_TYPE_NARROWED', 'ADDITIONAL_PROPERTIES_NARROWED',
  'UNEVALUATED_PROPERTIES_NARROWED', 'UNEVALUATED_ITEMS_NARROWED']);
const TYPE_EXTENDED = new Set(['DEPENDENCY_ARRAY_EXTENDED', 'PRODUCT_TYPE_EXTENDED', 'SUM_TYPE_EXTENDED', 'NOT_TYPE_EXTENDED']);
const TYPE_CHANGED = new Set(['TYPE_CHANGED', 'TYPE_NARROWED', 'COMBINED_TYPE_CHANGED', 'COMBINED_TYPE_SUBSCHEMAS_CHANGED', 'ENUM_ARRAY_CHANGED']);
const ADDED_TO_OPEN = new Set(['REQUIRED_PROPERTY_ADDED_TO_OPEN_CONTENT_MODEL', 'REQUIRED_PROPERTY_WITH_DEFAULT_ADDED_TO_OPEN_CONTENT_MODEL',
  'OPTIONAL_PROPERTY_ADDED_TO_OPEN_CONTENT_MODEL', 'ITEM_ADDED_TO_OPEN_CONTENT_MODEL']);

/** Confluent's Difference.toString(), "%s" standing for the reader and writer ("new"/"old"); its closing ' is Confluent's. */
export function differenceText({ type, path }: Difference): string {
  let description = '';
  if (KEYWORD_ADDED.has(type)) description = `The keyword at path '${path}' in the %s schema is not present in the %s schema`;
  else if (VALUE_INCREASED.has(type)) description = `The value at path '${path}' in the %s schema is more than its value in the %s schema`;
  else if (VALUE_DECREASED.has(type)) description = `The value at path '${path}' in the %s schema is less than its value in the %s schema`;
  else if (VALUE_CHANGED.has(type)) description = `The value at path '${path}' is different between the %s and %s schema`;
  else if (TYPE_NARROWED.has(type)) description = `An array or combined type at path '${path}' has fewer elements in the %s schema than the %s schema`;
  else if (TYPE_EXTENDED.has(type)) description = `An array or combined type at path '${path}' has more elements in the %s schema than the %s schema`;
  else if (TYPE_CHANGED.has(type)) description = `A type at path '${path}' is different between the %s schema and the %s schema`;
  else if (ADDED_TO_OPEN.has(type)) description = `The %s schema has an open content model and has a property or item at path '${path}' which is missing in the %s schema`;
  else if (type === 'REQUIRED_PROPERTY_ADDED_TO_UNOPEN_CONTENT_MODEL') description = `The %s schema has an unopen content model and has a required property at path '${path}' which is missing in the %s schema`;
  else if (type === 'PROPERTY_REMOVED_FROM_CLOSED_CONTENT_MODEL' || type === 'ITEM_REMOVED_FROM_CLOSED_CONTENT_MODEL') {
    description = `The %s has a closed content model and is missing a property or item present at path '${path}' in the %s schema`;
  } else if (type === 'PROPERTY_REMOVED_NOT_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL' || type === 'ITEM_REMOVED_NOT_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL') {
    description = `A property or item is missing in the %s schema but present at path '${path}' in the %s schema and is not covered by its partially open content model`;
  } else if (type === 'PROPERTY_ADDED_NOT_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL' || type === 'ITEM_ADDED_NOT_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL') {
    description = `The %s schema has a property or item at path '${path}' which is missing in the %s schema and is not covered by its partially open content model`;
  }
  return `{errorType:"${type}", description:"${description}'}`;
}
