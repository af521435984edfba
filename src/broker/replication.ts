// The seam between the data path and replication (cluster mode). Single-broker mode sets none and the
// ReplicaManager behaves as before: every partition's only replica is in sync, acks=all answers as acks=1 and the
// high watermark is the log end. In cluster mode src/cluster/cluster-replication.ts implements it: the leader's
// view of its followers (src/broker/leader-replicas.ts), ISR changes in etcd and the followers' fetchers.
import type { PartitionLog } from '../storage/log.js';

export interface Replication {
  /**
   * Before every append to a partition this broker leads (Partition.appendRecordsToLeader): with acks=all,
   * NOT_ENOUGH_REPLICAS when the ISR is smaller than min.insync.replicas; else NONE. The leader's state is set up
   * here if it is not yet (its log's high watermark from now on follows the ISR).
   */
  checkBeforeAppend(topic: string, partition: number, log: PartitionLog, requiredAcks: number, minInsyncReplicas: number): number;
  /**
   * acks=all, after the append (DelayedProduce): resolves once the high watermark reached `requiredOffset` (NONE,
   * or NOT_ENOUGH_REPLICAS_AFTER_APPEND when the ISR is then smaller than min.insync.replicas), REQUEST_TIMED_OUT
   * after `timeoutMs`, NOT_LEADER_OR_FOLLOWER if this broker stops leading the partition meanwhile.
   */
  awaitReplicated(topic: string, partition: number, log: PartitionLog, requiredOffset: number, minInsyncReplicas: number, timeoutMs: number): Promise<number>;
  /**
   * A follower's Fetch read this partition (Partition.updateFollowerFetchState): its fetch offset is its log end;
   * `leaderEndOffset` the leader's log end when it was read. The ISR may grow and the high watermark move. Answers
   * NONE, or the error the follower gets for this partition instead of its records.
   */
  followerFetched(topic: string, partition: number, log: PartitionLog, replicaId: number, fetchOffset: number, leaderEndOffset: number): number;
}
