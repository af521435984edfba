/**
 * The records the group coordinator writes to __consumer_offsets, with the key and value versions
 * Kafka 4.x writes (GroupCoordinatorRecordHelpers + MetadataVersion): OffsetCommitKey v1 and
 * OffsetCommitValue v4 (v1 when the commit carries an expire timestamp), GroupMetadataKey v2 and
 * GroupMetadataValue v3; consumer groups' records are in consumer/records.ts, share groups' in share/records.ts,
 * streams groups' in streams/records.ts. A null value is a tombstone.
 */
import type { GroupMetadataValue } from '../../protocol/generated/internal/group-coordinator/group-metadata-value.js';
import { consumerRecordKey, isConsumerGroupRecord, type ConsumerGroupRecord } from './consumer/records.js';
import { isShareGroupRecord, shareRecordKey, type ShareGroupRecord } from './share/records.js';
import { isStreamsGroupRecord, streamsRecordKey, type StreamsGroupRecord } from './streams/records.js';

export const GROUP_METADATA_VALUE_VERSION = 3;

/** A committed offset as the coordinator keeps it (Kafka's OffsetAndMetadata). */
export interface OffsetAndMetadata {
  readonly offset: number;
  /** -1 when unknown. */
  readonly leaderEpoch: number;
  readonly metadata: string;
  readonly commitTimestamp: number;
  /** Set only by OffsetCommit v2–v4 with an explicit retention time (old expiration semantics). */
  readonly expireTimestamp: number | null;
  /** The topic id an OffsetCommit v10+ named the topic by; absent (the zero uuid in the record) otherwise. */
  readonly topicId?: string;
}

export interface OffsetCommitRecord {
  readonly type: 'offset';
  readonly group: string;
  readonly topic: string;
  readonly partition: number;
  readonly value: OffsetAndMetadata | null;
}

export interface GroupMetadataRecord {
  readonly type: 'group';
  readonly group: string;
  readonly value: GroupMetadataValue | null;
}

export type GroupRecord = OffsetCommitRecord | GroupMetadataRecord | ConsumerGroupRecord | ShareGroupRecord | StreamsGroupRecord;

export function offsetCommitRecord(group: string, topic: string, partition: number, value: OffsetAndMetadata): OffsetCommitRecord {
  return { type: 'offset', group, topic, partition, value };
}

export function offsetTombstone(group: string, topic: string, partition: number): OffsetCommitRecord {
  return { type: 'offset', group, topic, partition, value: null };
}

export function groupMetadataRecord(group: string, value: GroupMetadataValue): GroupMetadataRecord {
  return { type: 'group', group, value };
}

export function groupTombstone(group: string): GroupMetadataRecord {
  return { type: 'group', group, value: null };
}

/** The identity of a record for "last record per key wins". */
export function recordKey(record: GroupRecord): string {
  if (isConsumerGroupRecord(record)) return consumerRecordKey(record);
  if (isShareGroupRecord(record)) return shareRecordKey(record);
  if (isStreamsGroupRecord(record)) return streamsRecordKey(record);
  return record.type === 'offset' ? `o\u0000${record.group}\u0000${record.topic}\u0000${record.partition}` : `g\u0000${record.group}`;
}
