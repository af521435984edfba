// Share sessions (KIP-932), as Kafka 4.3.1's ShareSessionCache and SharePartitionManager.newContext keep them:
// one per (group, member), holding the partitions the member fetches and the epoch its next request must carry.
// Epoch 0 opens a session (replacing the member's old one; acknowledgements in it are INVALID_REQUEST), -1 closes
// it (FinalContext), any other epoch must equal the session's (INVALID_SHARE_SESSION_EPOCH; none:
// SHARE_SESSION_NOT_FOUND) and moves it on, wrapping from Integer.MAX_VALUE to 1. At most
// group.share.max.share.sessions sessions (SHARE_SESSION_LIMIT_REACHED).
import { KafkaError } from '../../protocol/kafka-error.js';

export const INITIAL_EPOCH = 0;
export const FINAL_EPOCH = -1;

export interface SharePartitionRef {
  readonly topicId: string;
  readonly partition: number;
}

export interface ShareSession {
  readonly groupId: string;
  readonly memberId: string;
  epoch: number;
  /** The partitions fetched, in the order they joined the session. */
  readonly partitions: Map<string, SharePartitionRef>;
}

/** What a request does to its session: a new or updated one, or the final request that ends it. */
export type ShareSessionContext =
  | { readonly kind: 'full' | 'incremental'; readonly session: ShareSession }
  | { readonly kind: 'final'; readonly session: ShareSession };

export const partitionKey = (ref: SharePartitionRef): string => `${ref.topicId}:${ref.partition}`;

class ShareSessionError extends KafkaError {}

export function nextEpoch(epoch: number): number {
  if (epoch < 0) return FINAL_EPOCH;
  return epoch === 0x7fffffff ? 1 : epoch + 1;
}

export class ShareSessionCache {
  private readonly sessions = new Map<string, ShareSession>();

  constructor(private readonly maxSessions: () => number) {}

  get size(): number {
    return this.sessions.size;
  }

  get(groupId: string, memberId: string): ShareSession | undefined {
    return this.sessions.get(sessionKey(groupId, memberId));
  }

  remove(session: ShareSession): void {
    const key = sessionKey(session.groupId, session.memberId);
    if (this.sessions.get(key) === session) this.sessions.delete(key);
  }

  /** ShareFetch: the session its epoch names, with `added` joined and `forgotten` left (throws Kafka's errors). */
  fetchContext(groupId: string, memberId: string, epoch: number, added: readonly SharePartitionRef[], forgotten: readonly SharePartitionRef[], hasAcknowledgements: boolean): ShareSessionContext {
    const key = sessionKey(groupId, memberId);
    if (epoch === FINAL_EPOCH) return { kind: 'final', session: this.existing(key) };
    if (epoch === INITIAL_EPOCH) {
      if (hasAcknowledgements) throw new ShareSessionError('INVALID_REQUEST');
      this.sessions.delete(key);
      if (this.sessions.size >= this.maxSessions()) throw new ShareSessionError('SHARE_SESSION_LIMIT_REACHED');
      const session: ShareSession = { groupId, memberId, epoch: nextEpoch(INITIAL_EPOCH), partitions: new Map() };
      for (const ref of added) session.partitions.set(partitionKey(ref), ref);
      this.sessions.set(key, session);
      return { kind: 'full', session };
    }
    const session = this.checked(key, epoch);
    for (const ref of added) if (!session.partitions.has(partitionKey(ref))) session.partitions.set(partitionKey(ref), ref);
    for (const ref of forgotten) session.partitions.delete(partitionKey(ref));
    session.epoch = nextEpoch(session.epoch);
    return { kind: 'incremental', session };
  }

  /** ShareAcknowledge: epoch 0 is INVALID_SHARE_SESSION_EPOCH; -1 ends the session; otherwise checked and moved on. */
  acknowledgeContext(groupId: string, memberId: string, epoch: number): ShareSessionContext {
    if (epoch === INITIAL_EPOCH) throw new ShareSessionError('INVALID_SHARE_SESSION_EPOCH');
    const key = sessionKey(groupId, memberId);
    if (epoch === FINAL_EPOCH) return { kind: 'final', session: this.existing(key) };
    const session = this.checked(key, epoch);
    session.epoch = nextEpoch(session.epoch);
    return { kind: 'incremental', session };
  }

  private existing(key: string): ShareSession {
    const session = this.sessions.get(key);
    if (session === undefined) throw new ShareSessionError('SHARE_SESSION_NOT_FOUND');
    return session;
  }

  private checked(key: string, epoch: number): ShareSession {
    const session = this.existing(key);
    if (session.epoch !== epoch) throw new ShareSessionError('INVALID_SHARE_SESSION_EPOCH');
    return session;
  }
}

function sessionKey(groupId: string, memberId: string): string {
  return `${groupId}\u0000${memberId}`;
}
