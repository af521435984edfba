/**
 * The broker's topics as a consumer group coordinator sees them (topics-image.ts), read from the LogStore at the
 * moment of each heartbeat, so a topic created, deleted or given partitions changes the metadata hash of the
 * groups subscribed to it at their next heartbeat. Every partition's one replica is on this broker: its rack.
 */
import type { LogStore } from '../../../storage/log-store.js';
import type { TopicImage, TopicsImage } from './topics-image.js';

export function logStoreTopics(store: LogStore, rack: string | null): TopicsImage {
  const racks: readonly string[] = rack === null ? [] : [rack];
  const image = (topic: { name: string; topicId: string; partitions: number } | undefined): TopicImage | undefined =>
    topic === undefined ? undefined : { id: topic.topicId, name: topic.name, numPartitions: topic.partitions, racks: () => racks };
  return {
    byName: (name) => image(store.topic(name)),
    byId: (id) => image(store.topicById(id)),
    names: () => store.topics().map((t) => t.name),
  };
}
