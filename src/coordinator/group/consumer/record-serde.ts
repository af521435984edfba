/**
 * Bytes of the consumer group records in __consumer_offsets: the key's int16 record type then the key (version 0),
 * the value's int16 version (0 for all of them) then the value; a tombstone has no value.
 */
import { decodeConsumerGroupCurrentMemberAssignmentKey, encodeConsumerGroupCurrentMemberAssignmentKey, CONSUMER_GROUP_CURRENT_MEMBER_ASSIGNMENT_KEY_RECORD_TYPE } from '../../../protocol/generated/internal/group-coordinator/consumer-group-current-member-assignment-key.js';
import { decodeConsumerGroupCurrentMemberAssignmentValue, encodeConsumerGroupCurrentMemberAssignmentValue } from '../../../protocol/generated/internal/group-coordinator/consumer-group-current-member-assignment-value.js';
import { decodeConsumerGroupMemberMetadataKey, encodeConsumerGroupMemberMetadataKey, CONSUMER_GROUP_MEMBER_METADATA_KEY_RECORD_TYPE } from '../../../protocol/generated/internal/group-coordinator/consumer-group-member-metadata-key.js';
import { decodeConsumerGroupMemberMetadataValue, encodeConsumerGroupMemberMetadataValue } from '../../../protocol/generated/internal/group-coordinator/consumer-group-member-metadata-value.js';
import { decodeConsumerGroupMetadataKey, encodeConsumerGroupMetadataKey, CONSUMER_GROUP_METADATA_KEY_RECORD_TYPE } from '../../../protocol/generated/internal/group-coordinator/consumer-group-metadata-key.js';
import { decodeConsumerGroupMetadataValue, encodeConsumerGroupMetadataValue } from '../../../protocol/generated/internal/group-coordinator/consumer-group-metadata-value.js';
import { decodeConsumerGroupPartitionMetadataKey, encodeConsumerGroupPartitionMetadataKey, CONSUMER_GROUP_PARTITION_METADATA_KEY_RECORD_TYPE } from '../../../protocol/generated/internal/group-coordinator/consumer-group-partition-metadata-key.js';
import { decodeConsumerGroupPartitionMetadataValue, encodeConsumerGroupPartitionMetadataValue } from '../../../protocol/generated/internal/group-coordinator/consumer-group-partition-metadata-value.js';
import { decodeConsumerGroupRegularExpressionKey, encodeConsumerGroupRegularExpressionKey, CONSUMER_GROUP_REGULAR_EXPRESSION_KEY_RECORD_TYPE } from '../../../protocol/generated/internal/group-coordinator/consumer-group-regular-expression-key.js';
import { decodeConsumerGroupRegularExpressionValue, encodeConsumerGroupRegularExpressionValue } from '../../../protocol/generated/internal/group-coordinator/consumer-group-regular-expression-value.js';
import { decodeConsumerGroupTargetAssignmentMemberKey, encodeConsumerGroupTargetAssignmentMemberKey, CONSUMER_GROUP_TARGET_ASSIGNMENT_MEMBER_KEY_RECORD_TYPE } from '../../../protocol/generated/internal/group-coordinator/consumer-group-target-assignment-member-key.js';
import { decodeConsumerGroupTargetAssignmentMemberValue, encodeConsumerGroupTargetAssignmentMemberValue } from '../../../protocol/generated/internal/group-coordinator/consumer-group-target-assignment-member-value.js';
import { decodeConsumerGroupTargetAssignmentMetadataKey, encodeConsumerGroupTargetAssignmentMetadataKey, CONSUMER_GROUP_TARGET_ASSIGNMENT_METADATA_KEY_RECORD_TYPE } from '../../../protocol/generated/internal/group-coordinator/consumer-group-target-assignment-metadata-key.js';
import { decodeConsumerGroupTargetAssignmentMetadataValue, encodeConsumerGroupTargetAssignmentMetadataValue } from '../../../protocol/generated/internal/group-coordinator/consumer-group-target-assignment-metadata-value.js';
import { Reader } from '../../../protocol/io/reader.js';
import { Writer } from '../../../protocol/io/writer.js';
import type { ConsumerGroupRecord } from './records.js';

const VALUE_VERSION = 0;

export function encodeConsumerRecordKey(record: ConsumerGroupRecord): Buffer {
  const w = new Writer(64);
  switch (record.type) {
    case 'consumer-group':
      w.int16(CONSUMER_GROUP_METADATA_KEY_RECORD_TYPE);
      encodeConsumerGroupMetadataKey(w, { groupId: record.group }, 0);
      break;
    case 'consumer-partition-metadata':
      w.int16(CONSUMER_GROUP_PARTITION_METADATA_KEY_RECORD_TYPE);
      encodeConsumerGroupPartitionMetadataKey(w, { groupId: record.group }, 0);
      break;
    case 'consumer-member':
      w.int16(CONSUMER_GROUP_MEMBER_METADATA_KEY_RECORD_TYPE);
      encodeConsumerGroupMemberMetadataKey(w, { groupId: record.group, memberId: record.memberId }, 0);
      break;
    case 'consumer-target':
      w.int16(CONSUMER_GROUP_TARGET_ASSIGNMENT_METADATA_KEY_RECORD_TYPE);
      encodeConsumerGroupTargetAssignmentMetadataKey(w, { groupId: record.group }, 0);
      break;
    case 'consumer-target-member':
      w.int16(CONSUMER_GROUP_TARGET_ASSIGNMENT_MEMBER_KEY_RECORD_TYPE);
      encodeConsumerGroupTargetAssignmentMemberKey(w, { groupId: record.group, memberId: record.memberId }, 0);
      break;
    case 'consumer-current-member':
      w.int16(CONSUMER_GROUP_CURRENT_MEMBER_ASSIGNMENT_KEY_RECORD_TYPE);
      encodeConsumerGroupCurrentMemberAssignmentKey(w, { groupId: record.group, memberId: record.memberId }, 0);
      break;
    case 'consumer-regex':
      w.int16(CONSUMER_GROUP_REGULAR_EXPRESSION_KEY_RECORD_TYPE);
      encodeConsumerGroupRegularExpressionKey(w, { groupId: record.group, regularExpression: record.regex }, 0);
      break;
  }
  return w.toBuffer();
}

