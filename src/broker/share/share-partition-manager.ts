// The share-partition leader's side of ShareFetch and ShareAcknowledge (KIP-932), as Kafka 4.3.1's
// SharePartitionManager: a SharePartition per (group, topic partition), created on the group's first fetch of it
// with its start offset from share.auto.offset.reset (earliest: the log start; latest: the high watermark;
// by_duration: the first offset at or after now minus the duration, else the high watermark); the share sessions;
// acknowledgements; and the long poll, which waits up to max_wait_ms while fewer than min_bytes were acquired
// and is woken, as Kafka's DelayedShareFetch, by the logs' appends and by what may free records of its share
// partitions: an acknowledgement, a session's release, and an acquisition lock's expiry (a timer per acquisition
// on the injected scheduler, Kafka's AcquisitionLockTimerTask, so records come back without anyone fetching).
// Records stay bytes: a read's batches are walked by their headers only, and the batches holding acquired records
// go out as views of the log's buffers. With a persister (the share coordinator) a share partition starts from its
// persisted state, and what an acknowledgement, a session's release or a lock's expiry changed is written through
// it (an acknowledgement answers once written), as Kafka's SharePartition does through its DefaultStatePersister;
// an acquisition writes nothing.
import { ErrorCode } from '../../protocol/error-codes.js';
import { baseOffsetAt, batchSizeAt, lastOffsetAt, LOG_OVERHEAD, MIN_BATCH_LENGTH_ANY_MAGIC } from '../../protocol/records/index.js';
import type { PartitionLog } from '../../storage/log.js';
import type { LogStore } from '../../storage/log-store.js';
import type { DelayedFetches, WakeSource } from '../fetch-wait.js';
import type { TransactionView } from '../fetch-reader.js';
import { PARTITION_LEADER_EPOCH } from '../leader-epoch.js';
import { abortedBatches, type ReadBatch } from './aborted-batches.js';
import type { Scheduler } from '../../storage/scheduler.js';
import { AcknowledgeType, SharePartition, type AcknowledgementBatch, type AcquiredRange, type SharePartitionLimits, type StateChange } from './share-partition.js';
import { partitionKey, ShareSessionCache, type SharePartitionRef } from './share-session-cache.js';

/** A share group's settings, read from its effective group configs at each request. */
export interface ShareGroupSettings extends SharePartitionLimits {
  /** share.auto.offset.reset: earliest, latest or by_duration:<ISO-8601 duration>. */
  readonly autoOffsetReset: string;
  /** share.isolation.level: read_committed acquires up to the LSO and archives aborted transactions' records. */
  readonly isolationLevel: 'read_committed' | 'read_uncommitted';
}

export interface ShareFetchParams {
  readonly maxWaitMs: number;
  readonly minBytes: number;
  readonly maxBytes: number;
  readonly maxRecords: number;
  /** The request's batch_size: new records' in-flight batches are cut once this many are reached. */
  readonly batchSize?: number;
  /** share_acquire_mode record_limit (v2): exactly max_records are acquired, not whole batches. */
  readonly recordLimit?: boolean;
}

export interface ShareFetchRead {
  readonly ref: SharePartitionRef;
  readonly errorCode: number;
  readonly records: Buffer[];
  readonly acquired: AcquiredRange[];
}

export type Acknowledgement = AcknowledgementBatch;

/** A share partition's persisted state as the share coordinator reads it (ReadShareGroupState). */
export interface PersistedShareState {
  readonly errorCode: number;
  readonly errorMessage: string | null;
  readonly stateEpoch: number;
  /** -1: never started; share.auto.offset.reset decides. */
  readonly startOffset: number;
  readonly stateBatches: readonly StateChange[];
}

export interface SharePartitionKey {
  readonly groupId: string;
  readonly topicId: string;
  readonly partition: number;
}

/** Where share partitions' state lives (Kafka's Persister): the share coordinator, passed in by the server. */
export interface SharePersister {
  read(key: SharePartitionKey, leaderEpoch: number): Promise<PersistedShareState>;
  write(key: SharePartitionKey, data: {
    stateEpoch: number;
    leaderEpoch: number;
    startOffset: number;
    deliveryCompleteCount: number;
    stateBatches: readonly StateChange[];
  }): Promise<{ errorCode: number; errorMessage: string | null }>;
}

