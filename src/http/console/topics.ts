/**
 * Topics for the console: the list and a topic's partitions are read from the store (sizes, offsets); every change
 * (create, delete, configs, partitions, delete records) and every config read is the broker's own Kafka API
 * (kafka-calls.ts), so its checks and errors are Kafka's.
 */
import { createTopicsApi, createCreateTopicsRequest, createCreatableTopic } from '../../protocol/generated/create-topics.js';
import { deleteTopicsApi, createDeleteTopicsRequest } from '../../protocol/generated/delete-topics.js';
import { createPartitionsApi, createCreatePartitionsRequest } from '../../protocol/generated/create-partitions.js';
import { deleteRecordsApi, createDeleteRecordsRequest } from '../../protocol/generated/delete-records.js';
import { describeConfigsApi, createDescribeConfigsRequest } from '../../protocol/generated/describe-configs.js';
import { incrementalAlterConfigsApi, createIncrementalAlterConfigsRequest } from '../../protocol/generated/incremental-alter-configs.js';
import { describeProducersApi, createDescribeProducersRequest } from '../../protocol/generated/describe-producers.js';
import { ZERO_UUID } from '../../protocol/uuid.js';
import { ErrorCode } from '../../protocol/error-codes.js';
import { isInternalTopic } from '../../protocol/topic-names.js';
import type { BrokerState } from '../../server/handler.js';
import { replicaView } from '../../server/cluster-view.js';
import { checkError, type KafkaCalls } from './kafka-calls.js';

/** DescribeConfigs/IncrementalAlterConfigs resource types (Kafka's ConfigResource.Type). */
export const ResourceType = { TOPIC: 2, BROKER: 4 } as const;
const SOURCE_NAMES: Record<number, string> = {
  0: 'UNKNOWN', 1: 'DYNAMIC_TOPIC_CONFIG', 2: 'DYNAMIC_BROKER_CONFIG', 3: 'DYNAMIC_DEFAULT_BROKER_CONFIG', 4: 'STATIC_BROKER_CONFIG',
  5: 'DEFAULT_CONFIG', 6: 'DYNAMIC_BROKER_LOGGER_CONFIG', 7: 'CLIENT_METRICS_CONFIG', 8: 'GROUP_CONFIG',
};

export interface TopicSummary {
  readonly name: string;
  readonly topicId: string;
  readonly internal: boolean;
  readonly partitions: number;
  readonly sizeBytes: number;
  /** Offsets between each partition's log start and high watermark (transaction markers count, as in Kafka UI). */
  readonly messages: number;
  readonly retentionMs: number;
  readonly retentionBytes: number;
  readonly cleanupPolicy: string;
}

export interface PartitionSummary {
  readonly partition: number;
  readonly logStartOffset: number;
  readonly highWatermark: number;
  readonly logEndOffset: number;
  readonly sizeBytes: number;
  readonly leader: number;
}

export function topicSummaries(broker: BrokerState): TopicSummary[] {
  return broker.store.topics().map((topic) => {
    let sizeBytes = 0;
    let messages = 0;
    let config = undefined;
    for (let p = 0; p < topic.partitions; p++) {
      const log = broker.store.log(topic.name, p);
      if (log === undefined) continue;
      sizeBytes += log.sizeInBytes();
      messages += log.highWatermark - log.logStartOffset;
      config ??= log.config;
    }
    config ??= broker.store.logConfigFor(topic.configs);
    return {
      name: topic.name,
      topicId: topic.topicId,
      internal: isInternalTopic(topic.name),
      partitions: topic.partitions,
      sizeBytes,
      messages,
      retentionMs: Number.isFinite(config.retentionMs) ? config.retentionMs : -1,
      retentionBytes: config.retentionBytes,
      cleanupPolicy: [config.deleteEnabled ? 'delete' : '', config.compactEnabled ? 'compact' : ''].filter((s) => s !== '').join(','),
    };
  }).sort((a, b) => a.name.localeCompare(b.name));
}

function leaderOf(broker: BrokerState, topic: string, partition: number): number {
  const view = replicaView(broker, topic, partition);
  return view.leaderAlive ? view.leaderId : -1;
}

export function partitionSummaries(broker: BrokerState, topic: string): PartitionSummary[] | undefined {
  const meta = broker.store.topic(topic);
  if (meta === undefined) return undefined;
  const partitions: PartitionSummary[] = [];
  for (let p = 0; p < meta.partitions; p++) {
    const log = broker.store.log(topic, p);
    if (log === undefined) continue;
    partitions.push({
      partition: p, logStartOffset: log.logStartOffset, highWatermark: log.highWatermark, logEndOffset: log.logEndOffset,
      // The metadata's leader (cluster mode: maybe another broker, whose log this broker's may lag), -1 when none is alive.
      sizeBytes: log.sizeInBytes(), leader: leaderOf(broker, topic, p),
    });
  }
  return partitions;
}

