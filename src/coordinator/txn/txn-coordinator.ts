/**
 * The transaction coordinator (Kafka's TransactionCoordinator + TransactionStateManager). Every state change is
 * written to __transaction_state before it takes effect; EndTxn answers once PrepareCommit/PrepareAbort is in
 * the log, then the markers are written to every partition of the transaction and Complete* is logged. Loaded
 * at start-up: prepared transactions get their markers again, ongoing ones are aborted when their timeout passes.
 *
 * Both transaction versions (KIP-890 part 2), as the client speaks them: EndTxn ≤ v4 and AddPartitionsToTxn ≤ v3
 * are transaction.version 0 (the epoch is bumped by InitProducerId only); EndTxn v5, AddPartitionsToTxn v4+ and
 * the partitions Produce v12+ / TxnOffsetCommit v5 add are version 2 (every EndTxn bumps the epoch, an exhausted
 * one moves to a new producer id as the transaction completes). The finalized transaction.version is read when
 * Kafka reads it: the value version of each record logged, and the version of the aborts the coordinator starts.
 */
import type { FullMatchPattern } from '../../protocol/re2-pattern.js';
import type { BrokerConfig } from '../../config/index.js';
import { ErrorCode } from '../../protocol/error-codes.js';
import { silentLog, type Log } from '../../log.js';
import { TRANSACTION_VERSION, type Features } from '../../broker/features.js';
import { systemScheduler, type Cancel, type Scheduler } from '../../storage/scheduler.js';
import type { ProducerIdManager } from '../producer-ids.js';
import {
  applyFields,
  containsPartition,
  isEpochExhausted,
  MAX_PRODUCER_EPOCH,
  newMetadata,
  NO_PRODUCER_EPOCH,
  NO_PRODUCER_ID,
  stateByName,
  stateName,
  supportsEpochBump,
  TxnState,
  type TxnFields,
  type TxnMetadata,
  type TxnStateId,
} from './txn-metadata.js';
import type { TxnLog } from './txn-log.js';
import { txnValueFits } from './txn-records.js';
import {
  prepareAbortOrCommit,
  prepareAddPartitions,
  prepareComplete,
  prepareDead,
  prepareFenceProducerEpoch,
  prepareIncrementProducerEpoch,
  prepareProducerIdRotation,
} from './txn-transitions.js';

/** A single node coordinates every partition of __transaction_state at epoch 0. */
export const COORDINATOR_EPOCH = 0;

export interface MarkerRequest {
  readonly topic: string;
  readonly partition: number;
  readonly producerId: number;
  readonly producerEpoch: number;
  readonly commit: boolean;
  readonly coordinatorEpoch: number;
  /** The transaction's client transaction version (WriteTxnMarkers v2, KIP-1228). */
  readonly transactionVersion: number;
}

/** Writes one transaction marker (the partition leader's side of WriteTxnMarkers); resolves with an error code. */
export type MarkerWriter = (marker: MarkerRequest) => Promise<number>;

export interface InitProducerIdResult {
  errorCode: number;
  producerId: number;
  producerEpoch: number;
}

/** EndTxn's answer: with transaction.version 2, the producer id and epoch to use next (else -1). */
export interface EndTxnResult {
  errorCode: number;
  producerId: number;
  producerEpoch: number;
}

export interface ProducerIdAndEpoch {
  readonly producerId: number;
  readonly epoch: number;
}

export interface DescribedTransaction {
  errorCode: number;
  transactionalId: string;
  state: string;
  timeoutMs: number;
  startTimeMs: number;
  producerId: number;
  producerEpoch: number;
  topics: { topic: string; partitions: number[] }[];
}

export interface ListedTransaction {
  transactionalId: string;
  producerId: number;
  state: string;
}

export interface TxnCoordinatorOptions {
  readonly config: BrokerConfig;
  readonly txnLog: TxnLog;
  readonly producerIds: ProducerIdManager;
  readonly writeMarker: MarkerWriter;
  /** The finalized feature levels (transaction.version), read at each use: UpdateFeatures may change them. */
  readonly features: Pick<Features, 'level'>;
  readonly scheduler?: Scheduler;
  readonly log?: Log;
}

/** Marker writes that failed retriably are tried again after this long (Kafka's marker channel backs off too). */
const MARKER_RETRY_MS = 100;

