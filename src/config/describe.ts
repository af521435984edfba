/**
 * What DescribeConfigs (and CreateTopics v5+) report for each config, computed as Kafka's ConfigHelper
 * does: a value, its source, and the synonyms in precedence order (dynamic per-broker, dynamic
 * cluster default, static broker setting, default), starting at the config's own broker name — so
 * retention.ms, whose log.retention.ms is unset by default, lists no synonyms, as in Kafka.
 */
import { brokerConfigDefinition, brokerConfigDefinitions, brokerConfigSynonyms } from './broker-configs.js';
import { allListenerPrefixedSettings, explicitBrokerSettings, type BrokerConfig } from './broker-config.js';
import { formatConfigValue, parseConfigValue, type ConfigDefinition, type ConfigType } from './config-types.js';
import { resolveTopicConfig, topicConfigDefinition, topicConfigDefinitions } from './topic-configs.js';
import { GROUP_CONFIG_DESCRIBE_ORDER, groupConfigDefinition, resolveGroupConfig } from './group-configs.js';
import { CLIENT_METRICS_DESCRIBE_ORDER, clientMetricsConfigDefinition } from './client-metrics-configs.js';

/** Kafka's DescribeConfigs ConfigSource ids, also used by CreateTopics v5+ configs. */
export const ConfigSourceId = {
  UNKNOWN: 0,
  DYNAMIC_TOPIC_CONFIG: 1,
  DYNAMIC_BROKER_CONFIG: 2,
  DYNAMIC_DEFAULT_BROKER_CONFIG: 3,
  STATIC_BROKER_CONFIG: 4,
  DEFAULT_CONFIG: 5,
  DYNAMIC_BROKER_LOGGER_CONFIG: 6,
  CLIENT_METRICS_CONFIG: 7,
  GROUP_CONFIG: 8,
} as const;

/** Kafka's ConfigType ids as DescribeConfigs v3+ sends them. */
export const CONFIG_TYPE_IDS: Readonly<Record<ConfigType, number>> = {
  BOOLEAN: 1, STRING: 2, INT: 3, SHORT: 4, LONG: 5, DOUBLE: 6, LIST: 7, CLASS: 8, PASSWORD: 9,
};

/** Broker configs set at run time (raw text, as AlterConfigs received them). */
export interface DynamicConfigLayers {
  /** BROKER resource named by this node's id. */
  readonly perBroker: ReadonlyMap<string, string>;
  /** BROKER resource with the empty name: defaults for every broker. */
  readonly clusterDefault: ReadonlyMap<string, string>;
}

const NO_DYNAMIC_CONFIGS: DynamicConfigLayers = { perBroker: new Map(), clusterDefault: new Map() };

export interface ConfigSynonymEntry {
  readonly name: string;
  readonly value: string | null;
  /** A ConfigSourceId. */
  readonly source: number;
}

export interface ConfigEntry {
  readonly name: string;
  /** null for an unset config, and for a sensitive one (Kafka never sends those). */
  readonly value: string | null;
  /** A ConfigSourceId. */
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

const LISTENER_PREFIX = 'listener.name.';

/**
 * A static per-listener setting (listener.name.<l>.[<mechanism>.]<key>) as Kafka describes it: read-only, typed as
 * its base key, whose value is hidden when that type is a password or not known (Kafka's maybeSensitive), no doc (null).
 */
function listenerSettingEntry(name: string, raw: string): ConfigEntry {
  const rest = name.slice(LISTENER_PREFIX.length).split('.').slice(1);
  const base = (brokerConfigDefinition(rest.join('.')) ?? brokerConfigDefinition(rest.slice(1).join('.'))) as ConfigDefinition | undefined;
  const sensitive = base === undefined || base.type === 'PASSWORD';
  const value = sensitive ? null : raw;
  return {
    name, value, source: ConfigSourceId.STATIC_BROKER_CONFIG, readOnly: true, sensitive, type: base === undefined ? 0 : CONFIG_TYPE_IDS[base.type],
    documentation: '', synonyms: [{ name, value, source: ConfigSourceId.STATIC_BROKER_CONFIG }],
  };
}

export class ConfigDescriber {
  private readonly staticSettings: Readonly<Record<string, string>>;

