// `gregor --list-configs`: every broker and topic config key with type, default, valid values and doc.
import {
  brokerConfigDefinitions, formatConfigValue, topicConfigDefinitions, type ConfigDefinition,
} from '../config/index.js';
import { envNameForKey } from './config-sources.js';

function entry(def: ConfigDefinition, extra: string[]): string {
  const value = formatConfigValue(def.type, def.default);
  const facts = [
    def.type.toLowerCase(),
    `default ${value === null ? '(unset)' : value === '' ? '""' : value}`,
    ...(def.kafkaDefault === undefined ? [] : [`Kafka's default ${formatConfigValue(def.type, def.kafkaDefault) ?? '(unset)'}`]),
    ...(def.validValues === '' ? [] : [`valid ${def.validValues}`]),
    def.updateMode,
    ...extra,
  ];
  return `${def.name}\n    ${def.doc}\n    ${facts.join('; ')}\n`;
}

export function listConfigs(): string {
  const broker = Object.values(brokerConfigDefinitions)
    .map((d) => d as unknown as ConfigDefinition)
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((def) => entry(def, [`env ${envNameForKey(def.name)}`]));
  const topic = Object.values(topicConfigDefinitions)
    .map((d) => d as unknown as ConfigDefinition & { synonyms: readonly string[] })
    .map((def) => entry(def, def.synonyms.length === 0 ? [] : [`broker default from ${def.synonyms.join(', ')}`]));
  return `Broker configs (server.properties, GREGOR_* environment, --override):\n\n${broker.join('')}` +
    `\nTopic configs (CreateTopics / AlterConfigs; the broker key named gives the default):\n\n${topic.join('')}`;
}
