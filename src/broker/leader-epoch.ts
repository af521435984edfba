// The partition leader epoch of a single-node cluster: every partition is led by this node from its creation,
// so its epoch never moves from 0 (what Metadata reports and what every appended batch is stamped with).
import { ErrorCode } from '../protocol/error-codes.js';

export const PARTITION_LEADER_EPOCH = 0;

/**
 * Cluster mode: the leader epoch this broker knows for a replicated log (set by replication from etcd's partition
 * record, bumped by each election). Appends are stamped with it and clients' current epochs checked against it.
 * A log never set (single-broker mode) stays at PARTITION_LEADER_EPOCH.
 */
const knownEpochs = new WeakMap<object, number>();

export function setLogLeaderEpoch(log: object, epoch: number): void {
  knownEpochs.set(log, epoch);
}

export function logLeaderEpoch(log: object): number {
  return knownEpochs.get(log) ?? PARTITION_LEADER_EPOCH;
}

/** Kafka's "the client does not know the epoch". */
export const NO_LEADER_EPOCH = -1;

/**
 * Partition.checkCurrentLeaderEpoch: a client behind the leader's epoch is fenced, one ahead of it knows of
 * an epoch this broker has not seen yet.
 */
export function leaderEpochError(currentLeaderEpoch: number, leaderEpoch = PARTITION_LEADER_EPOCH): number {
  if (currentLeaderEpoch === NO_LEADER_EPOCH) return ErrorCode.NONE;
  if (currentLeaderEpoch < leaderEpoch) return ErrorCode.FENCED_LEADER_EPOCH;
  if (currentLeaderEpoch > leaderEpoch) return ErrorCode.UNKNOWN_LEADER_EPOCH;
  return ErrorCode.NONE;
}
