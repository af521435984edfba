// One share partition (KIP-932): a share group's delivery state of one topic partition, as Kafka 4.3.1's
// SharePartition keeps it. Records between the share-partition start offset (SPSO) and the end offset are in
// flight, held per acquired batch and split into per-record states only when an acknowledgement or a release
// covers part of a batch. Acquired records are locked to a member until an acknowledgement or the lock's expiry
// (group.share.record.lock.duration.ms), checked against the injected clock at each operation and by the
// manager's timer at each lock's expiry. Each acquisition counts a delivery; a record released or expired after
// group.share.delivery.count.limit deliveries is ARCHIVED.
// The SPSO advances over the leading ACKNOWLEDGED/ARCHIVED records. Pure state: no log, no timers, no I/O.
// What an acknowledgement, a release or a lock's expiry changed is kept as state batches until the manager takes
// them for the share coordinator (Kafka writes them through its persister; an acquisition alone writes nothing).
import { ErrorCode } from '../../protocol/error-codes.js';

/** Kafka's RecordState ids. */
export const RecordState = { AVAILABLE: 0, ACQUIRED: 1, ACKNOWLEDGED: 2, ARCHIVED: 4 } as const;
export type RecordStateValue = (typeof RecordState)[keyof typeof RecordState];

/**
 * Kafka's AcknowledgeType ids as the ShareFetch/ShareAcknowledge acknowledge_types carry them (0: a gap). RENEW
 * (v2, KIP-1222) keeps a record acquired and restarts its lock.
 */
export const AcknowledgeType = { GAP: 0, ACCEPT: 1, RELEASE: 2, REJECT: 3, RENEW: 4 } as const;

export interface SharePartitionLimits {
  readonly lockDurationMs: number;
  /** share.renew.acknowledge.enable: RENEW acknowledgements allowed (else INVALID_RECORD_STATE). */
  readonly renewAcknowledgeEnabled: boolean;
  readonly deliveryCountLimit: number;
  /** group.share.partition.max.record.locks: no new records are acquired while this many are in flight. */
  readonly maxInFlightRecords: number;
}

/** The offsets of one record batch read from the log (header fields only). */
export interface LogBatchSpan {
  readonly first: number;
  readonly last: number;
}

/** One acknowledgement batch of a request: one type for all its offsets, or one per offset. */
export interface AcknowledgementBatch {
  readonly firstOffset: number;
  readonly lastOffset: number;
  readonly types: readonly number[];
}

export interface AcquiredRange {
  readonly firstOffset: number;
  readonly lastOffset: number;
  readonly deliveryCount: number;
}

interface RecordStatus {
  state: RecordStateValue;
  deliveryCount: number;
  memberId: string | null;
  lockExpiresAt: number;
}

/** An acquired batch: one status for all its offsets, or one per offset once something split it. */
interface InFlightBatch {
  readonly first: number;
  readonly last: number;
  whole: RecordStatus | undefined;
  records: RecordStatus[] | undefined;
}

/** A delivery-state change to persist (Kafka's PersisterStateBatch): AVAILABLE, ACKNOWLEDGED or ARCHIVED with its count. */
export interface StateChange {
  readonly firstOffset: number;
  readonly lastOffset: number;
  readonly deliveryState: number;
  readonly deliveryCount: number;
}

const isTerminal = (s: RecordStatus): boolean => s.state === RecordState.ACKNOWLEDGED || s.state === RecordState.ARCHIVED;

export class SharePartition {
  private readonly inFlight: InFlightBatch[] = [];
  private end: number;
  private changes: StateChange[] = [];
  /** The SPSO when the first change not yet taken was made. */
  private changedFrom = 0;

  constructor(private start: number) {
    this.end = start;
  }

