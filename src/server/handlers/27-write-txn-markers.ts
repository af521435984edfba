/**
 * WriteTxnMarkers (key 27), v1–v2 (Kafka 4.3.1: 1–2).
 *
 * Writes COMMIT or ABORT markers for a producer to the partitions named, as a partition leader does for its
 * transaction coordinator. gregor's own coordinator writes its markers in-process; this API is what
 * `kafka-transactions abort` uses to end a hanging transaction. Per partition: UNKNOWN_TOPIC_OR_PARTITION,
 * INVALID_PRODUCER_EPOCH (older than the producer's), TRANSACTION_COORDINATOR_FENCED (older coordinator epoch).
 * A marker for __consumer_offsets also applies (or drops) the producer's pending transactional offsets.
 * - v2: the marker's transaction version (KIP-1228). At 2 and up the coordinator has bumped the epoch for the
 *   marker, so the partition takes it only above the producer's epoch (a marker repeated at the same epoch after
 *   its transaction ended is written again); below 2 (and v1) an epoch not below the producer's. The control
 *   record itself is the same (EndTxnMarker version 0).
 */
import { ErrorCode } from '../../protocol/error-codes.js';
import {
  writeTxnMarkersApi,
  type WritableTxnMarkerResult,
  type WriteTxnMarkersRequest,
  type WriteTxnMarkersResponse,
} from '../../protocol/generated/write-txn-markers.js';
import { markerWriter } from '../../broker/txn-marker-writer.js';
import { defineHandler, type Handler } from '../handler.js';

export const writeTxnMarkersHandler: Handler = defineHandler<WriteTxnMarkersRequest, WriteTxnMarkersResponse>({
  api: writeTxnMarkersApi,
  minVersion: 1,
  maxVersion: 2,

  async handle(ctx, request) {
    const { store, producerStates, groups, replicaManager } = ctx.broker;
    const write = markerWriter(store, producerStates, () => groups, replicaManager.topicStats);
    // Every marker starts before the first await, so they reach each log in request order.
    const pending = request.markers.map((marker) => ({
      producerId: marker.producerId,
      topics: marker.topics.map((topic) => ({
        name: topic.name,
        partitions: topic.partitionIndexes.map((partitionIndex) => ({
          partitionIndex,
          result: write({
            topic: topic.name,
            partition: partitionIndex,
            producerId: Number(marker.producerId),
            producerEpoch: marker.producerEpoch,
            commit: marker.transactionResult,
            coordinatorEpoch: marker.coordinatorEpoch,
            transactionVersion: marker.transactionVersion, // 0 before v2
          }).catch(() => ErrorCode.UNKNOWN_SERVER_ERROR),
        })),
      })),
    }));
    const markers: WritableTxnMarkerResult[] = [];
    for (const marker of pending) {
      const topics = [];
      for (const topic of marker.topics) {
        const partitions = [];
        for (const p of topic.partitions) partitions.push({ partitionIndex: p.partitionIndex, errorCode: await p.result });
        topics.push({ name: topic.name, partitions });
      }
      markers.push({ producerId: marker.producerId, topics });
    }
    return { markers };
  },
});
