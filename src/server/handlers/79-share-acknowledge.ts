/**
 * ShareAcknowledge (key 79), v1–v2, Kafka 4.3.1's range: a share group member acknowledges records it acquired
 * (ACCEPT, RELEASE, REJECT, or a gap) without fetching (KIP-932). share.version 0 → UNSUPPORTED_VERSION; an invalid
 * member id → INVALID_REQUEST; the session's epoch as Kafka's acknowledgeSessionUpdate checks it (0:
 * INVALID_SHARE_SESSION_EPOCH, none: SHARE_SESSION_NOT_FOUND, another epoch: INVALID_SHARE_SESSION_EPOCH; -1 closes
 * the session after the acknowledgements, releasing what the member still holds). Each partition answers its
 * acknowledgements' error (INVALID_REQUEST for batches KafkaApis' validateAcknowledgementBatches refuses,
 * INVALID_RECORD_STATE for an offset not acquired by the member). v2 answers the group's lock duration and takes
 * RENEW acknowledgements (KIP-1222) in a request marked is_renew_ack: the records' locks restart.
 */
import { ErrorCode } from '../../protocol/error-codes.js';
import { KafkaError } from '../../protocol/kafka-error.js';
import {
  createPartitionData,
  createShareAcknowledgeResponse,
  shareAcknowledgeApi,
  type ShareAcknowledgeRequest,
  type ShareAcknowledgeResponse,
} from '../../protocol/generated/share-acknowledge.js';
import { acknowledgementsOf, endShareSession, invalidAcknowledgements, shareRequestRefusal, shareGroupSettings, unreadableTopics } from '../share-fetch-common.js';
import { defineHandler, type Handler } from '../handler.js';

export const shareAcknowledgeHandler: Handler = defineHandler<ShareAcknowledgeRequest, ShareAcknowledgeResponse>({
  api: shareAcknowledgeApi,
  minVersion: 1,
  maxVersion: 2,

  async handle(ctx, request) {
    const refused = shareRequestRefusal(ctx, request.groupId, request.memberId);
    if (refused !== undefined) return { ...createShareAcknowledgeResponse(), ...refused };
    const memberId = request.memberId!;
    const groupId = request.groupId ?? '';
    const shares = ctx.broker.replicaManager.sharePartitions;
    let context;
    try {
      context = shares.sessions.acknowledgeContext(groupId, memberId, request.shareSessionEpoch);
    } catch (error) {
      if (error instanceof KafkaError) return { ...createShareAcknowledgeResponse(), errorCode: error.errorCode };
      throw error;
    }
    const settings = shareGroupSettings(ctx.broker, groupId);
    const response = { ...createShareAcknowledgeResponse(), acquisitionLockTimeoutMs: settings.lockDurationMs };
    // A topic the client may not READ: its partitions answered TOPIC_AUTHORIZATION_FAILED, nothing acknowledged.
    const unreadable = unreadableTopics(ctx, request.topics.map((t) => t.topicId));
    for (const topic of request.topics) {
      const answered = { topicId: topic.topicId, partitions: [] as ReturnType<typeof createPartitionData>[] };
      for (const p of topic.partitions) {
        const ref = { topicId: topic.topicId, partition: p.partitionIndex };
        const errorCode = invalidAcknowledgements(p.acknowledgementBatches, ctx.header.apiVersion, request.isRenewAck)
          ?? (unreadable.has(topic.topicId) ? ErrorCode.TOPIC_AUTHORIZATION_FAILED
            : await shares.acknowledge(groupId, memberId, ref, acknowledgementsOf(p.acknowledgementBatches), settings));
        answered.partitions.push({ ...createPartitionData(), partitionIndex: p.partitionIndex, errorCode });
      }
      response.responses.push(answered);
    }
    if (context.kind === 'final') await endShareSession(ctx.broker, context.session);
    return response;
  },
});
