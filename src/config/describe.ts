// What DescribeConfigs reports for each config: value as Kafka prints it, source, synonyms in precedence
// order, read-only, sensitive, type and documentation. Handlers map these names onto the wire enums.
import {
  brokerConfigDefinition, brokerConfigDefinitions, brokerConfigSynonyms,
} from './broker-configs.js';
import { explicitBrokerSettings, type BrokerConfig } from './broker-config.js';
import { formatConfigValue, parseConfigValue, type ConfigDefinition, type ConfigType } from './config-types.js';
import { topicConfigDefinition, topicConfigDefinitions } from './topic-configs.js';

/** Kafka's ConfigSource names; the wire ids are in CONFIG_SOURCE_IDS. */
export type ConfigSource = 'DYNAMIC_TOPIC_CONFIG' | 'STATIC_BROKER_CONFIG' | 'DEFAULT_CONFIG';
export const CONFIG_SOURCE_IDS: Readonly<Record<ConfigSource, number>> = {
  DYNAMIC_TOPIC_CONFIG: 1,
  STATIC_BROKER_CONFIG: 4,
  DEFAULT_CONFIG: 5,
};
/** Kafka's ConfigType ids as DescribeConfigs v3+ sends them. */
export const CONFIG_TYPE_IDS: Readonly<Record<ConfigType, number>> = {
  BOOLEAN: 1, STRING: 2, INT: 3, SHORT: 4, LONG: 5, DOUBLE: 6, LIST: 7, CLASS: 8, PASSWORD: 9,
};

export interface ConfigSynonymDescription {
  readonly name: string;
  readonly value: string | null;
  readonly source: ConfigSource;
}

export interface ConfigDescription {
  readonly name: string;
  /** null for an unset config, and for a sensitive one (Kafka never sends those). */
  readonly value: string | null;
  readonly source: ConfigSource;
  readonly readOnly: boolean;
  readonly sensitive: boolean;
  readonly type: ConfigType;
  readonly documentation: string;
  readonly synonyms: readonly ConfigSynonymDescription[];
}

/** Each broker config's static setting (if any) then its default, per synonym, as Kafka lists them. */
function brokerSynonyms(name: string, explicit: Readonly<Record<string, string>>): ConfigSynonymDescription[] {
  const out: ConfigSynonymDescription[] = [];
  for (const synonym of brokerConfigSynonyms(name)) {
    const def = brokerConfigDefinition(synonym) as ConfigDefinition | undefined;
    if (def === undefined) continue;
    if (Object.hasOwn(explicit, synonym)) {
      out.push({ name: synonym, value: printed(def, parseConfigValue(def, explicit[synonym]!)), source: 'STATIC_BROKER_CONFIG' });
    }
    const fallback = printed(def, def.default);
    if (fallback !== null) out.push({ name: synonym, value: fallback, source: 'DEFAULT_CONFIG' });
  }
  return out;
}

function printed(def: ConfigDefinition, value: unknown): string | null {
  return def.sensitive ? null : formatConfigValue(def.type, value);
}

/** Every broker config of this broker, in definition order. */
export function describeBrokerConfigs(config: BrokerConfig): ConfigDescription[] {
  const explicit = explicitBrokerSettings(config);
  const values = config as unknown as Record<string, unknown>;
  return Object.values(brokerConfigDefinitions).map((named) => {
    const def = named as unknown as ConfigDefinition;
    const isExplicit = Object.hasOwn(explicit, def.name);
    // Keys resolved from synonyms report their own setting, not the resolved value (Kafka shows null);
    // the source is that of the first synonym that has a value, as Kafka reports it.
    const hasOwnSynonyms = brokerConfigSynonyms(def.name).length > 1;
    const value = hasOwnSynonyms && !isExplicit ? def.default : values[def.name];
    const synonyms = brokerSynonyms(def.name, explicit);
    return {
      name: def.name,
      value: printed(def, value),
      source: synonyms[0]?.source ?? 'DEFAULT_CONFIG',
      readOnly: def.updateMode === 'read-only',
      sensitive: def.sensitive,
      type: def.type,
      documentation: def.doc,
      synonyms,
    };
  });
}

/** Every topic config of a topic with these overrides, in definition order. */
export function describeTopicConfigs(overrides: Record<string, string>, broker: BrokerConfig): ConfigDescription[] {
  const explicit = explicitBrokerSettings(broker);
  const brokerValues = broker as unknown as Record<string, unknown>;
  return Object.keys(topicConfigDefinitions).map((name) => {
    const def = topicConfigDefinition(name)!;
    const synonyms: ConfigSynonymDescription[] = [];
    if (Object.hasOwn(overrides, name)) {
      synonyms.push({ name, value: printed(def, parseConfigValue(def, overrides[name]!)), source: 'DYNAMIC_TOPIC_CONFIG' });
    }
    for (const brokerKey of def.synonyms) {
      const brokerDef = brokerConfigDefinition(brokerKey) as ConfigDefinition | undefined;
      if (brokerDef === undefined) continue;
      if (Object.hasOwn(explicit, brokerKey)) {
        synonyms.push({ name: brokerKey, value: printed(brokerDef, parseConfigValue(brokerDef, explicit[brokerKey]!)), source: 'STATIC_BROKER_CONFIG' });
      }
      const fallback = printed(brokerDef, brokerDef.default);
      if (fallback !== null) synonyms.push({ name: brokerKey, value: fallback, source: 'DEFAULT_CONFIG' });
    }
    const first = synonyms[0];
    const brokerValue = def.synonyms[0] === undefined ? undefined : brokerValues[def.synonyms[0]];
    const effective = Object.hasOwn(overrides, name)
      ? parseConfigValue(def, overrides[name]!)
      : brokerValue ?? def.default;
    return {
      name,
      value: printed(def, effective),
      source: first?.source ?? 'DEFAULT_CONFIG',
      readOnly: false,
      sensitive: def.sensitive,
      type: def.type,
      documentation: def.doc,
      synonyms,
    };
  });
}
