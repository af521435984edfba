/**
 * ListOffsets (key 2), v1–v11, Kafka 4.3.1's range.
 *
 * Per partition, as Kafka's Partition.fetchOffsetForTimestamp answers a consumer: -1 latest (the high watermark;
 * read_committed: the last stable offset, the same until transactions exist) with the leader epoch; -2 earliest and
 * -4 earliest local (the log start offset, its epoch); -3 the record with the largest timestamp; -5 latest tiered and
 * -6 earliest pending upload (no tiered storage: none, as Kafka 4.3.1 answers a topic without remote storage);
 * otherwise the first record whose timestamp is at or after the one asked, if below the high watermark. "None" is
 * timestamp -1, offset -1, epoch -1. A partition named twice gets one INVALID_REQUEST answer. A request whose replica
 * id is not -1 (a follower's, or -2 for debugging) has no isolation level: the high watermark's place is the log end's.
 * Errors: UNKNOWN_TOPIC_OR_PARTITION, FENCED_LEADER_EPOCH / UNKNOWN_LEADER_EPOCH (v4+ current leader epoch), and
 * UNSUPPORTED_VERSION for a negative timestamp the version does not know, before the partition is looked up.
 * - v2+: isolation level. v4+: leader epoch in the response. v7+ -3, v8+ -4, v9+ -5, v11+ -6 (KIP-1023).
 */
import { ErrorCode } from '../../protocol/error-codes.js';
import {
  listOffsetsApi,
  type ListOffsetsPartitionResponse,
  type ListOffsetsRequest,
  type ListOffsetsResponse,
} from '../../protocol/generated/list-offsets.js';
import { leaderEpochError, logLeaderEpoch } from '../../broker/leader-epoch.js';
import { epochForOffset } from '../../broker/partition-epochs.js';
import { READ_COMMITTED } from '../../broker/fetch-reader.js';
import {
  EARLIEST_LOCAL_TIMESTAMP,
  EARLIEST_TIMESTAMP,
  LATEST_TIMESTAMP,
  MAX_TIMESTAMP,
} from '../../storage/log.js';
import { KafkaError } from '../../protocol/kafka-error.js';

import { defineHandler, type Handler, type RequestContext } from '../handler.js';
import { AclOperation, authorizedNames, ResourceType } from '../authorization.js';

const LATEST_TIERED_TIMESTAMP = -5;
const EARLIEST_PENDING_UPLOAD_TIMESTAMP = -6;
const LEADER_EPOCH_VERSION = 4;

/** The first version that may ask for each special (negative) timestamp; any other negative one is unsupported. */
const SPECIAL_TIMESTAMP_VERSIONS: ReadonlyMap<number, number> = new Map([
  [LATEST_TIMESTAMP, 0],
  [EARLIEST_TIMESTAMP, 0],
  [MAX_TIMESTAMP, 7],
  [EARLIEST_LOCAL_TIMESTAMP, 8],
  [LATEST_TIERED_TIMESTAMP, 9],
  [EARLIEST_PENDING_UPLOAD_TIMESTAMP, 11],
]);

function timestampSupported(timestamp: number, version: number): boolean {
  return timestamp >= 0 || version >= (SPECIAL_TIMESTAMP_VERSIONS.get(timestamp) ?? Infinity);
}

