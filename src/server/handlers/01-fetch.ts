/**
 * Fetch (key 1), v4–v18, Kafka 4.3.1's range.
 *
 * Reads each partition up to the high watermark (read_committed: the last stable offset, where the oldest open
 * transaction starts, with the aborted transactions overlapping the data returned) with Kafka's byte limits: max_bytes capped by fetch.max.bytes, partition_max_bytes, and
 * the first batch whole until a partition has returned data. Waits up to max_wait_ms for min_bytes, woken
 * by appends; a partition error, a diverging epoch or broker shutdown answers at once. Incremental fetch
 * sessions (KIP-227, v7+) come from the broker's FetchSessionCache. Partition errors: UNKNOWN_TOPIC_OR_PARTITION,
 * UNKNOWN_TOPIC_ID (v13+), OFFSET_OUT_OF_RANGE, FENCED_LEADER_EPOCH / UNKNOWN_LEADER_EPOCH (v9+ current epoch);
 * session errors are top-level. Records go out as the log's buffers, by reference.
 * Quotas as KafkaApis applies them: a read is bounded by what consumer_byte_rate lets through in the quota window;
 * the response's size is recorded against consumer_byte_rate and the handling time against request_percentage, and
 * a client over either gets an empty response (its data dropped and unrecorded) with the larger throttle time, its
 * connection muted for it.
 * - v4+: isolation level, last stable offset, aborted transactions (read_committed: [], else null; an unknown
 *   topic or partition always [] as Kafka answers those before reading). v5+: log start offset.
 * - v16+ in cluster mode: a partition this broker does not lead is NOT_LEADER_OR_FOLLOWER with its current leader and
 *   that leader's endpoint (KIP-951); followers replicate but serve no consumers yet (KIP-392).
 * - A follower's fetch (replica_id, v15+ replica_state, cluster mode; CLUSTER_ACTION needed) reads up to the log
 *   end and reports its fetch offset to the leader's replication (ISR, high watermark: src/broker/replication.ts).
 * - v7+: sessions. v11+: preferred read replica (always -1). v12+: diverging epoch from last_fetched_epoch.
 * - v13+: topics by id, no names in the response. v15+: replica_state (a follower's; a consumer sends replica id -1).
 * - v18: replica_state's high watermark (KIP-1166), which only a follower sends: a consumer's fetch is answered as in v17.
 */
import { ErrorCode } from '../../protocol/error-codes.js';
import {
  createEpochEndOffset,
  createPartitionData,
  fetchApi,
  type FetchRequest,
  type FetchResponse,
  type FetchableTopicResponse,
  type PartitionData,
  type NodeEndpoint,
} from '../../protocol/generated/fetch.js';
import { ZERO_UUID } from '../../protocol/io/reader.js';
import { newFetchContext, TOPIC_ID_VERSION, type FetchTarget } from '../../broker/fetch-context.js';
import { READ_COMMITTED, type PartitionRead } from '../../broker/fetch-reader.js';
import type { BrokerTopicStats } from '../../broker/broker-topic-stats.js';
import { Writer } from '../../protocol/io/writer.js';
import { defineHandler, type Handler, type RequestContext } from '../handler.js';
import { quotaClientId, quotaUser, requestThrottleMs, throttle } from '../throttle.js';
import { currentLeader } from '../cluster-view.js';

/** Java's Integer.MAX_VALUE: a double cast to int saturates there. */
const INT_MAX = 2 ** 31 - 1;
import { AclOperation, authorize, authorizeCluster, ResourceType } from '../authorization.js';