  constructor(private readonly config: BrokerConfig, private readonly dynamic: DynamicConfigLayers = NO_DYNAMIC_CONFIGS) {
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
    // Kafka drops the entries before the first one for `name` itself (none at all when `name` has no value).
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
    const prefixed = perBroker ? allListenerPrefixedSettings(this.config) : {};
    const names = perBroker ? [...Object.keys(brokerConfigDefinitions), ...Object.keys(prefixed)] : [...this.dynamic.clusterDefault.keys()];
    const values = this.config as unknown as Record<string, unknown>;
    const entries: ConfigEntry[] = [];
    for (const name of names.sort()) {
      if (Object.hasOwn(prefixed, name)) {
        const entry = this.listenerPrefixedEntry(name, prefixed[name]!);
        if (entry !== undefined) entries.push(entry);
        continue;
      }
      const def = brokerConfigDefinition(name) as ConfigDefinition | undefined;
      if (def === undefined || def.internal === true) continue;
      const synonyms = this.synonymsOf(name).filter((s) => perBroker || s.source === ConfigSourceId.DYNAMIC_DEFAULT_BROKER_CONFIG);
      const dynamicValue = perBroker ? this.dynamic.perBroker.get(name) ?? this.dynamic.clusterDefault.get(name) : this.dynamic.clusterDefault.get(name);
      let value: string | null;
      if (dynamicValue !== undefined) value = printedRaw(def, dynamicValue);
      // A key resolved from its synonyms reports its own setting, not the resolved value (Kafka shows null).
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

  /**
   * A static listener.name.<l>.<key> setting as Kafka describes it: read-only, typed and sensitive as <key>, its
   * synonyms itself then <key>'s static and default values (Kafka's brokerConfigSynonyms with the listener override).
   */
  private listenerPrefixedEntry(name: string, raw: string): ConfigEntry | undefined {
    const base = name.replace(/^listener\.name\.[^.]+\./, '');
    const def = brokerConfigDefinition(base) as ConfigDefinition | undefined;
    // listener.name.<l>.<mechanism>.<key> (a SASL mechanism's JAAS config), or a key gregor has no definition for.
    if (def === undefined) return listenerSettingEntry(name, raw);
    const value = printedRaw(def, raw);
    const own = { name, value, source: ConfigSourceId.STATIC_BROKER_CONFIG };
    const inherited = this.synonymsOf(base).filter((s) => s.source >= ConfigSourceId.STATIC_BROKER_CONFIG);
    return {
      // No documentation: Kafka's documentationOf knows only the keys of its ConfigDef, not their prefixed forms.
      name, value, source: ConfigSourceId.STATIC_BROKER_CONFIG, readOnly: true, sensitive: def.sensitive,
      type: CONFIG_TYPE_IDS[def.type], documentation: '', synonyms: [own, ...inherited],
    };
  }

  /**
   * A group's configs in Kafka's order: the effective value (the group's override, else the broker's), the
   * override as a GROUP_CONFIG synonym, then the broker config's own synonyms (or the key's default under its
   * own name when no broker config backs it), as Kafka's ConfigHelper lists them.
   */
  groupEntries(groupId: string, overrides: ReadonlyMap<string, string>): ConfigEntry[] {
    const values = resolveGroupConfig(groupId, overrides, this.config) as unknown as Record<string, unknown>;
    return GROUP_CONFIG_DESCRIBE_ORDER.map((name) => {
      const def = groupConfigDefinition(name)!;
      const value = printed(def, values[name]);
      const inherited = def.brokerSynonym === null
        ? [{ name, value: printed(def, def.default), source: ConfigSourceId.DEFAULT_CONFIG }]
        : this.synonymsOf(def.brokerSynonym);
      const synonyms = overrides.has(name) ? [{ name, value, source: ConfigSourceId.GROUP_CONFIG }, ...inherited] : inherited;
      return {
        name, value, source: synonyms[0]?.source ?? ConfigSourceId.DEFAULT_CONFIG, readOnly: false, sensitive: false,
        type: CONFIG_TYPE_IDS[def.type], documentation: def.doc, synonyms,
      };
    });
  }

  /** A client metrics subscription's configs in Kafka's order; only a set one has a synonym (itself). */
  clientMetricsEntries(overrides: ReadonlyMap<string, string>): ConfigEntry[] {
    return CLIENT_METRICS_DESCRIBE_ORDER.map((name) => {
      const def = clientMetricsConfigDefinition(name)!;
      const raw = overrides.get(name);
      const value = raw === undefined ? printed(def, def.default) : printedRaw(def, raw);
      const source = raw === undefined ? ConfigSourceId.DEFAULT_CONFIG : ConfigSourceId.CLIENT_METRICS_CONFIG;
      return {
        name, value, source, readOnly: false, sensitive: false, type: CONFIG_TYPE_IDS[def.type], documentation: def.doc,
        synonyms: raw === undefined ? [] : [{ name, value, source }],
      };
    });
  }
}
