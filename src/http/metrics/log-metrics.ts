/**
 * Topics, partitions and logs at scrape time. Per partition, the names kafka-exporter gives (kafka_topic_*: the
 * offsets a client's ListOffsets sees, replicas and ISR from the metadata) and the JMX exporter gives Kafka's Log
 * MBeans (kafka_log_log_*); per broker, ReplicaManager's counts over the partitions this broker leads and the
 * controller's (on the active controller only, as Kafka's). A single broker leads every partition with its one
 * replica in sync, so there its under-replicated, under-min-ISR and offline counts are 0; in cluster mode they come
 * from the cluster's metadata (server/cluster-view.ts).
 */
import type { Registry } from 'prom-client';
import { controllerIdOf, replicaView } from '../../server/cluster-view.js';
import type { HttpContext } from '../context.js';
import { registerScraped, type Labels, type Sample } from './scraped-metric.js';

export interface PartitionView {
  readonly topic: string;
  readonly partition: number;
  readonly logStartOffset: number;
  readonly logEndOffset: number;
  readonly highWatermark: number;
  readonly size: number;
  readonly leader: number;
  readonly replicas: readonly number[];
  readonly isr: readonly number[];
  readonly minIsr: number;
}

function partitions(ctx: HttpContext): PartitionView[] {
  const views: PartitionView[] = [];
  for (const topic of ctx.store.topics()) {
    const minIsr = ctx.replicaManager.topicConfig(topic)['min.insync.replicas'];
    for (let partition = 0; partition < topic.partitions; partition++) {
      const log = ctx.store.log(topic.name, partition);
      if (log === undefined) continue;
      const replicas = replicaView(ctx.broker, topic.name, partition);
      views.push({
        topic: topic.name, partition, logStartOffset: log.logStartOffset, logEndOffset: log.logEndOffset, highWatermark: log.highWatermark, size: log.sizeInBytes(),
        leader: replicas.leaderId, replicas: replicas.replicas, isr: replicas.isr, minIsr,
      });
    }
  }
  return views;
}

/** Kafka's ReplicaManager partition-state gauges over the partitions this broker leads. */
export interface PartitionStateCounts {
  readonly partitionCount: number;
  readonly leaderCount: number;
  readonly underReplicated: number;
  readonly underMinIsr: number;
  readonly atMinIsr: number;
}

export function partitionStateCounts(views: readonly PartitionView[], nodeId: number): PartitionStateCounts {
  let leaderCount = 0;
  let underReplicated = 0;
  let underMinIsr = 0;
  let atMinIsr = 0;
  for (const p of views) {
    if (p.leader !== nodeId) continue;
    leaderCount++;
    if (p.isr.length < p.replicas.length) underReplicated++;
    if (p.isr.length < p.minIsr) underMinIsr++;
    else if (p.isr.length === p.minIsr) atMinIsr++;
  }
  return { partitionCount: views.length, leaderCount, underReplicated, underMinIsr, atMinIsr };
}

/** The cluster's partitions (every one, not only this broker's) whose leader is gone or not alive; none on a single broker. */
function offlinePartitions(ctx: HttpContext): number {
  const { cluster } = ctx.broker;
  if (cluster === undefined) return 0;
  const live = new Set(cluster.liveBrokers().map((b) => b.nodeId));
  let offline = 0;
  for (const topic of cluster.topics()) {
    for (const state of topic.partitionStates) if (state !== undefined && !live.has(state.leader)) offline++;
  }
  return offline;
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

  gauge('kafka_brokers', 'Live brokers in the cluster (kafka-exporter).', () => ctx.broker.cluster?.liveBrokers().length ?? 1);
  gauge('kafka_topic_partitions', 'Partitions of each topic (kafka-exporter).', () =>
    ctx.store.topics().map((t) => ({ labels: { topic: t.name }, value: t.partitions })));
  perPartition('kafka_topic_partition_current_offset', 'The newest offset a consumer can read (high watermark), per partition (kafka-exporter).', (p) => p.highWatermark);
  perPartition('kafka_topic_partition_oldest_offset', 'The oldest offset kept (log start offset), per partition (kafka-exporter).', (p) => p.logStartOffset);
  perPartition('kafka_topic_partition_leader', 'Node id of the partition\'s leader, -1 when it has none (kafka-exporter).', (p) => p.leader);
  perPartition('kafka_topic_partition_replicas', 'Replicas of the partition (kafka-exporter).', (p) => p.replicas.length);
  perPartition('kafka_topic_partition_in_sync_replica', 'In-sync replicas of the partition (kafka-exporter).', (p) => p.isr.length);
  perPartition('kafka_topic_partition_leader_is_preferred', '1 when the partition\'s leader is its preferred replica (kafka-exporter).', (p) => (p.leader !== -1 && p.leader === p.replicas[0] ? 1 : 0));
  perPartition('kafka_topic_partition_under_replicated_partition', '1 when the partition has fewer in-sync replicas than replicas (kafka-exporter).', (p) => (p.isr.length < p.replicas.length ? 1 : 0));
  perPartition('kafka_log_log_size', 'Bytes of the partition\'s log on disk or in memory (Kafka\'s Log Size).', (p) => p.size);
  perPartition('kafka_log_log_logstartoffset', 'The partition\'s log start offset (Kafka\'s Log LogStartOffset).', (p) => p.logStartOffset);
  perPartition('kafka_log_log_logendoffset', 'The partition\'s log end offset (Kafka\'s Log LogEndOffset).', (p) => p.logEndOffset);

  const counts = () => partitionStateCounts(partitions(ctx), ctx.broker.nodeId);
  const isController = () => controllerIdOf(ctx.broker) === ctx.broker.nodeId;
  gauge('kafka_server_replicamanager_partitioncount', 'Partitions with a replica on this broker (Kafka\'s ReplicaManager PartitionCount).', () => counts().partitionCount);
  gauge('kafka_server_replicamanager_leadercount', 'Partitions this broker leads (Kafka\'s ReplicaManager LeaderCount).', () => counts().leaderCount);
  gauge('kafka_server_replicamanager_underreplicatedpartitions', 'Partitions this broker leads with fewer in-sync replicas than replicas (Kafka\'s ReplicaManager UnderReplicatedPartitions).',
    () => counts().underReplicated);
  gauge('kafka_server_replicamanager_underminisrpartitioncount', 'Partitions this broker leads with fewer in-sync replicas than min.insync.replicas (Kafka\'s ReplicaManager UnderMinIsrPartitionCount).',
    () => counts().underMinIsr);
  gauge('kafka_server_replicamanager_atminisrpartitioncount', 'Partitions this broker leads with exactly min.insync.replicas in sync (Kafka\'s ReplicaManager AtMinIsrPartitionCount).',
    () => counts().atMinIsr);
  gauge('kafka_controller_kafkacontroller_offlinepartitionscount', 'Partitions without a live leader, on the active controller; 0 on other brokers (Kafka\'s KafkaController OfflinePartitionsCount).',
    () => (isController() ? offlinePartitions(ctx) : 0));
  gauge('kafka_controller_kafkacontroller_activecontrollercount', '1 on the active controller (Kafka\'s KafkaController ActiveControllerCount).', () => (isController() ? 1 : 0));
}
