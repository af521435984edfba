/**
 * DescribeQuorum (key 55), v0–v2 (Kafka 4.3.1: 0–2).
 *
 * gregor is one combined node with kraft.version 0, as a Kafka node formatted with a static
 * controller.quorum.voters: the metadata partition's leader and only voter is itself, with no observers.
 * - The partition must be asked for alone (__cluster_metadata-0, Kafka's RaftUtil.hasValidTopicPartition); else every
 *   partition asked for gets UNKNOWN_TOPIC_OR_PARTITION with its message.
 * - The voter's directory id is the zero uuid (kraft.version 0 records none); its fetch and caught-up times are now,
 *   as a leader reports itself.
 * - gregor has no metadata log: the high watermark and the voter's log end offset are the finalized features'
 *   epoch (in Kafka the feature epoch is a metadata offset at or below them), and the leader epoch is 1, a
 *   formatted node's first election.
 * - v2: the voter's endpoint is the node's first advertised listener (a Kafka node lists its controller listener;
 *   gregor answers every API on its listeners).
 */
import { ErrorCode, errorInfo } from '../../protocol/error-codes.js';
import {
  describeQuorumApi,
  type DescribeQuorumRequest,
  type DescribeQuorumResponse,
} from '../../protocol/generated/describe-quorum.js';
import { ZERO_UUID } from '../../protocol/uuid.js';
import { defineHandler, type Handler } from '../handler.js';

export const METADATA_TOPIC = '__cluster_metadata';
const LEADER_EPOCH = 1;

export const describeQuorumHandler: Handler = defineHandler<DescribeQuorumRequest, DescribeQuorumResponse>({
  api: describeQuorumApi,
  minVersion: 0,
  maxVersion: 2,

  handle(ctx, request, version) {
    const { broker } = ctx;
    const response: DescribeQuorumResponse = { errorCode: ErrorCode.NONE, errorMessage: '', topics: [], nodes: [] };
    const [topic] = request.topics;
    const valid = request.topics.length === 1 && topic!.topicName === METADATA_TOPIC &&
      topic!.partitions.length === 1 && topic!.partitions[0]!.partitionIndex === 0;
    if (!valid) {
      const code = ErrorCode.UNKNOWN_TOPIC_OR_PARTITION;
      response.topics = request.topics.map((t) => ({
        topicName: t.topicName,
        partitions: t.partitions.map((p) => ({
          partitionIndex: p.partitionIndex, errorCode: code, errorMessage: errorInfo(code).message,
          leaderId: 0, leaderEpoch: 0, highWatermark: 0n, currentVoters: [], observers: [],
        })),
      }));
      return response;
    }
    const offset = broker.features.epoch;
    const now = BigInt(broker.clock.now());
    response.topics = [{
      topicName: METADATA_TOPIC,
      partitions: [{
        partitionIndex: 0, errorCode: ErrorCode.NONE, errorMessage: '', leaderId: broker.nodeId, leaderEpoch: LEADER_EPOCH,
        highWatermark: offset,
        currentVoters: [{ replicaId: broker.nodeId, replicaDirectoryId: ZERO_UUID, logEndOffset: offset, lastFetchTimestamp: now, lastCaughtUpTimestamp: now }],
        observers: [],
      }],
    }];
    if (version >= 2) {
      const [listener] = broker.advertised;
      if (listener !== undefined) {
        const [name, endpoint] = listener;
        response.nodes = [{ nodeId: broker.nodeId, listeners: [{ name, host: endpoint.host, port: endpoint.port }] }];
      }
    }
    return response;
  },
});