export function encodeConsumerRecordValue(record: ConsumerGroupRecord): Buffer | null {
  if (record.value === null) return null;
  const w = new Writer(128);
  w.int16(VALUE_VERSION);
  switch (record.type) {
    case 'consumer-group':
      encodeConsumerGroupMetadataValue(w, record.value, VALUE_VERSION);
      break;
    case 'consumer-partition-metadata':
      encodeConsumerGroupPartitionMetadataValue(w, record.value, VALUE_VERSION);
      break;
    case 'consumer-member':
      encodeConsumerGroupMemberMetadataValue(w, record.value, VALUE_VERSION);
      break;
    case 'consumer-target':
      encodeConsumerGroupTargetAssignmentMetadataValue(w, record.value, VALUE_VERSION);
      break;
    case 'consumer-target-member':
      encodeConsumerGroupTargetAssignmentMemberValue(w, record.value, VALUE_VERSION);
      break;
    case 'consumer-current-member':
      encodeConsumerGroupCurrentMemberAssignmentValue(w, record.value, VALUE_VERSION);
      break;
    case 'consumer-regex':
      encodeConsumerGroupRegularExpressionValue(w, record.value, VALUE_VERSION);
      break;
  }
  return w.toBuffer();
}

/**
 * The consumer group record of a key whose record type `recordType` has been read from `key`; undefined for a
 * record type that is not a consumer group's. Throws ProtocolError on bad bytes.
 */
export function decodeConsumerRecord(recordType: number, key: Reader, value: Buffer | null): ConsumerGroupRecord | undefined {
  const vr = value === null ? null : new Reader(value);
  const version = vr === null ? 0 : vr.int16();
  switch (recordType) {
    case CONSUMER_GROUP_METADATA_KEY_RECORD_TYPE: {
      const k = decodeConsumerGroupMetadataKey(key, 0);
      return { type: 'consumer-group', group: k.groupId, value: vr && decodeConsumerGroupMetadataValue(vr, version) };
    }
    case CONSUMER_GROUP_PARTITION_METADATA_KEY_RECORD_TYPE: {
      const k = decodeConsumerGroupPartitionMetadataKey(key, 0);
      return { type: 'consumer-partition-metadata', group: k.groupId, value: vr && decodeConsumerGroupPartitionMetadataValue(vr, version) };
    }
    case CONSUMER_GROUP_MEMBER_METADATA_KEY_RECORD_TYPE: {
      const k = decodeConsumerGroupMemberMetadataKey(key, 0);
      return { type: 'consumer-member', group: k.groupId, memberId: k.memberId, value: vr && decodeConsumerGroupMemberMetadataValue(vr, version) };
    }
    case CONSUMER_GROUP_TARGET_ASSIGNMENT_METADATA_KEY_RECORD_TYPE: {
      const k = decodeConsumerGroupTargetAssignmentMetadataKey(key, 0);
      return { type: 'consumer-target', group: k.groupId, value: vr && decodeConsumerGroupTargetAssignmentMetadataValue(vr, version) };
    }
    case CONSUMER_GROUP_TARGET_ASSIGNMENT_MEMBER_KEY_RECORD_TYPE: {
      const k = decodeConsumerGroupTargetAssignmentMemberKey(key, 0);
      return { type: 'consumer-target-member', group: k.groupId, memberId: k.memberId, value: vr && decodeConsumerGroupTargetAssignmentMemberValue(vr, version) };
    }
    case CONSUMER_GROUP_CURRENT_MEMBER_ASSIGNMENT_KEY_RECORD_TYPE: {
      const k = decodeConsumerGroupCurrentMemberAssignmentKey(key, 0);
      return { type: 'consumer-current-member', group: k.groupId, memberId: k.memberId, value: vr && decodeConsumerGroupCurrentMemberAssignmentValue(vr, version) };
    }
    case CONSUMER_GROUP_REGULAR_EXPRESSION_KEY_RECORD_TYPE: {
      const k = decodeConsumerGroupRegularExpressionKey(key, 0);
      return { type: 'consumer-regex', group: k.groupId, regex: k.regularExpression, value: vr && decodeConsumerGroupRegularExpressionValue(vr, version) };
    }
    default:
      return undefined;
  }
}