  /**
   * A share partition from its persisted state (Kafka's maybeInitialize): the batches read become in-flight records
   * in their state with their delivery counts (an ACQUIRED one, never written by Kafka, as AVAILABLE), offsets
   * between them AVAILABLE and never delivered; the SPSO then moves over the leading ACKNOWLEDGED/ARCHIVED ones.
   */
  static restore(start: number, batches: readonly StateChange[]): SharePartition {
    const partition = new SharePartition(start);
    let next = start;
    const add = (first: number, last: number, state: RecordStateValue, deliveryCount: number) => {
      partition.inFlight.push({ first, last, whole: { state, deliveryCount, memberId: null, lockExpiresAt: 0 }, records: undefined });
    };
    for (const b of [...batches].sort((x, y) => x.firstOffset - y.firstOffset)) {
      const first = Math.max(b.firstOffset, next);
      if (b.lastOffset < first) continue;
      if (first > next) add(next, first - 1, RecordState.AVAILABLE, 0);
      const state = b.deliveryState === RecordState.ACKNOWLEDGED || b.deliveryState === RecordState.ARCHIVED ? b.deliveryState : RecordState.AVAILABLE;
      add(first, b.lastOffset, state, b.deliveryCount);
      next = b.lastOffset + 1;
    }
    partition.end = next;
    partition.advanceStart();
    return partition;
  }

  /**
   * The state changes since the last call, in order (what the manager writes to the share coordinator), with the
   * SPSO as it was before them and the delivery-complete count from there: Kafka writes a request's changes before it
   * moves the SPSO over what they completed (the moved SPSO goes with the next write).
   */
  takeStateChanges(): { batches: StateChange[]; startOffset: number; deliveryCompleteCount: number } {
    const batches = this.changes;
    this.changes = [];
    // The records the SPSO moved over since were all complete: Kafka still counts them.
    return { batches, startOffset: this.changedFrom, deliveryCompleteCount: this.deliveryCompleteCount + this.start - this.changedFrom };
  }

  /** In-flight records past the SPSO already ACKNOWLEDGED or ARCHIVED (Kafka's deliveryCompleteCount). */
  get deliveryCompleteCount(): number {
    let count = 0;
    for (const batch of this.inFlight) {
      for (let o = Math.max(batch.first, this.start); o <= batch.last; o++) {
        const s = this.statusOf(batch, o);
        if (isTerminal(s)) count += batch.whole !== undefined ? batch.last - o + 1 : 1;
        if (batch.whole !== undefined) break;
      }
    }
    return count;
  }

  /** The share-partition start offset: everything below it is acknowledged or archived. */
  get startOffset(): number {
    return this.start;
  }

  /** The offset after the last record ever acquired. */
  get endOffset(): number {
    return this.end;
  }

  /** Where the next log read starts: the first AVAILABLE in-flight offset, else the end offset. */
  nextFetchOffset(limits: SharePartitionLimits, now: number): number {
    this.expireLocks(limits, now);
    for (const batch of this.inFlight) {
      for (let o = Math.max(batch.first, this.start); o <= batch.last; o++) {
        if (this.statusOf(batch, o).state === RecordState.AVAILABLE) return o;
        if (batch.whole !== undefined) break;
      }
    }
    return this.end;
  }

  /** What each in-flight offset holds (tests, describe): state, delivery count and owner. */
  stateOf(offset: number): { state: RecordStateValue; deliveryCount: number; memberId: string | null } | undefined {
    const batch = this.batchOf(offset);
    if (batch === undefined || offset < this.start) return undefined;
    const s = this.statusOf(batch, offset);
    return { state: s.state, deliveryCount: s.deliveryCount, memberId: s.memberId };
  }

