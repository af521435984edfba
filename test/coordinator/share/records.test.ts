// Share group records against the bytes Kafka 4.3.1 wrote for the same state: each decodes and re-encodes to the
// same bytes, the records gregor builds from a group's state are Kafka's, and replaying them rebuilds the group.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { computeMetadataHash } from '../../../src/coordinator/group/consumer/metadata-hash.js';
import { loadXxh3 } from '../../../src/coordinator/group/consumer/xxh3.js';
import { decodeRecord, encodeRecordKey, encodeRecordValue } from '../../../src/coordinator/group/record-serde.js';
import type { GroupRecord } from '../../../src/coordinator/group/records.js';
import { newShareMember, type ShareGroupMember } from '../../../src/coordinator/group/share/member.js';
import {
  shareCurrentAssignmentRecord,
  shareCurrentAssignmentTombstone,
  shareGroupEpochRecord,
  shareMemberRecord,
  shareMemberTombstone,
  shareTargetMemberRecord,
  shareTargetMetadataRecord,
  statePartitionMetadataRecord,
} from '../../../src/coordinator/group/share/records.js';
import { GroupHarness } from '../group-harness.js';
import { JOBS_ID, kafkaShareRecord, kafkaShareRecords, MEMBER_A, MEMBER_B, SHARE_IMAGE } from './kafka-records.js';

function assertBytes(record: GroupRecord, offset: number): void {
  const kafka = kafkaShareRecord(offset);
  assert.equal(encodeRecordKey(record).toString('hex'), kafka.key.toString('hex'), `key of s1@${offset}`);
  assert.equal(encodeRecordValue(record)?.toString('hex') ?? null, kafka.value?.toString('hex') ?? null, `value of s1@${offset}`);
}

const jobs = (...partitions: number[]) => new Map([[JOBS_ID, new Set(partitions)]]);
const memberA: ShareGroupMember = { ...newShareMember(MEMBER_A), clientId: 'c-a', clientHost: '/127.0.0.1', subscribedTopicNames: new Set(['jobs']) };

before(loadXxh3);

test('every share group record Kafka 4.3.1 wrote decodes and re-encodes to its bytes', () => {
  const records = kafkaShareRecords();
  assert.equal(records.length, 29);
  for (const r of records) {
    const record = decodeRecord(r.key, r.value);
    assert.ok(record !== null && record.type.startsWith('share-'), `s1@${r.offset}`);
    assert.equal(encodeRecordKey(record).toString('hex'), r.key.toString('hex'), `key of s1@${r.offset}`);
    assert.equal(encodeRecordValue(record)?.toString('hex') ?? null, r.value?.toString('hex') ?? null, `value of s1@${r.offset}`);
  }
});

test('the records built from a share group state are the bytes Kafka 4.3.1 wrote for it', () => {
  assertBytes(shareMemberRecord('s1', memberA), 0);
  assertBytes(shareGroupEpochRecord('s1', 2, computeMetadataHash(['jobs'], SHARE_IMAGE)), 1);
  assertBytes(shareTargetMemberRecord('s1', MEMBER_A, new Map()), 2);
  assertBytes(shareTargetMetadataRecord('s1', 2, 1796313115431), 3);
  assertBytes(shareCurrentAssignmentRecord('s1', { ...memberA, memberEpoch: 2, previousMemberEpoch: 0 }), 4);
  const topic = { name: 'jobs', partitions: new Set([2, 0, 1]), timestamp: 0 };
  assertBytes(statePartitionMetadataRecord('s1', { initializing: new Map([[JOBS_ID, topic]]), initialized: new Map(), deleting: new Map() }), 5);
  assertBytes(statePartitionMetadataRecord('s1', { initializing: new Map(), initialized: new Map([[JOBS_ID, topic]]), deleting: new Map() }), 6);
  assertBytes(shareTargetMemberRecord('s1', MEMBER_A, jobs(2, 1, 0)), 8);
  assertBytes(shareCurrentAssignmentRecord('s1', { ...memberA, memberEpoch: 4, previousMemberEpoch: 3, assignedPartitions: jobs(2) }), 17);
  assertBytes(shareCurrentAssignmentTombstone('s1', MEMBER_B), 18);
  assertBytes(shareMemberTombstone('s1', MEMBER_B), 20);
  assertBytes(shareGroupEpochRecord('s1', 6, 0n), 28);
});

test('replaying the records rebuilds the group at each point: two members, then empty at epoch 6 with its partitions initialized', () => {
  const records = kafkaShareRecords().map((r) => decodeRecord(r.key, r.value)!);
  const h = new GroupHarness();
  for (const record of records.slice(0, 18)) h.shard.replay(record);
  let group = h.shard.shareGroup('s1')!;
  assert.deepEqual([group.state, group.groupEpoch, group.assignmentEpoch], ['Stable', 4, 4]);
  assert.deepEqual(group.members.get(MEMBER_A)!.assignedPartitions, jobs(2));
  assert.deepEqual(group.members.get(MEMBER_B)!.assignedPartitions, jobs(0, 1));
  assert.deepEqual(group.members.get(MEMBER_B)!.clientId, 'c-b');
  assert.deepEqual([...group.subscribedTopicNames], [['jobs', 2]]);
  for (const record of records.slice(18)) h.shard.replay(record);
  group = h.shard.shareGroup('s1')!;
  assert.deepEqual([group.state, group.groupEpoch, group.assignmentEpoch, group.members.size, group.metadataHash], ['Empty', 6, 5, 0, 0n]);
  assert.deepEqual([...group.statePartitions!.initialized].map(([id, t]) => [id, t.name, [...t.partitions]]), [[JOBS_ID, 'jobs', [0, 1, 2]]]);
  assert.equal(group.statePartitions!.initializing.size, 0);
  // Deleting the group: its tombstones replay to nothing left.
  for (const record of group.tombstoneRecords()) h.shard.replay(record);
  assert.equal(h.shard.shareGroup('s1'), undefined);
});
