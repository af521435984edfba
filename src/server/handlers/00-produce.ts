/**
 * Produce (key 0), v3–v13 served; v0–v2 advertised but refused (Kafka 4.3.1 advertises 0–13 for KAFKA-18659's
 * librdkafka bug and closes the connection on v0–v2, which the router does: the codec starts at v3).
 *
 * Each partition is validated and appended by the ReplicaManager (src/broker/produce-append.ts): unknown topic
 * or partition, internal topics (INVALID_TOPIC_EXCEPTION unless the client id is `__admin_client`), framing,
 * MESSAGE_TOO_LARGE, CORRUPT_MESSAGE, INVALID_RECORD / INVALID_TIMESTAMP with per-record errors, broker-side
 * compression, RECORD_LIST_TOO_LARGE. acks must be -1, 0 or 1 (else INVALID_REQUIRED_ACKS on every known
 * partition); a single node has the write in its only in-sync replica once it is in the OS, so -1 answers as 1
 * and timeout_ms never expires. In cluster mode acks=-1 is refused NOT_ENOUGH_REPLICAS while the ISR is smaller
 * than min.insync.replicas, and answers once the ISR holds the batch (the high watermark past it):
 * NOT_ENOUGH_REPLICAS_AFTER_APPEND if the ISR shrank below min.insync.replicas meanwhile, REQUEST_TIMED_OUT after
 * timeout_ms (src/broker/replication.ts). acks=0 gets no response, and an error closes the connection, as Kafka does.
 * Topics are not auto-created here: Kafka creates them only from Metadata. A transactional batch without a
 * transactional id fails the whole request with TRANSACTIONAL_ID_AUTHORIZATION_FAILED, as in Kafka.
 * Quotas as KafkaApis applies them once the appends are done: the request's bytes against producer_byte_rate, its
 * handling time against request_percentage (not for acks=0), the larger throttle time answered and the connection
 * muted for it (an acks=0 producer is muted too, with nothing to read).
 * - v5+: log start offset. v8+: record errors and error message. v10+: current leader / node endpoints only
 *   accompany NOT_LEADER_OR_FOLLOWER, which a single node never returns; in cluster mode a partition this broker
 *   does not lead answers it with the leader from etcd (KIP-951).
 * - v12+: a transactional batch adds its partition to the producer's transaction first (KIP-890 part 2: the
 *   ReplicaManager asks the coordinator; src/broker/txn-partition-add.ts).
 * - v13+ (KIP-516): topics by id, resolved once per topic entry; an unknown (or zero) id answers UNKNOWN_TOPIC_ID on
 *   each of its partitions whatever the acks, and the response names each topic by the id it was asked by.
 */
import { ErrorCode } from '../../protocol/error-codes.js';
import { hasTransactionalBatch } from '../../protocol/records/batch.js';
import {
  produceApi,
  type PartitionProduceData,
  type PartitionProduceResponse,
  type ProduceRequest,
  type ProduceResponse,
  type NodeEndpoint,
} from '../../protocol/generated/produce.js';
import { createLeaderIdAndEpoch } from '../../protocol/generated/produce.js';
import { failed, type PartitionAppendOutcome } from '../../broker/produce-append.js';
import { produceAddsPartitionToTxn } from '../../broker/txn-partition-add.js';
import { CloseConnection } from '../connection.js';
import { defineHandler, NO_RESPONSE, type Handler, type RequestContext } from '../handler.js';
import { currentLeader } from '../cluster-view.js';
import { AclOperation, authorize, authorizedNames, refused, ResourceType } from '../authorization.js';
import { quotaClientId, quotaUser, requestThrottleMs, throttle } from '../throttle.js';

/** Kafka's AdminUtils.ADMIN_CLIENT_ID: the one client allowed to write internal topics. */
const ADMIN_CLIENT_ID = '__admin_client';
const VALID_ACKS: ReadonlySet<number> = new Set([-1, 0, 1]);

