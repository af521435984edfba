/**
 * Consumer groups at scrape time: committed offsets and lag per partition as kafka-exporter names them
 * (kafka_consumergroup_*, label consumergroup), computed as kafka-consumer-groups --describe does (lag = the
 * partition's high watermark - the committed offset; none where nothing is committed), and the group
 * coordinator's state as Kafka's GroupCoordinatorMetrics reports it (the classic groups' GroupMetadataManager
 * gauges, the group counts per protocol and the consumer groups per state).
 */
import type { Registry } from 'prom-client';
import type { HttpContext } from '../context.js';
import { registerScraped, type Sample } from './scraped-metric.js';

interface CommittedPartition {
  readonly group: string;
  readonly topic: string;
  readonly partition: number;
  readonly offset: number;
  /** High watermark - offset; null when the partition no longer exists. */
  readonly lag: number | null;
}

interface GroupsSnapshot {
  readonly groups: readonly { readonly groupId: string; readonly groupState: string; readonly groupType: string; readonly members: number }[];
  readonly committed: readonly CommittedPartition[];
}

async function snapshot(ctx: HttpContext): Promise<GroupsSnapshot> {
  const listed = ctx.groups.listGroups([], []).groups;
  const groups = listed.map((g) => ({ groupId: g.groupId, groupState: g.groupState, groupType: g.groupType, members: members(ctx, g.groupId, g.groupType) }));
  const committed: CommittedPartition[] = [];
  for (const group of listed) {
    // A share group commits no offsets: its progress is the share partitions' start offsets.
    if (group.groupType === 'share') continue;
    const fetched = await ctx.groups.fetchOffsets(group.groupId, null);
    for (const topic of fetched.topics) {
      for (const p of topic.partitions) {
        if (p.errorCode !== 0 || p.committedOffset < 0n) continue;
        const log = ctx.store.log(topic.name, p.partitionIndex);
        const offset = Number(p.committedOffset);
        committed.push({ group: group.groupId, topic: topic.name, partition: p.partitionIndex, offset, lag: log === undefined ? null : Math.max(0, log.highWatermark - offset) });
      }
    }
  }
  return { groups, committed };
}

function members(ctx: HttpContext, groupId: string, groupType: string): number {
  if (groupType === 'classic') return ctx.groups.describeGroups([groupId])[0]?.members.length ?? 0;
  if (groupType === 'consumer') return ctx.groups.consumerGroupDescribe([groupId])[0]?.members.length ?? 0;
  if (groupType === 'share') return ctx.groups.shareGroupDescribe([groupId])[0]?.members.length ?? 0;
  return 0;
}

export function registerGroupMetrics(registry: Registry, ctx: HttpContext): void {
  // One snapshot serves every group metric of a scrape (they are collected together).
  let current: Promise<GroupsSnapshot> | undefined;
  const read = (): Promise<GroupsSnapshot> => {
    current ??= snapshot(ctx).finally(() => setImmediate(() => { current = undefined; }));
    return current;
  };
  const metric = (name: string, help: string, samples: (s: GroupsSnapshot) => Sample[]) => registerScraped(registry, {
    name, help, type: 'gauge',
    collect: async () => (!ctx.ready ? [] : samples(await read())),
  });
  const sumByTopic = (s: GroupsSnapshot, value: (p: CommittedPartition) => number | null): Sample[] => {
    const sums = new Map<string, { consumergroup: string; topic: string; value: number }>();
    for (const p of s.committed) {
      const v = value(p);
      if (v === null) continue;
      const key = JSON.stringify([p.group, p.topic]);
      const entry = sums.get(key) ?? { consumergroup: p.group, topic: p.topic, value: 0 };
      entry.value += v;
      sums.set(key, entry);
    }
    return [...sums.values()].map(({ consumergroup, topic, value: v }) => ({ labels: { consumergroup, topic }, value: v }));
  };

  metric('kafka_consumergroup_current_offset', 'Committed offset of a group, per partition (kafka-exporter).', (s) =>
    s.committed.map((p) => ({ labels: { consumergroup: p.group, topic: p.topic, partition: p.partition }, value: p.offset })));
  metric('kafka_consumergroup_current_offset_sum', 'Committed offsets of a group summed over a topic\'s partitions (kafka-exporter).', (s) => sumByTopic(s, (p) => p.offset));
  metric('kafka_consumergroup_lag', 'Records between a group\'s committed offset and the high watermark, per partition (kafka-exporter; kafka-consumer-groups\' LAG).', (s) =>
    s.committed.flatMap((p) => (p.lag === null ? [] : [{ labels: { consumergroup: p.group, topic: p.topic, partition: p.partition }, value: p.lag }])));
  metric('kafka_consumergroup_lag_sum', 'A group\'s lag summed over a topic\'s partitions (kafka-exporter).', (s) => sumByTopic(s, (p) => p.lag));
  metric('kafka_consumergroup_members', 'Members of a group (kafka-exporter).', (s) =>
    s.groups.map((g) => ({ labels: { consumergroup: g.groupId }, value: g.members })));

  const classic = (name: string, help: string, state?: string) => metric(name, help, (s) =>
    [{ labels: {}, value: s.groups.filter((g) => g.groupType === 'classic' && (state === undefined || g.groupState === state)).length }]);
  classic('kafka_coordinator_group_groupmetadatamanager_numgroups', 'Classic groups (Kafka\'s GroupMetadataManager NumGroups).');
  classic('kafka_coordinator_group_groupmetadatamanager_numgroupspreparingrebalance', 'Classic groups preparing a rebalance (NumGroupsPreparingRebalance).', 'PreparingRebalance');
  classic('kafka_coordinator_group_groupmetadatamanager_numgroupscompletingrebalance', 'Classic groups completing a rebalance (NumGroupsCompletingRebalance).', 'CompletingRebalance');
  classic('kafka_coordinator_group_groupmetadatamanager_numgroupsstable', 'Stable classic groups (NumGroupsStable).', 'Stable');
  classic('kafka_coordinator_group_groupmetadatamanager_numgroupsempty', 'Empty classic groups (NumGroupsEmpty).', 'Empty');
  classic('kafka_coordinator_group_groupmetadatamanager_numgroupsdead', 'Dead classic groups (NumGroupsDead).', 'Dead');
  metric('kafka_coordinator_group_groupmetadatamanager_numoffsets', 'Committed offsets held, all groups (Kafka\'s GroupMetadataManager NumOffsets).', (s) =>
    [{ labels: {}, value: s.committed.length }]);
  metric('kafka_server_group_coordinator_metrics_group_count', 'Groups per protocol: classic, consumer, share, streams (Kafka\'s group-coordinator-metrics group-count).', (s) =>
    ['classic', 'consumer', 'share', 'streams'].map((protocol) => ({ labels: { protocol }, value: s.groups.filter((g) => g.groupType === protocol).length })));
  metric('kafka_server_group_coordinator_metrics_consumer_group_count', 'Consumer-protocol groups per state (Kafka\'s group-coordinator-metrics consumer-group-count).', (s) =>
    ['Empty', 'Assigning', 'Reconciling', 'Stable', 'Dead'].map((state) => ({ labels: { state }, value: s.groups.filter((g) => g.groupType === 'consumer' && g.groupState === state).length })));
}
