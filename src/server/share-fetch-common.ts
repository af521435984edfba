// What ShareFetch (78) and ShareAcknowledge (79) share: the group's settings from its effective group configs,
// Kafka's member id check, the acknowledgement batches read off the wire, and ending a session (its member's
// records released, as Kafka's ShareSessionCache does on a final epoch or when the session's connection closes).
import type { ShareGroupSettings, Acknowledgement } from '../broker/share/share-partition-manager.js';
import { AcknowledgeType } from '../broker/share/share-partition.js';
import type { ShareSession } from '../broker/share/share-session-cache.js';
import { ErrorCode } from '../protocol/error-codes.js';
import type { BrokerState, RequestContext } from './handler.js';
import { AclOperation, authorize, refused, ResourceType } from './authorization.js';
import { shareGroupsEnabled } from './share-protocol.js';

export function shareGroupSettings(broker: BrokerState, groupId: string): ShareGroupSettings {
  const values = broker.groups.groupConfig(groupId);
  return {
    lockDurationMs: values['share.record.lock.duration.ms'] as number,
    deliveryCountLimit: values['share.delivery.count.limit'] as number,
    maxInFlightRecords: values['share.partition.max.record.locks'] as number,
    renewAcknowledgeEnabled: values['share.renew.acknowledge.enable'] as boolean,
    autoOffsetReset: values['share.auto.offset.reset'] as string,
    isolationLevel: values['share.isolation.level'] as ShareGroupSettings['isolationLevel'],
  };
}

/**
 * What KafkaApis answers before a share session is looked at, in its order: UNSUPPORTED_VERSION while share.version is
 * 0, INVALID_REQUEST for no group id, GROUP_AUTHORIZATION_FAILED (thrown: the whole request refused) without READ on
 * the group, and INVALID_REQUEST for a member id that isMemberIdValid refuses (absent, empty, or over 36 characters).
 */
export function shareRequestRefusal(ctx: RequestContext, groupId: string | null, memberId: string | null): { errorCode: number } | undefined {
  if (!shareGroupsEnabled(ctx.broker)) return { errorCode: ErrorCode.UNSUPPORTED_VERSION };
  if (groupId === null) return { errorCode: ErrorCode.INVALID_REQUEST };
  if (!authorize(ctx, AclOperation.READ, ResourceType.GROUP, groupId)) throw refused('GROUP_AUTHORIZATION_FAILED');
  // Kafka builds this error with a message ('Invalid member id in the request.') that its response leaves out.
  if (memberId === null || memberId.length === 0 || memberId.length > 36) return { errorCode: ErrorCode.INVALID_REQUEST };
  return undefined;
}

/**
 * KafkaApis' validateAcknowledgementBatches for one partition's batches, in order: a batch whose first offset is
 * past its last, that starts before the previous batch's last offset, with no types, with several types not one
 * per offset, with a type past REJECT (RENEW from v2 on), or with RENEW in a request not marked is_renew_ack, makes
 * the whole partition INVALID_REQUEST (nothing of it acknowledged). Undefined when they pass.
 */
export function invalidAcknowledgements(batches: readonly { firstOffset: bigint; lastOffset: bigint; acknowledgeTypes: number[] }[], version: number, isRenewAck: boolean): number | undefined {
  const maxType = version >= 2 ? AcknowledgeType.RENEW : AcknowledgeType.REJECT;
  let previousLast = -1n;
  for (const b of batches) {
    const types = b.acknowledgeTypes;
    if (b.firstOffset > b.lastOffset || b.firstOffset < previousLast || types.length === 0) return ErrorCode.INVALID_REQUEST;
    if (types.length > 1 && b.lastOffset - b.firstOffset !== BigInt(types.length - 1)) return ErrorCode.INVALID_REQUEST;
    if (types.some((t) => t < 0 || t > maxType)) return ErrorCode.INVALID_REQUEST;
    if (!isRenewAck && types.includes(AcknowledgeType.RENEW)) return ErrorCode.INVALID_REQUEST;
    previousLast = b.lastOffset;
  }
  return undefined;
}

export function acknowledgementsOf(batches: readonly { firstOffset: bigint; lastOffset: bigint; acknowledgeTypes: number[] }[]): Acknowledgement[] {
  return batches.map((b) => ({ firstOffset: Number(b.firstOffset), lastOffset: Number(b.lastOffset), types: b.acknowledgeTypes }));
}

/** The topics of `topicIds` the client may not READ (their partitions answered TOPIC_AUTHORIZATION_FAILED). */
export function unreadableTopics(ctx: RequestContext, topicIds: Iterable<string>): Set<string> {
  const unreadable = new Set<string>();
  for (const topicId of new Set(topicIds)) {
    const topic = ctx.broker.store.topicById(topicId);
    if (topic !== undefined && !authorize(ctx, AclOperation.READ, ResourceType.TOPIC, topic.name)) unreadable.add(topicId);
  }
  return unreadable;
}

/** The session ends: removed from the cache, and what its member holds on its partitions released. */
export async function endShareSession(broker: BrokerState, session: ShareSession): Promise<void> {
  const shares = broker.replicaManager.sharePartitions;
  shares.sessions.remove(session);
  await shares.releaseSession(session.groupId, session.memberId, session.partitions.values(), shareGroupSettings(broker, session.groupId));
}

/** The ShareFetch each connection has in flight (one at most: ShareFetch is served one at a time per connection). */
const fetchesInFlight = new WeakMap<AbortSignal, Promise<unknown>>();

/**
 * Runs a connection's ShareFetch. A close does not cut it short: as in Kafka, whose socket server mutes a channel
 * while its request is handled and so notices the close only once the response is sent, the fetch runs to its end
 * (max_wait_ms, or records) and the session is released after it. Releasing first would let the dead member's
 * fetch acquire the released records again, to be delivered once more only when that lock expires.
 */
export function trackShareFetch<T>(closed: AbortSignal, fetch: Promise<T>): Promise<T> {
  fetchesInFlight.set(closed, fetch);
  const forget = () => {
    if (fetchesInFlight.get(closed) === fetch) fetchesInFlight.delete(closed);
  };
  fetch.then(forget, forget);
  return fetch;
}

/** A session's records go back when its connection closes (Kafka's ConnectionDisconnectListener), after its fetch in flight. */
export function endShareSessionOnClose(broker: BrokerState, closed: AbortSignal, session: ShareSession): void {
  const end = async () => {
    await fetchesInFlight.get(closed)?.catch(() => {});
    if (broker.replicaManager.sharePartitions.sessions.get(session.groupId, session.memberId) === session) await endShareSession(broker, session);
  };
  // A share partition whose start could not be read has nothing to release.
  const endQuietly = () => void end().catch(() => {});
  if (closed.aborted) endQuietly();
  else closed.addEventListener('abort', endQuietly, { once: true });
}
