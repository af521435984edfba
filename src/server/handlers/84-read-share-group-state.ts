/**
 * ReadShareGroupState (key 84), v0, Kafka 4.3.1's range: a share-partition leader reads a share partition's state
 * (state epoch, start offset, state batches) from the share coordinator (KIP-932). CLUSTER_ACTION on the cluster.
 * Per partition, as Kafka's ShareCoordinatorShard: INVALID_REQUEST for a zero topic id, a negative partition or a
 * partition never initialized, FENCED_LEADER_EPOCH below the recorded leader epoch, UNKNOWN_TOPIC_OR_PARTITION; a
 * read at a newer leader epoch records it (a ShareSnapshot).
 */
import {
  readShareGroupStateApi,
  type ReadShareGroupStateRequest,
  type ReadShareGroupStateResponse,
} from '../../protocol/generated/read-share-group-state.js';
import { defineHandler, type Handler } from '../handler.js';
import { notLoaded, perSharePartition, stateBatchesOut } from '../share-state-requests.js';

export const readShareGroupStateHandler: Handler = defineHandler<ReadShareGroupStateRequest, ReadShareGroupStateResponse>({
  api: readShareGroupStateApi,
  minVersion: 0,
  maxVersion: 0,

  async handle(ctx, request) {
    const shareState = ctx.broker.shareState;
    const results = await perSharePartition(request.groupId, request.topics, (key, p) => shareState.read(key, p.leaderEpoch),
      notLoaded(shareState, 'read share group state', { stateEpoch: 0, startOffset: 0, stateBatches: [] }));
    return {
      results: results.map((t) => ({
        topicId: t.topicId,
        partitions: t.partitions.map(({ partition, answer }) => ({
          partition,
          errorCode: answer.errorCode,
          errorMessage: answer.errorMessage,
          stateEpoch: answer.stateEpoch,
          startOffset: BigInt(answer.startOffset),
          stateBatches: stateBatchesOut(answer.stateBatches),
        })),
      })),
    };
  },
});
