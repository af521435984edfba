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

export const shareGroupHeartbeatHandler: Handler = defineHandler<ShareGroupHeartbeatRequest, ShareGroupHeartbeatResponse>({
  api: shareGroupHeartbeatApi,
  minVersion: 1,
  maxVersion: 1,

  async handle(ctx, request, version) {
    if (!shareGroupsEnabled(ctx.broker)) return { ...createShareGroupHeartbeatResponse(), errorCode: ErrorCode.UNSUPPORTED_VERSION };
    return ctx.broker.groups.shareGroupHeartbeat(memberContextOf(ctx, version), request);
  },
});
