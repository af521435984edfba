/**
 * DescribeProducers (key 61), v0 (Kafka 4.3.1: 0–0).
 *
 * The producers a partition remembers (idempotent and transactional): id, epoch, last sequence, last
 * timestamp, the epoch of the coordinator that last wrote a marker for it, and the first offset of its open
 * transaction (-1 when none). Unknown topics or partitions get UNKNOWN_TOPIC_OR_PARTITION.
 * `kafka-transactions describe-producers` and `find-hanging` read it.
 */
import { ErrorCode } from '../../protocol/error-codes.js';
import {
  describeProducersApi,
  type DescribeProducersRequest,
  type DescribeProducersResponse,
  type PartitionResponse,
} from '../../protocol/generated/describe-producers.js';
import { defineHandler, type Handler } from '../handler.js';
import { AclOperation, authorize, ResourceType } from '../authorization.js';

export const describeProducersHandler: Handler = defineHandler<DescribeProducersRequest, DescribeProducersResponse>({
  api: describeProducersApi,
  minVersion: 0,
  maxVersion: 0,

  handle(ctx, request) {
    const { producerStates } = ctx.broker;
    return {
      throttleTimeMs: 0,
      topics: request.topics.map((topic) => ({
        name: topic.name,
        partitions: topic.partitionIndexes.map((partitionIndex): PartitionResponse => {
          if (!authorize(ctx, AclOperation.READ, ResourceType.TOPIC, topic.name)) {
            return { partitionIndex, errorCode: ErrorCode.TOPIC_AUTHORIZATION_FAILED, errorMessage: null, activeProducers: [] };
          }
          // The partition's leader answers (Kafka's getPartitionOrError: another broker is NOT_LEADER_OR_FOLLOWER in cluster mode).
          const found = ctx.broker.replicaManager.partition(topic.name, partitionIndex);
          if (!found.ok) return { partitionIndex, errorCode: found.errorCode, errorMessage: null, activeProducers: [] };
          const { log } = found;
          const state = producerStates.peek(log);
          const activeProducers = [...(state?.entries() ?? [])].map((entry) => ({
            producerId: BigInt(entry.producerId),
            producerEpoch: entry.epoch,
            lastSequence: entry.lastSeq,
            lastTimestamp: BigInt(entry.lastTimestamp),
            coordinatorEpoch: entry.coordinatorEpoch,
            currentTxnStartOffset: BigInt(entry.currentTxnFirstOffset),
          }));
          return { partitionIndex, errorCode: ErrorCode.NONE, errorMessage: null, activeProducers };
        }),
      })),
    };
  },
});
