// Small builders so the definition tables read like Kafka's ConfigDef: one line per key,
// the TypeScript value type following from the Kafka type (and from a null default).
import type { ConfigDefinition, ConfigType, ConfigUpdateMode } from './config-types.js';

/** A validator: Kafka's notation for what it accepts, and the check itself. */
export interface Validator<V> {
  readonly description: string;
  readonly check: (value: V) => string | null;
}

export function atLeast(min: number): Validator<number> {
  return { description: `[${min},...]`, check: (v) => (v >= min ? null : `must be at least ${min}`) };
}

export function between(min: number, max: number): Validator<number> {
  return {
    description: `[${min},...,${max}]`,
    check: (v) => (v >= min && v <= max ? null : `must be between ${min} and ${max}`),
  };
}

export function oneOf(...values: string[]): Validator<string> {
  return {
    description: `[${values.join(', ')}]`,
    check: (v) => (values.includes(v) ? null : `must be one of ${values.join(', ')}`),
  };
}

export function oneOfIgnoringCase(...values: string[]): Validator<string> {
  const lower = values.map((v) => v.toLowerCase());
  return {
    description: `(case insensitive) [${values.join(', ')}]`,
    check: (v) => (lower.includes(v.toLowerCase()) ? null : `must be one of ${values.join(', ')}`),
  };
}

/** Every list item must be one of the values (Kafka's ValidList.in). */
export function eachOneOf(...values: string[]): Validator<string[]> {
  return {
    description: `[${values.join(', ')}]`,
    check: (items) => {
      const bad = items.find((item) => !values.includes(item));
      return bad === undefined ? null : `${JSON.stringify(bad)} is not one of ${values.join(', ')}`;
    },
  };
}

export function custom<V>(description: string, check: (value: V) => string | null): Validator<V> {
  return { description, check };
}

export type UnnamedDefinition<T> = Omit<ConfigDefinition<T>, 'name'>;

interface Spec<D, V> {
  readonly default: D;
  readonly kafkaDefault?: D;
  readonly valid?: Validator<V>;
  readonly doc: string;
  readonly mode?: ConfigUpdateMode;
  /** Kafka defines the key with defineInternal: DescribeConfigs does not list it. */
  readonly internal?: true;
}

type Nullable<D, V> = [D] extends [null] ? V | null : V;

function build<V, D extends V | null>(type: ConfigType, spec: Spec<D, V>): UnnamedDefinition<Nullable<D, V>> {
  const valid = spec.valid;
  const definition: UnnamedDefinition<V | null> = {
    type,
    default: spec.default,
    validValues: valid?.description ?? '',
    doc: spec.doc,
    updateMode: spec.mode ?? 'read-only',
    sensitive: type === 'PASSWORD',
    check: (value) => (value === null || valid === undefined ? null : valid.check(value)),
    ...(spec.kafkaDefault === undefined ? {} : { kafkaDefault: spec.kafkaDefault }),
    ...(spec.internal === undefined ? {} : { internal: spec.internal }),
  };
  return definition as UnnamedDefinition<Nullable<D, V>>;
}

export const bool = <D extends boolean | null>(s: Spec<D, boolean>) => build<boolean, D>('BOOLEAN', s);
export const int = <D extends number | null>(s: Spec<D, number>) => build<number, D>('INT', s);
export const short = <D extends number | null>(s: Spec<D, number>) => build<number, D>('SHORT', s);
export const long = <D extends number | null>(s: Spec<D, number>) => build<number, D>('LONG', s);
export const double = <D extends number | null>(s: Spec<D, number>) => build<number, D>('DOUBLE', s);
export const string = <D extends string | null>(s: Spec<D, string>) => build<string, D>('STRING', s);
export const className = <D extends string | null>(s: Spec<D, string>) => build<string, D>('CLASS', s);
export const password = <D extends string | null>(s: Spec<D, string>) => build<string, D>('PASSWORD', s);
export const list = <D extends string[] | null>(s: Spec<D, string[]>) => build<string[], D>('LIST', s);

/** Turns a record of unnamed definitions into named ones, keeping each key's value type. */
export function named<R extends Record<string, UnnamedDefinition<unknown>>>(
  table: R,
): { readonly [K in keyof R]: R[K] & { readonly name: K } } {
  const out: Record<string, unknown> = {};
  for (const [name, def] of Object.entries(table)) out[name] = { name, ...def };
  return out as { readonly [K in keyof R]: R[K] & { readonly name: K } };
}

/** The TypeScript value type a definition holds. */
export type ValueOf<D> = D extends UnnamedDefinition<infer T> ? T : never;
