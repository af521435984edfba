/**
 * Whether share groups (KIP-932) are served (Kafka's KafkaApis.isShareGroupProtocolEnabled): share.version is
 * finalized at 1 or more. When not, the share group APIs answer UNSUPPORTED_VERSION.
 */
import { SHARE_VERSION } from '../broker/features.js';
import type { BrokerState } from './handler.js';

export function shareGroupsEnabled(broker: BrokerState): boolean {
  return broker.features.level(SHARE_VERSION) >= 1;
}
