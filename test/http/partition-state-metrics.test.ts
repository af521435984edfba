// Kafka's ReplicaManager partition-state gauges as gregor counts them from the metadata's replicas and ISR: only the
// partitions this broker leads count (a follower's under-replicated partition is its leader's to report), as
// Partition.isUnderReplicated, isUnderMinIsr and isAtMinIsr are checked on the leader alone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { partitionStateCounts, type PartitionView } from '../../src/http/metrics/log-metrics.js';

function view(partition: number, leader: number, replicas: number[], isr: number[], minIsr: number): PartitionView {
  return { topic: 't', partition, logStartOffset: 0, logEndOffset: 0, highWatermark: 0, size: 0, leader, replicas, isr, minIsr };
}

test('a single broker: every partition led, in sync and at min ISR 1', () => {
  assert.deepEqual(partitionStateCounts([view(0, 1, [1], [1], 1), view(1, 1, [1], [1], 1)], 1),
    { partitionCount: 2, leaderCount: 2, underReplicated: 0, underMinIsr: 0, atMinIsr: 2 });
});

test('cluster mode: under-replicated, under and at min ISR among the partitions this broker leads', () => {
  const views = [
    view(0, 1, [1, 2, 3], [1, 2, 3], 2), // healthy
    view(1, 1, [1, 2, 3], [1, 2], 2), // one replica behind: under-replicated, at min ISR
    view(2, 1, [1, 2, 3], [1], 2), // under-replicated and under min ISR
    view(3, 2, [2, 1, 3], [2], 2), // led by broker 2: not counted here
    view(4, -1, [3, 1], [], 1), // no leader: not led here
  ];
  assert.deepEqual(partitionStateCounts(views, 1), { partitionCount: 5, leaderCount: 3, underReplicated: 2, underMinIsr: 1, atMinIsr: 1 });
  assert.deepEqual(partitionStateCounts(views, 2), { partitionCount: 5, leaderCount: 1, underReplicated: 1, underMinIsr: 1, atMinIsr: 0 });
});
