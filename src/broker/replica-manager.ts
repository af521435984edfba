// The Kafka-level partition layer over the LogStore, named after Kafka's class with the same job: finds a
// partition's log, appends produced batches (appendRecords), reads them back with the delayed fetch
// (fetchRecords, Kafka's fetchMessages + DelayedFetch), and owns the broker-wide state of the data path (topic
// config cache, fetch sessions, pending long polls). Handlers reach it as BrokerState.replicaManager.
import type { BrokerConfig, TopicConfig } from '../config/index.js';
import { ErrorCode } from '../protocol/error-codes.js';
import type { RecordsValue } from '../protocol/io/writer.js';
import type { PartitionLog } from '../storage/log.js';
import type { LogStore, TopicMetadata } from '../storage/log-store.js';
import { systemScheduler, type Scheduler } from '../storage/scheduler.js';
import { isInternalTopic } from '../protocol/topic-names.js';
import type { FetchTarget } from './fetch-context.js';
import { errorRead, readPartitions, resolveFetchPartition, type FetchPartition, type PartitionRead, type TransactionView } from './fetch-reader.js';
import { FetchSessionCache } from './fetch-session-cache.js';
import { DelayedFetches } from './fetch-wait.js';
import { appendProduced, failed, type PartitionAppendOutcome } from './produce-append.js';
import { appendEveryBatch, type ProducerStateCheck } from './producer-state.js';
import { PartitionAddBatcher, produceVerificationFailure, transactionalBatchHeader, type TransactionPartitionAdder } from './txn-partition-add.js';
import { TopicConfigCache } from './topic-config-cache.js';
import { SharePartitionManager } from './share/share-partition-manager.js';
import { BrokerTopicStats } from './broker-topic-stats.js';
import type { Replication } from './replication.js';

export type PartitionLookup =
  | { readonly ok: true; readonly topic: TopicMetadata; readonly log: PartitionLog }
  | { readonly ok: false; readonly errorCode: number };

export interface AppendOptions {
  /** Produce request version (framing rules differ by version). */
  readonly apiVersion: number;
  /** Only the broker's own writers (and Kafka's `__admin_client`) may append to internal topics. */
  readonly internalTopicsAllowed: boolean;
  /**
   * Produce v12+ (produceAddsPartitionToTxn) from a transactional producer, with its transactional id: a batch
   * that opens the producer's transaction on the partition first adds the partition to it (KIP-890 part 2).
   */
  readonly addToTransaction?: { readonly transactionalId: string | null } | undefined;
  /** Produce's acks: -1 (all) checks min.insync.replicas and, with replication, waits for the ISR. Default 1. */
  readonly requiredAcks?: number;
  /** Produce's timeout_ms: how long acks=all waits for the ISR. */
  readonly timeoutMs?: number;
}

export interface FetchParams {
  /** max_wait_ms and min_bytes: how long to wait for how much (DelayedFetch). */
  readonly maxWaitMs: number;
  readonly minBytes: number;
  /** The response's byte budget: min(max_bytes, fetch.max.bytes). */
  readonly maxBytes: number;
  readonly isolationLevel: number;
  /** v13+: targets name their topic by id. */
  readonly usesTopicIds: boolean;
  /** Aborted when the client's connection closes: a long poll stops waiting, nobody is left to answer. */
  readonly abandoned?: AbortSignal;
  /** Whether the client may READ a topic (the authorizer's answer); every topic when absent. */
  readonly readable?: (topic: string) => boolean;
  /** A follower's fetch (replica id >= 0): read up to the log end, its fetch offsets reported to replication. */
  readonly replicaId?: number;
}

export interface ReplicaManagerOptions {
  readonly producerState?: ProducerStateCheck;
  /** Last stable offsets and aborted transactions for read_committed fetches; none known without it. */
  readonly transactions?: TransactionView;
  /** The broker's clock: long-poll deadlines, fetch session eviction, share locks, LogAppendTime. Default: real time. */
  readonly clock?: Scheduler;
  /** Overrides the clock's reading alone (tests). */
  readonly now?: () => number;
  /** The broker's per-topic counts, shared with the coordinators that append to their logs themselves. Default: its own. */
  readonly topicStats?: BrokerTopicStats;
}