const RETRIABLE_MARKER_ERRORS: ReadonlySet<number> = new Set([
  ErrorCode.NOT_ENOUGH_REPLICAS,
  ErrorCode.NOT_ENOUGH_REPLICAS_AFTER_APPEND,
  ErrorCode.REQUEST_TIMED_OUT,
  ErrorCode.KAFKA_STORAGE_ERROR,
  ErrorCode.COORDINATOR_LOAD_IN_PROGRESS,
  ErrorCode.COORDINATOR_NOT_AVAILABLE,
  ErrorCode.NOT_COORDINATOR,
]);

export class TxnCoordinator {
  private readonly txns = new Map<string, TxnMetadata>();
  /** producer id → transactional id, for partition verification on the produce path. */
  private readonly byProducerId = new Map<number, string>();
  private readonly scheduler: Scheduler;
  private readonly log: Log;
  private readonly config: BrokerConfig;
  private readonly txnLog: TxnLog;
  private readonly producerIds: ProducerIdManager;
  private readonly writeMarker: MarkerWriter;
  private readonly features: Pick<Features, 'level'>;
  private readonly stops: Cancel[] = [];
  /** Marker rounds in progress (awaited at close). */
  private readonly inFlight = new Set<Promise<void>>();
  private active = false;

  private constructor(options: TxnCoordinatorOptions) {
    this.config = options.config;
    this.txnLog = options.txnLog;
    this.producerIds = options.producerIds;
    this.writeMarker = options.writeMarker;
    this.features = options.features;
    this.scheduler = options.scheduler ?? systemScheduler;
    this.log = options.log ?? silentLog();
  }

  /** Loads __transaction_state, finishes prepared transactions and starts the timeout and expiry timers. */
  static async open(options: TxnCoordinatorOptions): Promise<TxnCoordinator> {
    const c = new TxnCoordinator(options);
    await c.producerIds.load();
    const stats = await c.txnLog.load(
      (record) => {
        if (record.value === null) {
          const old = c.txns.get(record.transactionalId);
          if (old !== undefined) c.byProducerId.delete(old.producerId);
          c.txns.delete(record.transactionalId);
          return;
        }
        const m = c.txns.get(record.transactionalId) ?? newMetadata(record.transactionalId, record.value.producerId, record.value.txnTimeoutMs, 0);
        c.byProducerId.delete(m.producerId);
        applyFields(m, record.value);
        c.txns.set(record.transactionalId, m);
        c.byProducerId.set(m.producerId, m.transactionalId);
      },
      (message) => c.log.warn(`skipping unreadable transaction record: ${message}`),
    );
    if (stats.records > 0) c.log.info({ records: stats.records, skipped: stats.skipped }, 'transaction coordinator loaded');
    c.active = true;
    for (const m of c.txns.values()) {
      if (m.state === TxnState.PrepareCommit || m.state === TxnState.PrepareAbort) c.track(c.completeWithMarkers(m));
    }
    c.stops.push(
      c.scheduler.every(c.config['transaction.abort.timed.out.transaction.cleanup.interval.ms'], () => c.abortTimedOutTransactions()),
      c.scheduler.every(c.config['transaction.remove.expired.transaction.cleanup.interval.ms'], () => void c.removeExpiredTransactionalIds()),
    );
    return c;
  }

  /** Ties a periodic task to the coordinator's life (stopped at close). */
  every(periodMs: number, task: () => void): void {
    this.stops.push(this.scheduler.every(periodMs, task));
  }

  get isActive(): boolean {
    return this.active;
  }

  /** Creates __transaction_state on first use, as Kafka's FindCoordinator for a transactional id does. */
  ensureTopic(): Promise<void> {
    return this.txnLog.ensureTopic();
  }

  metadata(transactionalId: string): Readonly<TxnMetadata> | undefined {
    return this.txns.get(transactionalId);
  }

  // ---- InitProducerId ----

