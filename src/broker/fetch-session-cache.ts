// Incremental fetch sessions (KIP-227), as Kafka's FetchSessionCache keeps them: a session remembers the
// partitions a client fetches and what it was last told about each, so later requests name only changes and
// responses carry only partitions with news. At most max.incremental.fetch.session.cache.slots sessions;
// a full cache evicts a session idle for longer than the eviction time, else a smaller session old enough to
// be evicted by anyone.
import { cryptoModule } from '../lazy-modules.js';

/** Kafka's FetchMetadata constants. */
export const INVALID_SESSION_ID = 0;
export const INITIAL_EPOCH = 0;
export const FINAL_EPOCH = -1;

/** Kafka's min.incremental.fetch.session.eviction.ms default. */
export const SESSION_EVICTION_MS = 120_000;

/** The epoch after `epoch`, as FetchMetadata.nextEpoch counts (wrapping to 1, never back to 0). */
export function nextEpoch(epoch: number): number {
  if (epoch < 0) return FINAL_EPOCH;
  return epoch === 0x7fffffff ? 1 : epoch + 1;
}

/** What a client asked of one partition (a session keeps the latest). */
export interface PartitionRequest {
  fetchOffset: number;
  maxBytes: number;
  currentLeaderEpoch: number;
  lastFetchedEpoch: number;
}

export interface CachedPartition {
  /** Topic name (sessions of v0-12) or topic id (v13+), then the partition: the session's key. */
  readonly key: string;
  readonly topic: string;
  readonly topicId: string;
  readonly partition: number;
  request: PartitionRequest;
  /** Last values sent to the client; -1 before the first response (so the partition is always sent then). */
  highWatermark: number;
  logStartOffset: number;
}

export function partitionKey(topicKey: string, partition: number): string {
  return `${topicKey}\u0000${partition}`;
}

export class FetchSession {
  /** The epoch the client must send next. */
  epoch = nextEpoch(INITIAL_EPOCH);
  lastUsedMs: number;

  constructor(
    readonly id: number,
    /** Keyed by partitionKey, in the order responses walk them (partitions that returned data move last). */
    readonly partitions: Map<string, CachedPartition>,
    readonly usesTopicIds: boolean,
    readonly createdMs: number,
  ) {
    this.lastUsedMs = createdMs;
  }

  /** Moves a partition to the end, giving the others the first share of the next response's bytes. */
  moveToEnd(partition: CachedPartition): void {
    this.partitions.delete(partition.key);
    this.partitions.set(partition.key, partition);
  }
}

export class FetchSessionCache {
  private readonly sessions = new Map<number, FetchSession>();

  constructor(
    readonly maxSessions: number,
    private readonly evictionMs = SESSION_EVICTION_MS,
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.sessions.size;
  }

  get(id: number): FetchSession | undefined {
    return this.sessions.get(id);
  }

  remove(id: number): boolean {
    return this.sessions.delete(id);
  }

  touch(session: FetchSession): void {
    session.lastUsedMs = this.now();
  }

  /** A new session over `partitions`, or undefined when the cache is full and nothing may be evicted for it. */
  create(partitions: Map<string, CachedPartition>, usesTopicIds: boolean): FetchSession | undefined {
    if (this.maxSessions <= 0) return undefined;
    const now = this.now();
    if (this.sessions.size >= this.maxSessions && !this.evictFor(partitions.size, now)) return undefined;
    let id: number;
    do id = cryptoModule().randomInt(1, 0x7fffffff);
    while (this.sessions.has(id));
    const session = new FetchSession(id, partitions, usesTopicIds, now);
    this.sessions.set(id, session);
    return session;
  }

  private evictFor(size: number, now: number): boolean {
    let leastRecent: FetchSession | undefined;
    let smallest: FetchSession | undefined;
    for (const session of this.sessions.values()) {
      if (leastRecent === undefined || session.lastUsedMs < leastRecent.lastUsedMs) leastRecent = session;
      // Only sessions older than the eviction time may give way to any newcomer, smallest (then lowest id) first.
      if (now - session.createdMs > this.evictionMs) {
        const better =
          smallest === undefined ||
          session.partitions.size < smallest.partitions.size ||
          (session.partitions.size === smallest.partitions.size && session.id < smallest.id);
        if (better) smallest = session;
      }
    }
    if (leastRecent !== undefined && now - leastRecent.lastUsedMs > this.evictionMs) {
      this.sessions.delete(leastRecent.id);
      return true;
    }
    // Kafka compares (size, id) with the newcomer's (size, 0): a larger session evicts a smaller one.
    if (smallest !== undefined && size > smallest.partitions.size) {
      this.sessions.delete(smallest.id);
      return true;
    }
    return false;
  }
}
