/**
 * Bytes of the streams group records (types 17-23): the key's int16 record type then the key (version 0), the value's
 * int16 version (0 for all) then the value; a tombstone has no value.
 */
import { decodeStreamsGroupCurrentMemberAssignmentKey, encodeStreamsGroupCurrentMemberAssignmentKey, STREAMS_GROUP_CURRENT_MEMBER_ASSIGNMENT_KEY_RECORD_TYPE } from '../../../protocol/generated/internal/group-coordinator/streams-group-current-member-assignment-key.js';
import { decodeStreamsGroupCurrentMemberAssignmentValue, encodeStreamsGroupCurrentMemberAssignmentValue } from '../../../protocol/generated/internal/group-coordinator/streams-group-current-member-assignment-value.js';
import { decodeStreamsGroupMemberMetadataKey, encodeStreamsGroupMemberMetadataKey, STREAMS_GROUP_MEMBER_METADATA_KEY_RECORD_TYPE } from '../../../protocol/generated/internal/group-coordinator/streams-group-member-metadata-key.js';
import { decodeStreamsGroupMemberMetadataValue, encodeStreamsGroupMemberMetadataValue } from '../../../protocol/generated/internal/group-coordinator/streams-group-member-metadata-value.js';
import { decodeStreamsGroupMetadataKey, encodeStreamsGroupMetadataKey, STREAMS_GROUP_METADATA_KEY_RECORD_TYPE } from '../../../protocol/generated/internal/group-coordinator/streams-group-metadata-key.js';
import { decodeStreamsGroupMetadataValue, encodeStreamsGroupMetadataValue } from '../../../protocol/generated/internal/group-coordinator/streams-group-metadata-value.js';
import { decodeStreamsGroupTargetAssignmentMemberKey, encodeStreamsGroupTargetAssignmentMemberKey, STREAMS_GROUP_TARGET_ASSIGNMENT_MEMBER_KEY_RECORD_TYPE } from '../../../protocol/generated/internal/group-coordinator/streams-group-target-assignment-member-key.js';
import { decodeStreamsGroupTargetAssignmentMemberValue, encodeStreamsGroupTargetAssignmentMemberValue } from '../../../protocol/generated/internal/group-coordinator/streams-group-target-assignment-member-value.js';
import { decodeStreamsGroupTargetAssignmentMetadataKey, encodeStreamsGroupTargetAssignmentMetadataKey, STREAMS_GROUP_TARGET_ASSIGNMENT_METADATA_KEY_RECORD_TYPE } from '../../../protocol/generated/internal/group-coordinator/streams-group-target-assignment-metadata-key.js';
import { decodeStreamsGroupTargetAssignmentMetadataValue, encodeStreamsGroupTargetAssignmentMetadataValue } from '../../../protocol/generated/internal/group-coordinator/streams-group-target-assignment-metadata-value.js';
import { decodeStreamsGroupTopologyKey, encodeStreamsGroupTopologyKey, STREAMS_GROUP_TOPOLOGY_KEY_RECORD_TYPE } from '../../../protocol/generated/internal/group-coordinator/streams-group-topology-key.js';
import { decodeStreamsGroupTopologyValue, encodeStreamsGroupTopologyValue } from '../../../protocol/generated/internal/group-coordinator/streams-group-topology-value.js';
import { Reader } from '../../../protocol/io/reader.js';
import { Writer } from '../../../protocol/io/writer.js';
import type { StreamsGroupRecord } from './records.js';

const VALUE_VERSION = 0;