  /**
   * Acquires for `memberId` what the log batches read hold, as Kafka 4.3.1's SharePartition.acquire. At most
   * min(maxRecords, in-flight limit - records in flight) are wanted; at the limit, only records below the end offset
   * (a fetch between in-flight batches). In-flight batches overlapping the read give their AVAILABLE records (a whole
   * batch, or every available record of a split one, even past the count); then new records from the end offset,
   * whole log batches up to the one holding the last record wanted, become in-flight batches cut at log-batch
   * boundaries once `batchSize` records are reached (the request's batch_size).
   * `recordLimit` (ShareFetch v2's share_acquire_mode record_limit) acquires exactly the records wanted: an in-flight
   * batch larger than what is left is taken record by record up to the count, and new records stay one in-flight
   * batch of whole log batches of which only the first ones wanted are ACQUIRED, the rest AVAILABLE.
   * Throttled redelivery (both modes): an in-flight batch holding an AVAILABLE record delivered at least
   * max(2, ceil(delivery limit / 2)) times is taken record by record, at most its size halved once per delivery from
   * that threshold on, a record on its last delivery alone, and nothing is acquired after it (nor before it, when
   * something already was): one bad record does not use up the deliveries of a whole batch.
   * The answer has one range per in-flight batch, per-record acquisitions of one batch joined where contiguous.
   */
  acquire(memberId: string, logBatches: readonly LogBatchSpan[], maxRecords: number, limits: SharePartitionLimits, now: number, options: { fetchOffset?: number; batchSize?: number; recordLimit?: boolean } = {}): AcquiredRange[] {
    this.expireLocks(limits, now);
    const lastRead = logBatches[logBatches.length - 1]?.last;
    if (lastRead === undefined || lastRead < this.start || maxRecords <= 0) return [];
    const fetchOffset = options.fetchOffset ?? logBatches[0]!.first;
    let wanted = Math.min(maxRecords, limits.maxInFlightRecords - (this.end - this.start));
    let lastToAcquire = lastRead;
    if (wanted <= 0) {
      if (fetchOffset >= this.end) return [];
      wanted = Math.min(maxRecords, this.end - fetchOffset);
      lastToAcquire = Math.min(lastRead, this.end - 1);
    }
    const acquired: AcquiredRange[] = [];
    const lockExpiresAt = now + limits.lockDurationMs;
    const recordLimit = options.recordLimit === true;
    let count = 0;
    const requestFirst = logBatches[0]!.first;
    const from = Math.max(requestFirst, this.start);
    for (const batch of this.inFlight) {
      if (batch.last < from) continue;
      if (batch.first > lastToAcquire || count >= wanted) break;
      const throttle = this.shouldThrottle(batch, requestFirst, lastToAcquire, limits.deliveryCountLimit);
      // Records already acquired go out without the throttled batch, which comes alone in a later fetch.
      if (throttle && count > 0) return acquired;
      const whole = batch.whole;
      if (whole !== undefined && whole.state !== RecordState.AVAILABLE) continue;
      const lo = Math.max(batch.first, from);
      const hi = Math.min(batch.last, lastToAcquire);
      let run: { firstOffset: number; lastOffset: number; deliveryCount: number } | undefined;
      const seen = (first: number, last: number, deliveryCount: number): void => {
        count += last - first + 1;
        if (run !== undefined && run.lastOffset === first - 1 && run.deliveryCount === deliveryCount) run.lastOffset = last;
        else acquired.push((run = { firstOffset: first, lastOffset: last, deliveryCount }));
      };
      if (throttle || (recordLimit && batch.last - batch.first + 1 > wanted - count)) {
        const taken = this.acquireEach(batch, lo, hi, memberId, lockExpiresAt, limits.deliveryCountLimit, recordLimit ? wanted - count : Number.MAX_SAFE_INTEGER, seen);
        if (throttle && taken > 0) return acquired;
        continue;
      }
      const fresh = new WeakSet<RecordStatus>();
      const take = (s: RecordStatus): RecordStatus => {
        if (s.state !== RecordState.AVAILABLE) return s;
        const next = { state: RecordState.ACQUIRED, deliveryCount: s.deliveryCount + 1, memberId, lockExpiresAt };
        fresh.add(next);
        return next;
      };
      this.update(lo, hi, take, (first, last, s) => {
        if (fresh.has(s)) seen(first, last, s.deliveryCount);
      });
    }
    if (count >= wanted || lastToAcquire < this.end) return acquired;
    // New records: whole log batches up to the one holding the last record wanted, cut every batchSize records.
    const first = Math.max(this.end, logBatches[0]!.first);
    let last = lastToAcquire;
    const remaining = wanted - count;
    if (remaining < last - first + 1) last = lastOffsetOfBatchWith(logBatches, first + remaining - 1);
    if (recordLimit && last - first + 1 > remaining) {
      // Kafka keeps the whole log batches in flight, the records past the count AVAILABLE and never delivered.
      const acquiredLast = first + remaining - 1;
      const records = Array.from({ length: last - first + 1 }, (_, i): RecordStatus => (first + i <= acquiredLast
        ? { state: RecordState.ACQUIRED, deliveryCount: 1, memberId, lockExpiresAt }
        : { state: RecordState.AVAILABLE, deliveryCount: 0, memberId: null, lockExpiresAt: 0 }));
      this.inFlight.push({ first, last, whole: undefined, records });
      acquired.push({ firstOffset: first, lastOffset: acquiredLast, deliveryCount: 1 });
      this.end = last + 1;
      return acquired;
    }
    // record_limit never cuts new records into several in-flight batches.
    const batchSize = recordLimit ? Number.MAX_SAFE_INTEGER : options.batchSize ?? Number.MAX_SAFE_INTEGER;
    let cut = first;
    const pieces: [number, number][] = [];
    if (last - first + 1 > batchSize) {
      for (const span of logBatches) {
        if (span.first > last) break;
        if (span.first > cut && span.first - cut >= batchSize) {
          pieces.push([cut, span.first - 1]);
          cut = span.first;
        }
      }
    }
    pieces.push([cut, last]);
    for (const [lo, hi] of pieces) {
      this.inFlight.push({ first: lo, last: hi, whole: { state: RecordState.ACQUIRED, deliveryCount: 1, memberId, lockExpiresAt }, records: undefined });
      acquired.push({ firstOffset: lo, lastOffset: hi, deliveryCount: 1 });
    }
    this.end = last + 1;
    return acquired;
  }

