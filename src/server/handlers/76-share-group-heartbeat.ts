/**
 * ShareGroupHeartbeat (key 76), v1, Kafka 4.3.1's range: membership of a KIP-932 share group
 * (src/coordinator/group/share/heartbeat.ts). A member joins with epoch 0 and its subscribed topic names, heartbeats
 * with its epoch, and is told its epoch, its assignment (share partitions, which other members may share) and the
 * heartbeat interval; -1 leaves. While share.version is 0 (share-protocol.ts), every request answers
 * UNSUPPORTED_VERSION, as Kafka's KafkaApis does.
 */
import { ErrorCode } from '../../protocol/error-codes.js';
import {
  createShareGroupHeartbeatResponse,
  shareGroupHeartbeatApi,
  type ShareGroupHeartbeatRequest,
  type ShareGroupHeartbeatResponse,
} from '../../protocol/generated/share-group-heartbeat.js';
import { memberContextOf } from '../../coordinator/request-context.js';
import { shareGroupsEnabled } from '../share-protocol.js';
import { defineHandler, type Handler } from '../handler.js';
import { AclOperation, authorize, authorizedNames, refused, ResourceType } from '../authorization.js';

export const shareGroupHeartbeatHandler: Handler = defineHandler<ShareGroupHeartbeatRequest, ShareGroupHeartbeatResponse>({
  api: shareGroupHeartbeatApi,
  minVersion: 1,
  maxVersion: 1,

  async handle(ctx, request, version) {
    if (!shareGroupsEnabled(ctx.broker)) return { ...createShareGroupHeartbeatResponse(), errorCode: ErrorCode.UNSUPPORTED_VERSION };
    if (!authorize(ctx, AclOperation.READ, ResourceType.GROUP, request.groupId)) throw refused('GROUP_AUTHORIZATION_FAILED');
    // Every subscribed topic needs DESCRIBE, else the heartbeat is answered TOPIC_AUTHORIZATION_FAILED alone (as 68).
    const subscribed = request.subscribedTopicNames ?? [];
    if (subscribed.length > 0 && authorizedNames(ctx, AclOperation.DESCRIBE, ResourceType.TOPIC, subscribed).size < subscribed.length) {
      return { ...createShareGroupHeartbeatResponse(), errorCode: ErrorCode.TOPIC_AUTHORIZATION_FAILED };
    }
    return ctx.broker.groups.shareGroupHeartbeat(memberContextOf(ctx, version), request);
  },
});
