// The TopicCatalog seam (what Metadata, DescribeTopicPartitions and Produce v13 read) in cluster mode: the topics
// in etcd. The internal topics (__consumer_offsets, __transaction_state) stay each broker's own for now and are not
// listed: their coordinators do not move with partitions yet.
import type { BrokerConfig } from '../config/index.js';
import type { TopicCatalog, TopicInfo } from '../broker/topic-catalog.js';
import { autoCreateSpec } from '../broker/auto-create.js';
import type { Cluster, ClusterTopic } from './cluster.js';

function topicInfo(topic: ClusterTopic): TopicInfo {
  return { name: topic.name, id: topic.id, partitionCount: topic.partitions, internal: false };
}

export class ClusterTopicCatalog implements TopicCatalog {
  constructor(
    private readonly cluster: Cluster,
    private readonly config: () => BrokerConfig,
  ) {}

  list(): Iterable<TopicInfo> {
    return [...this.cluster.topics()].map(topicInfo);
  }

  get(name: string): TopicInfo | undefined {
    const topic = this.cluster.topic(name);
    return topic === undefined ? undefined : topicInfo(topic);
  }

  getById(id: string): TopicInfo | undefined {
    const topic = this.cluster.topicById(id);
    return topic === undefined ? undefined : topicInfo(topic);
  }

  /**
   * auto.create.topics.enable: num.partitions and default.replication.factor, placed as CreateTopics places them. An
   * internal topic is refused (Cluster.createTopic): Metadata then answers it unknown, as it does while Kafka creates one.
   */
  async autoCreate(name: string): Promise<TopicInfo> {
    const spec = autoCreateSpec(name, this.config());
    await this.cluster.createTopic(name, { partitions: spec.partitions, replicationFactor: spec.replicationFactor }, spec.configs);
    return this.get(name)!;
  }
}