/** The error a share partition answers for a failed persister call (Kafka's SharePartition.fetchPersisterError). */
function persisterError(code: number): number {
  if (code === ErrorCode.NOT_COORDINATOR || code === ErrorCode.COORDINATOR_NOT_AVAILABLE || code === ErrorCode.COORDINATOR_LOAD_IN_PROGRESS) return ErrorCode.COORDINATOR_NOT_AVAILABLE;
  if (code === ErrorCode.FENCED_STATE_EPOCH) return ErrorCode.FENCED_STATE_EPOCH;
  if (code === ErrorCode.FENCED_LEADER_EPOCH) return ErrorCode.NOT_LEADER_OR_FOLLOWER;
  return ErrorCode.UNKNOWN_SERVER_ERROR;
}

class PersisterFailure extends Error {
  constructor(readonly errorCode: number, message: string) {
    super(message);
  }
}

export class SharePartitionManager {
  readonly sessions: ShareSessionCache;
  private readonly partitions = new Map<string, Promise<SharePartition>>();
  /** The long polls waiting on each share partition (by sharePartitionKey), woken when records may be free. */
  private readonly waiters = new Map<string, Set<() => void>>();
  /** The state epoch each share partition was read at (written back with its changes). */
  private readonly stateEpochs = new WeakMap<SharePartition, number>();
  private persister: SharePersister | undefined;
  /** The broker is stopping: nothing more is released (see shutdown). */
  private stopping = false;

  constructor(
    private readonly store: LogStore,
    private readonly delayedFetches: DelayedFetches,
    private readonly scheduler: Scheduler,
    maxSessions: () => number,
    /** The LSO and aborted transactions of a log (read_committed share groups); none: every log is committed. */
    private readonly transactions?: TransactionView,
  ) {
    this.sessions = new ShareSessionCache(maxSessions);
  }

  private now(): number {
    return this.scheduler.now();
  }

  /** From now on share partitions start from, and write their changes to, `persister` (the share coordinator). */
  usePersister(persister: SharePersister): void {
    this.persister = persister;
  }

  /**
   * The broker stops: from now on neither a session ended by its connection's close nor a lock's expiry releases
   * anything. Kafka's shutdown stops its socket server first; the disconnects that follow release sessions whose
   * state writes cannot reach the share coordinator any more, and SharePartitionManager.close only stops the lock
   * timers: what was acquired is not in __share_group_state, so after a restart it comes again as never delivered.
   */
  shutdown(): void {
    this.stopping = true;
  }

  /** The share partition of an existing one (tests, describe), if the group has fetched it. */
  existing(groupId: string, ref: SharePartitionRef): Promise<SharePartition> | undefined {
    return this.partitions.get(sharePartitionKey(groupId, ref));
  }

  /** Applies one partition's acknowledgement batches, all or none: the first refused is the partition's answer. */
  async acknowledge(groupId: string, memberId: string, ref: SharePartitionRef, batches: readonly Acknowledgement[], settings: ShareGroupSettings): Promise<number> {
    const log = this.logOf(ref);
    if (log === undefined) return ErrorCode.UNKNOWN_TOPIC_OR_PARTITION;
    const partition = await this.existing(groupId, ref);
    if (partition === undefined) return ErrorCode.INVALID_RECORD_STATE;
    // All of the partition's batches or none of them (Kafka rolls back a request's batches at the first refused).
    const errorCode = partition.acknowledgeAll(memberId, batches, settings, this.now());
    const key = sharePartitionKey(groupId, ref);
    // Renewed locks run from now: their expiry gets its own timer.
    if (errorCode === ErrorCode.NONE && batches.some((b) => b.types.includes(AcknowledgeType.RENEW))) this.expireLocksAfter(groupId, ref, partition, settings);
    this.wake(key);
    const written = await this.persist(groupId, ref, partition);
    return errorCode === ErrorCode.NONE ? written : errorCode;
  }

  /**
   * Writes what the share partition changed since its last write (with its SPSO and delivery-complete count); the
   * call is made before any await, so writes reach the share coordinator in the order of the changes. A write the
   * coordinator fences or no longer knows (offsets altered, group deleted) drops the partition: the next fetch reads
   * its state again.
   */
  private persist(groupId: string, ref: SharePartitionRef, partition: SharePartition): Promise<number> {
    const changes = partition.takeStateChanges();
    const persister = this.persister;
    if (persister === undefined || changes.batches.length === 0) return Promise.resolve(ErrorCode.NONE);
    const key = { groupId, topicId: ref.topicId, partition: ref.partition };
    const written = persister.write(key, {
      stateEpoch: this.stateEpochs.get(partition) ?? 0,
      leaderEpoch: PARTITION_LEADER_EPOCH,
      startOffset: changes.startOffset,
      deliveryCompleteCount: changes.deliveryCompleteCount,
      stateBatches: changes.batches,
    });
    return written.then((answer) => {
      if (answer.errorCode === ErrorCode.NONE) return ErrorCode.NONE;
      if (answer.errorCode === ErrorCode.FENCED_STATE_EPOCH || answer.errorCode === ErrorCode.INVALID_REQUEST) this.forget(groupId, ref, partition);
      return persisterError(answer.errorCode);
    }, () => ErrorCode.UNKNOWN_SERVER_ERROR);
  }

