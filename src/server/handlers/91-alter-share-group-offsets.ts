/**
 * AlterShareGroupOffsets (key 91), v0, Kafka 4.3.1's range: sets an empty share group's start offsets (made if absent;
 * what kafka-share-groups --reset-offsets --execute sends): the share coordinator's state of each partition starts
 * over at the offset given, at the group epoch, and the share-partition leader reads it again. READ on the group (else
 * GROUP_AUTHORIZATION_FAILED at the top) and on each topic (else TOPIC_AUTHORIZATION_FAILED on its partitions). Top
 * level: NON_EMPTY_GROUP, GROUP_ID_NOT_FOUND (a group of another type); per partition UNKNOWN_TOPIC_OR_PARTITION.
 * While share.version is 0: UNSUPPORTED_VERSION.
 */
import { ErrorCode, errorInfo } from '../../protocol/error-codes.js';
import {
  alterShareGroupOffsetsApi,
  type AlterShareGroupOffsetsRequest,
  type AlterShareGroupOffsetsResponse,
} from '../../protocol/generated/alter-share-group-offsets.js';
import { ZERO_UUID } from '../../protocol/uuid.js';
import { AclOperation, authorize, ResourceType } from '../authorization.js';
import { defineHandler, type Handler } from '../handler.js';
import { shareGroupsEnabled } from '../share-protocol.js';

const failed = (code: number): AlterShareGroupOffsetsResponse => ({ throttleTimeMs: 0, errorCode: code, errorMessage: errorInfo(code).message, responses: [] });

export const alterShareGroupOffsetsHandler: Handler = defineHandler<AlterShareGroupOffsetsRequest, AlterShareGroupOffsetsResponse>({
  api: alterShareGroupOffsetsApi,
  minVersion: 0,
  maxVersion: 0,

  async handle(ctx, request) {
    if (!shareGroupsEnabled(ctx.broker)) return failed(ErrorCode.UNSUPPORTED_VERSION);
    if (!authorize(ctx, AclOperation.READ, ResourceType.GROUP, request.groupId)) return failed(ErrorCode.GROUP_AUTHORIZATION_FAILED);
    const readable = request.topics.filter((t) => authorize(ctx, AclOperation.READ, ResourceType.TOPIC, t.topicName));
    const result = await ctx.broker.groups.alterShareGroupOffsets(request.groupId, readable);
    if (result.errorCode !== ErrorCode.NONE) return failed(result.errorCode);
    const refused = request.topics.filter((t) => !readable.includes(t)).map((t) => ({
      topicName: t.topicName,
      topicId: ZERO_UUID,
      partitions: t.partitions.map((p) => ({ partitionIndex: p.partitionIndex, errorCode: ErrorCode.TOPIC_AUTHORIZATION_FAILED, errorMessage: errorInfo(ErrorCode.TOPIC_AUTHORIZATION_FAILED).message })),
    }));
    // The share-partition leader reads the altered share partitions again on the next fetch.
    const altered = new Set(result.responses.flatMap((t) => (t.topicId === null ? [] : [t.topicId])));
    if (altered.size > 0) ctx.broker.replicaManager.sharePartitions.forgetGroup(request.groupId, altered);
    return {
      throttleTimeMs: 0,
      errorCode: ErrorCode.NONE,
      errorMessage: null,
      responses: [...result.responses.map((t) => ({ ...t, topicId: t.topicId ?? ZERO_UUID })), ...refused],
    };
  },
});
