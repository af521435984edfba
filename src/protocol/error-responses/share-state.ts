/**
 * The share coordinator's APIs (keys 83-87): Kafka's getErrorResponse puts the error's code and message on every
 * partition of every topic requested, the other fields at their defaults; DescribeShareGroupOffsets (90) on every group.
 */
import { deleteShareGroupStateApi } from '../generated/delete-share-group-state.js';
import { initializeShareGroupStateApi } from '../generated/initialize-share-group-state.js';
import { readShareGroupStateApi } from '../generated/read-share-group-state.js';
import { readShareGroupStateSummaryApi } from '../generated/read-share-group-state-summary.js';
import { writeShareGroupStateApi } from '../generated/write-share-group-state.js';
import { describeShareGroupOffsetsApi } from '../generated/describe-share-group-offsets.js';
import { deleteShareGroupOffsetsApi } from '../generated/delete-share-group-offsets.js';
import { alterShareGroupOffsetsApi } from '../generated/alter-share-group-offsets.js';
import type { ApiError } from '../api-error.js';
import { errorResponse } from './define.js';

interface Topics {
  readonly topics: readonly { topicId: string; partitions: readonly { partition: number }[] }[];
}

const perPartition = <T>(request: Topics, error: ApiError, extra: T) => ({
  results: request.topics.map((t) => ({
    topicId: t.topicId,
    partitions: t.partitions.map((p) => ({ partition: p.partition, errorCode: error.code, errorMessage: error.message, ...extra })),
  })),
});

export const shareStateErrorResponses = [
  errorResponse(initializeShareGroupStateApi, (request, _v, error) => perPartition(request, error, {})),
  errorResponse(readShareGroupStateApi, (request, _v, error) => perPartition(request, error, { stateEpoch: 0, startOffset: 0n, stateBatches: [] })),
  errorResponse(writeShareGroupStateApi, (request, _v, error) => perPartition(request, error, {})),
  errorResponse(deleteShareGroupStateApi, (request, _v, error) => perPartition(request, error, {})),
  errorResponse(readShareGroupStateSummaryApi, (request, _v, error) =>
    perPartition(request, error, { stateEpoch: 0, leaderEpoch: 0, startOffset: 0n, deliveryCompleteCount: 0 })),
  // DescribeShareGroupOffsetsResponse(throttle, groupIds, error): each group its error, no topics.
  errorResponse(describeShareGroupOffsetsApi, (request, _v, error) => ({
    throttleTimeMs: 0,
    groups: request.groups.map((g) => ({ groupId: g.groupId, topics: [], errorCode: error.code, errorMessage: error.message })),
  })),
  // AlterShareGroupOffsets and DeleteShareGroupOffsets: the top-level error and message, no topics.
  errorResponse(alterShareGroupOffsetsApi, (_request, _v, error) => ({ throttleTimeMs: 0, errorCode: error.code, errorMessage: error.message, responses: [] })),
  errorResponse(deleteShareGroupOffsetsApi, (_request, _v, error) => ({ throttleTimeMs: 0, errorCode: error.code, errorMessage: error.message, responses: [] })),
];
