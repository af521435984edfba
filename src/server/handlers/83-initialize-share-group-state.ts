/**
 * InitializeShareGroupState (key 83), v0, Kafka 4.3.1's range: the group coordinator's call to the share coordinator
 * (KIP-932) that starts a share partition's state at a state epoch and start offset (-1: share.auto.offset.reset
 * decides at the first fetch). CLUSTER_ACTION on the cluster (the router checks it). Per partition, as Kafka's
 * ShareCoordinatorShard: INVALID_REQUEST for a zero topic id or a negative partition, FENCED_STATE_EPOCH below the
 * recorded state epoch, UNKNOWN_TOPIC_OR_PARTITION; an empty topic or partition list or group id answers no results.
 */
import {
  initializeShareGroupStateApi,
  type InitializeShareGroupStateRequest,
  type InitializeShareGroupStateResponse,
} from '../../protocol/generated/initialize-share-group-state.js';
import { defineHandler, type Handler } from '../handler.js';
import { notLoaded, perSharePartition } from '../share-state-requests.js';

export const initializeShareGroupStateHandler: Handler = defineHandler<InitializeShareGroupStateRequest, InitializeShareGroupStateResponse>({
  api: initializeShareGroupStateApi,
  minVersion: 0,
  maxVersion: 0,

  async handle(ctx, request) {
    const shareState = ctx.broker.shareState;
    const results = await perSharePartition(request.groupId, request.topics, (key, p) => shareState.initialize(key, p.stateEpoch, Number(p.startOffset)), notLoaded(shareState, 'initialize share group state', {}));
    return { results: results.map((t) => ({ topicId: t.topicId, partitions: t.partitions.map(({ partition, answer }) => ({ partition, ...answer })) })) };
  },
});
