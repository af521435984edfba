// Consumer group records against the bytes Kafka 4.3.1 wrote for the same state: each decodes and re-encodes to
// the same bytes, and the records gregor builds from a group's state are Kafka's.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadXxh3 } from '../../../src/coordinator/group/consumer/xxh3.js';
import { computeMetadataHash } from '../../../src/coordinator/group/consumer/metadata-hash.js';
import { newMember, type ConsumerGroupMember } from '../../../src/coordinator/group/consumer/member.js';
import {
  currentAssignmentRecord,
  currentAssignmentTombstone,
  groupEpochRecord,
  memberSubscriptionRecord,
  memberSubscriptionTombstone,
  regexRecord,
  targetAssignmentMetadataRecord,
  targetAssignmentRecord,
  targetAssignmentTombstone,
} from '../../../src/coordinator/group/consumer/records.js';
import { decodeRecord, encodeRecordKey, encodeRecordValue } from '../../../src/coordinator/group/record-serde.js';
import type { GroupRecord } from '../../../src/coordinator/group/records.js';
import { KAFKA_IMAGE, kafkaRecord, kafkaRecords, ORDERS_ID, PAYMENTS_ID } from './kafka-records.js';

const MEMBER_A = 'xvdD-44kRSy66YXUF70OQg'; // g1's first member (c-a)
const MEMBER_B = 'D1f0CL-iS9OEByL3JXpEtA'; // g1's second member (c-b)
const STATIC = 'G1OcYyz4TFyjxnL8PDQ2MQ'; // g2's static member

function assertBytes(record: GroupRecord, group: 'g1' | 'g2', offset: number): void {
  const kafka = kafkaRecord(group, offset);
  assert.equal(encodeRecordKey(record).toString('hex'), kafka.key.toString('hex'), `key of ${group}@${offset}`);
  assert.equal(encodeRecordValue(record)?.toString('hex') ?? null, kafka.value?.toString('hex') ?? null, `value of ${group}@${offset}`);
}

const epochs = (entries: [string, [number, number][]][]) => new Map(entries.map(([t, ps]) => [t, new Map(ps)] as const));

const memberA: ConsumerGroupMember = {
  ...newMember(MEMBER_A),
  clientId: 'c-a',
  clientHost: '/127.0.0.1',
  subscribedTopicNames: new Set(['orders']),
  rebalanceTimeoutMs: 300000,
};


before(loadXxh3);

test('every consumer group record Kafka 4.3.1 wrote decodes and re-encodes to its bytes', () => {
  let consumerRecords = 0;
  for (const group of ['g1', 'g2'] as const) {
    for (const r of kafkaRecords(group)) {
      const record = decodeRecord(r.key, r.value);
      assert.notEqual(record, null, `${group}@${r.offset}`);
      if (record!.type === 'offset') continue;
      consumerRecords++;
      assert.equal(encodeRecordKey(record!).toString('hex'), r.key.toString('hex'), `key of ${group}@${r.offset}`);
      assert.equal(encodeRecordValue(record!)?.toString('hex') ?? null, r.value?.toString('hex') ?? null, `value of ${group}@${r.offset}`);
    }
  }
  assert.equal(consumerRecords, 32);
});

test('a member subscription: Kafka writes the empty regex as "" and a null classic metadata as its null marker', () => {
  assertBytes(memberSubscriptionRecord('g1', memberA), 'g1', 0);
  const decoded = decodeRecord(kafkaRecord('g1', 0).key, kafkaRecord('g1', 0).value);
  assert.deepEqual(decoded, memberSubscriptionRecord('g1', memberA));
  // The static member: instance id and rack, topic names sorted.
  const staticMember: ConsumerGroupMember = {
    ...newMember(STATIC),
    instanceId: 'inst-1',
    rackId: 'rack-a',
    clientId: 'c-r',
    clientHost: '/127.0.0.1',
    subscribedTopicNames: new Set(['payments', 'orders']),
    rebalanceTimeoutMs: 300000,
  };
  assertBytes(memberSubscriptionRecord('g2', staticMember), 'g2', 0);
});

