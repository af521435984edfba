/**
 * A member's assignment as the Java tables Kafka's assignors read and write (topic id → partition set), so that the
 * order they iterate in, and the order of the result, are Kafka's. See java-hash-order.ts.
 */
import type { TopicPartitions } from './assignor.js';
import { copyCapacity, JavaHashTable } from '../../runtime/java-hash-table.js';
import { javaIntegerHash, javaUuidHash } from '../../runtime/java-hash.js';

export type PartitionSet = JavaHashTable<number, true>;
export type JavaAssignment = JavaHashTable<string, PartitionSet>;

export function newPartitionSet(requestedCapacity?: number): PartitionSet {
  return new JavaHashTable<number, true>(javaIntegerHash, requestedCapacity);
}

/** `new HashSet<>(collection)`. */
function copyPartitions(partitions: Iterable<number>, size: number): PartitionSet {
  const copy = newPartitionSet(copyCapacity(size));
  for (const partition of partitions) copy.set(partition, true);
  return copy;
}

/**
 * The current assignment as Kafka holds it after replaying its record: a HashMap filled topic by topic in the
 * record's order (Collectors.toMap), each partition list copied into a HashSet.
 */
export function replayedAssignment(current: TopicPartitions): JavaAssignment {
  const assignment: JavaAssignment = new JavaHashTable(javaUuidHash);
  for (const [topicId, partitions] of current) assignment.set(topicId, copyPartitions(partitions, partitions.size));
  return assignment;
}

/** Kafka's AssignorHelpers.deepCopyAssignment: a map sized for the topics, each set copied. */
export function deepCopyAssignment(assignment: JavaAssignment): JavaAssignment {
  const copy: JavaAssignment = new JavaHashTable(javaUuidHash, assignment.size);
  for (const [topicId, partitions] of assignment.entriesInOrder()) copy.set(topicId, copyPartitions(partitions.keys(), partitions.size));
  return copy;
}

/** The result as the contract gives it, in Java's iteration order. */
export function toTopicPartitions(assignment: JavaAssignment): TopicPartitions {
  const result = new Map<string, ReadonlySet<number>>();
  for (const [topicId, partitions] of assignment.entriesInOrder()) result.set(topicId, new Set(partitions.keys()));
  return result;
}
