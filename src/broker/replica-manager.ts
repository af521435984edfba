// The Kafka-level partition layer over the LogStore, named after Kafka's class with the same job: finds a
// partition's log, appends produced batches, and owns the broker-wide state of the data path (topic config
// cache, fetch sessions, pending long polls). Handlers reach it as BrokerState.replicaManager.
import type { BrokerConfig, TopicConfig } from '../config/index.js';
import { ErrorCode } from '../protocol/error-codes.js';
import type { RecordsValue } from '../protocol/io/writer.js';
import type { PartitionLog } from '../storage/log.js';
import type { LogStore, TopicMetadata } from '../storage/log-store.js';
import { isInternalTopic } from '../protocol/topic-names.js';
import { FetchSessionCache } from './fetch-session-cache.js';
import { appendProduced, failed, type PartitionAppendOutcome } from './produce-append.js';
import { appendEveryBatch, type ProducerStateCheck } from './producer-state.js';
import { TopicConfigCache } from './topic-config-cache.js';

export type PartitionLookup =
  | { readonly ok: true; readonly topic: TopicMetadata; readonly log: PartitionLog }
  | { readonly ok: false; readonly errorCode: number };

export interface AppendOptions {
  /** Produce request version (framing rules differ by version). */
  readonly apiVersion: number;
  /** Only the broker's own writers (and Kafka's `__admin_client`) may append to internal topics. */
  readonly internalTopicsAllowed: boolean;
}

export interface ReplicaManagerOptions {
  readonly producerState?: ProducerStateCheck;
  readonly now?: () => number;
}

export class ReplicaManager {
  readonly topicConfigs: TopicConfigCache;
  readonly fetchSessions: FetchSessionCache;
  private readonly producerState: ProducerStateCheck;
  private readonly now: () => number;
  private readonly shutdownController = new AbortController();

  constructor(
    readonly store: LogStore,
    private brokerConfig: BrokerConfig,
    options: ReplicaManagerOptions = {},
  ) {
    this.topicConfigs = new TopicConfigCache(brokerConfig);
    this.fetchSessions = new FetchSessionCache(brokerConfig['max.incremental.fetch.session.cache.slots']);
    this.producerState = options.producerState ?? appendEveryBatch;
    this.now = options.now ?? Date.now;
  }

  get config(): BrokerConfig {
    return this.brokerConfig;
  }

  /** The live broker config changed (dynamic broker configs): topic configs resolve over the new one from now on. */
  reconfigure(config: BrokerConfig): void {
    this.brokerConfig = config;
    this.topicConfigs.setBrokerConfig(config);
  }

  /** Aborted when the broker starts closing: long polls answer at once with what they have. */
  get shutdownSignal(): AbortSignal {
    return this.shutdownController.signal;
  }

  shutdown(): void {
    this.shutdownController.abort();
  }

  partition(topicName: string, index: number): PartitionLookup {
    const topic = this.store.topic(topicName);
    const log = topic === undefined ? undefined : this.store.log(topicName, index);
    if (topic === undefined || log === undefined) return { ok: false, errorCode: ErrorCode.UNKNOWN_TOPIC_OR_PARTITION };
    return { ok: true, topic, log };
  }

  topicConfig(topic: TopicMetadata): TopicConfig {
    return this.topicConfigs.get(topic);
  }

  /**
   * Validates and appends one partition's records. Starts the append before returning its promise, so calls
   * made in request order reach each log in that order.
   */
  appendRecords(topicName: string, index: number, records: RecordsValue | null, options: AppendOptions): Promise<PartitionAppendOutcome> {
    const found = this.partition(topicName, index);
    if (!found.ok) return Promise.resolve(failed(found.errorCode));
    if (isInternalTopic(topicName) && !options.internalTopicsAllowed) return Promise.resolve(failed(ErrorCode.INVALID_TOPIC_EXCEPTION));
    const target = { topic: topicName, partition: index, log: found.log, config: this.topicConfig(found.topic) };
    return appendProduced(target, records, options.apiVersion, this.producerState, this.now());
  }
}