export const produceHandler: Handler = defineHandler<ProduceRequest, ProduceResponse>({
  api: produceApi,
  minVersion: 0, // v0-v2: advertised only (the codec starts at v3, the router closes the connection)
  maxVersion: 13,
  advertisesRemovedVersions: true,

  async handle(ctx, request, version) {
    const { replicaManager } = ctx.broker;
    // Kafka refuses the whole request before anything else: a transactional batch needs a transactional id it may WRITE.
    if (request.topicData.some((t) => t.partitionData.some((p) => isTransactionalPayload(p.records))) &&
      (request.transactionalId === null || !authorize(ctx, AclOperation.WRITE, ResourceType.TRANSACTIONAL_ID, request.transactionalId))) {
      throw refused('TRANSACTIONAL_ID_AUTHORIZATION_FAILED');
    }
    const internalTopicsAllowed = ctx.header.clientId === ADMIN_CLIENT_ID;
    const acksValid = VALID_ACKS.has(request.acks);
    const addToTransaction = produceAddsPartitionToTxn(version) ? { transactionalId: request.transactionalId } : undefined;
    const names = request.topicData.map((topic) => (version >= 13 ? ctx.broker.topics.getById(topic.topicId)?.name : topic.name));
    const writable = authorizedNames(ctx, AclOperation.WRITE, ResourceType.TOPIC, names.filter((name) => name !== undefined));
    const append = (topic: string | undefined, p: PartitionProduceData): Promise<PartitionAppendOutcome> => {
      if (topic === undefined) return Promise.resolve(failed(ErrorCode.UNKNOWN_TOPIC_ID));
      if (!writable.has(topic)) return Promise.resolve(failed(ErrorCode.TOPIC_AUTHORIZATION_FAILED));
      if (!acksValid) return Promise.resolve(invalidAcks(replicaManager.partition(topic, p.index).ok));
      return replicaManager.appendRecords(topic, p.index, p.records, { apiVersion: version, internalTopicsAllowed, addToTransaction, requiredAcks: request.acks, timeoutMs: request.timeoutMs });
    };
    // Every append starts before the first await, so pipelined requests reach each log in arrival order.
    const pending = request.topicData.map((topic, i) => {
      const name = names[i];
      return {
        name: topic.name,
        topicId: topic.topicId, // the zero id below v13 (not on the wire)
        partitions: topic.partitionData.map((p) => ({ index: p.index, outcome: append(name, p) })),
      };
    });
    // The first failure answers the request; later ones, awaited no more, must not end the process as unhandled.
    for (const topic of pending) for (const p of topic.partitions) p.outcome.catch(() => undefined);
    const response: ProduceResponse = { responses: [], throttleTimeMs: 0, nodeEndpoints: [] };
    let anyError = false;
    for (const topic of pending) {
      const partitionResponses: PartitionProduceResponse[] = [];
      for (const p of topic.partitions) {
        const outcome = await p.outcome;
        if (outcome.errorCode !== ErrorCode.NONE) anyError = true;
        partitionResponses.push(partitionResponse(p.index, outcome));
      }
      response.responses.push({ name: topic.name, topicId: topic.topicId, partitionResponses });
    }
    if (version >= 10 && ctx.broker.cluster !== undefined) addLeaderHints(ctx, pending.map((t, i) => names[i]), response);
    const { produce } = ctx.broker.quotas;
    const bandwidthThrottleMs = produce.enabled ? produce.recordAndGetThrottleTimeMs(quotaUser(ctx), quotaClientId(ctx), ctx.header.size, ctx.broker.clock.now()) : 0;
    const requestQuotaMs = request.acks === 0 ? 0 : requestThrottleMs(ctx);
    response.throttleTimeMs = Math.max(bandwidthThrottleMs, requestQuotaMs);
    throttle(ctx, response.throttleTimeMs);
    if (request.acks === 0) {
      // The client reads no answer, so Kafka closes the connection to tell it something went wrong.
      if (anyError) throw new CloseConnection('acks=0 produce request failed');
      return NO_RESPONSE;
    }
    return response;
  },
});

/** KIP-951 (KafkaApis, v10+): a NOT_LEADER_OR_FOLLOWER partition names its current leader, whose endpoint is listed once. */
function addLeaderHints(ctx: RequestContext, names: readonly (string | undefined)[], response: ProduceResponse): void {
  const endpoints = new Map<number, NodeEndpoint>();
  response.responses.forEach((topic, i) => {
    const name = names[i];
    for (const p of topic.partitionResponses) {
      if (p.errorCode !== ErrorCode.NOT_LEADER_OR_FOLLOWER || name === undefined) continue;
      const leader = currentLeader(ctx.broker, ctx.connection.listenerName, name, p.index);
      if (leader.node !== undefined) endpoints.set(leader.node.nodeId, { ...leader.node });
      p.currentLeader = { leaderId: leader.leaderId, leaderEpoch: leader.leaderEpoch };
    }
  });
  response.nodeEndpoints = [...endpoints.values()];
}

function isTransactionalPayload(records: PartitionProduceData['records']): boolean {
  return Buffer.isBuffer(records) && hasTransactionalBatch(records);
}

function invalidAcks(partitionKnown: boolean): PartitionAppendOutcome {
  return failed(partitionKnown ? ErrorCode.INVALID_REQUIRED_ACKS : ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
}

function partitionResponse(index: number, outcome: PartitionAppendOutcome): PartitionProduceResponse {
  return {
    index,
    errorCode: outcome.errorCode,
    baseOffset: BigInt(outcome.baseOffset),
    logAppendTimeMs: BigInt(outcome.logAppendTime),
    logStartOffset: BigInt(outcome.logStartOffset),
    recordErrors: outcome.recordErrors.map((e) => ({ batchIndex: e.batchIndex, batchIndexErrorMessage: e.message })),
    errorMessage: outcome.errorMessage,
    currentLeader: createLeaderIdAndEpoch(),
  };
}