  async initProducerId(transactionalId: string | null, timeoutMs: number, expected: ProducerIdAndEpoch | null): Promise<InitProducerIdResult> {
    if (!this.active) return initError(ErrorCode.COORDINATOR_NOT_AVAILABLE);
    if (transactionalId === null) {
      // An idempotent producer: always a new id at epoch 0.
      return { errorCode: ErrorCode.NONE, producerId: await this.producerIds.generate(), producerEpoch: 0 };
    }
    if (transactionalId === '') return initError(ErrorCode.INVALID_REQUEST);
    if (timeoutMs <= 0 || timeoutMs > this.config['transaction.max.timeout.ms']) return initError(ErrorCode.INVALID_TRANSACTION_TIMEOUT);

    let m = this.txns.get(transactionalId);
    if (m === undefined) {
      const producerId = await this.producerIds.generate();
      // Another request may have created it while the id was allocated.
      m = this.txns.get(transactionalId);
      if (m === undefined) {
        m = newMetadata(transactionalId, producerId, timeoutMs, this.scheduler.now());
        this.txns.set(transactionalId, m);
        this.byProducerId.set(producerId, transactionalId);
      }
    }
    if (m.pendingState !== null) return initError(ErrorCode.CONCURRENT_TRANSACTIONS);
    if (expected !== null && !isValidProducerId(m, expected)) return initError(ErrorCode.PRODUCER_FENCED);

    let fields: TxnFields;
    switch (m.state) {
      case TxnState.PrepareAbort:
      case TxnState.PrepareCommit:
        return initError(ErrorCode.CONCURRENT_TRANSACTIONS);
      case TxnState.Ongoing: {
        // A new producer fences the old one and aborts its transaction; it retries until the abort completes.
        const fence = prepareFenceProducerEpoch(m);
        m.pendingState = TxnState.PrepareEpochFence;
        const result = await this.endTransaction(transactionalId, fence.producerId, fence.producerEpoch, false, false, this.transactionVersion());
        return initError(result.errorCode === ErrorCode.NONE ? ErrorCode.CONCURRENT_TRANSACTIONS : result.errorCode);
      }
      case TxnState.Dead:
      case TxnState.PrepareEpochFence:
        return initError(ErrorCode.CONCURRENT_TRANSACTIONS);
      default: {
        const now = this.scheduler.now();
        if (isEpochExhausted(m.producerEpoch) && (expected === null || expected.epoch === m.producerEpoch)) {
          const producerId = await this.producerIds.generate();
          if (m.pendingState !== null) return initError(ErrorCode.CONCURRENT_TRANSACTIONS);
          fields = prepareProducerIdRotation(m, producerId, timeoutMs, now, expected !== null);
        } else {
          const transit = prepareIncrementProducerEpoch(m, timeoutMs, expected?.epoch ?? null, now);
          if (!transit.ok) return initError(transit.errorCode);
          fields = transit.fields;
        }
      }
    }
    const error = await this.write(m, fields);
    if (error !== ErrorCode.NONE) return initError(error);
    this.log.info(`Initialized transactionalId ${transactionalId} with producerId ${m.producerId} and producer epoch ${m.producerEpoch}`);
    return { errorCode: ErrorCode.NONE, producerId: m.producerId, producerEpoch: m.producerEpoch };
  }

  // ---- AddPartitionsToTxn / AddOffsetsToTxn ----

  /**
   * Adds partitions to the producer's transaction (starting one); one error for them all, as Kafka answers.
   * `clientTransactionVersion`: 2 for AddPartitionsToTxn v4+ and the implicit adds of Produce v12+ and
   * TxnOffsetCommit v5, else 0.
   */
  async addPartitions(
    transactionalId: string,
    producerId: number,
    producerEpoch: number,
    partitions: ReadonlyMap<string, readonly number[]>,
    clientTransactionVersion = 0,
  ): Promise<number> {
    if (!this.active) return ErrorCode.COORDINATOR_NOT_AVAILABLE;
    if (transactionalId === '') return ErrorCode.INVALID_REQUEST;
    const m = this.txns.get(transactionalId);
    if (m === undefined) return ErrorCode.INVALID_PRODUCER_ID_MAPPING;
    // First, as Kafka: over a TV2 producer id rotation the client may already use the id still pending.
    if (m.pendingState !== null) return ErrorCode.CONCURRENT_TRANSACTIONS;
    if (m.producerId !== producerId) return ErrorCode.INVALID_PRODUCER_ID_MAPPING;
    if (m.producerEpoch !== producerEpoch) return ErrorCode.PRODUCER_FENCED;
    if (m.state === TxnState.PrepareCommit || m.state === TxnState.PrepareAbort) return ErrorCode.CONCURRENT_TRANSACTIONS;
    if (m.state === TxnState.Ongoing && [...partitions].every(([t, ps]) => ps.every((p) => containsPartition(m.partitions, t, p)))) {
      return ErrorCode.NONE;
    }
    return this.write(m, prepareAddPartitions(m, partitions, this.scheduler.now(), clientTransactionVersion));
  }

