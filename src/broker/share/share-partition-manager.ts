// The share-partition leader's side of ShareFetch and ShareAcknowledge (KIP-932), as Kafka 4.3.1's
// SharePartitionManager: a SharePartition per (group, topic partition), created on the group's first fetch of it
// with its start offset from share.auto.offset.reset (earliest: the log start; latest: the high watermark;
// by_duration: the first offset at or after now minus the duration, else the high watermark); the share sessions;
// acknowledgements; and the long poll, which waits up to max_wait_ms while fewer than min_bytes were acquired
// and is woken, as Kafka's DelayedShareFetch, by the logs' appends and by what may free records of its share
// partitions: an acknowledgement, a session's release, and an acquisition lock's expiry (a timer per acquisition
// on the injected scheduler, Kafka's AcquisitionLockTimerTask, so records come back without anyone fetching). Records stay bytes: a read's batches are walked by their headers only, and the
// batches holding acquired records go out as views of the log's buffers. Held in memory only: the state of a
// share partition is not written to __share_group_state yet, so a broker restart starts every group over.
import { ErrorCode } from '../../protocol/error-codes.js';
import { baseOffsetAt, batchSizeAt, lastOffsetAt, LOG_OVERHEAD, MIN_BATCH_LENGTH_ANY_MAGIC } from '../../protocol/records/index.js';
import type { PartitionLog } from '../../storage/log.js';
import type { LogStore } from '../../storage/log-store.js';
import type { DelayedFetches, WakeSource } from '../fetch-wait.js';
import type { TransactionView } from '../fetch-reader.js';
import { abortedBatches, type ReadBatch } from './aborted-batches.js';
import type { Scheduler } from '../../storage/scheduler.js';
import { AcknowledgeType, SharePartition, type AcquiredRange, type SharePartitionLimits } from './share-partition.js';
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
}

export interface ShareFetchRead {
  readonly ref: SharePartitionRef;
  readonly errorCode: number;
  readonly records: Buffer[];
  readonly acquired: AcquiredRange[];
}

export interface Acknowledgement {
  readonly firstOffset: number;
  readonly lastOffset: number;
  readonly types: readonly number[];
}

export class SharePartitionManager {
  readonly sessions: ShareSessionCache;
  private readonly partitions = new Map<string, Promise<SharePartition>>();
  /** The long polls waiting on each share partition (by sharePartitionKey), woken when records may be free. */
  private readonly waiters = new Map<string, Set<() => void>>();

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

  /** The share partition of an existing one (tests, describe), if the group has fetched it. */
  existing(groupId: string, ref: SharePartitionRef): Promise<SharePartition> | undefined {
    return this.partitions.get(sharePartitionKey(groupId, ref));
  }

  /** Applies one partition's acknowledgement batches in order; the first failure is the partition's answer. */
  async acknowledge(groupId: string, memberId: string, ref: SharePartitionRef, batches: readonly Acknowledgement[], settings: ShareGroupSettings): Promise<number> {
    const log = this.logOf(ref);
    if (log === undefined) return ErrorCode.UNKNOWN_TOPIC_OR_PARTITION;
    const partition = await this.existing(groupId, ref);
    if (partition === undefined) return ErrorCode.INVALID_RECORD_STATE;
    let errorCode: number = ErrorCode.NONE;
    for (const batch of batches) {
      const code = partition.acknowledge(memberId, batch.firstOffset, batch.lastOffset, batch.types, settings, this.now());
      if (errorCode === ErrorCode.NONE) errorCode = code;
    }
    const key = sharePartitionKey(groupId, ref);
    // Renewed locks run from now: their expiry gets its own timer.
    if (batches.some((b) => b.types.includes(AcknowledgeType.RENEW))) this.expireLocksAfter(key, partition, settings);
    this.wake(key);
    return errorCode;
  }

  /** The member's session ended: the records it holds on the session's partitions are released. */
  async releaseSession(groupId: string, memberId: string, refs: Iterable<SharePartitionRef>, settings: ShareGroupSettings): Promise<void> {
    for (const ref of refs) {
      const partition = await this.existing(groupId, ref);
      partition?.releaseMember(memberId, settings, this.now());
      this.wake(sharePartitionKey(groupId, ref));
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
      const partition = await this.partitionFor(groupId, ref, log, settings);
      const read = await acquireFrom(partition, log, this.transactions, memberId, { maxBytes: budget, maxRecords: recordsLeft, batchSize: params.batchSize, minOneBatch: reads.every((r) => r.records.length === 0) }, settings, this.now());
      if (read.acquired.length > 0) this.expireLocksAfter(sharePartitionKey(groupId, ref), partition, settings);
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

  /** A group was deleted: its share partitions go; the group recreated starts from share.auto.offset.reset. */
  onGroupDeleted(groupId: string): void {
    for (const key of [...this.partitions.keys()]) if (key.startsWith(`${groupId}\u0000`)) this.drop(key);
  }

  private drop(key: string): void {
    this.partitions.delete(key);
    // A long poll on it answers now with what it has.
    this.wake(key);
  }

  /** The acquisition just made expires after the lock duration: its records are released then, and waiters woken. */
  private expireLocksAfter(key: string, partition: SharePartition, settings: ShareGroupSettings): void {
    const due = this.now() + settings.lockDurationMs;
    const current = this.partitions.get(key);
    this.scheduler.after(settings.lockDurationMs, () => {
      // Dropped (topic or group deleted) or replaced since: nothing to release.
      if (this.partitions.get(key) !== current) return;
      // A timer may fire a little before the clock reads `due`: the lock it stands for is due all the same.
      if (partition.expireLocks(settings, Math.max(this.now(), due))) this.wake(key);
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
      partition = startOffset(log, settings.autoOffsetReset, this.now()).then((start) => new SharePartition(start));
      this.partitions.set(key, partition);
      // A failed read of the start is not kept: the next fetch tries again.
      partition.catch(() => this.partitions.delete(key));
    }
    return partition;
  }
}

async function acquireFrom(
  partition: SharePartition,
  log: PartitionLog,
  transactions: TransactionView | undefined,
  memberId: string,
  limits: { maxBytes: number; maxRecords: number; batchSize: number | undefined; minOneBatch: boolean },
  settings: ShareGroupSettings,
  now: number,
): Promise<{ errorCode: number; records: Buffer[]; acquired: AcquiredRange[] }> {
  const { maxBytes, maxRecords, batchSize, minOneBatch } = limits;
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
  let acquired = partition.acquire(memberId, pieces.map((p) => p.span), maxRecords, settings, now, batchSize === undefined ? { fetchOffset } : { fetchOffset, batchSize });
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
