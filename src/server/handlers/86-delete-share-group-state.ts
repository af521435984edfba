/**
 * DeleteShareGroupState (key 86), v0, Kafka 4.3.1's range: drops a share partition's state (a ShareSnapshot
 * tombstone), as the group coordinator asks when a share group or its offsets are deleted (KIP-932). CLUSTER_ACTION
 * on the cluster. Per partition: INVALID_REQUEST for a zero topic id or a negative partition,
 * UNKNOWN_TOPIC_OR_PARTITION; a partition without state answers success.
 */
import {
  deleteShareGroupStateApi,
  type DeleteShareGroupStateRequest,
  type DeleteShareGroupStateResponse,
} from '../../protocol/generated/delete-share-group-state.js';
import { defineHandler, type Handler } from '../handler.js';
import { notLoaded, perSharePartition } from '../share-state-requests.js';

export const deleteShareGroupStateHandler: Handler = defineHandler<DeleteShareGroupStateRequest, DeleteShareGroupStateResponse>({
  api: deleteShareGroupStateApi,
  minVersion: 0,
  maxVersion: 0,

  async handle(ctx, request) {
    const shareState = ctx.broker.shareState;
    const results = await perSharePartition(request.groupId, request.topics, (key) => shareState.delete(key), notLoaded(shareState, 'delete share group state', {}));
    return { results: results.map((t) => ({ topicId: t.topicId, partitions: t.partitions.map(({ partition, answer }) => ({ partition, ...answer })) })) };
  },
});
