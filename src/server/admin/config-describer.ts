/**
 * What DescribeConfigs (and CreateTopics v5+) report for each config, computed as Kafka's ConfigHelper
 * does: a value, its source, and the synonyms in precedence order (dynamic per-broker, dynamic
 * cluster default, static broker setting, default), starting at the config's own broker name — so
 * retention.ms, whose log.retention.ms is unset by default, lists no synonyms, as in Kafka.
 */
import {
  brokerConfigDefinition, brokerConfigDefinitions, brokerConfigSynonyms, CONFIG_TYPE_IDS,
  explicitBrokerSettings, formatConfigValue, parseConfigValue, resolveTopicConfig, topicConfigDefinition,
  topicConfigDefinitions, type BrokerConfig, type ConfigDefinition,
} from '../../config/index.js';
import { ConfigSourceId } from './config-sources.js';
import type { DynamicConfigs } from './dynamic-configs.js';

export interface ConfigSynonymEntry {
  readonly name: string;
  readonly value: string | null;
  readonly source: number;
}

export interface ConfigEntry {
  readonly name: string;
  readonly value: string | null;
  readonly source: number;
  readonly readOnly: boolean;
  readonly sensitive: boolean;
  /** DescribeConfigs v3+ ConfigType id. */
  readonly type: number;
  readonly documentation: string;
  readonly synonyms: readonly ConfigSynonymEntry[];
}

function printed(def: ConfigDefinition, value: unknown): string | null {
  return def.sensitive ? null : formatConfigValue(def.type, value);
}

/** A raw setting in its printed form; text that no longer parses is shown as given. */
function printedRaw(def: ConfigDefinition, raw: string): string | null {
  if (def.sensitive) return null;
  try {
    return formatConfigValue(def.type, parseConfigValue(def, raw));
  } catch {
    return raw;
  }
}

export class ConfigDescriber {
  private readonly staticSettings: Readonly<Record<string, string>>;

  constructor(private readonly config: BrokerConfig, private readonly dynamic: DynamicConfigs) {
    this.staticSettings = explicitBrokerSettings(config);
  }

  /** Kafka's configSynonyms: every layer's value for each synonym, from `name` on. */
  private synonymsOf(name: string): ConfigSynonymEntry[] {
    const names = brokerConfigSynonyms(name);
    const out: ConfigSynonymEntry[] = [];
    const add = (lookup: (key: string) => string | null | undefined, source: number): void => {
      for (const key of names) {
        const def = brokerConfigDefinition(key) as ConfigDefinition | undefined;
        if (def === undefined) continue;
        const value = lookup(key);
        if (value !== undefined && value !== null) out.push({ name: key, value: def.sensitive ? null : value, source });
      }
    };
    const rawOf = (map: ReadonlyMap<string, string>) => (key: string) => {
      const raw = map.get(key);
      const def = brokerConfigDefinition(key) as ConfigDefinition | undefined;
      return raw === undefined || def === undefined ? undefined : printedRaw(def, raw);
    };
    add(rawOf(this.dynamic.perBroker), ConfigSourceId.DYNAMIC_BROKER_CONFIG);
    add(rawOf(this.dynamic.clusterDefault), ConfigSourceId.DYNAMIC_DEFAULT_BROKER_CONFIG);
    add((key) => this.staticSettings[key], ConfigSourceId.STATIC_BROKER_CONFIG);
    add((key) => {
      const def = brokerConfigDefinition(key) as ConfigDefinition | undefined;
      return def === undefined ? undefined : formatConfigValue(def.type, def.default);
    }, ConfigSourceId.DEFAULT_CONFIG);
    const first = out.findIndex((synonym) => synonym.name === name);
    return first === -1 ? [] : out.slice(first);
  }

  /** Every topic config of a topic with these overrides, sorted by name. */
  topicEntries(overrides: Readonly<Record<string, string>>): ConfigEntry[] {
    const valid: Record<string, string> = {};
    for (const [name, raw] of Object.entries(overrides)) {
      const def = topicConfigDefinition(name);
      if (def === undefined) continue;
      try {
        parseConfigValue(def, raw);
        valid[name] = raw;
      } catch {
        // A stored value that no longer parses falls back to the broker's.
      }
    }
    const resolved = resolveTopicConfig(valid, this.config) as unknown as Record<string, unknown>;
    return Object.keys(topicConfigDefinitions).sort().map((name) => {
      const def = topicConfigDefinition(name)!;
      const primary = def.synonyms[0];
      const inherited = primary === undefined ? [] : this.synonymsOf(primary);
      const own = Object.hasOwn(valid, name);
      let value: string | null;
      if (own) value = printedRaw(def, valid[name]!);
      else if (inherited[0] !== undefined && inherited[0].source < ConfigSourceId.STATIC_BROKER_CONFIG) value = inherited[0].value;
      else value = printed(def, resolved[name]);
      const synonyms = own ? [{ name, value, source: ConfigSourceId.DYNAMIC_TOPIC_CONFIG }, ...inherited] : inherited;
      return {
        name,
        value,
        source: synonyms[0]?.source ?? ConfigSourceId.DEFAULT_CONFIG,
        readOnly: false,
        sensitive: def.sensitive,
        type: CONFIG_TYPE_IDS[def.type],
        documentation: def.doc,
        synonyms,
      };
    });
  }

  /**
   * The broker resource: every broker config of this node (`perBroker`), or for the cluster default
   * resource only the configs set as dynamic defaults, with only those synonyms — as Kafka answers.
   */
  brokerEntries(perBroker: boolean): ConfigEntry[] {
    const names = perBroker ? Object.keys(brokerConfigDefinitions) : [...this.dynamic.clusterDefault.keys()];
    const values = this.config as unknown as Record<string, unknown>;
    const entries: ConfigEntry[] = [];
    for (const name of names.sort()) {
      const def = brokerConfigDefinition(name) as ConfigDefinition | undefined;
      if (def === undefined) continue;
      const synonyms = this.synonymsOf(name).filter((s) => perBroker || s.source === ConfigSourceId.DYNAMIC_DEFAULT_BROKER_CONFIG);
      const dynamicValue = perBroker ? this.dynamic.perBroker.get(name) ?? this.dynamic.clusterDefault.get(name) : this.dynamic.clusterDefault.get(name);
      let value: string | null;
      if (dynamicValue !== undefined) value = printedRaw(def, dynamicValue);
      else if (brokerConfigSynonyms(name).length > 1 && !Object.hasOwn(this.staticSettings, name)) value = printed(def, def.default);
      else value = printed(def, values[name]);
      entries.push({
        name,
        value,
        source: synonyms[0]?.source ?? ConfigSourceId.DEFAULT_CONFIG,
        readOnly: def.updateMode === 'read-only',
        sensitive: def.sensitive,
        type: CONFIG_TYPE_IDS[def.type],
        documentation: def.doc,
        synonyms,
      });
    }
    return entries;
  }
}
