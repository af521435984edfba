// Topic auto-creation (auto.create.topics.enable), shared by Metadata and Produce: Kafka's
// AutoTopicCreationManager creates an ordinary topic with num.partitions and no overrides, and its own
// internal topics with their dedicated settings.
import type { BrokerConfig } from '../config/index.js';
import type { LogStore, TopicMetadata } from '../storage/log-store.js';
import { StorageError } from '../storage/errors.js';

export const CONSUMER_OFFSETS_TOPIC = '__consumer_offsets';
export const TRANSACTION_STATE_TOPIC = '__transaction_state';

/** Partition count and overrides Kafka gives a topic it creates on its own. */
export function autoCreateSpec(name: string, config: BrokerConfig): { partitions: number; configs: Record<string, string> } {
  if (name === CONSUMER_OFFSETS_TOPIC) {
    return {
      partitions: config['offsets.topic.num.partitions'],
      configs: { 'cleanup.policy': 'compact', 'compression.type': 'producer', 'segment.bytes': String(config['offsets.topic.segment.bytes']) },
    };
  }
  if (name === TRANSACTION_STATE_TOPIC) {
    return {
      partitions: config['transaction.state.log.num.partitions'],
      configs: {
        'cleanup.policy': 'compact',
        'compression.type': 'none',
        'min.insync.replicas': String(config['transaction.state.log.min.isr']),
        'segment.bytes': String(config['transaction.state.log.segment.bytes']),
        'unclean.leader.election.enable': 'false',
      },
    };
  }
  return { partitions: config['num.partitions'], configs: {} };
}

/**
 * Creates `name` as Kafka would on its own, or returns the topic when a concurrent request created it first.
 * Throws StorageError (INVALID_TOPIC_EXCEPTION for an illegal name) otherwise.
 */
export async function autoCreateTopic(store: LogStore, config: BrokerConfig, name: string): Promise<TopicMetadata> {
  const existing = store.topic(name);
  if (existing !== undefined) return existing;
  const { partitions, configs } = autoCreateSpec(name, config);
  try {
    return await store.createTopic(name, partitions, configs);
  } catch (error) {
    const raced = error instanceof StorageError && error.code === 'TOPIC_ALREADY_EXISTS' ? store.topic(name) : undefined;
    if (raced !== undefined) return raced;
    throw error;
  }
}
