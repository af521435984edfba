/** The group coordinator's settings, read once from the broker config (Kafka's GroupCoordinatorConfig). */
import type { BrokerConfig } from '../../config/index.js';

export interface GroupConfig {
  readonly minSessionTimeoutMs: number;
  readonly maxSessionTimeoutMs: number;
  /** gregor defaults it to 0 (Kafka: 3000) so a local consumer starts at once. */
  readonly initialRebalanceDelayMs: number;
  readonly maxGroupSize: number;
  /** How long a new member's JoinGroup may stay parked (Kafka's fixed 5 minutes, KIP-394). */
  readonly newMemberJoinTimeoutMs: number;
  readonly offsetMetadataMaxBytes: number;
  readonly offsetsRetentionMs: number;
  readonly offsetsRetentionCheckIntervalMs: number;
}

export const NEW_MEMBER_JOIN_TIMEOUT_MS = 5 * 60 * 1000;

export function groupConfigFrom(config: BrokerConfig): GroupConfig {
  return {
    minSessionTimeoutMs: config['group.min.session.timeout.ms'],
    maxSessionTimeoutMs: config['group.max.session.timeout.ms'],
    initialRebalanceDelayMs: config['group.initial.rebalance.delay.ms'],
    maxGroupSize: config['group.max.size'],
    newMemberJoinTimeoutMs: NEW_MEMBER_JOIN_TIMEOUT_MS,
    offsetMetadataMaxBytes: config['offset.metadata.max.bytes'],
    offsetsRetentionMs: config['offsets.retention.minutes'] * 60_000,
    offsetsRetentionCheckIntervalMs: Number(config['offsets.retention.check.interval.ms']),
  };
}
