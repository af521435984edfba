// The partition leader epoch of a single-node cluster: every partition is led by this node from its creation,
// so its epoch never moves from 0 (what Metadata reports and what every appended batch is stamped with).
import { ErrorCode } from '../protocol/error-codes.js';

export const PARTITION_LEADER_EPOCH = 0;

/** Kafka's "the client does not know the epoch". */
export const NO_LEADER_EPOCH = -1;

/**
 * Partition.checkCurrentLeaderEpoch: a client behind the leader's epoch is fenced, one ahead of it knows of
 * an epoch this broker has not seen yet.
 */
export function leaderEpochError(currentLeaderEpoch: number): number {
  if (currentLeaderEpoch === NO_LEADER_EPOCH) return ErrorCode.NONE;
  if (currentLeaderEpoch < PARTITION_LEADER_EPOCH) return ErrorCode.FENCED_LEADER_EPOCH;
  if (currentLeaderEpoch > PARTITION_LEADER_EPOCH) return ErrorCode.UNKNOWN_LEADER_EPOCH;
  return ErrorCode.NONE;
}