export async function createTopic(kafka: KafkaCalls, name: string, partitions: number, configs: Record<string, string>): Promise<void> {
  const response = await kafka.call(createTopicsApi, 7, {
    ...createCreateTopicsRequest(),
    timeoutMs: 30_000,
    topics: [{ ...createCreatableTopic(), name, numPartitions: partitions, replicationFactor: -1,
      configs: Object.entries(configs).map(([key, value]) => ({ name: key, value })) }],
  });
  const result = response.topics[0]!;
  checkError(result.errorCode, result.errorMessage);
}

export async function deleteTopic(kafka: KafkaCalls, name: string): Promise<void> {
  const response = await kafka.call(deleteTopicsApi, 6, { ...createDeleteTopicsRequest(), timeoutMs: 30_000, topics: [{ name, topicId: ZERO_UUID }] });
  const result = response.responses[0]!;
  checkError(result.errorCode, result.errorMessage);
}

export async function addPartitions(kafka: KafkaCalls, name: string, total: number): Promise<void> {
  const response = await kafka.call(createPartitionsApi, 3, {
    ...createCreatePartitionsRequest(), timeoutMs: 30_000, topics: [{ name, count: total, assignments: null }],
  });
  const result = response.results[0]!;
  checkError(result.errorCode, result.errorMessage);
}

/** DeleteRecords: each partition's log start moves to its offset (-1: the high watermark). Returns the new low watermarks. */
export async function deleteRecords(kafka: KafkaCalls, name: string, offsets: Readonly<Record<number, number>>): Promise<Record<number, number>> {
  const response = await kafka.call(deleteRecordsApi, 2, {
    ...createDeleteRecordsRequest(), timeoutMs: 30_000,
    topics: [{ name, partitions: Object.entries(offsets).map(([p, offset]) => ({ partitionIndex: Number(p), offset: BigInt(offset) })) }],
  });
  const lowWatermarks: Record<number, number> = {};
  for (const partition of response.topics[0]?.partitions ?? []) {
    checkError(partition.errorCode);
    lowWatermarks[partition.partitionIndex] = Number(partition.lowWatermark);
  }
  return lowWatermarks;
}

export interface ShownConfig {
  readonly name: string;
  readonly value: string | null;
  readonly source: string;
  readonly readOnly: boolean;
  readonly sensitive: boolean;
  readonly documentation: string | null;
}

/** DescribeConfigs of one topic or broker: every config with its value and source. */
export async function describeConfigs(kafka: KafkaCalls, resourceType: number, name: string): Promise<ShownConfig[]> {
  const response = await kafka.call(describeConfigsApi, 4, {
    ...createDescribeConfigsRequest(), includeSynonyms: false, includeDocumentation: true,
    resources: [{ resourceType, resourceName: name, configurationKeys: null }],
  });
  const result = response.results[0]!;
  checkError(result.errorCode, result.errorMessage);
  return result.configs.map((c) => ({
    name: c.name, value: c.value, source: SOURCE_NAMES[c.configSource] ?? String(c.configSource), readOnly: c.readOnly,
    sensitive: c.isSensitive, documentation: c.documentation,
  })).sort((a, b) => a.name.localeCompare(b.name));
}

/** IncrementalAlterConfigs: a string sets the key, null deletes it (back to its default). */
export async function alterConfigs(kafka: KafkaCalls, resourceType: number, name: string, changes: Readonly<Record<string, string | null>>): Promise<void> {
  const response = await kafka.call(incrementalAlterConfigsApi, 1, {
    ...createIncrementalAlterConfigsRequest(),
    resources: [{ resourceType, resourceName: name,
      configs: Object.entries(changes).map(([key, value]) => ({ name: key, configOperation: value === null ? 1 : 0, value })) }],
  });
  const result = response.responses[0]!;
  checkError(result.errorCode, result.errorMessage);
}

export interface ShownProducer {
  readonly partition: number;
  readonly producerId: number;
  readonly producerEpoch: number;
  readonly lastSequence: number;
  readonly lastTimestamp: number;
  readonly currentTxnStartOffset: number;
}

/** DescribeProducers over every partition of a topic (kafka-transactions describe-producers). */
export async function describeProducers(kafka: KafkaCalls, topic: string, partitions: number): Promise<ShownProducer[]> {
  const response = await kafka.call(describeProducersApi, 0, {
    ...createDescribeProducersRequest(), topics: [{ name: topic, partitionIndexes: Array.from({ length: partitions }, (_, p) => p) }],
  });
  const producers: ShownProducer[] = [];
  for (const partition of response.topics[0]?.partitions ?? []) {
    // Cluster mode: a partition another broker leads has its producers there (the admin client asks each leader).
    if (partition.errorCode === ErrorCode.NOT_LEADER_OR_FOLLOWER) continue;
    checkError(partition.errorCode, partition.errorMessage);
    for (const p of partition.activeProducers) {
      producers.push({
        partition: partition.partitionIndex, producerId: Number(p.producerId), producerEpoch: p.producerEpoch, lastSequence: p.lastSequence,
        lastTimestamp: Number(p.lastTimestamp), currentTxnStartOffset: Number(p.currentTxnStartOffset),
      });
    }
  }
  return producers;
}
