/**
 * WriteShareGroupState (key 85), v0–v1, Kafka 4.3.1's range: a share-partition leader writes the delivery state that
 * changed (state batches, start offset) to the share coordinator (KIP-932), which writes a ShareUpdate, or a
 * ShareSnapshot every share.coordinator.snapshot.update.records.per.snapshot updates. CLUSTER_ACTION on the cluster.
 * Per partition: INVALID_REQUEST for a zero topic id, a negative partition or a partition never initialized,
 * FENCED_LEADER_EPOCH / FENCED_STATE_EPOCH below the recorded epochs, UNKNOWN_TOPIC_OR_PARTITION.
 * - v1: delivery_complete_count (the records past the start offset already acknowledged or archived).
 */
import {
  writeShareGroupStateApi,
  type WriteShareGroupStateRequest,
  type WriteShareGroupStateResponse,
} from '../../protocol/generated/write-share-group-state.js';
import { defineHandler, type Handler } from '../handler.js';
import { notLoaded, perSharePartition } from '../share-state-requests.js';

export const writeShareGroupStateHandler: Handler = defineHandler<WriteShareGroupStateRequest, WriteShareGroupStateResponse>({
  api: writeShareGroupStateApi,
  minVersion: 0,
  maxVersion: 1,

  async handle(ctx, request) {
    const shareState = ctx.broker.shareState;
    const results = await perSharePartition(request.groupId, request.topics, (key, p) =>
      shareState.write(key, {
        stateEpoch: p.stateEpoch,
        leaderEpoch: p.leaderEpoch,
        startOffset: Number(p.startOffset),
        deliveryCompleteCount: p.deliveryCompleteCount,
        stateBatches: p.stateBatches.map((b) => ({ firstOffset: Number(b.firstOffset), lastOffset: Number(b.lastOffset), deliveryState: b.deliveryState, deliveryCount: b.deliveryCount })),
      }), notLoaded(shareState, 'write share group state', {}));
    return { results: results.map((t) => ({ topicId: t.topicId, partitions: t.partitions.map(({ partition, answer }) => ({ partition, ...answer })) })) };
  },
});