export const fetchHandler: Handler = defineHandler<FetchRequest, FetchResponse>({
  api: fetchApi,
  minVersion: 4,
  maxVersion: 18,
  // A response holds up to fetch.max.bytes of records: pipelined fetches are served one after another.
  oneAtATime: true,

  async handle(ctx, request, version) {
    const { replicaManager, config } = ctx.broker;
    const context = newFetchContext(request, version, replicaManager.fetchSessions);
    if (context.kind === 'error') {
      const response = emptyResponse(context.errorCode, 0);
      return applyFetchQuotas(ctx, response, version, () => response);
    }
    const usesTopicIds = version >= TOPIC_ID_VERSION;
    // A follower's fetch (cluster mode): CLUSTER_ACTION on the cluster, else every partition is refused, as KafkaApis
    // does; client quotas do not apply to it (Kafka's followers answer to replication quotas alone).
    const replicaId = ctx.broker.cluster === undefined ? -1 : version >= 15 ? request.replicaState.replicaId : request.replicaId;
    const followerAllowed = replicaId < 0 || authorizeCluster(ctx, AclOperation.CLUSTER_ACTION);
    const clientQuotas = replicaId < 0;
    // READ on each topic, asked once per request (a long poll reads again without asking again).
    const readable = new Map<string, boolean>();
    // A follower with CLUSTER_ACTION reads every topic, as KafkaApis skips its READ checks.
    const mayRead = (topic: string) => (replicaId >= 0 ? followerAllowed
      : readable.get(topic) ?? readable.set(topic, authorize(ctx, AclOperation.READ, ResourceType.TOPIC, topic)).get(topic)!);
    // Never more than the consumer's quota lets through in a window (Kafka: maxValueInQuotaWindow, as an int).
    const { fetch } = ctx.broker.quotas;
    const quotaWindowBytes = fetch.enabled && clientQuotas ? Math.min(fetch.maxValueInQuotaWindow(quotaUser(ctx), quotaClientId(ctx)), INT_MAX) : INT_MAX;
    const maxBytes = Math.trunc(Math.min(request.maxBytes, config['fetch.max.bytes'], quotaWindowBytes));
    const reads = await replicaManager.fetchRecords(context.targets, {
      maxWaitMs: request.maxWaitMs,
      minBytes: Math.min(request.minBytes, maxBytes),
      maxBytes,
      isolationLevel: request.isolationLevel,
      usesTopicIds,
      abandoned: ctx.connection.closed,
      readable: mayRead,
      replicaId,
    });
    const outcomes = reads.map((r) => ({
      errorCode: r.errorCode,
      highWatermark: r.highWatermark,
      logStartOffset: r.logStartOffset,
      bytes: r.bytes,
      diverging: r.divergingEpoch !== null,
    }));
    const throttled = () => {
      const answer = context.throttled();
      return emptyResponse(answer.errorCode, answer.sessionId);
    };
    if (clientQuotas && (fetch.enabled || ctx.broker.quotas.request.enabled)) {
      // Measured over every partition read (Kafka counts only those an incremental session would include).
      const all = responseOf(context.targets, reads, usesTopicIds, request.isolationLevel, emptyResponse(ErrorCode.NONE, 0), () => true);
      const answered = applyFetchQuotas(ctx, all, version, throttled);
      if (answered !== all) return answered;
    }
    const done = context.complete(outcomes);
    if (done.errorCode !== ErrorCode.NONE) return emptyResponse(done.errorCode, done.sessionId);
    countBytesOut(replicaManager.topicStats, reads, (i) => done.include[i]!);
    const response = responseOf(context.targets, reads, usesTopicIds, request.isolationLevel, emptyResponse(ErrorCode.NONE, done.sessionId), (i) => done.include[i]!);
    if (version >= 16 && ctx.broker.cluster !== undefined) addLeaderHints(ctx, response);
    return response;
  },
});

/** KIP-951 (KafkaApis, v16+): a NOT_LEADER_OR_FOLLOWER or FENCED_LEADER_EPOCH partition names its current leader, whose endpoint is listed once. */
function addLeaderHints(ctx: RequestContext, response: FetchResponse): void {
  const endpoints = new Map<number, NodeEndpoint>();
  for (const topic of response.responses) {
    for (const p of topic.partitions) {
      if (p.errorCode !== ErrorCode.NOT_LEADER_OR_FOLLOWER && p.errorCode !== ErrorCode.FENCED_LEADER_EPOCH) continue;
      const name = topic.topic !== '' ? topic.topic : ctx.broker.topics.getById(topic.topicId)?.name;
      if (name === undefined) continue;
      const leader = currentLeader(ctx.broker, ctx.connection.listenerName, name, p.partitionIndex);
      if (leader.node !== undefined) endpoints.set(leader.node.nodeId, { ...leader.node });
      p.currentLeader = { leaderId: leader.leaderId, leaderEpoch: leader.leaderEpoch };
    }
  }
  response.nodeEndpoints = [...endpoints.values()];
}

