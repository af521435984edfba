// What a consumer group derives from its members (Kafka's ConsumerGroup): subscription type, counts, the
// partition-metadata record of older Kafka versions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConsumerGroup, subscriptionTypeOf } from '../../../src/coordinator/group/consumer/consumer-group.js';
import { newMember } from '../../../src/coordinator/group/consumer/member.js';
import type { ConsumerGroupPartitionMetadataRecord } from '../../../src/coordinator/group/consumer/records.js';
import { decodeRecord, encodeRecordKey, encodeRecordValue } from '../../../src/coordinator/group/record-serde.js';
import { GroupHarness } from '../group-harness.js';
import { ORDERS_ID } from './kafka-records.js';

test('subscription type: homogeneous when all subscribe alike, by names or by one regular expression', () => {
  const byName = (n: number) => ({ byName: n, byRegex: 0 });
  const rows: [string, [string, number][], [string, { byName: number; byRegex: number }][], number, string][] = [
    ['no subscriptions', [], [], 2, 'homogeneous'],
    ['both members name both topics', [], [['a', byName(2)], ['b', byName(2)]], 2, 'homogeneous'],
    ['one topic named by one member', [], [['a', byName(2)], ['b', byName(1)]], 2, 'heterogeneous'],
    ['one regex for both', [['x.*', 2]], [['xa', { byName: 0, byRegex: 1 }]], 2, 'homogeneous'],
    ['one regex, one member', [['x.*', 1]], [['xa', { byName: 0, byRegex: 1 }]], 2, 'heterogeneous'],
    ['two regexes', [['x.*', 1], ['y.*', 1]], [], 2, 'heterogeneous'],
    ['a regex and a name', [['x.*', 2]], [['xa', { byName: 1, byRegex: 1 }]], 2, 'heterogeneous'],
  ];
  for (const [what, regexes, topics, members, expected] of rows) {
    assert.equal(subscriptionTypeOf(new Map(regexes), new Map(topics), members), expected, what);
  }
});

test('members are counted: topics by name and by regex, server assignors, static members, classic members', () => {
  const group = new ConsumerGroup('g');
  group.updateMember({ ...newMember('a'), subscribedTopicNames: new Set(['t']), serverAssignor: 'range', instanceId: 'i1' });
  group.updateMember({ ...newMember('b'), subscribedTopicRegex: 't.*', serverAssignor: 'uniform' });
  group.updateMember({ ...newMember('c'), serverAssignor: 'uniform', classicMemberMetadata: { sessionTimeoutMs: 45000, supportedProtocols: [] } });
  group.updateResolvedRegex('t.*', { topics: new Set(['t', 'tt']), version: 1n, timestamp: 0 });
  assert.deepEqual([...group.subscribedTopicNames].sort(), [
    ['t', { byName: 1, byRegex: 1 }],
    ['tt', { byName: 0, byRegex: 1 }],
  ]);
  assert.equal(group.preferredServerAssignor(), 'uniform');
  assert.equal(group.staticMemberId('i1'), 'a');
  assert.equal(group.numClassicProtocolMembers, 1);
  group.removeMember('a');
  group.updateResolvedRegex('t.*', null);
  assert.deepEqual([...group.subscribedTopicNames], []);
  assert.equal(group.staticMemberId('i1'), undefined);
  assert.equal(group.subscriptionType, 'heterogeneous');
});

test('an older Kafka’s partition metadata record is noted (the next epoch bump deletes it) and its tombstone clears it', () => {
  const record: ConsumerGroupPartitionMetadataRecord = {
    type: 'consumer-partition-metadata',
    group: 'g',
    value: { topics: [{ topicId: ORDERS_ID, topicName: 'orders', numPartitions: 4, partitionMetadata: [{ partition: 0, racks: ['r'] }] }] },
  };
  assert.deepEqual(decodeRecord(encodeRecordKey(record), encodeRecordValue(record)), record);
  const h = new GroupHarness();
  h.shard.replay(record);
  assert.equal(h.shard.consumerGroup('g')!.hasSubscriptionMetadataRecord, true);
  assert.equal(h.shard.consumerGroup('g')!.state, 'Empty');
  h.shard.replay({ ...record, value: null });
  assert.equal(h.shard.consumerGroup('g')!.hasSubscriptionMetadataRecord, false);
  assert.deepEqual(
    h.shard.consumerGroup('g')!.tombstoneRecords().map((r) => r.type),
    ['consumer-target', 'consumer-partition-metadata', 'consumer-group'],
  );
});