test('the group epoch record carries the metadata hash Kafka computes for the subscribed topics', () => {
  assertBytes(groupEpochRecord('g1', 2, computeMetadataHash(['orders'], KAFKA_IMAGE)), 'g1', 1);
  assertBytes(groupEpochRecord('g2', 2, computeMetadataHash(['orders', 'payments'], KAFKA_IMAGE)), 'g2', 1);
  // No subscribed topic: hash 0, its tagged field left out.
  assertBytes(groupEpochRecord('g1', 5, computeMetadataHash([], KAFKA_IMAGE)), 'g1', 49);
});

test('target assignment records: topics and partitions in the order of Kafka’s hash maps, the metadata with its timestamp', () => {
  assertBytes(targetAssignmentRecord('g1', MEMBER_A, new Map([[ORDERS_ID, new Set([3, 1, 0, 2])]])), 'g1', 2);
  assertBytes(targetAssignmentRecord('g1', MEMBER_B, new Map([[ORDERS_ID, new Set([2, 3])]])), 'g1', 11);
  assertBytes(
    targetAssignmentRecord(
      'g2',
      STATIC,
      new Map([
        [PAYMENTS_ID, new Set([0, 1])],
        [ORDERS_ID, new Set([0, 1, 2, 3])],
      ]),
    ),
    'g2',
    2,
  );
  const kafkaTimestamp = Number(kafkaRecord('g1', 3).value!.readBigInt64BE(9));
  assertBytes(targetAssignmentMetadataRecord('g1', 2, kafkaTimestamp), 'g1', 3);
});

test('current assignment records: each partition with the epoch it was assigned at', () => {
  const joined: ConsumerGroupMember = {
    ...memberA,
    memberEpoch: 2,
    previousMemberEpoch: 0,
    assignedPartitions: epochs([[ORDERS_ID, [[0, 2], [1, 2], [2, 2], [3, 2]]]]),
  };
  assertBytes(currentAssignmentRecord('g1', joined), 'g1', 4);
  // c-b joined while c-a owned everything: nothing for it yet, UNRELEASED_PARTITIONS at epoch 3.
  const waiting: ConsumerGroupMember = { ...newMember(MEMBER_B), memberEpoch: 3, previousMemberEpoch: 0, state: 'UNRELEASED_PARTITIONS' };
  assertBytes(currentAssignmentRecord('g1', waiting), 'g1', 14);
  // A static member leaving keeps its partitions at member epoch -2, their epochs reset to 0.
  const leaving: ConsumerGroupMember = {
    ...newMember(STATIC),
    memberEpoch: -2,
    previousMemberEpoch: 0,
    assignedPartitions: epochs([
      [ORDERS_ID, [[0, 0], [1, 0], [2, 0], [3, 0]]],
      [PAYMENTS_ID, [[0, 0], [1, 0]]],
    ]),
  };
  assertBytes(currentAssignmentRecord('g2', leaving), 'g2', 23);
});

test('a member leaving: the tombstones of its current assignment, target and subscription', () => {
  assertBytes(currentAssignmentTombstone('g1', MEMBER_A), 'g1', 31);
  assertBytes(targetAssignmentTombstone('g1', MEMBER_A), 'g1', 32);
  assertBytes(memberSubscriptionTombstone('g1', MEMBER_A), 'g1', 33);
});

test('a resolved regular expression round-trips with its topics sorted (no Kafka bytes: the Java client resolves patterns itself)', () => {
  const record = regexRecord('g3', 'ord.*', { topics: new Set(['orders-b', 'orders-a']), version: 7n, timestamp: 1234 });
  assert.deepEqual(record.value?.topics, ['orders-a', 'orders-b']);
  assert.deepEqual(decodeRecord(encodeRecordKey(record), encodeRecordValue(record)), record);
});