export class ReplicaManager {
  readonly topicConfigs: TopicConfigCache;
  readonly fetchSessions: FetchSessionCache;
  private readonly producerState: ProducerStateCheck;
  private readonly transactions: TransactionView | undefined;
  private readonly now: () => number;
  private partitionAdds: PartitionAddBatcher | undefined;
  private leads: ((topic: string, partition: number) => boolean) | undefined;
  private replication: Replication | undefined;
  readonly delayedFetches: DelayedFetches;
  /** Records and bytes in and out per topic (Kafka's BrokerTopicMetrics). */
  readonly topicStats: BrokerTopicStats;
  /** Share groups' share partitions and share sessions (ShareFetch, ShareAcknowledge). */
  readonly sharePartitions: SharePartitionManager;

  constructor(
    readonly store: LogStore,
    private brokerConfig: BrokerConfig,
    options: ReplicaManagerOptions = {},
  ) {
    const clock = options.clock ?? systemScheduler;
    this.topicStats = options.topicStats ?? new BrokerTopicStats();
    this.now = options.now ?? (() => clock.now());
    this.delayedFetches = new DelayedFetches(clock);
    this.topicConfigs = new TopicConfigCache(brokerConfig);
    this.fetchSessions = new FetchSessionCache(brokerConfig['max.incremental.fetch.session.cache.slots'], undefined, this.now);
    this.producerState = options.producerState ?? appendEveryBatch;
    this.transactions = options.transactions;
    // Share partitions' acquisition locks run on the broker's clock (a test's `now` override reads alone).
    const shareClock = options.now === undefined ? clock : { ...clock, now: options.now };
    this.sharePartitions = new SharePartitionManager(store, this.delayedFetches, shareClock, () => this.brokerConfig['group.share.max.share.sessions'], this.transactions);
  }

  get config(): BrokerConfig {
    return this.brokerConfig;
  }

  /** The live broker config changed (dynamic broker configs): topic configs resolve over the new one from now on. */
  reconfigure(config: BrokerConfig): void {
    this.brokerConfig = config;
    this.topicConfigs.setBrokerConfig(config);
  }

  /** The transaction coordinator, which adds partitions to transactions for Produce v12+. */
  setTransactionPartitionAdder(adder: TransactionPartitionAdder | undefined): void {
    this.partitionAdds = adder === undefined ? undefined : new PartitionAddBatcher(adder);
  }

  /** The broker starts closing: long polls answer at once with what they have; share records stay as acquired. */
  shutdown(): void {
    this.sharePartitions.shutdown();
    this.delayedFetches.shutdown();
  }

  /**
   * Cluster mode: whether this broker leads a partition (the cluster's metadata); a partition it does not lead is
   * NOT_LEADER_OR_FOLLOWER to Produce, Fetch and every other lookup, as Kafka's getPartitionOrError answers.
   */
  setLeadership(leads: ((topic: string, partition: number) => boolean) | undefined): void {
    this.leads = leads;
  }

  /** Cluster mode: acks=all waits for the ISR and followers' fetches move the high watermark (src/broker/replication.ts). */
  setReplication(replication: Replication | undefined): void {
    this.replication = replication;
  }

  partition(topicName: string, index: number): PartitionLookup {
    const topic = this.store.topic(topicName);
    const log = topic === undefined ? undefined : this.store.log(topicName, index);
    if (topic === undefined || log === undefined) return { ok: false, errorCode: ErrorCode.UNKNOWN_TOPIC_OR_PARTITION };
    if (this.leads !== undefined && !this.leads(topicName, index)) return { ok: false, errorCode: ErrorCode.NOT_LEADER_OR_FOLLOWER };
    return { ok: true, topic, log };
  }

  topicConfig(topic: TopicMetadata): TopicConfig {
    return this.topicConfigs.get(topic);
  }