  private forget(groupId: string, ref: SharePartitionRef, partition: SharePartition): void {
    const key = sharePartitionKey(groupId, ref);
    void this.partitions.get(key)?.then((current) => {
      if (current === partition) this.drop(key);
    }, () => undefined);
  }

  /** A share group's share partitions are gone from the share coordinator (DeleteGroups, offsets altered or deleted): they are read again on the next fetch (a group recreated starts from share.auto.offset.reset). */
  forgetGroup(groupId: string, topicIds?: ReadonlySet<string>): void {
    const prefix = `${groupId}\u0000`;
    for (const key of [...this.partitions.keys()]) {
      if (!key.startsWith(prefix)) continue;
      if (topicIds !== undefined && ![...topicIds].some((id) => key.startsWith(`${prefix}${id}:`))) continue;
      this.drop(key);
    }
  }

  /** The member's session ended: the records it holds on the session's partitions are released. */
  async releaseSession(groupId: string, memberId: string, refs: Iterable<SharePartitionRef>, settings: ShareGroupSettings): Promise<void> {
    if (this.stopping) return;
    for (const ref of refs) {
      const pending = this.existing(groupId, ref);
      const partition = pending === undefined ? undefined : await pending.catch(() => undefined);
      if (partition === undefined) continue;
      partition.releaseMember(memberId, settings, this.now());
      this.wake(sharePartitionKey(groupId, ref));
      void this.persist(groupId, ref, partition);
    }
  }

  /**
   * Acquires records of `refs` for the member; with nothing acquired (or fewer than min_bytes) waits for appends
   * up to max_wait_ms, then tries again. `afterFirstAcquisition` runs once, after the first try (the request's
   * piggybacked acknowledgements: Kafka's complete behind their state write, after the acquisition). Partitions share max_bytes in order, the first batch read whole.
   */
  async fetch(
    groupId: string,
    memberId: string,
    refs: readonly SharePartitionRef[],
    params: ShareFetchParams,
    settings: ShareGroupSettings,
    afterFirstAcquisition?: () => Promise<void>,
  ): Promise<ShareFetchRead[]> {
    const deadline = this.now() + params.maxWaitMs;
    for (let first = true; ; first = false) {
      const reads = await this.acquireAll(groupId, memberId, refs, params, settings);
      if (first) await afterFirstAcquisition?.();
      const bytes = reads.reduce((sum, r) => sum + r.records.reduce((n, b) => n + b.length, 0), 0);
      const failed = reads.some((r) => r.errorCode !== ErrorCode.NONE);
      const remaining = deadline - this.now();
      if (failed || bytes >= Math.max(1, params.minBytes) || remaining <= 0) return reads;
      const logs = refs.flatMap((ref) => this.logOf(ref) ?? []);
      if (logs.length === 0) return reads;
      const sources: WakeSource[] = [...logs, ...refs.map((ref) => this.wakeSource(sharePartitionKey(groupId, ref)))];
      const reason = await this.delayedFetches.wait(sources, remaining);
      if (reason !== 'append') return bytes > 0 ? reads : this.acquireAll(groupId, memberId, refs, { ...params, maxWaitMs: 0 }, settings);
    }
  }