  /** The verify-only form (AddPartitionsToTxn v4+, and the produce path): NONE when the partition is in the transaction. */
  verifyPartition(transactionalId: string, producerId: number, producerEpoch: number, topic: string, partition: number): number {
    const m = this.txns.get(transactionalId);
    if (m === undefined || m.producerId !== producerId) return ErrorCode.INVALID_PRODUCER_ID_MAPPING;
    if (m.producerEpoch !== producerEpoch) return ErrorCode.PRODUCER_FENCED;
    if (m.state === TxnState.PrepareCommit || m.state === TxnState.PrepareAbort) return ErrorCode.CONCURRENT_TRANSACTIONS;
    // Kafka (since KIP-890): a partition outside the transaction makes it abortable.
    return m.state === TxnState.Ongoing && containsPartition(m.partitions, topic, partition) ? ErrorCode.NONE : ErrorCode.TRANSACTION_ABORTABLE;
  }

  /** The transactional id a producer id belongs to, if any. */
  transactionalIdOf(producerId: number): string | undefined {
    return this.byProducerId.get(producerId);
  }

  // ---- EndTxn ----

  /** `clientTransactionVersion`: 2 for EndTxn v5+ (KIP-890: the epoch is bumped), else 0 (Kafka's transactionVersionForEndTxn). */
  endTxn(transactionalId: string, producerId: number, producerEpoch: number, commit: boolean, clientTransactionVersion = 0): Promise<EndTxnResult> {
    if (!this.active) return Promise.resolve(endTxnError(ErrorCode.COORDINATOR_NOT_AVAILABLE));
    return this.endTransaction(transactionalId, producerId, producerEpoch, commit, true, clientTransactionVersion);
  }