  /**
   * Validates and appends one partition's records. Starts the append before returning its promise, so calls
   * made in request order reach each log in that order; except a batch that first adds its partition to a
   * transaction (Produce v12+), appended once the coordinator has answered, as in Kafka.
   */
  appendRecords(topicName: string, index: number, records: RecordsValue | null, options: AppendOptions): Promise<PartitionAppendOutcome> {
    const found = this.partition(topicName, index);
    if (!found.ok) return Promise.resolve(failed(found.errorCode));
    if (isInternalTopic(topicName) && !options.internalTopicsAllowed) return Promise.resolve(failed(ErrorCode.INVALID_TOPIC_EXCEPTION));
    const target = { topic: topicName, partition: index, log: found.log, config: this.topicConfig(found.topic), stats: this.topicStats.of(topicName) };
    const { replication } = this;
    const requiredAcks = options.requiredAcks ?? 1;
    const minIsr = target.config['min.insync.replicas'];
    const append = (): Promise<PartitionAppendOutcome> => {
      if (replication !== undefined) {
        const refused = replication.checkBeforeAppend(topicName, index, target.log, requiredAcks, minIsr);
        if (refused !== ErrorCode.NONE) return Promise.resolve(failed(refused));
      }
      const appended = appendProduced(target, records, options.apiVersion, this.producerState, this.now());
      if (replication === undefined || requiredAcks !== -1) return appended;
      // DelayedProduce: the answer waits until the ISR holds the batch (its last offset below the high watermark).
      return appended.then(async (outcome) => {
        if (outcome.errorCode !== ErrorCode.NONE || outcome.lastOffset === undefined) return outcome;
        const errorCode = await replication.awaitReplicated(topicName, index, target.log, outcome.lastOffset + 1, minIsr, options.timeoutMs ?? 30_000);
        return errorCode === ErrorCode.NONE ? outcome : { ...outcome, errorCode };
      });
    };
    const adding = this.addToTransaction(target.log, topicName, index, records, options);
    if (adding === undefined) return append();
    return adding.then((failure) => failure ?? append());
  }

  /**
   * Kafka's maybeSendPartitionsToTransactionCoordinator with addPartition: a transactional batch whose producer
   * has no transaction open here at its epoch goes to the coordinator first (whatever
   * transaction.partition.verification.enable says: version 2 clients send no AddPartitionsToTxn). Undefined when
   * nothing is to be added; else the failed outcome, or null once added.
   */
  private addToTransaction(log: PartitionLog, topic: string, partition: number, records: RecordsValue | null, options: AppendOptions): Promise<PartitionAppendOutcome | null> | undefined {
    const transactionalId = options.addToTransaction?.transactionalId;
    if (transactionalId == null || this.partitionAdds === undefined) return undefined;
    const header = transactionalBatchHeader(records);
    if (header === undefined || this.producerState.hasOngoingTransaction?.(log, header.producerId, header.producerEpoch) !== false) return undefined;
    return this.partitionAdds.add(transactionalId, header.producerId, header.producerEpoch, topic, partition).then((errorCode) => {
      if (errorCode === ErrorCode.NONE) return null;
      const failure = produceVerificationFailure(errorCode, options.apiVersion);
      return { ...failed(failure.errorCode), errorMessage: failure.message };
    });
  }

