/** Kafka's checks on a manually given replica list (CreateTopics, CreatePartitions). */

/** Kafka's validateManualPartitionAssignment, for a cluster whose registered brokers are `registered`. */
export function manualAssignmentProblem(brokerIds: readonly number[], registered: ReadonlySet<number>, replicationFactor: number | undefined): string | null {
  if (brokerIds.length === 0) return 'The manual partition assignment includes an empty replica list.';
  const sorted = [...brokerIds].sort((a, b) => a - b);
  let previous: number | undefined;
  for (const id of sorted) {
    if (!registered.has(id)) return `The manual partition assignment includes broker ${id}, but no such broker is registered.`;
    if (id === previous) return `The manual partition assignment includes the broker ${id} more than once.`;
    previous = id;
  }
  if (replicationFactor !== undefined && sorted.length !== replicationFactor) {
    return `The manual partition assignment includes a partition with ${sorted.length} replica(s), but this is not consistent ` +
      `with previous partitions, which have ${replicationFactor} replica(s).`;
  }
  return null;
}