  /**
   * Kafka's endTransaction: Ongoing → PrepareCommit/PrepareAbort, answered once that is in the log (with the
   * producer id and epoch the transaction completes at), then the markers. transaction.version 2 (EndTxn v5)
   * also aborts an Empty or completed transaction, and a retry is told apart by the epoch it carries.
   */
  private async endTransaction(transactionalId: string, producerId: number, producerEpoch: number, commit: boolean, fromClient: boolean, clientTv: number): Promise<EndTxnResult> {
    if (transactionalId === '') return endTxnError(ErrorCode.INVALID_REQUEST);
    const m = this.txns.get(transactionalId);
    if (m === undefined) return endTxnError(ErrorCode.INVALID_PRODUCER_ID_MAPPING);
    const tv2 = supportsEpochBump(clientTv);
    const isEpochFence = m.pendingState === TxnState.PrepareEpochFence;
    // A retry of an EndTxn whose epoch bump (or producer id rotation) the client never heard of.
    const retryOnOverflow = tv2 && !isEpochFence && m.previousProducerId === producerId && producerEpoch === MAX_PRODUCER_EPOCH - 1 && m.producerEpoch === 0;
    const retryOnEpochBump = tv2 && !isEpochFence && m.producerEpoch === producerEpoch + 1;
    const isRetry = retryOnEpochBump || retryOnOverflow;
    let validEpoch: boolean;
    if (!tv2 || isEpochFence) {
      validEpoch = (!fromClient || producerEpoch === m.producerEpoch) && producerEpoch >= m.producerEpoch;
    } else if (m.state === TxnState.PrepareCommit || m.state === TxnState.PrepareAbort) {
      validEpoch = retryOnEpochBump;
    } else if (m.state === TxnState.CompleteCommit || m.state === TxnState.CompleteAbort) {
      validEpoch = isRetry || producerEpoch === m.producerEpoch;
    } else {
      validEpoch = producerEpoch === m.producerEpoch;
    }
    if (tv2) {
      // Kafka's TV2 order: a transition in progress first (the producer may already hold the next producer id).
      if (m.pendingState !== null && !isEpochFence) return endTxnError(ErrorCode.CONCURRENT_TRANSACTIONS);
      if (m.producerId !== producerId && !retryOnOverflow) return endTxnError(ErrorCode.INVALID_PRODUCER_ID_MAPPING);
      if (!validEpoch) return endTxnError(ErrorCode.PRODUCER_FENCED);
    } else {
      if (m.producerId !== producerId) return endTxnError(ErrorCode.INVALID_PRODUCER_ID_MAPPING);
      if (!validEpoch) return endTxnError(ErrorCode.PRODUCER_FENCED);
      if (m.pendingState !== null && !isEpochFence) return endTxnError(ErrorCode.CONCURRENT_TRANSACTIONS);
    }
    let noPartitionAdded = false;
    switch (m.state) {
      case TxnState.Ongoing:
        break;
      case TxnState.CompleteCommit:
        if (!tv2) return endTxnError(commit ? ErrorCode.NONE : ErrorCode.INVALID_TXN_STATE);
        if (commit) return isRetry ? { errorCode: ErrorCode.NONE, producerId: m.producerId, producerEpoch: m.producerEpoch } : endTxnError(ErrorCode.INVALID_TXN_STATE);
        if (isRetry) return endTxnError(ErrorCode.INVALID_TXN_STATE);
        noPartitionAdded = true;
        break;
      case TxnState.CompleteAbort:
        if (!tv2) return endTxnError(commit ? ErrorCode.INVALID_TXN_STATE : ErrorCode.NONE);
        if (commit) return endTxnError(ErrorCode.INVALID_TXN_STATE);
        if (isRetry) return { errorCode: ErrorCode.NONE, producerId: m.producerId, producerEpoch: m.producerEpoch };
        noPartitionAdded = true;
        break;
      case TxnState.PrepareCommit:
        return endTxnError(commit ? ErrorCode.CONCURRENT_TRANSACTIONS : ErrorCode.INVALID_TXN_STATE);
      case TxnState.PrepareAbort:
        return endTxnError(commit ? ErrorCode.INVALID_TXN_STATE : ErrorCode.CONCURRENT_TRANSACTIONS);
      case TxnState.Empty:
        if (tv2 && !commit) {
          noPartitionAdded = true;
          break;
        }
        return endTxnError(ErrorCode.INVALID_TXN_STATE);
      default:
        if (isEpochFence) m.pendingState = null;
        return endTxnError(ErrorCode.INVALID_TXN_STATE);
    }
    // An exhausted epoch (TV2) gets the producer id the transaction completes with now.
    let nextProducerId = NO_PRODUCER_ID;
    if (tv2 && isEpochExhausted(m.producerEpoch)) {
      try {
        nextProducerId = await this.producerIds.generate();
      } catch (error) {
        this.log.warn({ err: error }, `allocating the next producer id of ${transactionalId} failed`);
        return endTxnError(ErrorCode.COORDINATOR_NOT_AVAILABLE);
      }
      if (m.pendingState !== null && m.pendingState !== TxnState.PrepareEpochFence) return endTxnError(ErrorCode.CONCURRENT_TRANSACTIONS);
    }
    const epochFence = isEpochFence && !commit;
    if (epochFence) {
      // The fence's bump is taken over by the abort: TV1 applies the fenced epoch, TV2's abort bumps it itself.
      m.pendingState = null;
      if (!tv2) {
        m.producerEpoch = producerEpoch;
        m.lastProducerEpoch = NO_PRODUCER_EPOCH;
      }
    }
    const prepared = prepareAbortOrCommit(m, commit ? TxnState.PrepareCommit : TxnState.PrepareAbort, this.scheduler.now(), clientTv, nextProducerId, noPartitionAdded);
    const error = await this.write(m, prepared);
    if (error !== ErrorCode.NONE) {
      if (epochFence) m.hasFailedEpochFence = true;
      return endTxnError(error);
    }
    m.hasFailedEpochFence = false;
    // The answer names what the transaction completes at (a rotated producer id at epoch 0, TV2).
    const completed = prepareComplete(m, this.scheduler.now());
    this.track(this.completeWithMarkers(m));
    return tv2 ? { errorCode: ErrorCode.NONE, producerId: completed.producerId, producerEpoch: completed.producerEpoch } : endTxnError(ErrorCode.NONE);
  }

