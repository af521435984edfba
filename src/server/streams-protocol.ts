/**
 * Whether the KIP-1071 streams group protocol is served (Kafka's KafkaApis.isStreamsGroupProtocolEnabled):
 * `group.coordinator.rebalance.protocols` lists `streams` and streams.version is finalized at 1 or more. When not,
 * StreamsGroupHeartbeat and StreamsGroupDescribe answer UNSUPPORTED_VERSION.
 */
import { STREAMS_VERSION } from '../broker/features.js';
import type { BrokerState } from './handler.js';

export function streamsProtocolEnabled(broker: BrokerState): boolean {
  return broker.config['group.coordinator.rebalance.protocols'].includes('streams') && broker.features.level(STREAMS_VERSION) >= 1;
}
