// The TopicCatalog seam (what Metadata reads) backed by the broker's LogStore.
import type { BrokerConfig } from '../config/index.js';
import type { LogStore, TopicMetadata } from '../storage/log-store.js';
import type { TopicCatalog, TopicInfo } from './topic-catalog.js';
import { isInternalTopic } from '../protocol/topic-names.js';
import { autoCreateTopic } from './auto-create.js';

export function topicInfo(topic: TopicMetadata): TopicInfo {
  return { name: topic.name, id: topic.topicId, partitionCount: topic.partitions, internal: isInternalTopic(topic.name) };
}

export class StoreTopicCatalog implements TopicCatalog {
  constructor(
    private readonly store: LogStore,
    private readonly config: BrokerConfig,
  ) {}

  list(): Iterable<TopicInfo> {
    return this.store.topics().map(topicInfo);
  }

  get(name: string): TopicInfo | undefined {
    const topic = this.store.topic(name);
    return topic === undefined ? undefined : topicInfo(topic);
  }

  getById(id: string): TopicInfo | undefined {
    const topic = this.store.topicById(id);
    return topic === undefined ? undefined : topicInfo(topic);
  }

  async autoCreate(name: string): Promise<TopicInfo> {
    return topicInfo(await autoCreateTopic(this.store, this.config, name));
  }
}
