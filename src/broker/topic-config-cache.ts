// Effective topic configs (src/config/topic-configs.ts) cached per topic: resolving walks every definition,
// too much to repeat for each partition of each Produce. An entry is reused while the overrides are unchanged.
import { ConfigError, resolveTopicConfig, type BrokerConfig, type TopicConfig } from '../config/index.js';
import type { TopicMetadata } from '../storage/log-store.js';

interface Entry {
  overrides: Record<string, string>;
  resolved: TopicConfig;
}

export class TopicConfigCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private broker: BrokerConfig) {}

  /** The broker's config changed (dynamic broker configs): every topic resolves again over the new one. */
  setBrokerConfig(broker: BrokerConfig): void {
    this.broker = broker;
    this.entries.clear();
  }

  get(topic: TopicMetadata): TopicConfig {
    const cached = this.entries.get(topic.name);
    if (cached !== undefined && sameOverrides(cached.overrides, topic.configs)) return cached.resolved;
    const resolved = resolveLeniently(topic.configs, this.broker);
    this.entries.set(topic.name, { overrides: { ...topic.configs }, resolved });
    return resolved;
  }
}

/** A stored override that no longer parses falls back to the broker's value rather than failing every request. */
function resolveLeniently(overrides: Record<string, string>, broker: BrokerConfig): TopicConfig {
  try {
    return resolveTopicConfig(overrides, broker);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    const usable: Record<string, string> = {};
    for (const [name, value] of Object.entries(overrides)) {
      try {
        resolveTopicConfig({ [name]: value }, broker);
        usable[name] = value;
      } catch {
        // dropped: the broker's value stands in
      }
    }
    return resolveTopicConfig(usable, broker);
  }
}

function sameOverrides(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const key of keys) if (a[key] !== b[key]) return false;
  return true;
}
