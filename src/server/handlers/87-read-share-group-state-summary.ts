/**
 * ReadShareGroupStateSummary (key 87), v0–v1, Kafka 4.3.1's range: a share partition's start offset and epochs
 * without its batches (what DescribeShareGroupOffsets reads, KIP-932). CLUSTER_ACTION on the cluster. Per
 * partition: INVALID_REQUEST for a zero topic id or a negative partition, UNKNOWN_TOPIC_OR_PARTITION; a partition
 * never initialized answers start offset -1.
 * - v1: delivery_complete_count (records past the start offset acknowledged or archived; -1 unknown).
 */
import {
  readShareGroupStateSummaryApi,
  type ReadShareGroupStateSummaryRequest,
  type ReadShareGroupStateSummaryResponse,
} from '../../protocol/generated/read-share-group-state-summary.js';
import { defineHandler, type Handler } from '../handler.js';
import { notLoaded, perSharePartition } from '../share-state-requests.js';

export const readShareGroupStateSummaryHandler: Handler = defineHandler<ReadShareGroupStateSummaryRequest, ReadShareGroupStateSummaryResponse>({
  api: readShareGroupStateSummaryApi,
  minVersion: 0,
  maxVersion: 1,

  async handle(ctx, request) {
    const shareState = ctx.broker.shareState;
    const results = await perSharePartition(request.groupId, request.topics, async (key) => shareState.summary(key),
      notLoaded(shareState, 'read share group state summary', { stateEpoch: 0, leaderEpoch: 0, startOffset: 0, deliveryCompleteCount: 0 }));
    return {
      results: results.map((t) => ({
        topicId: t.topicId,
        partitions: t.partitions.map(({ partition, answer }) => ({ partition, ...answer, startOffset: BigInt(answer.startOffset) })),
      })),
    };
  },
});