  /**
   * Reads the partitions of one Fetch, each log looked up once; then, as Kafka's DelayedFetch, waits up to
   * max_wait_ms while fewer than min_bytes are ready and nothing forces an answer, reading again when a log is
   * appended to. After a wait each partition is looked up again: its topic may have been deleted meanwhile.
   */
  async fetchRecords(targets: readonly FetchTarget[], params: FetchParams): Promise<PartitionRead[]> {
    const follower = this.replication !== undefined && params.replicaId !== undefined && params.replicaId >= 0 ? params.replicaId : undefined;
    const limits = {
      maxBytes: params.maxBytes, isolationLevel: params.isolationLevel, ...(this.transactions ? { transactions: this.transactions } : {}),
      ...(follower === undefined ? {} : { fromFollower: true }),
    };
    if (follower !== undefined) return this.fetchAsLeader(targets, params, limits, follower);
    let partitions = this.resolveFetch(targets, params);
    let reads = await readPartitions(partitions, limits);
    if (!mustWait(params, reads)) return reads;
    const deadline = this.now() + params.maxWaitMs;
    for (;;) {
      const logs = partitions.flatMap((p) => ('log' in p ? [p.log] : []));
      const reason = await this.delayedFetches.wait(logs, deadline - this.now(), params.abandoned);
      if (reason === 'closed') return reads;
      partitions = this.resolveFetch(targets, params);
      reads = await readPartitions(partitions, limits);
      if (reason !== 'append' || !mustWait(params, reads)) return reads;
    }
  }

  /**
   * A follower's fetch: read as a consumer's is (the long poll included), but up to the log end; each partition's
   * fetch offset then goes to replication (the ISR may grow, the high watermark move), after the read as Kafka's
   * Partition.fetchRecords does, so the follower learns the new high watermark on its next fetch.
   */
  private async fetchAsLeader(targets: readonly FetchTarget[], params: FetchParams, limits: Parameters<typeof readPartitions>[1], replicaId: number): Promise<PartitionRead[]> {
    let partitions = this.resolveFetch(targets, params);
    const readAll = async (): Promise<{ reads: PartitionRead[]; ends: number[] }> => {
      const ends = partitions.map((p) => ('log' in p ? p.log.logEndOffset : -1));
      return { reads: await readPartitions(partitions, limits), ends };
    };
    const report = (read: PartitionRead, i: number, end: number): PartitionRead => {
      const partition = partitions[i]!;
      if (read.errorCode !== ErrorCode.NONE || read.divergingEpoch !== null || !('log' in partition)) return read;
      const errorCode = this.replication!.followerFetched(partition.topic, partition.target.partition, partition.log, replicaId, Number(partition.target.request.fetchOffset), end);
      return errorCode === ErrorCode.NONE ? read : errorRead(errorCode, read.topic, false);
    };
    let { reads, ends } = await readAll();
    // Reported at once, before any wait: the follower's fetch offset is what completes the producers waiting on it.
    reads = reads.map((read, i) => report(read, i, ends[i]!));
    if (mustWait(params, reads)) {
      const deadline = this.now() + params.maxWaitMs;
      for (;;) {
        const logs = partitions.flatMap((p) => ('log' in p ? [p.log] : []));
        const reason = await this.delayedFetches.wait(logs, deadline - this.now(), params.abandoned);
        if (reason === 'closed') break;
        partitions = this.resolveFetch(targets, params);
        ({ reads, ends } = await readAll());
        reads = reads.map((read, i) => report(read, i, ends[i]!));
        if (reason !== 'append' || !mustWait(params, reads)) break;
      }
    }
    return reads;
  }

  private resolveFetch(targets: readonly FetchTarget[], params: FetchParams): FetchPartition[] {
    return targets.map((target) => {
      const resolved = resolveFetchPartition(this.store, target, params.usesTopicIds, params.readable);
      if ('failed' in resolved || this.leads === undefined || this.leads(resolved.topic, target.partition)) return resolved;
      return { target, failed: errorRead(ErrorCode.NOT_LEADER_OR_FOLLOWER, resolved.topic, false) };
    });
  }
}

/** DelayedFetch's rule: wait only while nothing forces an answer and fewer than min_bytes are ready. */
function mustWait(params: FetchParams, reads: readonly PartitionRead[]): boolean {
  if (params.maxWaitMs <= 0) return false;
  let bytes = 0;
  let readable = 0;
  for (const read of reads) {
    if (read.beforeRead) continue;
    readable++;
    if (read.errorCode !== ErrorCode.NONE || read.divergingEpoch !== null) return false;
    bytes += read.bytes;
  }
  return readable > 0 && bytes < params.minBytes;
}
