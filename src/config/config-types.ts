// The shape of one config definition, and how a raw string becomes a typed value.
// Parsing follows Kafka's ConfigDef rules: values are trimmed; numbers are plain decimal
// integers in the Java type's range; booleans are true/false in any case; lists split on commas.

/** Kafka's config types, as DescribeConfigs reports them. */
export type ConfigType = 'BOOLEAN' | 'STRING' | 'INT' | 'SHORT' | 'LONG' | 'DOUBLE' | 'LIST' | 'CLASS' | 'PASSWORD';

/** Kafka's dynamic update modes: read-only configs need a restart; the others could be altered at run time. */
export type ConfigUpdateMode = 'read-only' | 'per-broker' | 'cluster-wide';

export interface ConfigDefinition<T = unknown> {
  readonly name: string;
  readonly type: ConfigType;
  /** The typed default gregor uses (null = unset, as Kafka's null defaults). */
  readonly default: T;
  /** Kafka's own default where gregor's differs on purpose; absent when they agree. */
  readonly kafkaDefault?: T;
  /** What the value accepts, in Kafka's notation ("[1,...]", "[delete, compact]"); '' = anything of the type. */
  readonly validValues: string;
  readonly doc: string;
  readonly updateMode: ConfigUpdateMode;
  /** PASSWORD configs: DescribeConfigs hides their value. */
  readonly sensitive: boolean;
  /** Kafka's defineInternal: accepted and acted on, never listed by DescribeConfigs (Kafka does not report it). */
  readonly internal?: true;
  /** Checks a parsed value; returns what is wrong (a short phrase) or null. */
  check(value: T): string | null;
}

/** A broken config value: names the key and says what it accepts, in one line. */
export class ConfigError extends Error {
  readonly key: string;
  constructor(key: string, message: string) {
    super(message);
    this.name = 'ConfigError';
    this.key = key;
  }
}

const INT_MIN = -(2n ** 31n);
const INT_MAX = 2n ** 31n - 1n;
const SHORT_MIN = -(2n ** 15n);
const SHORT_MAX = 2n ** 15n - 1n;
const LONG_MIN = -(2n ** 63n);
const LONG_MAX = 2n ** 63n - 1n;

/** Long.MAX_VALUE as a JS number (it rounds to 2^63); printed back as Kafka prints it. */
export const LONG_MAX_VALUE = Number(LONG_MAX);
export const INT_MAX_VALUE = Number(INT_MAX);

/** The phrase for a type in "expects ..." messages. */
function typeWord(type: ConfigType): string {
  switch (type) {
    case 'BOOLEAN': return 'true or false';
    case 'INT': return 'a 32-bit integer';
    case 'SHORT': return 'a 16-bit integer';
    case 'LONG': return 'a 64-bit integer';
    case 'DOUBLE': return 'a number';
    case 'LIST': return 'a comma-separated list';
    case 'CLASS': return 'a class name';
    case 'STRING':
    case 'PASSWORD': return 'a string';
  }
}

/** What a definition accepts, for error lines and --help: "an integer in [1,...]". */
export function describeAccepted(def: ConfigDefinition): string {
  const base = typeWord(def.type);
  return def.validValues === '' ? base : `${base} in ${def.validValues}`;
}

const INTEGER_TEXT = /^[+-]?\d+$/;
const DOUBLE_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?[dDfF]?$/;

function parseInteger(text: string, min: bigint, max: bigint): number | undefined {
  if (!INTEGER_TEXT.test(text)) return undefined;
  const big = BigInt(text);
  if (big < min || big > max) return undefined;
  return Number(big);
}

/** Parses raw text into a typed value of the given Kafka type; undefined when it is not of that type. */
export function parseTyped(type: ConfigType, raw: string): unknown {
  const text = raw.trim();
  switch (type) {
    case 'BOOLEAN': {
      const lower = text.toLowerCase();
      if (lower === 'true') return true;
      if (lower === 'false') return false;
      return undefined;
    }
    case 'INT': return parseInteger(text, INT_MIN, INT_MAX);
    case 'SHORT': return parseInteger(text, SHORT_MIN, SHORT_MAX);
    case 'LONG': return parseInteger(text, LONG_MIN, LONG_MAX);
    case 'DOUBLE': {
      if (text === 'NaN' || /^[+-]?Infinity$/.test(text)) return Number(text);
      if (!DOUBLE_TEXT.test(text)) return undefined;
      return Number(text.replace(/[dDfF]$/, ''));
    }
    case 'LIST': return text === '' ? [] : text.split(/\s*,\s*/);
    case 'STRING':
    case 'CLASS':
    case 'PASSWORD': return text;
  }
}

/**
 * Parses and checks one raw value against its definition.
 * An empty string for a config whose default is null means "unset", as Kafka treats it.
 */
export function parseConfigValue<T>(def: ConfigDefinition<T>, raw: string): T {
  const isNullable = def.default === null;
  if (isNullable && raw.trim() === '' && def.type !== 'STRING' && def.type !== 'LIST') return null as T;
  const value = parseTyped(def.type, raw);
  if (value === undefined) throw invalid(def, raw);
  const problem = def.check(value as T);
  if (problem !== null) throw invalid(def, raw);
  return value as T;
}

function invalid(def: ConfigDefinition, raw: string): ConfigError {
  return new ConfigError(def.name,
    `Invalid value ${JSON.stringify(raw.trim())} for configuration ${def.name}: expects ${describeAccepted(def)}`);
}

/** Java's Double.toString, which Kafka uses to print DOUBLE configs ("0.5", "1.0", "1.7976931348623157E308"). */
export function formatJavaDouble(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (!Number.isFinite(value)) return value > 0 ? 'Infinity' : '-Infinity';
  if (value === 0) return Object.is(value, -0) ? '-0.0' : '0.0';
  const magnitude = Math.abs(value);
  if (magnitude >= 1e-3 && magnitude < 1e7) {
    const text = String(value);
    return text.includes('.') ? text : `${text}.0`;
  }
  const [mantissa, exponent] = value.toExponential().split('e') as [string, string];
  const digits = mantissa.includes('.') ? mantissa : `${mantissa}.0`;
  return `${digits}E${exponent.replace('+', '')}`;
}

/** Prints a typed value as Kafka prints it (DescribeConfigs values, --help defaults); null stays null. */
export function formatConfigValue(type: ConfigType, value: unknown): string | null {
  if (value === null || value === undefined) return null;
  switch (type) {
    case 'LIST': return (value as readonly string[]).join(',');
    case 'DOUBLE': return formatJavaDouble(value as number);
    case 'LONG': return (value as number) >= LONG_MAX_VALUE ? LONG_MAX.toString() : String(value);
    default: return String(value);
  }
}
