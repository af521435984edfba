/**
 * AlterPartitionReassignments (key 45), v0–v1 (Kafka 4.3's range), as Kafka's controller answers on a single
 * broker: every partition has one replica, on this broker, so the only valid target is [this broker], a
 * reassignment that changes nothing and is complete at once (ListPartitionReassignments never lists one).
 * A target is checked as Kafka's validateManualPartitionAssignment does (empty list, then the ids in
 * ascending order: an unregistered broker or a repeated one); an unknown topic or partition is
 * UNKNOWN_TOPIC_OR_PARTITION; cancelling (null replicas) is NO_REASSIGNMENT_IN_PROGRESS, none ever being in
 * progress. v1's AllowReplicationFactorChange=false refuses a target whose replica count differs from the
 * partition's: every valid target here has the partition's one replica, so it never applies; the response
 * echoes the flag. A request without topics gets Kafka's default response (empty error message, flag true).
 */
import type { ApiError } from '../../protocol/api-error.js';
import { ErrorCode } from '../../protocol/error-codes.js';
import {
  alterPartitionReassignmentsApi,
  createAlterPartitionReassignmentsResponse,
  type AlterPartitionReassignmentsRequest,
  type AlterPartitionReassignmentsResponse,
} from '../../protocol/generated/alter-partition-reassignments.js';
import { defineHandler, type Handler, type RequestContext } from '../handler.js';

const NONE: ApiError = { code: ErrorCode.NONE, message: null };

export const alterPartitionReassignmentsHandler: Handler = defineHandler<AlterPartitionReassignmentsRequest, AlterPartitionReassignmentsResponse>({
  api: alterPartitionReassignmentsApi,
  minVersion: 0,
  maxVersion: 1,

  handle(ctx, request) {
    if (request.topics.length === 0) return createAlterPartitionReassignmentsResponse();
    return {
      throttleTimeMs: 0,
      allowReplicationFactorChange: request.allowReplicationFactorChange,
      errorCode: ErrorCode.NONE,
      errorMessage: null,
      responses: request.topics.map((topic) => ({
        name: topic.name,
        partitions: topic.partitions.map((partition) => {
          const error = reassignmentError(ctx, topic.name, partition.partitionIndex, partition.replicas);
          return { partitionIndex: partition.partitionIndex, errorCode: error.code, errorMessage: error.message };
        }),
      })),
    };
  },
});

/** ReplicationControlManager.alterPartitionReassignment on a one-broker cluster. */
function reassignmentError(ctx: RequestContext, topicName: string, partitionIndex: number, replicas: readonly number[] | null): ApiError {
  const topic = ctx.broker.store.topic(topicName);
  if (topic === undefined) return { code: ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, message: `Unable to find a topic named ${topicName}.` };
  if (partitionIndex < 0 || partitionIndex >= topic.partitions) {
    return { code: ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, message: `Unable to find partition ${topicName}:${partitionIndex}.` };
  }
  // Kafka sends no message with the code's own default one.
  if (replicas === null) return { code: ErrorCode.NO_REASSIGNMENT_IN_PROGRESS, message: null };
  const invalid = (message: string): ApiError => ({ code: ErrorCode.INVALID_REPLICA_ASSIGNMENT, message });
  if (replicas.length === 0) return invalid('The manual partition assignment includes an empty replica list.');
  let previous: number | undefined;
  for (const brokerId of [...replicas].sort((a, b) => a - b)) {
    if (brokerId !== ctx.broker.nodeId) return invalid(`The manual partition assignment includes broker ${brokerId}, but no such broker is registered.`);
    if (brokerId === previous) return invalid(`The manual partition assignment includes the broker ${previous} more than once.`);
    previous = brokerId;
  }
  return NONE;
}