  private async acquireAll(groupId: string, memberId: string, refs: readonly SharePartitionRef[], params: ShareFetchParams, settings: ShareGroupSettings): Promise<ShareFetchRead[]> {
    let budget = params.maxBytes;
    let recordsLeft = params.maxRecords;
    const reads: ShareFetchRead[] = [];
    for (const ref of refs) {
      const log = this.logOf(ref);
      if (log === undefined) {
        reads.push({ ref, errorCode: ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, records: [], acquired: [] });
        continue;
      }
      if (recordsLeft <= 0) {
        reads.push({ ref, errorCode: ErrorCode.NONE, records: [], acquired: [] });
        continue;
      }
      let partition: SharePartition;
      try {
        partition = await this.partitionFor(groupId, ref, log, settings);
      } catch (error) {
        reads.push({ ref, errorCode: error instanceof PersisterFailure ? error.errorCode : ErrorCode.UNKNOWN_SERVER_ERROR, records: [], acquired: [] });
        continue;
      }
      const read = await acquireFrom(partition, log, this.transactions, memberId, { maxBytes: budget, maxRecords: recordsLeft, batchSize: params.batchSize, recordLimit: params.recordLimit === true, minOneBatch: reads.every((r) => r.records.length === 0) }, settings, this.now());
      if (read.acquired.length > 0) this.expireLocksAfter(groupId, ref, partition, settings);
      // What the acquisition changed beside it (aborted transactions' records archived): written, not waited for.
      void this.persist(groupId, ref, partition);
      reads.push({ ref, ...read });
      for (const b of read.records) budget -= b.length;
      for (const a of read.acquired) recordsLeft -= a.lastOffset - a.firstOffset + 1;
    }
    return reads;
  }

  /**
   * A topic was deleted: every group's share partitions of it go (a topic recreated under the name has another id
   * and starts afresh), as Kafka's SharePartitionManager drops a partition it no longer leads.
   */
  onTopicDeleted(topicId: string): void {
    for (const key of [...this.partitions.keys()]) if (key.split('\u0000')[1]!.startsWith(`${topicId}:`)) this.drop(key);
  }

  private drop(key: string): void {
    this.partitions.delete(key);
    // A long poll on it answers now with what it has.
    this.wake(key);
  }

  /**
   * The acquisition just made expires after the lock duration: its records are released then, written through the
   * persister, and waiters woken.
   */
  private expireLocksAfter(groupId: string, ref: SharePartitionRef, partition: SharePartition, settings: ShareGroupSettings): void {
    const key = sharePartitionKey(groupId, ref);
    const due = this.now() + settings.lockDurationMs;
    const current = this.partitions.get(key);
    this.scheduler.after(settings.lockDurationMs, () => {
      // Dropped (topic or group deleted) or replaced since, or the broker stopping: nothing to release.
      if (this.stopping || this.partitions.get(key) !== current) return;
      // A timer may fire a little before the clock reads `due`: the lock it stands for is due all the same.
      if (!partition.expireLocks(settings, Math.max(this.now(), due))) return;
      this.wake(key);
      void this.persist(groupId, ref, partition);
    });
  }

  private wakeSource(key: string): WakeSource {
    return {
      onAppend: (listener) => {
        let set = this.waiters.get(key);
        if (set === undefined) this.waiters.set(key, (set = new Set()));
        const once = () => listener();
        set.add(once);
        return () => {
          set.delete(once);
          if (set.size === 0 && this.waiters.get(key) === set) this.waiters.delete(key);
        };
      },
    };
  }

  private wake(key: string): void {
    for (const listener of [...(this.waiters.get(key) ?? [])]) listener();
  }

  private logOf(ref: SharePartitionRef): PartitionLog | undefined {
    const topic = this.store.topicById(ref.topicId);
    return topic === undefined ? undefined : this.store.log(topic.name, ref.partition);
  }

  private partitionFor(groupId: string, ref: SharePartitionRef, log: PartitionLog, settings: ShareGroupSettings): Promise<SharePartition> {
    const key = sharePartitionKey(groupId, ref);
    let partition = this.partitions.get(key);
    if (partition === undefined) {
      partition = this.initialize(groupId, ref, log, settings);
      this.partitions.set(key, partition);
      // A failed read of the start is not kept: the next fetch tries again.
      partition.catch(() => this.partitions.delete(key));
    }
    return partition;
  }

  /**
   * Kafka's SharePartition.maybeInitialize: the persisted state when there is a persister (a start offset of -1,
   * never started, is share.auto.offset.reset's), else share.auto.offset.reset alone.
   */
  private async initialize(groupId: string, ref: SharePartitionRef, log: PartitionLog, settings: ShareGroupSettings): Promise<SharePartition> {
    const persister = this.persister;
    if (persister === undefined) return new SharePartition(await startOffset(log, settings.autoOffsetReset, this.now()));
    const state = await persister.read({ groupId, topicId: ref.topicId, partition: ref.partition }, PARTITION_LEADER_EPOCH);
    if (state.errorCode !== ErrorCode.NONE) {
      throw new PersisterFailure(persisterError(state.errorCode), `Failed to initialize the share partition ${groupId}-${ref.topicId}-${ref.partition}: ${state.errorMessage ?? state.errorCode}`);
    }
    const start = state.startOffset === -1 ? await startOffset(log, settings.autoOffsetReset, this.now()) : state.startOffset;
    const partition = SharePartition.restore(start, state.startOffset === -1 ? [] : state.stateBatches);
    this.stateEpochs.set(partition, state.stateEpoch);
    return partition;
  }
}

