// A schema's metadata and rule set (Confluent's data contracts), in the form Confluent's Jackson entities give them:
// a map's keys and a set's members sorted, empty lists and maps left out, a rule's kind and mode defaulted
// (TRANSFORM, WRITEREAD). Both are part of a schema's identity: the same text with other metadata is another id.
// `confluent:version` is the property Confluent keeps equal to the version a schema was registered as.

export interface Metadata {
  readonly tags?: Readonly<Record<string, readonly string[]>>;
  readonly properties?: Readonly<Record<string, string>>;
  readonly sensitive?: readonly string[];
}

export interface Rule {
  readonly name?: string;
  readonly doc?: string;
  readonly kind: string;
  readonly mode: string;
  readonly type?: string;
  readonly tags?: readonly string[];
  readonly params?: Readonly<Record<string, string>>;
  readonly expr?: string;
  readonly onSuccess?: string;
  readonly onFailure?: string;
  readonly disabled: boolean;
}

export interface RuleSet {
  readonly migrationRules?: readonly Rule[];
  readonly domainRules?: readonly Rule[];
  readonly encodingRules?: readonly Rule[];
  readonly enableAt?: string;
}

export const CONFLUENT_VERSION = 'confluent:version';
const RULE_KINDS = ['TRANSFORM', 'CONDITION'];
const RULE_MODES = ['UPGRADE', 'DOWNGRADE', 'UPDOWN', 'WRITE', 'READ', 'WRITEREAD'];

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => value !== null && typeof value === 'object' && !Array.isArray(value);

/** Thrown for a body Confluent's Jackson would not read (the REST layer answers 422). */
export class BadEntity extends Error {}

function strings(value: unknown, what: string): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) throw new BadEntity(`${what} must be a list of strings`);
  return [...new Set(value as string[])].sort();
}

function stringMap(value: unknown, what: string): Record<string, string> | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isObject(value) || Object.values(value).some((v) => typeof v !== 'string')) throw new BadEntity(`${what} must be a map of strings`);
  const keys = Object.keys(value).sort();
  return keys.length === 0 ? undefined : Object.fromEntries(keys.map((k) => [k, value[k] as string]));
}

const optionalString = (value: unknown, what: string): string | undefined => {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') throw new BadEntity(`${what} must be a string`);
  return value;
};

/** The metadata of a request body in Confluent's form (undefined: none given). */
export function readMetadata(value: unknown): Metadata | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isObject(value)) throw new BadEntity('metadata must be an object');
  let tags: Record<string, string[]> | undefined;
  if (value['tags'] !== undefined && value['tags'] !== null) {
    if (!isObject(value['tags'])) throw new BadEntity('metadata.tags must be a map of lists of strings');
    const keys = Object.keys(value['tags']).sort();
    tags = keys.length === 0 ? undefined : Object.fromEntries(keys.map((k) => [k, strings((value['tags'] as Json)[k], 'metadata.tags')]));
  }
  const properties = stringMap(value['properties'], 'metadata.properties');
  const sensitive = strings(value['sensitive'], 'metadata.sensitive');
  return { ...(tags ? { tags } : {}), ...(properties ? { properties } : {}), ...(sensitive.length > 0 ? { sensitive } : {}) };
}

function readRule(value: unknown): Rule {
  if (!isObject(value)) throw new BadEntity('a rule must be an object');
  const kind = optionalString(value['kind'], 'rule kind') ?? 'TRANSFORM';
  const mode = optionalString(value['mode'], 'rule mode') ?? 'WRITEREAD';
  if (!RULE_KINDS.includes(kind)) throw new BadEntity(`Invalid rule kind ${kind}`);
  if (!RULE_MODES.includes(mode)) throw new BadEntity(`Invalid rule mode ${mode}`);
  const tags = strings(value['tags'], 'rule tags');
  const params = stringMap(value['params'], 'rule params');
  const text = (key: string) => optionalString(value[key], `rule ${key}`);
  const rule: Record<string, unknown> = {
    name: text('name'), doc: text('doc'), kind, mode, type: text('type'), ...(tags.length > 0 ? { tags } : {}), ...(params ? { params } : {}),
    expr: text('expr'), onSuccess: text('onSuccess'), onFailure: text('onFailure'), disabled: value['disabled'] === true,
  };
  for (const key of Object.keys(rule)) if (rule[key] === undefined) delete rule[key];
  return rule as unknown as Rule;
}

/** The rule set of a request body in Confluent's form (undefined: none given). */
export function readRuleSet(value: unknown): RuleSet | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isObject(value)) throw new BadEntity('ruleSet must be an object');
  const rules = (key: string) => {
    const list = value[key];
    if (list === undefined || list === null) return [];
    if (!Array.isArray(list)) throw new BadEntity(`ruleSet.${key} must be a list`);
    return list.map(readRule);
  };
  const [migrationRules, domainRules, encodingRules] = [rules('migrationRules'), rules('domainRules'), rules('encodingRules')];
  const enableAt = optionalString(value['enableAt'], 'ruleSet.enableAt');
  return {
    ...(migrationRules.length > 0 ? { migrationRules } : {}), ...(domainRules.length > 0 ? { domainRules } : {}),
    ...(encodingRules.length > 0 ? { encodingRules } : {}), ...(enableAt ? { enableAt } : {}),
  };
}

/** Metadata with confluent:version set to `version` (Metadata.setConfluentVersion). */
export function withConfluentVersion(metadata: Metadata | undefined, version: number): Metadata {
  return readMetadata({ ...metadata, properties: { ...(metadata?.properties ?? {}), [CONFLUENT_VERSION]: String(version) } })!;
}