  /** One acknowledgement batch: acknowledgeAll with it alone. */
  acknowledge(memberId: string, firstOffset: number, lastOffset: number, types: readonly number[], limits: SharePartitionLimits, now: number): number {
    return this.acknowledgeAll(memberId, [{ firstOffset, lastOffset, types }], limits, now);
  }

  /**
   * A request's acknowledgement batches of one partition, in order, as Kafka 4.3.1's SharePartition.acknowledge: the
   * first batch refused makes the answer and rolls back what the batches before it changed (nothing of the request
   * is applied). `types` holds one type for all offsets of a batch or one per offset (the request's own checks are
   * the handler's: share-fetch-common.ts' invalidAcknowledgements). RENEW keeps a record acquired with a lock from
   * `now`, refused while the group's share.renew.acknowledge.enable is false.
   */
  acknowledgeAll(memberId: string, batches: readonly AcknowledgementBatch[], limits: SharePartitionLimits, now: number): number {
    this.expireLocks(limits, now);
    const restore = batches.length > 1 ? this.snapshot() : undefined;
    for (const batch of batches) {
      const errorCode = this.acknowledgeOne(memberId, batch, limits, now);
      if (errorCode !== ErrorCode.NONE) {
        restore?.();
        return errorCode;
      }
    }
    this.advanceStart();
    return ErrorCode.NONE;
  }

  /** Checks one batch against the in-flight state and applies it only if all of it passes. */
  private acknowledgeOne(memberId: string, batch: AcknowledgementBatch, limits: SharePartitionLimits, now: number): number {
    const { firstOffset, lastOffset, types } = batch;
    if (lastOffset < firstOffset || (types.length !== 1 && types.length !== lastOffset - firstOffset + 1)) return ErrorCode.INVALID_REQUEST;
    if (types.some((t) => t < AcknowledgeType.GAP || t > AcknowledgeType.RENEW)) return ErrorCode.INVALID_REQUEST;
    // Offsets below the SPSO are done with: a batch wholly below it changes nothing and is not refused.
    if (lastOffset < this.start) return ErrorCode.NONE;
    const refused = this.refusal(memberId, firstOffset, lastOffset);
    if (refused !== undefined) return refused;
    if (!limits.renewAcknowledgeEnabled && types.includes(AcknowledgeType.RENEW)) return ErrorCode.INVALID_RECORD_STATE;
    const from = Math.max(firstOffset, this.start);
    const typeAt = (o: number) => (types.length === 1 ? types[0]! : types[o - firstOffset]!);
    this.updateRecorded(from, lastOffset, (s, o) => {
      const type = typeAt(o);
      if (type === AcknowledgeType.ACCEPT) return { ...s, state: RecordState.ACKNOWLEDGED, memberId: null };
      if (type === AcknowledgeType.RELEASE) return released(s, limits);
      if (type === AcknowledgeType.RENEW) return { ...s, lockExpiresAt: now + limits.lockDurationMs };
      return { ...s, state: RecordState.ARCHIVED, memberId: null };
    }, types.length === 1 ? undefined : typeAt);
    return ErrorCode.NONE;
  }