async function acquireFrom(
  partition: SharePartition,
  log: PartitionLog,
  transactions: TransactionView | undefined,
  memberId: string,
  limits: { maxBytes: number; maxRecords: number; batchSize: number | undefined; recordLimit: boolean; minOneBatch: boolean },
  settings: ShareGroupSettings,
  now: number,
): Promise<{ errorCode: number; records: Buffer[]; acquired: AcquiredRange[] }> {
  const { maxBytes, maxRecords, batchSize, recordLimit, minOneBatch } = limits;
  partition.moveStartTo(log.logStartOffset);
  const fetchOffset = partition.nextFetchOffset(settings, now);
  const highWatermark = log.highWatermark;
  // read_committed: nothing past the last stable offset is acquired.
  const committed = settings.isolationLevel === 'read_committed' && transactions !== undefined;
  const maxOffset = committed ? transactions.lastStableOffset(log, highWatermark) : highWatermark;
  if (fetchOffset >= maxOffset || (maxBytes <= 0 && !minOneBatch)) return { errorCode: ErrorCode.NONE, records: [], acquired: [] };
  const read = await log.read(fetchOffset, Math.max(0, maxBytes), { maxOffset, minOneBatch });
  const pieces: ReadBatch[] = [];
  for (const buffer of read.records) {
    let pos = 0;
    while (buffer.length - pos >= LOG_OVERHEAD + MIN_BATCH_LENGTH_ANY_MAGIC) {
      const size = batchSizeAt(buffer, pos);
      if (size > buffer.length - pos) break;
      pieces.push({ buffer, start: pos, end: pos + size, span: { first: baseOffsetAt(buffer, pos), last: lastOffsetAt(buffer, pos) } });
      pos += size;
    }
  }
  let acquired = partition.acquire(memberId, pieces.map((p) => p.span), maxRecords, settings, now, batchSize === undefined ? { fetchOffset, recordLimit } : { fetchOffset, batchSize, recordLimit });
  const last = pieces[pieces.length - 1];
  if (committed && acquired.length > 0 && last !== undefined) {
    const aborted = transactions.abortedTransactions(log, fetchOffset, last.span.last + 1);
    if (aborted.length > 0) acquired = partition.archiveAborted(abortedBatches(pieces, aborted), acquired);
  }
  // The batches holding acquired offsets, as views of the log's buffers (the client keeps only acquired records).
  const records = pieces
    .filter((p) => acquired.some((a) => a.firstOffset <= p.span.last && a.lastOffset >= p.span.first))
    .map((p) => p.buffer.subarray(p.start, p.end));
  return { errorCode: ErrorCode.NONE, records, acquired };
}

/** Where a group starts on a partition it has never fetched (share.auto.offset.reset). */
async function startOffset(log: PartitionLog, reset: string, now: number): Promise<number> {
  if (reset === 'earliest') return log.logStartOffset;
  if (reset.startsWith('by_duration:')) {
    const found = await log.offsetForTimestamp(now - durationMs(reset.slice('by_duration:'.length)));
    return found === null ? log.highWatermark : Math.min(found.offset, log.highWatermark);
  }
  return log.highWatermark;
}

/** An ISO-8601 duration (PnDTnHnMn.nS, as the group config's validator admits) in milliseconds. */
export function durationMs(text: string): number {
  const m = /^\+?P(?:\+?(\d+)D)?(?:T(?:\+?(\d+)H)?(?:\+?(\d+)M)?(?:\+?(\d+)(?:[.,](\d{0,9}))?S)?)?$/i.exec(text);
  if (m === null) return 0;
  const [, d, h, min, s, frac] = m;
  const millis = frac === undefined || frac === '' ? 0 : Math.floor(Number(`0.${frac}`) * 1000);
  return ((Number(d ?? 0) * 24 + Number(h ?? 0)) * 60 + Number(min ?? 0)) * 60_000 + Number(s ?? 0) * 1000 + millis;
}

function sharePartitionKey(groupId: string, ref: SharePartitionRef): string {
  return `${groupId}\u0000${partitionKey(ref)}`;
}