export const listOffsetsHandler: Handler = defineHandler<ListOffsetsRequest, ListOffsetsResponse>({
  api: listOffsetsApi,
  minVersion: 1,
  maxVersion: 11,

  async handle(ctx, request, version) {
    const seen = new Map<string, number>();
    for (const topic of request.topics) {
      for (const p of topic.partitions) seen.set(`${topic.name}\u0000${p.partitionIndex}`, (seen.get(`${topic.name}\u0000${p.partitionIndex}`) ?? 0) + 1);
    }
    const answered = new Set<string>();
    const response: ListOffsetsResponse = { throttleTimeMs: 0, topics: [] };
    // Topics not authorized for DESCRIBE are answered after the others, as Kafka appends them.
    const describable = authorizedNames(ctx, AclOperation.DESCRIBE, ResourceType.TOPIC, request.topics.map((t) => t.name));
    const unauthorized = request.topics.filter((t) => !describable.has(t.name))
      .map((t) => ({ name: t.name, partitions: t.partitions.map((p) => none(p.partitionIndex, ErrorCode.TOPIC_AUTHORIZATION_FAILED)) }));
    for (const topic of request.topics) {
      if (!describable.has(topic.name)) continue;
      const partitions: ListOffsetsPartitionResponse[] = [];
      for (const p of topic.partitions) {
        const key = `${topic.name}\u0000${p.partitionIndex}`;
        if (seen.get(key)! > 1) {
          if (!answered.has(key)) partitions.push(none(p.partitionIndex, ErrorCode.INVALID_REQUEST));
          answered.add(key);
          continue;
        }
        const timestamp = Number(p.timestamp);
        partitions.push(
          timestampSupported(timestamp, version)
            ? await listOffset(ctx, topic.name, p.partitionIndex, p.currentLeaderEpoch, timestamp, request.replicaId === CONSUMER_REPLICA_ID ? request.isolationLevel : undefined)
            : none(p.partitionIndex, ErrorCode.UNSUPPORTED_VERSION),
        );
      }
      response.topics.push({ name: topic.name, partitions });
    }
    response.topics.push(...unauthorized);
    // The leader epoch is a v4+ field: older versions cannot carry it.
    if (version < LEADER_EPOCH_VERSION) for (const t of response.topics) for (const p of t.partitions) p.leaderEpoch = -1;
    return response;
  },
});

/** A consumer's replica id; a follower (or a debugging tool, -2) is answered without an isolation level, up to the log end. */
const CONSUMER_REPLICA_ID = -1;

async function listOffset(ctx: RequestContext, topic: string, index: number, currentLeaderEpoch: number, timestamp: number, isolationLevel: number | undefined): Promise<ListOffsetsPartitionResponse> {
  const found = ctx.broker.replicaManager.partition(topic, index);
  if (!found.ok) return none(index, found.errorCode);
  const log = found.log;
  const epochError = leaderEpochError(currentLeaderEpoch, logLeaderEpoch(log));
  if (epochError !== ErrorCode.NONE) return none(index, epochError);
  // read_committed stops at the last stable offset: the first offset of the oldest open transaction.
  // Kafka's fetchOffsetForTimestamp: no isolation level (not a consumer's request) reads up to the log end.
  const lastFetchable = isolationLevel === undefined ? log.logEndOffset
    : isolationLevel === READ_COMMITTED ? ctx.broker.producerStates.lastStableOffset(log) : log.highWatermark;
  switch (timestamp) {
    case LATEST_TIMESTAMP:
      return answer(index, -1, lastFetchable, logLeaderEpoch(log));
    case EARLIEST_TIMESTAMP:
    case EARLIEST_LOCAL_TIMESTAMP:
      return answer(index, -1, log.logStartOffset, epochForOffset(log, log.logStartOffset));
    case LATEST_TIERED_TIMESTAMP:
    case EARLIEST_PENDING_UPLOAD_TIMESTAMP:
      return none(index, ErrorCode.NONE);
  }
  try {
    const hit = await log.offsetForTimestamp(timestamp);
    if (hit === null || hit.offset >= lastFetchable) return none(index, ErrorCode.NONE);
    return answer(index, hit.timestamp, hit.offset, hit.leaderEpoch >= 0 ? hit.leaderEpoch : epochForOffset(log, hit.offset));
  } catch (error) {
    if (error instanceof KafkaError) return none(index, error.errorCode);
    throw error;
  }
}

function answer(partitionIndex: number, timestamp: number, offset: number, leaderEpoch: number): ListOffsetsPartitionResponse {
  return { partitionIndex, errorCode: ErrorCode.NONE, timestamp: BigInt(timestamp), offset: BigInt(offset), leaderEpoch };
}

function none(partitionIndex: number, errorCode: number): ListOffsetsPartitionResponse {
  return { partitionIndex, errorCode, timestamp: -1n, offset: -1n, leaderEpoch: -1 };
}

