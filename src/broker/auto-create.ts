// Topic auto-creation (auto.create.topics.enable), shared by Metadata and Produce: Kafka's
// AutoTopicCreationManager creates an ordinary topic with num.partitions and no overrides, and its own
// internal topics with their dedicated settings.
import type { BrokerConfig } from '../config/index.js';
import type { LogStore, TopicMetadata } from '../storage/log-store.js';
import { KafkaError } from '../protocol/kafka-error.js';
import { StorageError } from '../storage/errors.js';
import { CONSUMER_OFFSETS_TOPIC, SHARE_GROUP_STATE_TOPIC, TRANSACTION_STATE_TOPIC } from '../protocol/topic-names.js';

/** gregor is a single node. */
const LIVE_BROKERS = 1;

export { CONSUMER_OFFSETS_TOPIC, TRANSACTION_STATE_TOPIC };

/** Kafka's reason for not creating a topic, with its error code (INVALID_REPLICATION_FACTOR here). */
export class AutoCreateError extends KafkaError {}

/** Partition count, replication factor and overrides Kafka gives a topic it creates on its own. */
export function autoCreateSpec(name: string, config: BrokerConfig): { partitions: number; replicationFactor: number; configs: Record<string, string> } {
  if (name === CONSUMER_OFFSETS_TOPIC) {
    return {
      partitions: config['offsets.topic.num.partitions'],
      replicationFactor: config['offsets.topic.replication.factor'],
      configs: { 'cleanup.policy': 'compact', 'compression.type': 'producer', 'segment.bytes': String(config['offsets.topic.segment.bytes']) },
    };
  }
  if (name === TRANSACTION_STATE_TOPIC) {
    return {
      partitions: config['transaction.state.log.num.partitions'],
      replicationFactor: config['transaction.state.log.replication.factor'],
      configs: {
        'cleanup.policy': 'compact',
        'compression.type': 'uncompressed',
        'min.insync.replicas': String(config['transaction.state.log.min.isr']),
        'segment.bytes': String(config['transaction.state.log.segment.bytes']),
        'unclean.leader.election.enable': 'false',
      },
    };
  }
  if (name === SHARE_GROUP_STATE_TOPIC) {
    // Kafka's ShareCoordinatorService.shareGroupStateTopicConfigs: not compacted; its prune job deletes what newer snapshots made redundant.
    return {
      partitions: config['share.coordinator.state.topic.num.partitions'],
      replicationFactor: config['share.coordinator.state.topic.replication.factor'],
      configs: {
        'cleanup.policy': 'delete',
        'compression.type': 'producer',
        'segment.bytes': String(config['share.coordinator.state.topic.segment.bytes']),
        'min.insync.replicas': String(config['share.coordinator.state.topic.min.isr']),
        'retention.ms': '-1',
      },
    };
  }
  return { partitions: config['num.partitions'], replicationFactor: config['default.replication.factor'], configs: {} };
}

/**
 * Creates `name` as Kafka would on its own, or returns the topic when a concurrent request created it first.
 * Throws StorageError (INVALID_TOPIC_EXCEPTION for an illegal name) otherwise.
 */
export async function autoCreateTopic(store: LogStore, config: BrokerConfig, name: string): Promise<TopicMetadata> {
  const existing = store.topic(name);
  if (existing !== undefined) return existing;
  const { partitions, replicationFactor, configs } = autoCreateSpec(name, config);
  if (replicationFactor > LIVE_BROKERS) {
    throw new AutoCreateError(
      'INVALID_REPLICATION_FACTOR',
      `Unable to replicate the partition ${replicationFactor} time(s): The target replication factor of ${replicationFactor} cannot be reached because only ${LIVE_BROKERS} broker(s) are registered.`,
    );
  }
  try {
    return await store.createTopic(name, partitions, configs);
  } catch (error) {
    const raced = error instanceof StorageError && error.code === 'TOPIC_ALREADY_EXISTS' ? store.topic(name) : undefined;
    if (raced !== undefined) return raced;
    throw error;
  }
}
