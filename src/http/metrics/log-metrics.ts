/**
 * Topics, partitions and logs at scrape time. Per partition, the names kafka-exporter gives (kafka_topic_*: the
 * offsets a client's ListOffsets sees) and the JMX exporter gives Kafka's Log MBeans (kafka_log_log_*); per broker,
 * ReplicaManager's and the controller's counts. One node leads every partition with every replica in sync, so the
 * replication gauges are what Kafka reports for such a cluster.
 */
import type { Registry } from 'prom-client';
import type { HttpContext } from '../context.js';
import { registerScraped, type Labels, type Sample } from './scraped-metric.js';

interface PartitionView {
  readonly topic: string;
  readonly partition: number;
  readonly logStartOffset: number;
  readonly logEndOffset: number;
  readonly highWatermark: number;
  readonly size: number;
}

function partitions(ctx: HttpContext): PartitionView[] {
  const views: PartitionView[] = [];
  for (const topic of ctx.store.topics()) {
    for (let partition = 0; partition < topic.partitions; partition++) {
      const log = ctx.store.log(topic.name, partition);
      if (log === undefined) continue;
      views.push({ topic: topic.name, partition, logStartOffset: log.logStartOffset, logEndOffset: log.logEndOffset, highWatermark: log.highWatermark, size: log.sizeInBytes() });
    }
  }
  return views;
}

export function registerLogMetrics(registry: Registry, ctx: HttpContext): void {
  const perPartition = (name: string, help: string, value: (p: PartitionView) => number) => registerScraped(registry, {
    name, help, type: 'gauge',
    collect: () => !ctx.ready ? [] : partitions(ctx).map((p): Sample => ({ labels: { topic: p.topic, partition: p.partition }, value: value(p) })),
  });
  const gauge = (name: string, help: string, value: () => number | Sample[]) => registerScraped(registry, {
    name, help, type: 'gauge',
    collect: () => {
      if (!ctx.ready) return [];
      const v = value();
      return typeof v === 'number' ? [{ labels: {} as Labels, value: v }] : v;
    },
  });

  gauge('kafka_brokers', 'Brokers in the cluster (kafka-exporter).', () => 1);
  gauge('kafka_topic_partitions', 'Partitions of each topic (kafka-exporter).', () =>
    ctx.store.topics().map((t) => ({ labels: { topic: t.name }, value: t.partitions })));
  perPartition('kafka_topic_partition_current_offset', 'The newest offset a consumer can read (high watermark), per partition (kafka-exporter).', (p) => p.highWatermark);
  perPartition('kafka_topic_partition_oldest_offset', 'The oldest offset kept (log start offset), per partition (kafka-exporter).', (p) => p.logStartOffset);
  perPartition('kafka_topic_partition_leader', 'Node id of the partition\'s leader (kafka-exporter).', () => ctx.broker.nodeId);
  perPartition('kafka_topic_partition_replicas', 'Replicas of the partition (kafka-exporter).', () => 1);
  perPartition('kafka_topic_partition_in_sync_replica', 'In-sync replicas of the partition (kafka-exporter).', () => 1);
  perPartition('kafka_topic_partition_leader_is_preferred', '1 when the partition\'s leader is its preferred replica (kafka-exporter).', () => 1);
  perPartition('kafka_topic_partition_under_replicated_partition', '1 when the partition has fewer in-sync replicas than replicas (kafka-exporter).', () => 0);
  perPartition('kafka_log_log_size', 'Bytes of the partition\'s log on disk or in memory (Kafka\'s Log Size).', (p) => p.size);
  perPartition('kafka_log_log_logstartoffset', 'The partition\'s log start offset (Kafka\'s Log LogStartOffset).', (p) => p.logStartOffset);
  perPartition('kafka_log_log_logendoffset', 'The partition\'s log end offset (Kafka\'s Log LogEndOffset).', (p) => p.logEndOffset);

  const partitionCount = () => ctx.store.topics().reduce((n, t) => n + t.partitions, 0);
  gauge('kafka_server_replicamanager_partitioncount', 'Partitions on this broker (Kafka\'s ReplicaManager PartitionCount).', partitionCount);
  gauge('kafka_server_replicamanager_leadercount', 'Partitions this broker leads (Kafka\'s ReplicaManager LeaderCount).', partitionCount);
  gauge('kafka_server_replicamanager_underreplicatedpartitions', 'Partitions with fewer in-sync replicas than replicas (Kafka\'s ReplicaManager UnderReplicatedPartitions).', () => 0);
  gauge('kafka_controller_kafkacontroller_offlinepartitionscount', 'Partitions without a leader (Kafka\'s KafkaController OfflinePartitionsCount).', () => 0);
  gauge('kafka_controller_kafkacontroller_activecontrollercount', '1 on the active controller (Kafka\'s KafkaController ActiveControllerCount).', () => 1);
}
