/**
 * DeleteShareGroupOffsets (key 92), v0, Kafka 4.3.1's range: drops an empty share group's share state for the topics
 * named (the share coordinator's DeleteShareGroupState), which leave the group's share partitions; the next member
 * starts them over from share.auto.offset.reset. DELETE on the group (else GROUP_AUTHORIZATION_FAILED at the top)
 * and READ on each topic (else TOPIC_AUTHORIZATION_FAILED on it). Top level: GROUP_ID_NOT_FOUND (no share group),
 * NON_EMPTY_GROUP; per topic: UNKNOWN_TOPIC_OR_PARTITION for an unknown topic, or with "There is no offset
 * information to delete." for one the group never started. While share.version is 0: UNSUPPORTED_VERSION.
 */
import { ErrorCode, errorInfo } from '../../protocol/error-codes.js';
import {
  deleteShareGroupOffsetsApi,
  type DeleteShareGroupOffsetsRequest,
  type DeleteShareGroupOffsetsResponse,
} from '../../protocol/generated/delete-share-group-offsets.js';
import { ZERO_UUID } from '../../protocol/uuid.js';
import { AclOperation, authorize, ResourceType } from '../authorization.js';
import { defineHandler, type Handler } from '../handler.js';
import { shareGroupsEnabled } from '../share-protocol.js';

const failed = (code: number): DeleteShareGroupOffsetsResponse => ({ throttleTimeMs: 0, errorCode: code, errorMessage: errorInfo(code).message, responses: [] });

export const deleteShareGroupOffsetsHandler: Handler = defineHandler<DeleteShareGroupOffsetsRequest, DeleteShareGroupOffsetsResponse>({
  api: deleteShareGroupOffsetsApi,
  minVersion: 0,
  maxVersion: 0,

  async handle(ctx, request) {
    if (!shareGroupsEnabled(ctx.broker)) return failed(ErrorCode.UNSUPPORTED_VERSION);
    if (!authorize(ctx, AclOperation.DELETE, ResourceType.GROUP, request.groupId)) return failed(ErrorCode.GROUP_AUTHORIZATION_FAILED);
    const names = request.topics.map((t) => t.topicName);
    const readable = names.filter((name) => authorize(ctx, AclOperation.READ, ResourceType.TOPIC, name));
    const result = await ctx.broker.groups.deleteShareGroupOffsets(request.groupId, readable);
    if (result.errorCode !== ErrorCode.NONE) return failed(result.errorCode);
    const refused = names.filter((name) => !readable.includes(name)).map((topicName) => ({
      topicName, topicId: ZERO_UUID, errorCode: ErrorCode.TOPIC_AUTHORIZATION_FAILED, errorMessage: errorInfo(ErrorCode.TOPIC_AUTHORIZATION_FAILED).message,
    }));
    const answered = result.topics.map((t) => ({
      topicName: t.name,
      topicId: t.id ?? ZERO_UUID,
      errorCode: t.errorCode,
      errorMessage: t.errorCode === ErrorCode.NONE ? null : t.errorMessage ?? errorInfo(t.errorCode).message,
    }));
    // The share-partition leader lets the deleted share partitions go: the next fetch reads them again.
    const deleted = new Set(result.topics.filter((t) => t.errorCode === ErrorCode.NONE && t.id !== null).map((t) => t.id!));
    if (deleted.size > 0) ctx.broker.replicaManager.sharePartitions.forgetGroup(request.groupId, deleted);
    return { throttleTimeMs: 0, errorCode: ErrorCode.NONE, errorMessage: null, responses: [...answered, ...refused] };
  },
});
