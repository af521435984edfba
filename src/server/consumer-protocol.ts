/**
 * Whether the KIP-848 consumer group protocol is served (Kafka's KafkaApis.isConsumerGroupProtocolEnabled):
 * `group.coordinator.rebalance.protocols` lists `consumer` and group.version is finalized at 1 or more. When not,
 * ConsumerGroupHeartbeat and ConsumerGroupDescribe answer UNSUPPORTED_VERSION.
 */
import { GROUP_VERSION } from '../broker/features.js';
import type { BrokerState } from './handler.js';

export function consumerProtocolEnabled(broker: BrokerState): boolean {
  return broker.config['group.coordinator.rebalance.protocols'].includes('consumer') && broker.features.level(GROUP_VERSION) >= 1;
}
