/**
 * ElectLeaders (key 43), v0–v2 (Kafka 4.3's range).
 *
 * On a single broker every partition is already led by its preferred (and only) replica, so each named
 * partition gets ELECTION_NOT_NEEDED, as Kafka's controller answers; an unknown topic or partition gets
 * UNKNOWN_TOPIC_OR_PARTITION with Kafka's message. A null partition list means every topic, where
 * partitions that need no election are left out. An unknown election type is INVALID_REQUEST.
 * In cluster mode the election is the controller's (src/cluster/leader-elector.ts, written to etcd): PREFERRED
 * moves leadership to the first replica when it is live and in the ISR (else PREFERRED_LEADER_NOT_AVAILABLE),
 * UNCLEAN elects a leaderless partition from any live replica (else ELIGIBLE_LEADERS_NOT_AVAILABLE).
 * Versions: v1+ election type and top-level error code; v0 is always PREFERRED.
 */
import { ErrorCode, errorInfo } from '../../protocol/error-codes.js';
import {
  electLeadersApi,
  type ElectLeadersRequest,
  type ElectLeadersResponse,
  type PartitionResult,
} from '../../protocol/generated/elect-leaders.js';
import { defineHandler, type Handler } from '../handler.js';
import type { Cluster } from '../../cluster/cluster.js';

/** Kafka's ElectionType ids: PREFERRED, UNCLEAN. */
const ELECTION_TYPES = [0, 1];

export const electLeadersHandler: Handler = defineHandler<ElectLeadersRequest, ElectLeadersResponse>({
  api: electLeadersApi,
  minVersion: 0,
  maxVersion: 2,

  handle(ctx, request, version) {
    const { store } = ctx.broker;
    const requested = request.topicPartitions;
    if (version >= 1 && !ELECTION_TYPES.includes(request.electionType)) {
      const message = `Unknown election type ${request.electionType}`;
      return {
        throttleTimeMs: 0,
        errorCode: ErrorCode.INVALID_REQUEST,
        replicaElectionResults: (requested ?? []).map((t) => ({
          topic: t.topic,
          partitionResult: t.partitions.map((partitionId) => ({ partitionId, errorCode: ErrorCode.INVALID_REQUEST, errorMessage: message })),
        })),
      };
    }
    const { cluster } = ctx.broker;
    if (cluster !== undefined) return electInCluster(cluster, version >= 1 && request.electionType === 1 ? 'UNCLEAN' : 'PREFERRED', requested);
    if (requested === null) {
      const names = store.topics().map((t) => t.name).sort();
      return { throttleTimeMs: 0, errorCode: ErrorCode.NONE, replicaElectionResults: names.map((topic) => ({ topic, partitionResult: [] })) };
    }
    const replicaElectionResults = requested.map((t) => ({
      topic: t.topic,
      partitionResult: t.partitions.map((partitionId): PartitionResult => {
        const topic = store.topic(t.topic);
        if (topic === undefined) {
          return { partitionId, errorCode: ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, errorMessage: `No such topic as ${t.topic}` };
        }
        if (partitionId < 0 || partitionId >= topic.partitions) {
          return { partitionId, errorCode: ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, errorMessage: `No such partition as ${t.topic}-${partitionId}` };
        }
        return { partitionId, errorCode: ErrorCode.ELECTION_NOT_NEEDED, errorMessage: errorInfo(ErrorCode.ELECTION_NOT_NEEDED).message };
      }),
    }));
    return { throttleTimeMs: 0, errorCode: ErrorCode.NONE, replicaElectionResults };
  },
});

async function electInCluster(cluster: Cluster, election: 'PREFERRED' | 'UNCLEAN', requested: ElectLeadersRequest['topicPartitions']): Promise<ElectLeadersResponse> {
  const wanted = requested === null ? null : requested.flatMap((t) => t.partitions.map((index) => ({ topic: t.topic, index })));
  const outcomes = await cluster.electLeaders(election, wanted);
  const byTopic = new Map<string, PartitionResult[]>();
  // Every named topic answers, in the request's order; with none named, the topics whose partitions were elected.
  for (const t of requested ?? []) if (!byTopic.has(t.topic)) byTopic.set(t.topic, []);
  for (const o of outcomes) {
    const list = byTopic.get(o.topic) ?? [];
    list.push({ partitionId: o.index, errorCode: o.errorCode, errorMessage: o.errorMessage });
    byTopic.set(o.topic, list);
  }
  return {
    throttleTimeMs: 0,
    errorCode: ErrorCode.NONE,
    replicaElectionResults: [...byTopic].map(([topic, partitionResult]) => ({ topic, partitionResult })),
  };
}