  /** Writes the markers of a prepared transaction to all its partitions, then logs it complete. */
  private async completeWithMarkers(m: TxnMetadata): Promise<void> {
    const commit = m.state === TxnState.PrepareCommit;
    // Pending from now, as Kafka's prepareComplete: requests meanwhile get CONCURRENT_TRANSACTIONS.
    m.pendingState = commit ? TxnState.CompleteCommit : TxnState.CompleteAbort;
    const { producerId, producerEpoch, clientTransactionVersion: transactionVersion } = m;
    const writes: Promise<void>[] = [];
    for (const [topic, partitions] of m.partitions) {
      for (const partition of partitions) {
        writes.push(this.sendMarker({ topic, partition, producerId, producerEpoch, commit, coordinatorEpoch: COORDINATOR_EPOCH, transactionVersion }));
      }
    }
    await Promise.all(writes);
    if (!this.active || m.producerId !== producerId || m.producerEpoch !== producerEpoch) return;
    if (m.state !== TxnState.PrepareCommit && m.state !== TxnState.PrepareAbort) return;
    const error = await this.write(m, prepareComplete(m, this.scheduler.now()));
    if (error !== ErrorCode.NONE) this.log.error(`completing the transaction of ${m.transactionalId} failed: error ${error}`);
  }

  private async sendMarker(marker: MarkerRequest): Promise<void> {
    for (;;) {
      const error = await this.writeMarker(marker).catch((err: unknown) => {
        this.log.error({ err }, `writing a transaction marker to ${marker.topic}-${marker.partition} failed`);
        return ErrorCode.UNKNOWN_SERVER_ERROR;
      });
      if (error === ErrorCode.NONE) return;
      if (!RETRIABLE_MARKER_ERRORS.has(error) || !this.active) {
        // Kafka drops the marker for a deleted partition or a fenced producer and completes the transaction.
        if (error !== ErrorCode.UNKNOWN_TOPIC_OR_PARTITION) this.log.warn(`transaction marker for ${marker.topic}-${marker.partition} dropped: error ${error}`);
        return;
      }
      await new Promise<void>((resolve) => this.scheduler.after(MARKER_RETRY_MS, resolve));
    }
  }

  // ---- timeouts and expiry ----

  /** Aborts every Ongoing transaction older than its timeout, fencing its producer (runs on a timer). */
  abortTimedOutTransactions(): void {
    if (!this.active) return;
    const now = this.scheduler.now();
    for (const m of this.txns.values()) {
      if (m.state !== TxnState.Ongoing || m.pendingState !== null) continue;
      if (m.txnStartTimestamp + m.txnTimeoutMs >= now) continue;
      const fence = prepareFenceProducerEpoch(m);
      m.pendingState = TxnState.PrepareEpochFence;
      this.log.info(`aborting transaction of ${m.transactionalId} (producerId ${m.producerId}) after its timeout of ${m.txnTimeoutMs} ms`);
      void this.endTransaction(m.transactionalId, fence.producerId, fence.producerEpoch, false, false, this.transactionVersion());
    }
  }

  /** Forgets transactional ids idle longer than transactional.id.expiration.ms (a tombstone is logged). */
  async removeExpiredTransactionalIds(): Promise<void> {
    if (!this.active) return;
    const cutoff = this.scheduler.now() - this.config['transactional.id.expiration.ms'];
    const expired = [...this.txns.values()].filter(
      (m) =>
        m.pendingState === null &&
        (m.state === TxnState.Empty || m.state === TxnState.CompleteCommit || m.state === TxnState.CompleteAbort) &&
        m.txnLastUpdateTimestamp <= cutoff,
    );
    await Promise.all(
      expired.map(async (m) => {
        m.pendingState = TxnState.Dead;
        try {
          await this.txnLog.append({ transactionalId: m.transactionalId, value: null }, this.transactionVersion());
          applyFields(m, prepareDead(m));
          this.txns.delete(m.transactionalId);
          this.byProducerId.delete(m.producerId);
        } catch (error) {
          this.log.warn({ err: error }, `expiring transactional id ${m.transactionalId} failed`);
        } finally {
          m.pendingState = null;
        }
      }),
    );
  }

  // ---- admin ----

  describe(transactionalId: string): DescribedTransaction {
    const m = this.txns.get(transactionalId);
    if (!this.active) return { ...emptyDescription(transactionalId), errorCode: ErrorCode.COORDINATOR_NOT_AVAILABLE };
    if (m === undefined || m.state === TxnState.Dead) return { ...emptyDescription(transactionalId), errorCode: ErrorCode.TRANSACTIONAL_ID_NOT_FOUND };
    return {
      errorCode: ErrorCode.NONE,
      transactionalId,
      state: stateName(m.state),
      timeoutMs: m.txnTimeoutMs,
      startTimeMs: m.txnStartTimestamp,
      producerId: m.producerId,
      producerEpoch: m.producerEpoch,
      topics: [...m.partitions].map(([topic, ps]) => ({ topic, partitions: [...ps].sort((a, b) => a - b) })),
    };
  }

