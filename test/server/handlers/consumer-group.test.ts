// ConsumerGroupHeartbeat and ConsumerGroupDescribe over a socket: a member joins and is described as Kafka 4.3.1
// describes it; without `consumer` in group.coordinator.rebalance.protocols, or with group.version at 0, both
// answer UNSUPPORTED_VERSION, as Kafka's KafkaApis does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ErrorCode } from '../../../src/protocol/error-codes.js';
import { consumerGroupDescribeApi } from '../../../src/protocol/generated/consumer-group-describe.js';
import { consumerGroupHeartbeatApi, createConsumerGroupHeartbeatRequest } from '../../../src/protocol/generated/consumer-group-heartbeat.js';
import { memoryFeatureStore } from '../../../src/broker/feature-store.js';
import { Features, GROUP_VERSION } from '../../../src/broker/features.js';
import { MemoryLogStore } from '../../../src/storage/memory/memory-store.js';
import { RawClient } from '../raw-client.js';
import { roundTrip, startTestBroker } from '../broker-harness.js';

/** Without an authorizer: every GROUP operation (READ, DESCRIBE, DELETE, DESCRIBE_CONFIGS, ALTER_CONFIGS: bits 3, 8, 6, 10, 11). */
const GROUP_AUTHORIZED_OPERATIONS = [3, 8, 6, 10, 11].reduce((field, op) => field | (1 << op), 0);

const join = { ...createConsumerGroupHeartbeatRequest(), groupId: 'g', memberId: 'member-1', rebalanceTimeoutMs: 30000, subscribedTopicNames: ['t'], topicPartitions: [] };

test('a member joins, gets every partition, and ConsumerGroupDescribe shows it', async () => {
  const store = new MemoryLogStore({ nodeId: 1 });
  const broker = await startTestBroker({}, { store });
  const topic = await store.createTopic('t', 3);
  const client = await RawClient.connect(broker.port);
  try {
    const joined = await roundTrip(client, consumerGroupHeartbeatApi, 1, join);
    assert.deepEqual(
      [joined.errorCode, joined.memberId, joined.memberEpoch, joined.heartbeatIntervalMs, joined.assignment],
      [ErrorCode.NONE, 'member-1', 2, 5000, { topicPartitions: [{ topicId: topic.topicId, partitions: [0, 1, 2] }] }],
    );
    for (const version of [0, 1]) {
      const { groups } = await roundTrip(client, consumerGroupDescribeApi, version, { groupIds: ['g', 'missing'], includeAuthorizedOperations: true });
      const [g, missing] = groups;
      assert.deepEqual([g!.groupState, g!.groupEpoch, g!.assignmentEpoch, g!.assignorName, g!.authorizedOperations], ['Stable', 2, 2, 'uniform', GROUP_AUTHORIZED_OPERATIONS]);
      const member = g!.members[0]!;
      assert.deepEqual([member.memberId, member.memberEpoch, member.clientId, member.clientHost, member.subscribedTopicNames], ['member-1', 2, 'test-client', '/127.0.0.1', ['t']]);
      assert.deepEqual(member.assignment.topicPartitions, [{ topicId: topic.topicId, topicName: 't', partitions: [0, 1, 2] }]);
      assert.equal(member.memberType, version >= 1 ? 1 : -1);
      assert.deepEqual([missing!.errorCode, missing!.errorMessage], [ErrorCode.GROUP_ID_NOT_FOUND, 'Group missing not found.']);
    }
    const left = await roundTrip(client, consumerGroupHeartbeatApi, 1, { ...join, memberEpoch: -1, rebalanceTimeoutMs: -1, subscribedTopicNames: null, topicPartitions: null });
    assert.deepEqual([left.errorCode, left.memberEpoch], [ErrorCode.NONE, -1]);
  } finally {
    await client.close();
    await broker.close();
  }
});

test('the consumer protocol off (not listed, or group.version 0): UNSUPPORTED_VERSION', async () => {
  const broker = await startTestBroker({ 'group.coordinator.rebalance.protocols': 'classic' });
  const client = await RawClient.connect(broker.port);
  try {
    const hb = await roundTrip(client, consumerGroupHeartbeatApi, 1, join);
    assert.equal(hb.errorCode, ErrorCode.UNSUPPORTED_VERSION);
    const { groups } = await roundTrip(client, consumerGroupDescribeApi, 1, { groupIds: ['g'], includeAuthorizedOperations: false });
    assert.deepEqual(groups.map((g) => [g.groupId, g.errorCode]), [['g', ErrorCode.UNSUPPORTED_VERSION]]);
  } finally {
    await client.close();
    await broker.close();
  }
  const features = await Features.open(memoryFeatureStore());
  const downgraded = await startTestBroker({}, { features });
  const other = await RawClient.connect(downgraded.port);
  try {
    await features.apply([{ name: GROUP_VERSION, level: 0 }]);
    const hb = await roundTrip(other, consumerGroupHeartbeatApi, 1, join);
    assert.equal(hb.errorCode, ErrorCode.UNSUPPORTED_VERSION);
  } finally {
    await other.close();
    await downgraded.close();
  }
});
