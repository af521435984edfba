/**
 * ShareFetch (key 78), v1–v2, Kafka 4.3.1's range: a share group member's fetch (KIP-932), served by the
 * share-partition leader (src/broker/share/). In order, as Kafka's KafkaApis.handleShareFetchRequest:
 * share.version 0 → UNSUPPORTED_VERSION; an empty or longer than 36 characters member id → INVALID_REQUEST; the
 * share session from its epoch (0 opens, -1 closes, any other must match: SHARE_SESSION_NOT_FOUND,
 * INVALID_SHARE_SESSION_EPOCH, INVALID_REQUEST for acknowledgements in an opening request, all top-level); the
 * piggybacked acknowledgements (acknowledge_error_code per partition); then, unless the session closes, records
 * acquired for the member with a lock of the group's share.record.lock.duration.ms, waiting up to max_wait_ms for
 * min_bytes, at most max_records. An opening request answers every partition of its session, a later one only
 * those with records, an error or acknowledgements. A closing request releases the member's acquired records, as
 * does the connection closing (after a fetch it has in flight ends, as in Kafka). Acknowledgement batches KafkaApis'
 * validateAcknowledgementBatches refuses make their partition's acknowledge_error_code INVALID_REQUEST. v2's
 * is_renew_ack (KIP-1222): RENEW acknowledgements restart their records' locks and nothing is fetched (max_bytes,
 * min_bytes, max_records and max_wait_ms must be 0, else INVALID_REQUEST). v2's
 * share_acquire_mode: 0 batch_optimized (whole log batches; batch_size cuts new records' in-flight batches, one
 * acquired range each), 1 record_limit (exactly max_records; share-partition.ts). A fault rule's error for some
 * partitions (ctx.faultedPartition) leaves them out before acquisition and acknowledgement and answers them the error.
 */
import { ErrorCode } from '../../protocol/error-codes.js';
import { KafkaError } from '../../protocol/kafka-error.js';
import {
  createPartitionData,
  createShareFetchResponse,
  shareFetchApi,
  type ShareFetchRequest,
  type ShareFetchResponse,
  type ShareFetchableTopicResponse,
} from '../../protocol/generated/share-fetch.js';
import { partitionKey, type SharePartitionRef } from '../../broker/share/share-session-cache.js';
import type { ShareFetchRead } from '../../broker/share/share-partition-manager.js';
import { acknowledgementsOf, endShareSession, endShareSessionOnClose, invalidAcknowledgements, shareRequestRefusal, shareGroupSettings, trackShareFetch, unreadableTopics } from '../share-fetch-common.js';
import { defineHandler, type Handler } from '../handler.js';