/** Metadata without confluent:version: what a lookup compares (a schema may be sent without it). */
export function withoutConfluentVersion(metadata: Metadata | undefined): Metadata | undefined {
  if (metadata?.properties?.[CONFLUENT_VERSION] === undefined) return metadata;
  const { [CONFLUENT_VERSION]: _dropped, ...properties } = metadata.properties;
  return readMetadata({ ...metadata, properties });
}

/** A text that is equal for equal metadata and rule sets (their canonical JSON). */
export function contractKey(metadata: Metadata | undefined, ruleSet: RuleSet | undefined): string {
  return JSON.stringify([metadata ?? null, ruleSet ?? null]);
}

function mergeMaps<T>(before: Readonly<Record<string, T>> | undefined, after: Readonly<Record<string, T>> | undefined): Record<string, T> | undefined {
  if (before === undefined || Object.keys(before).length === 0) return after;
  if (after === undefined || Object.keys(after).length === 0) return before;
  return { ...before, ...after };
}

/** Metadata.mergeMetadata: the newer's tags and properties win by key, sensitive names are united. */
export function mergeMetadata(before: Metadata | undefined, after: Metadata | undefined): Metadata | undefined {
  if (before === undefined) return after;
  if (after === undefined) return before;
  const sensitive = before.sensitive === undefined || before.sensitive.length === 0 ? after.sensitive
    : after.sensitive === undefined || after.sensitive.length === 0 ? before.sensitive : [...before.sensitive, ...after.sensitive];
  return readMetadata({ tags: mergeMaps(before.tags, after.tags), properties: mergeMaps(before.properties, after.properties), sensitive });
}

function mergeRules(before: readonly Rule[] | undefined, after: readonly Rule[] | undefined): readonly Rule[] | undefined {
  if (before === undefined || before.length === 0) return after;
  if (after === undefined || after.length === 0) return before;
  const names = new Set(after.map((r) => r.name));
  return [...before.filter((r) => !names.has(r.name)), ...after];
}

/** RuleSet.mergeRuleSets: a newer rule replaces an older one of its name. */
export function mergeRuleSets(before: RuleSet | undefined, after: RuleSet | undefined): RuleSet | undefined {
  if (before === undefined) return after;
  if (after === undefined) return before;
  const migrationRules = mergeRules(before.migrationRules, after.migrationRules);
  const domainRules = mergeRules(before.domainRules, after.domainRules);
  const encodingRules = mergeRules(before.encodingRules, after.encodingRules);
  const enableAt = after.enableAt ?? before.enableAt;
  return {
    ...(migrationRules?.length ? { migrationRules } : {}), ...(domainRules?.length ? { domainRules } : {}),
    ...(encodingRules?.length ? { encodingRules } : {}), ...(enableAt ? { enableAt } : {}),
  };
}

/** The fields a schema's metadata reserves (its confluent:reserved property, comma-separated). */
export function reservedFields(metadata: Metadata | undefined): Set<string> {
  const text = metadata?.properties?.['confluent:reserved'];
  return new Set((text ?? '').split(',').map((f) => f.trim()).filter((f) => f !== ''));
}

const NAME_MAX_LENGTH = 256;

/** RuleSet.validate's reason a rule set cannot be registered (undefined: it can). */
export function ruleSetProblem(ruleSet: RuleSet | undefined): string | undefined {
  if (ruleSet === undefined) return undefined;
  const names = new Set<string | undefined>();
  const groups: [readonly Rule[] | undefined, readonly string[], string][] = [
    [ruleSet.migrationRules, ['UPGRADE', 'DOWNGRADE', 'UPDOWN'], 'Migration rules can only be UPGRADE, DOWNGRADE, UPDOWN'],
    [ruleSet.domainRules, ['WRITE', 'READ', 'WRITEREAD'], 'Domain rules can only be WRITE, READ, WRITEREAD'],
    [ruleSet.encodingRules, ['WRITE', 'READ', 'WRITEREAD'], 'Encoding rules can only be WRITE, READ, WRITEREAD'],
  ];
  for (const [rules, modes, wrongMode] of groups) {
    for (const rule of rules ?? []) {
      if (names.has(rule.name)) return `Found rule with duplicate name '${rule.name}'`;
      names.add(rule.name);
      const problem = ruleProblem(rule);
      if (problem !== undefined) return problem;
      if (!modes.includes(rule.mode)) return wrongMode;
    }
  }
  return undefined;
}

/** Rule.validate: a name (a letter or _ first, then letters, digits, _ or -), a type, one action unless WRITEREAD/UPDOWN. */
function ruleProblem(rule: Rule): string | undefined {
  const name = rule.name;
  if (name === undefined) return 'Missing rule name';
  if (name.length === 0) return 'Empty rule name';
  if (name.length > NAME_MAX_LENGTH) return 'Rule name too long';
  if (!/^[\p{L}_]/u.test(name)) return `Illegal initial character in rule name: ${name}`;
  if (!/^.[\p{L}\p{Nd}_-]*$/u.test(name)) return `Illegal character in rule name: ${name}`;
  if (rule.type === undefined) return 'Missing rule type';
  for (const action of [rule.onSuccess, rule.onFailure]) {
    if (rule.mode !== 'WRITEREAD' && rule.mode !== 'UPDOWN' && action !== undefined && action.includes(',')) return 'Multiple actions only valid with WRITEREAD and UPDOWN';
  }
  return undefined;
}