  /**
   * ListTransactions' filters: states (by name), producer ids, running time (ms, negative: none), id pattern. As
   * Kafka's TransactionStateManager, the duration filter keeps ids whose transaction started more than that long
   * ago, whatever their state (an id without a transaction, start -1, always passes).
   */
  list(filters: { states: readonly string[]; producerIds: readonly number[]; durationMs: number; pattern: FullMatchPattern | null }): { unknownStates: string[]; transactions: ListedTransaction[] } {
    const unknownStates = filters.states.filter((s) => stateByName(s) === undefined);
    const states = new Set(filters.states.map(stateByName).filter((s): s is TxnStateId => s !== undefined));
    const now = this.scheduler.now();
    const transactions: ListedTransaction[] = [];
    if (unknownStates.length > 0 && states.size === 0) return { unknownStates, transactions };
    for (const m of this.txns.values()) {
      if (m.state === TxnState.Dead) continue;
      if (states.size > 0 && !states.has(m.state)) continue;
      if (filters.producerIds.length > 0 && !filters.producerIds.includes(m.producerId)) continue;
      if (filters.durationMs >= 0 && now - m.txnStartTimestamp <= filters.durationMs) continue;
      if (filters.pattern !== null && !filters.pattern.test(m.transactionalId)) continue;
      transactions.push({ transactionalId: m.transactionalId, producerId: m.producerId, state: stateName(m.state) });
    }
    return { unknownStates, transactions };
  }

  /** Stops timers and waits for marker rounds and log writes in progress. */
  async close(): Promise<void> {
    this.active = false;
    for (const stop of this.stops.splice(0)) stop();
    await Promise.all(this.inFlight);
    await this.txnLog.settledAll();
  }

  // ---- the runtime ----

  /** The finalized transaction.version now (Kafka's TransactionStateManager.transactionVersionLevel). */
  private transactionVersion(): number {
    return this.features.level(TRANSACTION_VERSION);
  }

  /** Logs the new fields, then applies them; the id is marked pending meanwhile. Resolves with an error code. */
  private async write(m: TxnMetadata, fields: TxnFields): Promise<number> {
    const level = this.transactionVersion();
    // Kafka fails such a write in its serializer (and leaves the id pending for good); here nothing changes.
    if (!txnValueFits(fields, level)) return ErrorCode.UNSUPPORTED_VERSION;
    m.pendingState = fields.state;
    try {
      await this.txnLog.append({ transactionalId: m.transactionalId, value: fields }, level);
    } catch (error) {
      m.pendingState = null;
      this.log.warn({ err: error }, `writing the transaction state of ${m.transactionalId} failed`);
      return ErrorCode.COORDINATOR_NOT_AVAILABLE;
    }
    m.pendingState = null;
    if (m.producerId !== fields.producerId) this.byProducerId.delete(m.producerId);
    applyFields(m, fields);
    this.byProducerId.set(m.producerId, m.transactionalId);
    return ErrorCode.NONE;
  }

  private track(work: Promise<void>): void {
    const tracked = work.catch((error: unknown) => this.log.error({ err: error }, 'transaction marker round failed'));
    this.inFlight.add(tracked);
    void tracked.finally(() => this.inFlight.delete(tracked));
  }
}

function isValidProducerId(m: TxnMetadata, expected: ProducerIdAndEpoch): boolean {
  return (
    m.producerEpoch === NO_PRODUCER_EPOCH ||
    expected.producerId === m.producerId ||
    (expected.producerId === m.previousProducerId && isEpochExhausted(expected.epoch))
  );
}

function endTxnError(errorCode: number): EndTxnResult {
  return { errorCode, producerId: NO_PRODUCER_ID, producerEpoch: NO_PRODUCER_EPOCH };
}

function initError(errorCode: number): InitProducerIdResult {
  return { errorCode, producerId: NO_PRODUCER_ID, producerEpoch: NO_PRODUCER_EPOCH };
}

function emptyDescription(transactionalId: string): DescribedTransaction {
  return { errorCode: ErrorCode.NONE, transactionalId, state: '', timeoutMs: 0, startTimeMs: -1, producerId: -1, producerEpoch: -1, topics: [] };
}