  /**
   * Kafka's fetchSubMapForAcknowledgementBatch and its per-batch checks: the in-flight batch holding the first offset
   * (or the SPSO, when the batch starts below it) must exist (else INVALID_RECORD_STATE); a batch starting or ending
   * past the last in-flight batch it reaches is INVALID_REQUEST; every in-flight offset it names from the SPSO on must
   * be ACQUIRED by the member (else INVALID_RECORD_STATE).
   */
  private refusal(memberId: string, firstOffset: number, lastOffset: number): number | undefined {
    let floor = this.floorIndex(firstOffset);
    if (floor < 0 && firstOffset < this.start && this.start <= lastOffset) floor = this.floorIndex(this.start);
    if (floor < 0) return ErrorCode.INVALID_RECORD_STATE;
    let last = floor;
    while (last + 1 < this.inFlight.length && this.inFlight[last + 1]!.first <= lastOffset) last++;
    const reach = this.inFlight[last]!.last;
    if (reach < firstOffset || lastOffset > reach) return ErrorCode.INVALID_REQUEST;
    for (let i = floor; i <= last; i++) {
      const b = this.inFlight[i]!;
      const lo = Math.max(b.first, firstOffset, this.start);
      const hi = Math.min(b.last, lastOffset);
      for (let o = lo; o <= hi; o++) {
        const s = this.statusOf(b, o);
        if (s.state !== RecordState.ACQUIRED || s.memberId !== memberId) return ErrorCode.INVALID_RECORD_STATE;
        if (b.whole !== undefined) break;
      }
    }
    return undefined;
  }

