// Which partitions one Fetch request reads, and which of them its response carries, per Kafka's FetchManager:
// sessionless (epoch -1), full with a new session (epoch 0), or incremental (epoch > 0) over a cached session.
import { ErrorCode } from '../protocol/error-codes.js';
import type { FetchRequest } from '../protocol/generated/fetch.js';
import {
  FINAL_EPOCH,
  INITIAL_EPOCH,
  INVALID_SESSION_ID,
  nextEpoch,
  partitionKey,
  type CachedPartition,
  type FetchSession,
  type FetchSessionCache,
  type PartitionRequest,
} from './fetch-session-cache.js';

/** Topic ids are used from Fetch v13. */
export const TOPIC_ID_VERSION = 13;

/** One partition to read, with what the client asked of it. */
export interface FetchTarget {
  readonly key: string;
  /** From the request (v0-12) or the session; v13+ resolves it from the id at read time. */
  readonly topic: string;
  readonly topicId: string;
  readonly partition: number;
  readonly request: PartitionRequest;
}

/** What was read for one partition, as far as the session needs to know. */
export interface ReadOutcome {
  readonly errorCode: number;
  readonly highWatermark: number;
  readonly logStartOffset: number;
  readonly bytes: number;
  readonly diverging: boolean;
}

export type FetchContext =
  | { readonly kind: 'error'; readonly errorCode: number }
  | {
      readonly kind: 'read';
      readonly targets: readonly FetchTarget[];
      /** After reading: the session id to answer with and which targets (by index) the response carries. */
      complete(outcomes: readonly ReadOutcome[]): { sessionId: number; errorCode: number; include: readonly boolean[] };
      /** Instead of completing, a throttled client's empty answer (Kafka's getThrottledResponse): no session is made or updated. */
      throttled(): { sessionId: number; errorCode: number };
    };

const sessionless = () => ({ sessionId: INVALID_SESSION_ID, errorCode: ErrorCode.NONE });

export function newFetchContext(request: FetchRequest, version: number, cache: FetchSessionCache): FetchContext {
  const usesIds = version >= TOPIC_ID_VERSION;
  const { sessionId, sessionEpoch } = request;
  const requested = requestedTargets(request, usesIds);
  if (sessionEpoch === INITIAL_EPOCH || sessionEpoch === FINAL_EPOCH) {
    if (sessionId !== INVALID_SESSION_ID) cache.remove(sessionId);
    const everything = (outcomes: readonly ReadOutcome[]) => outcomes.map(() => true);
    if (sessionEpoch === FINAL_EPOCH) {
      return { kind: 'read', targets: requested, complete: (o) => ({ sessionId: INVALID_SESSION_ID, errorCode: ErrorCode.NONE, include: everything(o) }), throttled: sessionless };
    }
    return {
      kind: 'read',
      targets: requested,
      throttled: sessionless,
      complete(outcomes) {
        const partitions = new Map<string, CachedPartition>();
        requested.forEach((t, i) => partitions.set(t.key, { ...t, highWatermark: outcomes[i]!.highWatermark, logStartOffset: outcomes[i]!.logStartOffset }));
        const session = cache.create(partitions, usesIds);
        return { sessionId: session?.id ?? INVALID_SESSION_ID, errorCode: ErrorCode.NONE, include: everything(outcomes) };
      },
    };
  }

  const session = cache.get(sessionId);
  if (session === undefined) return { kind: 'error', errorCode: ErrorCode.FETCH_SESSION_ID_NOT_FOUND };
  if (session.epoch !== sessionEpoch) return { kind: 'error', errorCode: ErrorCode.INVALID_FETCH_SESSION_EPOCH };
  if (session.usesTopicIds !== usesIds) return { kind: 'error', errorCode: ErrorCode.FETCH_SESSION_TOPIC_ID_ERROR };
  updateSession(session, requested, forgotten(request, usesIds));
  if (session.partitions.size === 0) {
    // Nothing left to fetch: Kafka closes the session and answers sessionless.
    cache.remove(session.id);
    return { kind: 'read', targets: requested, complete: (o) => ({ sessionId: INVALID_SESSION_ID, errorCode: ErrorCode.NONE, include: o.map(() => true) }), throttled: sessionless };
  }
  cache.touch(session);
  session.epoch = nextEpoch(session.epoch);
  const expected = session.epoch;
  const cached = [...session.partitions.values()];
  return {
    kind: 'read',
    targets: cached,
    throttled() {
      if (session.epoch !== expected || cache.get(session.id) !== session) return { sessionId: INVALID_SESSION_ID, errorCode: ErrorCode.INVALID_FETCH_SESSION_EPOCH };
      return { sessionId: session.id, errorCode: ErrorCode.NONE };
    },
    complete(outcomes) {
      // A duplicate request overtook this one while it waited.
      if (session.epoch !== expected || cache.get(session.id) !== session) {
        return { sessionId: session.id, errorCode: ErrorCode.INVALID_FETCH_SESSION_EPOCH, include: outcomes.map(() => false) };
      }
      const include = cached.map((partition, i) => {
        const outcome = outcomes[i]!;
        const respond = mustRespond(partition, outcome);
        if (respond && outcome.bytes > 0) session.moveToEnd(partition);
        return respond;
      });
      return { sessionId: session.id, errorCode: ErrorCode.NONE, include };
    },
  };
}

/** CachedPartition.maybeUpdateResponseData: data, a changed HW or log start, an error or a diverging epoch. */
function mustRespond(partition: CachedPartition, outcome: ReadOutcome): boolean {
  let respond = outcome.bytes > 0 || outcome.diverging;
  if (partition.highWatermark !== outcome.highWatermark) {
    respond = true;
    partition.highWatermark = outcome.highWatermark;
  }
  if (partition.logStartOffset !== outcome.logStartOffset) {
    respond = true;
    partition.logStartOffset = outcome.logStartOffset;
  }
  if (outcome.errorCode !== ErrorCode.NONE) {
    respond = true;
    partition.highWatermark = -1;
  }
  return respond;
}

function requestedTargets(request: FetchRequest, usesIds: boolean): FetchTarget[] {
  const targets: FetchTarget[] = [];
  for (const topic of request.topics) {
    for (const p of topic.partitions) {
      targets.push({
        key: partitionKey(usesIds ? topic.topicId : topic.topic, p.partition),
        topic: usesIds ? '' : topic.topic,
        topicId: topic.topicId,
        partition: p.partition,
        request: {
          fetchOffset: Number(p.fetchOffset),
          maxBytes: p.partitionMaxBytes,
          currentLeaderEpoch: p.currentLeaderEpoch,
          lastFetchedEpoch: p.lastFetchedEpoch,
        },
      });
    }
  }
  return targets;
}

function forgotten(request: FetchRequest, usesIds: boolean): string[] {
  const keys: string[] = [];
  for (const topic of request.forgottenTopicsData) {
    for (const partition of topic.partitions) keys.push(partitionKey(usesIds ? topic.topicId : topic.topic, partition));
  }
  return keys;
}

/** FetchSession.update: added or updated first, then the forgotten ones removed. */
function updateSession(session: FetchSession, requested: readonly FetchTarget[], forget: readonly string[]): void {
  for (const target of requested) {
    const cached = session.partitions.get(target.key);
    if (cached === undefined) session.partitions.set(target.key, { ...target, highWatermark: -1, logStartOffset: -1 });
    else cached.request = target.request;
  }
  for (const key of forget) session.partitions.delete(key);
}
