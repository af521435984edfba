/**
 * Validates topic config overrides with the messages Kafka's ConfigDef and LogConfig produce
 * ("Invalid value abc for configuration retention.ms: Not a number of type LONG"), which clients
 * and the Java tools print as they are. The definitions (types, ranges, allowed values) are the
 * config layer's; only the wording here is Kafka's.
 */
import {
  formatJavaDouble, parseConfigValue, topicConfigDefinition, validateTopicConfigs,
  type BrokerConfig, type ConfigDefinition,
} from '../../config/index.js';
import { parseTyped } from '../../config/config-types.js';

/** What Kafka says when the text is not of the config's type. */
function typeMismatch(def: ConfigDefinition): string {
  return def.type === 'BOOLEAN' ? 'Expected value to be either true or false' : `Not a number of type ${def.type}`;
}

/** A parsed value as Java prints it in "Invalid value ..." (Double 2.0, List [a, b]). */
function javaText(def: ConfigDefinition, value: unknown): string {
  if (def.type === 'DOUBLE') return formatJavaDouble(value as number);
  if (def.type === 'LIST') return `[${(value as string[]).join(', ')}]`;
  return String(value);
}

const AT_LEAST = /^\[(-?[\d.]+),\.\.\.\]$/;
const BETWEEN = /^\[(-?[\d.]+),\.\.\.,(-?[\d.]+)\]$/;
const ONE_OF = /^\[(.*)\]$/;

/** Kafka's validator message for a value the definition's check refused. */
function validatorMessage(def: ConfigDefinition, value: unknown, problem: string): string {
  const range = BETWEEN.exec(def.validValues);
  if (range !== null) {
    return (value as number) < Number(range[1]) ? `Value must be at least ${range[1]}` : `Value must be no more than ${range[2]}`;
  }
  const min = AT_LEAST.exec(def.validValues);
  if (min !== null) return `Value must be at least ${min[1]}`;
  if (def.name.endsWith('.replication.throttled.replicas')) {
    return `${def.name} must be the literal '*' or a list of replicas in the following format: ${def.validValues}`;
  }
  const choices = ONE_OF.exec(def.validValues);
  if (choices !== null) return `String must be one of: ${choices[1]}`;
  return `Value ${problem}`;
}

/** Kafka's message for one config value against its definition, or null when it is valid. */
export function configValueProblem(def: ConfigDefinition, raw: string): string | null {
  const name = def.name;
  const parsed = parseTyped(def.type, raw);
  if (parsed === undefined) return `Invalid value ${raw} for configuration ${name}: ${typeMismatch(def)}`;
  const problem = def.check(parsed);
  if (problem !== null) {
    // Kafka's ValidList checks item by item and names the first bad item; other list checks name the list.
    const choices = def.type === 'LIST' ? ONE_OF.exec(def.validValues) : null;
    const allowed = choices === null ? [] : choices[1]!.split(', ');
    const badItem = choices === null ? undefined : (parsed as string[]).find((item) => !allowed.includes(item));
    const shown = badItem ?? javaText(def, parsed);
    return `Invalid value ${shown} for configuration ${name}: ${validatorMessage(def, parsed, problem)}`;
  }
  try {
    parseConfigValue(def, raw);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  return null;
}

/** Kafka's message for one topic config (name, raw value), or null when it is valid. */
export function topicConfigProblem(name: string, raw: string): string | null {
  const def = topicConfigDefinition(name);
  if (def === undefined) return `Unknown topic config name: ${name}`;
  return configValueProblem(def, raw);
}

/**
 * Checks a topic's complete set of overrides as Kafka's LogConfig.validate does: each entry, then
 * the rules across keys. Returns the first problem (an INVALID_CONFIG message) or null.
 */
export function topicConfigsProblem(overrides: Readonly<Record<string, string>>, broker: BrokerConfig): string | null {
  for (const [name, value] of Object.entries(overrides)) {
    const problem = topicConfigProblem(name, value);
    if (problem !== null) return problem;
  }
  return validateTopicConfigs({ ...overrides }, broker);
}
