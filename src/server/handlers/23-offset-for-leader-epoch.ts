/**
 * OffsetForLeaderEpoch (key 23), v2–v4 (Kafka 4.3.1's range).
 *
 * For each partition, the largest epoch at or below the one asked and the offset where the next epoch starts
 * (the log end offset for the current epoch), from the leader-epoch cache. An epoch of -1, or one newer than
 * any known, answers epoch -1 and offset -1 without an error. Errors: UNKNOWN_TOPIC_OR_PARTITION,
 * FENCED_LEADER_EPOCH / UNKNOWN_LEADER_EPOCH for the current leader epoch.
 * - v3+: replica id (consumers send -1; a single node has no followers). v4: flexible.
 */
import { ErrorCode } from '../../protocol/error-codes.js';
import {
  offsetForLeaderEpochApi,
  type EpochEndOffset,
  type OffsetForLeaderEpochRequest,
  type OffsetForLeaderEpochResponse,
} from '../../protocol/generated/offset-for-leader-epoch.js';
import { leaderEpochError, logLeaderEpoch } from '../../broker/leader-epoch.js';
import { endOffsetForEpoch } from '../../broker/partition-epochs.js';
import { defineHandler, type Handler } from '../handler.js';
import { AclOperation, authorize, authorizeCluster, ResourceType } from '../authorization.js';

export const offsetForLeaderEpochHandler: Handler = defineHandler<OffsetForLeaderEpochRequest, OffsetForLeaderEpochResponse>({
  api: offsetForLeaderEpochApi,
  minVersion: 2,
  maxVersion: 4,

  handle(ctx, request) {
    const { replicaManager } = ctx.broker;
    // CLUSTER_ACTION (a follower) sees every topic; a client DESCRIBE on each, the refused ones answered last.
    const allowed = authorizeCluster(ctx, AclOperation.CLUSTER_ACTION) ? () => true : (name: string) => authorize(ctx, AclOperation.DESCRIBE, ResourceType.TOPIC, name);
    const refused = request.topics.filter((t) => !allowed(t.topic))
      .map((t) => ({ topic: t.topic, partitions: t.partitions.map((p) => undefinedEpoch(p.partition, ErrorCode.TOPIC_AUTHORIZATION_FAILED)) }));
    return {
      throttleTimeMs: 0,
      topics: [...request.topics.filter((t) => allowed(t.topic)).map((topic) => ({
        topic: topic.topic,
        partitions: topic.partitions.map((p): EpochEndOffset => {
          const found = replicaManager.partition(topic.topic, p.partition);
          if (!found.ok) return undefinedEpoch(p.partition, found.errorCode);
          const epochError = leaderEpochError(p.currentLeaderEpoch, logLeaderEpoch(found.log));
          if (epochError !== ErrorCode.NONE) return undefinedEpoch(p.partition, epochError);
          const end = endOffsetForEpoch(found.log, p.leaderEpoch);
          return { errorCode: ErrorCode.NONE, partition: p.partition, leaderEpoch: end.epoch, endOffset: BigInt(end.startOffset) };
        }),
      })), ...refused],
    };
  },
});

function undefinedEpoch(partition: number, errorCode: number): EpochEndOffset {
  return { errorCode, partition, leaderEpoch: -1, endOffset: -1n };
}
