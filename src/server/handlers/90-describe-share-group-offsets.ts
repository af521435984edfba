/**
 * DescribeShareGroupOffsets (key 90), v0–v1, Kafka 4.3.1's range: per share group, the start offset of each share
 * partition as the share coordinator holds it (ReadShareGroupStateSummary), -1 for one never started. Without topics,
 * every share partition the group initialized (none for a group that does not exist); with topics, those asked,
 * whether the group exists or not (as Kafka's GroupCoordinatorService), an unknown topic answering its partitions
 * with start offset -1 and the zero topic id. DESCRIBE on the group (else GROUP_AUTHORIZATION_FAILED) and on each
 * topic (else its partitions TOPIC_AUTHORIZATION_FAILED; without topics, those not describable are left out).
 * While share.version is 0 every group answers UNSUPPORTED_VERSION.
 * - v1: lag, the high watermark less the start offset and the records past it already complete (-1 while either
 *   is unknown).
 */
import { ErrorCode, errorInfo } from '../../protocol/error-codes.js';
import {
  createDescribeShareGroupOffsetsResponsePartition,
  describeShareGroupOffsetsApi,
  type DescribeShareGroupOffsetsRequest,
  type DescribeShareGroupOffsetsRequestGroup,
  type DescribeShareGroupOffsetsResponse,
  type DescribeShareGroupOffsetsResponseGroup,
  type DescribeShareGroupOffsetsResponsePartition,
  type DescribeShareGroupOffsetsResponseTopic,
} from '../../protocol/generated/describe-share-group-offsets.js';
import { ZERO_UUID } from '../../protocol/uuid.js';
import { AclOperation, authorize, ResourceType } from '../authorization.js';
import { defineHandler, type Handler, type RequestContext } from '../handler.js';
import { shareGroupsEnabled } from '../share-protocol.js';

const errorGroup = (groupId: string, code: number): DescribeShareGroupOffsetsResponseGroup =>
  ({ groupId, topics: [], errorCode: code, errorMessage: errorInfo(code).message });

export const describeShareGroupOffsetsHandler: Handler = defineHandler<DescribeShareGroupOffsetsRequest, DescribeShareGroupOffsetsResponse>({
  api: describeShareGroupOffsetsApi,
  minVersion: 0,
  maxVersion: 1,

  async handle(ctx, request) {
    if (!shareGroupsEnabled(ctx.broker)) return { throttleTimeMs: 0, groups: request.groups.map((g) => errorGroup(g.groupId, ErrorCode.UNSUPPORTED_VERSION)) };
    const groups: DescribeShareGroupOffsetsResponseGroup[] = [];
    for (const group of request.groups) {
      if (!authorize(ctx, AclOperation.DESCRIBE, ResourceType.GROUP, group.groupId)) groups.push(errorGroup(group.groupId, ErrorCode.GROUP_AUTHORIZATION_FAILED));
      else groups.push(describeGroup(ctx, group));
    }
    return { throttleTimeMs: 0, groups };
  },
});

function describeGroup(ctx: RequestContext, group: DescribeShareGroupOffsetsRequestGroup): DescribeShareGroupOffsetsResponseGroup {
  const { store, groups, shareState } = ctx.broker;
  if (!groups.isActive || !shareState.isActive) return errorGroup(group.groupId, ErrorCode.COORDINATOR_NOT_AVAILABLE);
  const asked: { name: string; id: string | undefined; partitions: number[] }[] = group.topics === null
    ? [...groups.initializedSharePartitions(group.groupId)]
      .map(([id, partitions]) => ({ name: store.topicById(id)?.name ?? '', id, partitions }))
      .filter((t) => t.name !== '' && authorize(ctx, AclOperation.DESCRIBE, ResourceType.TOPIC, t.name))
    : group.topics.map((t) => ({ name: t.topicName, id: store.topic(t.topicName)?.topicId, partitions: t.partitions }));
  const topics: DescribeShareGroupOffsetsResponseTopic[] = asked.map((t) => {
    if (group.topics !== null && !authorize(ctx, AclOperation.DESCRIBE, ResourceType.TOPIC, t.name)) {
      return { topicName: t.name, topicId: ZERO_UUID, partitions: t.partitions.map((p) => ({ ...unknownPartition(p), errorCode: ErrorCode.TOPIC_AUTHORIZATION_FAILED, errorMessage: errorInfo(ErrorCode.TOPIC_AUTHORIZATION_FAILED).message })) };
    }
    if (t.id === undefined) return { topicName: t.name, topicId: ZERO_UUID, partitions: t.partitions.map(unknownPartition) };
    const topicId = t.id;
    return {
      topicName: t.name,
      topicId,
      partitions: t.partitions.map((partition): DescribeShareGroupOffsetsResponsePartition => {
        const summary = shareState.summary({ groupId: group.groupId, topicId, partition });
        const ok = summary.errorCode === ErrorCode.NONE;
        const log = store.log(t.name, partition);
        const lag = ok && summary.startOffset !== -1 && summary.deliveryCompleteCount !== -1 && log !== undefined
          ? BigInt(log.highWatermark - summary.startOffset - summary.deliveryCompleteCount)
          : -1n;
        return { partitionIndex: partition, startOffset: ok ? BigInt(summary.startOffset) : -1n, leaderEpoch: ok ? summary.leaderEpoch : 0, lag, errorCode: ErrorCode.NONE, errorMessage: null };
      }),
    };
  });
  return { groupId: group.groupId, topics, errorCode: ErrorCode.NONE, errorMessage: null };
}

function unknownPartition(partition: number): DescribeShareGroupOffsetsResponsePartition {
  return { ...createDescribeShareGroupOffsetsResponsePartition(), partitionIndex: partition, startOffset: -1n };
}
