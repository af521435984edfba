/**
 * ListPartitionReassignments (key 46), v0 (Kafka 4.3's range).
 *
 * A single broker never has a reassignment in progress: the answer lists none, for all partitions or
 * the ones named (Kafka leaves out unknown partitions silently, and so does this).
 */
import { ErrorCode } from '../../protocol/error-codes.js';
import {
  listPartitionReassignmentsApi,
  type ListPartitionReassignmentsRequest,
  type ListPartitionReassignmentsResponse,
} from '../../protocol/generated/list-partition-reassignments.js';
import { defineHandler, type Handler } from '../handler.js';

export const listPartitionReassignmentsHandler: Handler = defineHandler<ListPartitionReassignmentsRequest, ListPartitionReassignmentsResponse>({
  api: listPartitionReassignmentsApi,
  minVersion: 0,
  maxVersion: 0,

  handle() {
    return { throttleTimeMs: 0, errorCode: ErrorCode.NONE, errorMessage: null, topics: [] };
  },
});