export function encodeStreamsRecordKey(record: StreamsGroupRecord): Buffer {
  const w = new Writer(64);
  switch (record.type) {
    case 'streams-group':
      w.int16(STREAMS_GROUP_METADATA_KEY_RECORD_TYPE);
      encodeStreamsGroupMetadataKey(w, { groupId: record.group }, 0);
      break;
    case 'streams-topology':
      w.int16(STREAMS_GROUP_TOPOLOGY_KEY_RECORD_TYPE);
      encodeStreamsGroupTopologyKey(w, { groupId: record.group }, 0);
      break;
    case 'streams-member':
      w.int16(STREAMS_GROUP_MEMBER_METADATA_KEY_RECORD_TYPE);
      encodeStreamsGroupMemberMetadataKey(w, { groupId: record.group, memberId: record.memberId }, 0);
      break;
    case 'streams-target':
      w.int16(STREAMS_GROUP_TARGET_ASSIGNMENT_METADATA_KEY_RECORD_TYPE);
      encodeStreamsGroupTargetAssignmentMetadataKey(w, { groupId: record.group }, 0);
      break;
    case 'streams-target-member':
      w.int16(STREAMS_GROUP_TARGET_ASSIGNMENT_MEMBER_KEY_RECORD_TYPE);
      encodeStreamsGroupTargetAssignmentMemberKey(w, { groupId: record.group, memberId: record.memberId }, 0);
      break;
    case 'streams-current-member':
      w.int16(STREAMS_GROUP_CURRENT_MEMBER_ASSIGNMENT_KEY_RECORD_TYPE);
      encodeStreamsGroupCurrentMemberAssignmentKey(w, { groupId: record.group, memberId: record.memberId }, 0);
      break;
  }
  return w.toBuffer();
}

export function encodeStreamsRecordValue(record: StreamsGroupRecord): Buffer | null {
  if (record.value === null) return null;
  const w = new Writer(128);
  w.int16(VALUE_VERSION);
  switch (record.type) {
    case 'streams-group':
      encodeStreamsGroupMetadataValue(w, record.value, VALUE_VERSION);
      break;
    case 'streams-topology':
      encodeStreamsGroupTopologyValue(w, record.value, VALUE_VERSION);
      break;
    case 'streams-member':
      encodeStreamsGroupMemberMetadataValue(w, record.value, VALUE_VERSION);
      break;
    case 'streams-target':
      encodeStreamsGroupTargetAssignmentMetadataValue(w, record.value, VALUE_VERSION);
      break;
    case 'streams-target-member':
      encodeStreamsGroupTargetAssignmentMemberValue(w, record.value, VALUE_VERSION);
      break;
    case 'streams-current-member':
      encodeStreamsGroupCurrentMemberAssignmentValue(w, record.value, VALUE_VERSION);
      break;
  }
  return w.toBuffer();
}

/** The streams record of that type, undefined for a type that is not a streams group's. */
export function decodeStreamsRecord(recordType: number, key: Reader, value: Buffer | null): StreamsGroupRecord | undefined {
  const vr = value === null ? null : new Reader(value);
  const version = vr === null ? 0 : vr.int16();
  switch (recordType) {
    case STREAMS_GROUP_METADATA_KEY_RECORD_TYPE:
      return { type: 'streams-group', group: decodeStreamsGroupMetadataKey(key, 0).groupId, value: vr && decodeStreamsGroupMetadataValue(vr, version) };
    case STREAMS_GROUP_TOPOLOGY_KEY_RECORD_TYPE:
      return { type: 'streams-topology', group: decodeStreamsGroupTopologyKey(key, 0).groupId, value: vr && decodeStreamsGroupTopologyValue(vr, version) };
    case STREAMS_GROUP_MEMBER_METADATA_KEY_RECORD_TYPE: {
      const k = decodeStreamsGroupMemberMetadataKey(key, 0);
      return { type: 'streams-member', group: k.groupId, memberId: k.memberId, value: vr && decodeStreamsGroupMemberMetadataValue(vr, version) };
    }
    case STREAMS_GROUP_TARGET_ASSIGNMENT_METADATA_KEY_RECORD_TYPE:
      return { type: 'streams-target', group: decodeStreamsGroupTargetAssignmentMetadataKey(key, 0).groupId, value: vr && decodeStreamsGroupTargetAssignmentMetadataValue(vr, version) };
    case STREAMS_GROUP_TARGET_ASSIGNMENT_MEMBER_KEY_RECORD_TYPE: {
      const k = decodeStreamsGroupTargetAssignmentMemberKey(key, 0);
      return { type: 'streams-target-member', group: k.groupId, memberId: k.memberId, value: vr && decodeStreamsGroupTargetAssignmentMemberValue(vr, version) };
    }
    case STREAMS_GROUP_CURRENT_MEMBER_ASSIGNMENT_KEY_RECORD_TYPE: {
      const k = decodeStreamsGroupCurrentMemberAssignmentKey(key, 0);
      return { type: 'streams-current-member', group: k.groupId, memberId: k.memberId, value: vr && decodeStreamsGroupCurrentMemberAssignmentValue(vr, version) };
    }
    default:
      return undefined;
  }
}