  /** The index of the last in-flight batch starting at or before `offset` (Kafka's floorEntry), else -1. */
  private floorIndex(offset: number): number {
    let lo = 0;
    let hi = this.inFlight.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (this.inFlight[mid]!.first <= offset) {
        found = mid;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return found;
  }

  /** What a rollback restores: the in-flight batches as they are (statuses are replaced, never changed in place). */
  private snapshot(): () => void {
    const inFlight = this.inFlight.map((b) => ({ ...b, records: b.records?.slice() }));
    const { start, end, changedFrom } = this;
    const changes = this.changes.slice();
    return () => {
      this.inFlight.splice(0, this.inFlight.length, ...inFlight);
      this.start = start;
      this.end = end;
      this.changedFrom = changedFrom;
      this.changes = changes;
    };
  }

  /**
   * read_committed: the records of `spans` (batches of aborted transactions) that are ACQUIRED are ARCHIVED, never
   * delivered, and cut out of `acquired`, as Kafka's filterAbortedTransactionalAcquiredRecords does.
   */
  archiveAborted(spans: readonly LogBatchSpan[], acquired: readonly AcquiredRange[]): AcquiredRange[] {
    if (spans.length === 0) return [...acquired];
    for (const span of spans) {
      const from = Math.max(span.first, this.start);
      const to = Math.min(span.last, this.end - 1);
      if (from <= to) this.updateRecorded(from, to, (s) => (s.state === RecordState.ACQUIRED ? { ...s, state: RecordState.ARCHIVED, memberId: null } : s));
    }
    this.advanceStart();
    const kept: AcquiredRange[] = [];
    for (const range of acquired) {
      let first = range.firstOffset;
      for (const span of spans) {
        if (span.last < first || span.first > range.lastOffset) continue;
        if (span.first > first) kept.push({ ...range, firstOffset: first, lastOffset: span.first - 1 });
        first = span.last + 1;
      }
      if (first <= range.lastOffset) kept.push({ ...range, firstOffset: first });
    }
    return kept;
  }

  /**
   * The log's start moved past the SPSO (retention, DeleteRecords): what lay below it is gone, so the SPSO moves to
   * it, as Kafka's updateCacheAndOffsets does when a read is out of range.
   */
  moveStartTo(logStartOffset: number): void {
    if (logStartOffset <= this.start) return;
    while (this.inFlight.length > 0 && this.inFlight[0]!.last < logStartOffset) this.inFlight.shift();
    this.start = logStartOffset;
    this.end = Math.max(this.end, logStartOffset);
    this.advanceStart();
  }

  /** A member's session ended: what it holds becomes AVAILABLE again (ARCHIVED at the delivery limit). */
  releaseMember(memberId: string, limits: SharePartitionLimits, now: number): void {
    this.expireLocks(limits, now);
    if (this.end <= this.start) return;
    this.updateRecorded(this.start, this.end - 1, (s) => (s.state === RecordState.ACQUIRED && s.memberId === memberId ? released(s, limits) : s));
    this.advanceStart();
  }

  /** Locks past their expiry release their records, as Kafka's acquisition lock timer task does; true if any did. */
  expireLocks(limits: SharePartitionLimits, now: number): boolean {
    if (this.end <= this.start) return false;
    let expired = false;
    this.updateRecorded(this.start, this.end - 1, (s) => {
      if (s.state !== RecordState.ACQUIRED || s.lockExpiresAt > now) return s;
      expired = true;
      return released(s, limits);
    });
    if (expired) this.advanceStart();
    return expired;
  }

  /**
   * Kafka's shouldThrottleRecordsDelivery: the batch (whole and AVAILABLE), or one of its AVAILABLE records within
   * the read, was delivered max(2, ceil(delivery limit / 2)) times or more.
   */
  private shouldThrottle(batch: InFlightBatch, first: number, last: number, deliveryLimit: number): boolean {
    const threshold = throttleThreshold(deliveryLimit);
    if (batch.whole !== undefined) return batch.whole.state === RecordState.AVAILABLE && batch.whole.deliveryCount >= threshold;
    let most = 0;
    for (let o = Math.max(first, batch.first); o <= Math.min(last, batch.last); o++) {
      const s = batch.records![o - batch.first]!;
      if (s.state === RecordState.AVAILABLE) most = Math.max(most, s.deliveryCount);
    }
    return most >= threshold;
  }

  /**
   * Kafka's acquireSubsetBatchRecords: the AVAILABLE records of [lo, hi] one by one (the batch split per record), at
   * most `remaining`; from the first record at the throttle threshold on, at most the batch's size halved once per
   * delivery past it (at least 1); a record on its last delivery (limit above 2) goes alone: it ends the run, and is
   * left for the next fetch when records were already taken. `seen` is told each record taken; returns how many.
   */
  private acquireEach(batch: InFlightBatch, lo: number, hi: number, memberId: string, lockExpiresAt: number, deliveryLimit: number, remaining: number, seen: (first: number, last: number, deliveryCount: number) => void): number {
    if (batch.whole !== undefined) {
      const whole = batch.whole;
      batch.records = Array.from({ length: batch.last - batch.first + 1 }, () => ({ ...whole }));
      batch.whole = undefined;
    }
    const threshold = throttleThreshold(deliveryLimit);
    const size = batch.last - batch.first + 1;
    let taken = 0;
    let throttledTo = -1;
    for (let o = lo; o <= hi; o++) {
      const s = batch.records![o - batch.first]!;
      if (s.state !== RecordState.AVAILABLE) continue;
      if (deliveryLimit > 2 && s.deliveryCount === deliveryLimit - 1 && taken > 0) break;
      if (s.deliveryCount >= threshold && throttledTo < 0) throttledTo = Math.max(1, Math.floor(size / 2 ** (s.deliveryCount - threshold + 1)));
      const deliveryCount = s.deliveryCount + 1;
      batch.records![o - batch.first] = { state: RecordState.ACQUIRED, deliveryCount, memberId, lockExpiresAt };
      taken++;
      seen(o, o, deliveryCount);
      if (deliveryCount === deliveryLimit && deliveryLimit > 2) break;
      if (taken === remaining || taken === throttledTo) break;
    }
    return taken;
  }

  private batchOf(offset: number): InFlightBatch | undefined {
    let lo = 0;
    let hi = this.inFlight.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const b = this.inFlight[mid]!;
      if (offset < b.first) hi = mid - 1;
      else if (offset > b.last) lo = mid + 1;
      else return b;
    }
    return undefined;
  }

  private statusOf(batch: InFlightBatch, offset: number): RecordStatus {
    return batch.whole ?? batch.records![offset - batch.first]!;
  }

