/**
 * DeleteRecords (key 21), v0–v2 (Kafka 4.3's range).
 *
 * Moves each partition's log start offset up to the requested offset (-1: the high watermark) and
 * answers the new low watermark. An unknown topic or partition is UNKNOWN_TOPIC_OR_PARTITION (in cluster mode, a
 * partition another broker leads NOT_LEADER_OR_FOLLOWER; the leader answers once its own log start moved); an offset
 * above the high watermark or below -1 OFFSET_OUT_OF_RANGE; a topic whose cleanup.policy lacks
 * "delete" POLICY_VIOLATION, as in Kafka. Failed partitions report low watermark -1.
 */
import { ErrorCode } from '../../protocol/error-codes.js';
import {
  deleteRecordsApi,
  type DeleteRecordsPartitionResult,
  type DeleteRecordsRequest,
  type DeleteRecordsResponse,
} from '../../protocol/generated/delete-records.js';
import { errorCodeOf } from '../../protocol/kafka-error.js';
import { defineHandler, type Handler, type RequestContext } from '../handler.js';
import { AclOperation, authorize, ResourceType } from '../authorization.js';

/** "Up to the high watermark". */
const HIGH_WATERMARK = -1n;
const UNKNOWN_LOW_WATERMARK = -1n;

export const deleteRecordsHandler: Handler = defineHandler<DeleteRecordsRequest, DeleteRecordsResponse>({
  api: deleteRecordsApi,
  minVersion: 0,
  maxVersion: 2,

  async handle(ctx, request) {
    const topics = await Promise.all(request.topics.map(async (topic) => ({
      name: topic.name,
      partitions: await Promise.all(topic.partitions.map((p) => deletePartition(ctx, topic.name, p.partitionIndex, p.offset))),
    })));
    return { throttleTimeMs: 0, topics };
  },
});

async function deletePartition(ctx: RequestContext, topic: string, partitionIndex: number, offset: bigint): Promise<DeleteRecordsPartitionResult> {
  const failed = (errorCode: number): DeleteRecordsPartitionResult => ({ partitionIndex, lowWatermark: UNKNOWN_LOW_WATERMARK, errorCode });
  // DELETE on the topic, asked before its existence (KafkaApis).
  if (!authorize(ctx, AclOperation.DELETE, ResourceType.TOPIC, topic)) return failed(ErrorCode.TOPIC_AUTHORIZATION_FAILED);
  // The partition's leader alone deletes (in cluster mode another broker's answer is NOT_LEADER_OR_FOLLOWER).
  const found = ctx.broker.replicaManager.partition(topic, partitionIndex);
  if (!found.ok) return failed(found.errorCode);
  const { log } = found;
  if (!log.config.deleteEnabled) return failed(ErrorCode.POLICY_VIOLATION);
  const target = offset === HIGH_WATERMARK ? log.highWatermark : Number(offset);
  if (target < 0 || target > log.highWatermark) return failed(ErrorCode.OFFSET_OUT_OF_RANGE);
  try {
    const lowWatermark = await log.deleteRecordsBefore(target);
    return { partitionIndex, lowWatermark: BigInt(lowWatermark), errorCode: ErrorCode.NONE };
  } catch (error) {
    return failed(errorCodeOf(error));
  }
}
