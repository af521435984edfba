/**
 * Bytes of the __consumer_offsets records (Kafka's GroupCoordinatorRecordSerde): key and value each
 * start with an int16: before the key the record type (its spec's apiKey; the key itself is version 0), before
 * the value its version. Consumer group records (types 3-8, 16) are consumer/record-serde.ts's, share group records
 * (10-15) share/record-serde.ts's, streams group records (17-23) streams/record-serde.ts's; keys of other record types
 * decode to null and are skipped.
 */
import { ZERO_UUID } from '../../protocol/uuid.js';
import {
  decodeGroupMetadataKey,
  encodeGroupMetadataKey,
  GROUP_METADATA_KEY_RECORD_TYPE,
} from '../../protocol/generated/internal/group-coordinator/group-metadata-key.js';
import {
  decodeGroupMetadataValue,
  encodeGroupMetadataValue,
} from '../../protocol/generated/internal/group-coordinator/group-metadata-value.js';
import {
  decodeLegacyOffsetCommitKey,
  LEGACY_OFFSET_COMMIT_KEY_RECORD_TYPE,
} from '../../protocol/generated/internal/group-coordinator/legacy-offset-commit-key.js';
import {
  decodeOffsetCommitKey,
  encodeOffsetCommitKey,
  OFFSET_COMMIT_KEY_RECORD_TYPE,
} from '../../protocol/generated/internal/group-coordinator/offset-commit-key.js';
import {
  decodeOffsetCommitValue,
  encodeOffsetCommitValue,
} from '../../protocol/generated/internal/group-coordinator/offset-commit-value.js';
import { Reader } from '../../protocol/io/reader.js';
import { Writer } from '../../protocol/io/writer.js';
import { decodeConsumerRecord, encodeConsumerRecordKey, encodeConsumerRecordValue } from './consumer/record-serde.js';
import { isConsumerGroupRecord } from './consumer/records.js';
import { decodeShareRecord, encodeShareRecordKey, encodeShareRecordValue } from './share/record-serde.js';
import { isShareGroupRecord } from './share/records.js';
import { decodeStreamsRecord, encodeStreamsRecordKey, encodeStreamsRecordValue } from './streams/record-serde.js';
import { isStreamsGroupRecord } from './streams/records.js';
import {
  GROUP_METADATA_VALUE_VERSION,
  type GroupRecord,
  type OffsetAndMetadata,
} from './records.js';

/** OffsetCommitRequest.DEFAULT_TIMESTAMP: "no expire timestamp". */
const NO_TIMESTAMP = -1n;

export function encodeRecordKey(record: GroupRecord): Buffer {
  if (isConsumerGroupRecord(record)) return encodeConsumerRecordKey(record);
  if (isShareGroupRecord(record)) return encodeShareRecordKey(record);
  if (isStreamsGroupRecord(record)) return encodeStreamsRecordKey(record);
  const w = new Writer(64);
  if (record.type === 'offset') {
    w.int16(OFFSET_COMMIT_KEY_RECORD_TYPE);
    encodeOffsetCommitKey(w, { group: record.group, topic: record.topic, partition: record.partition }, 0);
  } else {
    w.int16(GROUP_METADATA_KEY_RECORD_TYPE);
    encodeGroupMetadataKey(w, { group: record.group }, 0);
  }
  return w.toBuffer();
}

export function encodeRecordValue(record: GroupRecord): Buffer | null {
  if (isConsumerGroupRecord(record)) return encodeConsumerRecordValue(record);
  if (isShareGroupRecord(record)) return encodeShareRecordValue(record);
  if (isStreamsGroupRecord(record)) return encodeStreamsRecordValue(record);
  if (record.value === null) return null;
  const w = new Writer(128);
  if (record.type === 'offset') {
    const v = record.value;
    // Kafka 4.3.1 writes v4 (the topic id a tagged field, left out when zero), v1 for an old-style expiring commit.
    const version = v.expireTimestamp === null ? 4 : 1;
    w.int16(version);
    encodeOffsetCommitValue(
      w,
      {
        offset: BigInt(v.offset),
        leaderEpoch: v.leaderEpoch,
        metadata: v.metadata,
        commitTimestamp: BigInt(v.commitTimestamp),
        expireTimestamp: v.expireTimestamp === null ? NO_TIMESTAMP : BigInt(v.expireTimestamp),
        topicId: v.topicId ?? ZERO_UUID,
      },
      version,
    );
  } else {
    w.int16(GROUP_METADATA_VALUE_VERSION);
    encodeGroupMetadataValue(w, record.value, GROUP_METADATA_VALUE_VERSION);
  }
  return w.toBuffer();
}

/** The record a key/value pair holds, null for record types no group here uses. Throws ProtocolError on bad bytes. */
export function decodeRecord(key: Buffer, value: Buffer | null): GroupRecord | null {
  const kr = new Reader(key);
  const recordType = kr.int16();
  if (recordType === LEGACY_OFFSET_COMMIT_KEY_RECORD_TYPE || recordType === OFFSET_COMMIT_KEY_RECORD_TYPE) {
    const k = recordType === OFFSET_COMMIT_KEY_RECORD_TYPE ? decodeOffsetCommitKey(kr, 0) : decodeLegacyOffsetCommitKey(kr, 0);
    return { type: 'offset', group: k.group, topic: k.topic, partition: k.partition, value: value === null ? null : decodeOffsetValue(value) };
  }
  if (recordType === GROUP_METADATA_KEY_RECORD_TYPE) {
    const k = decodeGroupMetadataKey(kr, 0);
    if (value === null) return { type: 'group', group: k.group, value: null };
    const vr = new Reader(value);
    const valueVersion = vr.int16();
    return { type: 'group', group: k.group, value: decodeGroupMetadataValue(vr, valueVersion) };
  }
  return decodeConsumerRecord(recordType, kr, value) ?? decodeShareRecord(recordType, kr, value) ?? decodeStreamsRecord(recordType, kr, value) ?? null;
}

function decodeOffsetValue(value: Buffer): OffsetAndMetadata {
  const r = new Reader(value);
  const version = r.int16();
  const v = decodeOffsetCommitValue(r, version);
  return {
    offset: Number(v.offset),
    leaderEpoch: v.leaderEpoch,
    metadata: v.metadata,
    commitTimestamp: Number(v.commitTimestamp),
    expireTimestamp: v.expireTimestamp === NO_TIMESTAMP ? null : Number(v.expireTimestamp),
    // A commit by topic id (OffsetCommit v10+) keeps it, so the record reads back to its bytes.
    ...(v.topicId === ZERO_UUID ? {} : { topicId: v.topicId }),
  };
}