/** Kafka's BytesOutPerSec: the record bytes of each partition in the response, per topic. */
function countBytesOut(stats: BrokerTopicStats, reads: readonly PartitionRead[], include: (i: number) => boolean): void {
  for (let i = 0; i < reads.length; i++) {
    const read = reads[i]!;
    if (read.bytes > 0 && include(i)) stats.of(read.topic).bytesOut += read.bytes;
  }
}

/** The partitions included, in the order read. */
function responseOf(
  targets: readonly FetchTarget[], reads: readonly PartitionRead[], usesTopicIds: boolean, isolationLevel: number,
  response: FetchResponse, include: (i: number) => boolean,
): FetchResponse {
  let current: FetchableTopicResponse | undefined;
  targets.forEach((target, i) => {
    if (!include(i)) return;
    const read = reads[i]!;
    // Consecutive partitions of one topic share an entry, as Kafka builds the response.
    const same = current !== undefined && (usesTopicIds ? current.topicId === target.topicId : current.topic === target.topic);
    if (!same) {
      current = { topic: usesTopicIds ? read.topic : target.topic, topicId: usesTopicIds ? target.topicId : ZERO_UUID, partitions: [] };
      response.responses.push(current);
    }
    current!.partitions.push(partitionData(target, read, isolationLevel));
  });
  return response;
}

/**
 * KafkaApis' fetch quotas: the response's size (FetchResponse.sizeOf) against consumer_byte_rate, the handling time
 * against request_percentage. Within both, `response` carries throttle time 0; over either, the bytes are unrecorded,
 * the connection muted, and the throttled answer goes instead with the larger throttle time.
 */
function applyFetchQuotas(ctx: RequestContext, response: FetchResponse, version: number, throttled: () => FetchResponse): FetchResponse {
  const { fetch } = ctx.broker.quotas;
  const user = quotaUser(ctx);
  const clientId = quotaClientId(ctx);
  const now = ctx.broker.clock.now();
  const requestQuotaMs = requestThrottleMs(ctx);
  const size = fetch.enabled ? responseSize(response, version) : 0;
  const bandwidthThrottleMs = fetch.recordAndGetThrottleTimeMs(user, clientId, size, now);
  const throttleMs = Math.max(bandwidthThrottleMs, requestQuotaMs);
  if (throttleMs <= 0) return response;
  fetch.recordNoThrottle(user, clientId, -size, now);
  throttle(ctx, throttleMs);
  const answer = throttled();
  answer.throttleTimeMs = throttleMs;
  return answer;
}

/** FetchResponse.sizeOf: 4 + the body's encoded size (records counted, not copied). */
function responseSize(response: FetchResponse, version: number): number {
  const w = new Writer();
  fetchApi.encodeResponse(w, response, version);
  return 4 + w.length;
}

function partitionData(target: FetchTarget, read: PartitionRead, isolationLevel: number): PartitionData {
  const data = createPartitionData();
  data.partitionIndex = target.partition;
  data.errorCode = read.errorCode;
  data.highWatermark = BigInt(read.highWatermark);
  data.lastStableOffset = BigInt(read.lastStableOffset);
  data.logStartOffset = BigInt(read.logStartOffset);
  data.abortedTransactions =
    read.beforeRead || isolationLevel === READ_COMMITTED
      ? read.abortedTransactions.map((t) => ({ producerId: BigInt(t.producerId), firstOffset: BigInt(t.firstOffset) }))
      : null;
  data.preferredReadReplica = -1;
  data.records = read.records;
  if (read.divergingEpoch !== null) {
    data.divergingEpoch = { ...createEpochEndOffset(), epoch: read.divergingEpoch.epoch, endOffset: BigInt(read.divergingEpoch.endOffset) };
  }
  return data;
}

function emptyResponse(errorCode: number, sessionId: number): FetchResponse {
  return { throttleTimeMs: 0, errorCode, sessionId, responses: [], nodeEndpoints: [] };
}
