/**
 * Bytes of the share group records in __consumer_offsets (types 10-15): the key's int16 record type then the key
 * (version 0), the value's int16 version (0 for all of them) then the value; a tombstone has no value.
 */
import * as currentKey from '../../../protocol/generated/internal/group-coordinator/share-group-current-member-assignment-key.js';
import * as currentValue from '../../../protocol/generated/internal/group-coordinator/share-group-current-member-assignment-value.js';
import * as memberKey from '../../../protocol/generated/internal/group-coordinator/share-group-member-metadata-key.js';
import * as memberValue from '../../../protocol/generated/internal/group-coordinator/share-group-member-metadata-value.js';
import * as groupKey from '../../../protocol/generated/internal/group-coordinator/share-group-metadata-key.js';
import * as groupValue from '../../../protocol/generated/internal/group-coordinator/share-group-metadata-value.js';
import * as stateKey from '../../../protocol/generated/internal/group-coordinator/share-group-state-partition-metadata-key.js';
import * as stateValue from '../../../protocol/generated/internal/group-coordinator/share-group-state-partition-metadata-value.js';
import * as targetMemberKey from '../../../protocol/generated/internal/group-coordinator/share-group-target-assignment-member-key.js';
import * as targetMemberValue from '../../../protocol/generated/internal/group-coordinator/share-group-target-assignment-member-value.js';
import * as targetKey from '../../../protocol/generated/internal/group-coordinator/share-group-target-assignment-metadata-key.js';
import * as targetValue from '../../../protocol/generated/internal/group-coordinator/share-group-target-assignment-metadata-value.js';
import { Reader } from '../../../protocol/io/reader.js';
import { Writer } from '../../../protocol/io/writer.js';
import type { ShareGroupRecord } from './records.js';

const VALUE_VERSION = 0;

type Encode<T> = (w: Writer, m: T, version: number) => void;
type Decode<T> = (r: Reader, version: number) => T;

/** One record type: its number, and the key and value codecs (keys are { groupId } or { groupId, memberId }). */
interface RecordCodec {
  readonly recordType: number;
  readonly encodeKey: Encode<{ groupId: string; memberId: string }>;
  readonly decodeKey: Decode<{ groupId: string; memberId?: string }>;
  readonly encodeValue: Encode<never>;
  readonly decodeValue: Decode<unknown>;
}

const codec = (recordType: number, encodeKey: Encode<never>, decodeKey: Decode<{ groupId: string; memberId?: string }>, encodeValue: Encode<never>, decodeValue: Decode<unknown>): RecordCodec => ({
  recordType,
  encodeKey: encodeKey as RecordCodec['encodeKey'],
  decodeKey,
  encodeValue,
  decodeValue,
});

const CODECS: Readonly<Record<ShareGroupRecord['type'], RecordCodec>> = {
  'share-member': codec(memberKey.SHARE_GROUP_MEMBER_METADATA_KEY_RECORD_TYPE, memberKey.encodeShareGroupMemberMetadataKey, memberKey.decodeShareGroupMemberMetadataKey, memberValue.encodeShareGroupMemberMetadataValue, memberValue.decodeShareGroupMemberMetadataValue),
  'share-group': codec(groupKey.SHARE_GROUP_METADATA_KEY_RECORD_TYPE, groupKey.encodeShareGroupMetadataKey, groupKey.decodeShareGroupMetadataKey, groupValue.encodeShareGroupMetadataValue, groupValue.decodeShareGroupMetadataValue),
  'share-target': codec(targetKey.SHARE_GROUP_TARGET_ASSIGNMENT_METADATA_KEY_RECORD_TYPE, targetKey.encodeShareGroupTargetAssignmentMetadataKey, targetKey.decodeShareGroupTargetAssignmentMetadataKey, targetValue.encodeShareGroupTargetAssignmentMetadataValue, targetValue.decodeShareGroupTargetAssignmentMetadataValue),
  'share-target-member': codec(targetMemberKey.SHARE_GROUP_TARGET_ASSIGNMENT_MEMBER_KEY_RECORD_TYPE, targetMemberKey.encodeShareGroupTargetAssignmentMemberKey, targetMemberKey.decodeShareGroupTargetAssignmentMemberKey, targetMemberValue.encodeShareGroupTargetAssignmentMemberValue, targetMemberValue.decodeShareGroupTargetAssignmentMemberValue),
  'share-current-member': codec(currentKey.SHARE_GROUP_CURRENT_MEMBER_ASSIGNMENT_KEY_RECORD_TYPE, currentKey.encodeShareGroupCurrentMemberAssignmentKey, currentKey.decodeShareGroupCurrentMemberAssignmentKey, currentValue.encodeShareGroupCurrentMemberAssignmentValue, currentValue.decodeShareGroupCurrentMemberAssignmentValue),
  'share-state-partitions': codec(stateKey.SHARE_GROUP_STATE_PARTITION_METADATA_KEY_RECORD_TYPE, stateKey.encodeShareGroupStatePartitionMetadataKey, stateKey.decodeShareGroupStatePartitionMetadataKey, stateValue.encodeShareGroupStatePartitionMetadataValue, stateValue.decodeShareGroupStatePartitionMetadataValue),
};

const BY_RECORD_TYPE = new Map(Object.entries(CODECS).map(([type, c]) => [c.recordType, { type: type as ShareGroupRecord['type'], codec: c }] as const));

export function encodeShareRecordKey(record: ShareGroupRecord): Buffer {
  const c = CODECS[record.type];
  const w = new Writer(64);
  w.int16(c.recordType);
  c.encodeKey(w, { groupId: record.group, memberId: 'memberId' in record ? record.memberId : '' }, 0);
  return w.toBuffer();
}

export function encodeShareRecordValue(record: ShareGroupRecord): Buffer | null {
  if (record.value === null) return null;
  const w = new Writer(128);
  w.int16(VALUE_VERSION);
  CODECS[record.type].encodeValue(w, record.value as never, VALUE_VERSION);
  return w.toBuffer();
}

/**
 * The share group record of a key whose record type `recordType` has been read from `key`; undefined for a record
 * type that is not a share group's. Throws ProtocolError on bad bytes.
 */
export function decodeShareRecord(recordType: number, key: Reader, value: Buffer | null): ShareGroupRecord | undefined {
  const entry = BY_RECORD_TYPE.get(recordType);
  if (entry === undefined) return undefined;
  const k = entry.codec.decodeKey(key, 0);
  let decoded: unknown = null;
  if (value !== null) {
    const vr = new Reader(value);
    decoded = entry.codec.decodeValue(vr, vr.int16());
  }
  const base = { type: entry.type, group: k.groupId, value: decoded };
  return (k.memberId === undefined ? base : { ...base, memberId: k.memberId }) as ShareGroupRecord;
}