export const shareFetchHandler: Handler = defineHandler<ShareFetchRequest, ShareFetchResponse>({
  api: shareFetchApi,
  minVersion: 1,
  maxVersion: 2,
  oneAtATime: true,

  async handle(ctx, request) {
    const refused = shareRequestRefusal(ctx, request.groupId, request.memberId);
    if (refused !== undefined) return { ...createShareFetchResponse(), ...refused };
    const memberId = request.memberId!;
    const groupId = request.groupId ?? '';
    // v2's is_renew_ack: a request that only acknowledges (renewing locks), whose fetch fields must all be 0.
    const renewOnly = ctx.header.apiVersion >= 2 && request.isRenewAck;
    // Kafka logs which of them were set; its error response carries no message.
    if (renewOnly && (request.maxBytes !== 0 || request.minBytes !== 0 || request.maxRecords !== 0 || request.maxWaitMs !== 0)) {
      return { ...createShareFetchResponse(), errorCode: ErrorCode.INVALID_REQUEST };
    }
    const shares = ctx.broker.replicaManager.sharePartitions;
    const requested: SharePartitionRef[] = request.topics.flatMap((t) => t.partitions.map((p) => ({ topicId: t.topicId, partition: p.partitionIndex })));
    const forgotten: SharePartitionRef[] = request.forgottenTopicsData.flatMap((t) => t.partitions.map((partition) => ({ topicId: t.topicId, partition })));
    const hasAcks = request.topics.some((t) => t.partitions.some((p) => p.acknowledgementBatches.length > 0));
    let context;
    try {
      context = shares.sessions.fetchContext(groupId, memberId, request.shareSessionEpoch, requested, forgotten, hasAcks);
    } catch (error) {
      if (error instanceof KafkaError) return { ...createShareFetchResponse(), errorCode: error.errorCode };
      throw error;
    }
    if (context.kind === 'full') endShareSessionOnClose(ctx.broker, ctx.connection.closed, context.session);
    const settings = shareGroupSettings(ctx.broker, groupId);

    const response = { ...createShareFetchResponse(), acquisitionLockTimeoutMs: settings.lockDurationMs };
    // The piggybacked acknowledgements complete after the first acquisition: in Kafka they wait on the share
    // state's write, so a record this request releases is not acquired again by it.
    const ackCodes = new Map<string, number>();
    // A topic the client may not READ: its partitions answered TOPIC_AUTHORIZATION_FAILED, not read, not acknowledged.
    const unreadable = unreadableTopics(ctx, [...requested, ...(context.kind === 'final' ? [] : context.session.partitions.values())].map((ref) => ref.topicId));
    // A fault rule naming partitions (faults/partition-errors.ts): they are left out here, before anything is
    // acquired or acknowledged on them, and answer its error as from a broker that no longer leads them.
    const faulted = (ref: SharePartitionRef) => ctx.faultedPartition?.(ref.topicId, ref.partition);
    const acknowledge = async () => {
      for (const topic of request.topics) {
        for (const p of topic.partitions) {
          if (p.acknowledgementBatches.length === 0) continue;
          const ref = { topicId: topic.topicId, partition: p.partitionIndex };
          ackCodes.set(partitionKey(ref), invalidAcknowledgements(p.acknowledgementBatches, ctx.header.apiVersion, request.isRenewAck)
            ?? faulted(ref)?.code
            ?? (unreadable.has(topic.topicId) ? ErrorCode.TOPIC_AUTHORIZATION_FAILED
              : await shares.acknowledge(groupId, memberId, ref, acknowledgementsOf(p.acknowledgementBatches), settings)));
        }
      }
    };
    let reads: ShareFetchRead[] = [];
    let answered: readonly SharePartitionRef[];
    if (context.kind === 'final' || renewOnly) {
      await acknowledge();
      answered = requested;
    } else {
      const refs = [...context.session.partitions.values()];
      // A share partition the group has not initialized fails its state read in Kafka: UNKNOWN_SERVER_ERROR.
      const readable = refs.filter((ref) => !unreadable.has(ref.topicId) && faulted(ref) === undefined);
      const initialized = readable.filter((ref) => ctx.broker.groups.isSharePartitionInitialized(groupId, ref.topicId, ref.partition));
      reads = refs.filter((ref) => unreadable.has(ref.topicId)).map((ref) => ({ ref, errorCode: ErrorCode.TOPIC_AUTHORIZATION_FAILED, records: [], acquired: [] }));
      for (const ref of refs) {
        const fault = unreadable.has(ref.topicId) ? undefined : faulted(ref);
        if (fault !== undefined) reads.push({ ref, errorCode: fault.code, records: [], acquired: [] });
      }
      reads.push(...readable.filter((ref) => !initialized.includes(ref)).map((ref) => ({ ref, errorCode: ErrorCode.UNKNOWN_SERVER_ERROR, records: [], acquired: [] })));
      // A faulted partition's error is answered at once, as a partition error ends Fetch's long poll.
      const anyFaulted = refs.some((ref) => faulted(ref) !== undefined);
      reads.push(...(await trackShareFetch(ctx.connection.closed, shares.fetch(groupId, memberId, initialized, {
        maxWaitMs: anyFaulted ? 0 : request.maxWaitMs,
        minBytes: request.minBytes,
        maxBytes: request.maxBytes,
        maxRecords: request.maxRecords > 0 ? request.maxRecords : Number.MAX_SAFE_INTEGER,
        batchSize: request.batchSize,
        recordLimit: request.shareAcquireMode === SHARE_ACQUIRE_MODE_RECORD_LIMIT,
      }, settings, acknowledge))));
      answered = refs;
    }
    if (context.kind === 'final') await endShareSession(ctx.broker, context.session);
    const readOf = new Map(reads.map((r) => [partitionKey(r.ref), r]));
    let current: ShareFetchableTopicResponse | undefined;
    for (const ref of answered) {
      const key = partitionKey(ref);
      const read = readOf.get(key);
      const ackCode = ackCodes.get(key);
      const hasData = read !== undefined && (read.records.length > 0 || read.errorCode !== ErrorCode.NONE);
      if (context.kind === 'incremental' && !hasData && ackCode === undefined) continue;
      if ((context.kind === 'final' || renewOnly) && ackCode === undefined) continue;
      if (current === undefined || current.topicId !== ref.topicId) {
        current = { topicId: ref.topicId, partitions: [] };
        response.responses.push(current);
      }
      current.partitions.push({
        ...createPartitionData(),
        partitionIndex: ref.partition,
        errorCode: read?.errorCode ?? ErrorCode.NONE,
        errorMessage: read !== undefined && read.errorCode !== ErrorCode.NONE ? faulted(ref)?.message ?? null : null,
        acknowledgeErrorCode: ackCode ?? ErrorCode.NONE,
        records: read === undefined || read.records.length === 0 ? NO_RECORDS : read.records,
        acquiredRecords: (read?.acquired ?? []).map((a) => ({ firstOffset: BigInt(a.firstOffset), lastOffset: BigInt(a.lastOffset), deliveryCount: a.deliveryCount })),
      });
    }
    return response;
  },
});

const NO_RECORDS = Buffer.alloc(0);
/** Kafka's ShareAcquireMode ids: 0 batch_optimized (the default), 1 record_limit. */
const SHARE_ACQUIRE_MODE_RECORD_LIMIT = 1;