  /**
   * Applies `change` to every in-flight offset in [from, to]. A whole batch stays whole when the range covers
   * it and `varies` (a per-offset acknowledgement type) does not differ within it; otherwise it is split into
   * per-record states. `seen` is told the resulting status of each run of offsets.
   */
  private update(
    from: number,
    to: number,
    change: (s: RecordStatus, offset: number) => RecordStatus,
    seen?: (first: number, last: number, s: RecordStatus) => void,
    varies?: (offset: number) => number,
  ): void {
    for (const batch of this.inFlight) {
      if (batch.last < from) continue;
      if (batch.first > to) break;
      const lo = Math.max(batch.first, from);
      const hi = Math.min(batch.last, to);
      if (batch.whole !== undefined && lo === batch.first && hi === batch.last && uniform(varies, lo, hi)) {
        batch.whole = change(batch.whole, lo);
        seen?.(lo, hi, batch.whole);
        continue;
      }
      if (batch.whole !== undefined) {
        const whole = batch.whole;
        batch.records = Array.from({ length: batch.last - batch.first + 1 }, () => ({ ...whole }));
        batch.whole = undefined;
      }
      for (let o = lo; o <= hi; o++) {
        const next = change(batch.records![o - batch.first]!, o);
        batch.records![o - batch.first] = next;
        seen?.(o, o, next);
      }
    }
  }

  /** update() keeping each run of offsets `change` changed as a state change to persist. */
  private updateRecorded(from: number, to: number, change: (s: RecordStatus, offset: number) => RecordStatus, varies?: (offset: number) => number): void {
    const made = new WeakSet<RecordStatus>();
    if (this.changes.length === 0) this.changedFrom = this.start;
    this.update(from, to, (s, o) => {
      const next = change(s, o);
      if (next !== s) made.add(next);
      return next;
    }, (first, last, s) => {
      // Acquired records are not persisted (Kafka writes no state for an acquisition or a lock's renewal).
      if (!made.has(s) || s.state === RecordState.ACQUIRED) return;
      const prev = this.changes[this.changes.length - 1];
      if (prev !== undefined && prev.lastOffset === first - 1 && prev.deliveryState === s.state && prev.deliveryCount === s.deliveryCount) {
        this.changes[this.changes.length - 1] = { ...prev, lastOffset: last };
      } else {
        this.changes.push({ firstOffset: first, lastOffset: last, deliveryState: s.state, deliveryCount: s.deliveryCount });
      }
    }, varies);
  }

  /** The SPSO moves over the leading ACKNOWLEDGED and ARCHIVED records; fully passed batches are dropped. */
  private advanceStart(): void {
    while (this.inFlight.length > 0) {
      const batch = this.inFlight[0]!;
      let o = Math.max(batch.first, this.start);
      while (o <= batch.last && isTerminal(this.statusOf(batch, o))) o++;
      this.start = o;
      if (o <= batch.last) return;
      this.inFlight.shift();
    }
    this.start = this.end;
  }
}

/** Kafka's lastOffsetFromBatchWithRequestOffset: the last offset of the log batch holding `offset` (else `offset`). */
function lastOffsetOfBatchWith(logBatches: readonly LogBatchSpan[], offset: number): number {
  let holding: LogBatchSpan | undefined;
  for (const span of logBatches) {
    if (offset < span.first) break;
    holding = span;
  }
  return holding !== undefined && offset <= holding.last ? holding.last : offset;
}

/** Kafka's throttleRecordsDeliveryLimit: half the delivery limit, rounded up, and at least 2. */
function throttleThreshold(deliveryLimit: number): number {
  return Math.max(2, Math.ceil(deliveryLimit / 2));
}

function released(s: RecordStatus, limits: SharePartitionLimits): RecordStatus {
  const state = s.deliveryCount >= limits.deliveryCountLimit ? RecordState.ARCHIVED : RecordState.AVAILABLE;
  return { state, deliveryCount: s.deliveryCount, memberId: null, lockExpiresAt: 0 };
}

function uniform(varies: ((offset: number) => number) | undefined, lo: number, hi: number): boolean {
  if (varies === undefined) return true;
  const first = varies(lo);
  for (let o = lo + 1; o <= hi; o++) if (varies(o) !== first) return false;
  return true;
}
