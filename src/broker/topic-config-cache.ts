// Effective topic configs cached per topic (the one resolution, resolveStoredTopicConfig, which the storage
// engine also uses): resolving walks every definition, too much to repeat for each partition of each Produce. An entry is reused while the overrides are unchanged.
import { resolveStoredTopicConfig, type BrokerConfig, type TopicConfig } from '../config/index.js';
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
    const resolved = resolveStoredTopicConfig(topic.configs, this.broker);
    this.entries.set(topic.name, { overrides: { ...topic.configs }, resolved });
    return resolved;
  }
}

function sameOverrides(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const key of keys) if (a[key] !== b[key]) return false;
  return true;
}
