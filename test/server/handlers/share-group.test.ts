// ShareGroupHeartbeat and ShareGroupDescribe over a socket: a member joins, its share partitions are initialized and
// then assigned, ShareGroupDescribe shows it; with share.version at 0 both answer UNSUPPORTED_VERSION (the error
// response's member id null), as Kafka 4.3.1's KafkaApis does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ErrorCode } from '../../../src/protocol/error-codes.js';
import { shareGroupDescribeApi } from '../../../src/protocol/generated/share-group-describe.js';
import { createShareGroupHeartbeatRequest, shareGroupHeartbeatApi } from '../../../src/protocol/generated/share-group-heartbeat.js';
import { memoryFeatureStore } from '../../../src/broker/feature-store.js';
import { Features, SHARE_VERSION } from '../../../src/broker/features.js';
// READ, DESCRIBE, DELETE, DESCRIBE_CONFIGS, ALTER_CONFIGS: every operation a group supports (no authorizer).
const GROUP_AUTHORIZED_OPERATIONS = [3, 8, 6, 10, 11].reduce((field, op) => field | (1 << op), 0);
import { MemoryLogStore } from '../../../src/storage/memory/memory-store.js';
import { RawClient } from '../raw-client.js';
import { roundTrip, startTestBroker } from '../broker-harness.js';

const join = { ...createShareGroupHeartbeatRequest(), groupId: 's', memberId: 'member-1', subscribedTopicNames: ['t'] };

test('a member joins, is assigned every initialized share partition, and ShareGroupDescribe shows it', async () => {
  const store = new MemoryLogStore({ nodeId: 1 });
  const features = await Features.open(memoryFeatureStore());
  const broker = await startTestBroker({ 'group.share.assignment.interval.ms': '0' }, { store, features });
  const topic = await store.createTopic('t', 2);
  const client = await RawClient.connect(broker.port);
  try {
    const joined = await roundTrip(client, shareGroupHeartbeatApi, 1, join);
    assert.deepEqual([joined.errorCode, joined.memberId, joined.memberEpoch, joined.heartbeatIntervalMs, joined.assignment], [ErrorCode.NONE, 'member-1', 2, 5000, { topicPartitions: [] }]);
    // The next heartbeat finds the partitions initialized (the task after the join) and assigns them.
    let epoch = 2;
    let assignment = joined.assignment;
    while (epoch === 2) {
      const beat = await roundTrip(client, shareGroupHeartbeatApi, 1, { ...join, memberEpoch: epoch, subscribedTopicNames: null });
      [epoch, assignment] = [beat.memberEpoch, beat.assignment];
    }
    assert.deepEqual([epoch, assignment], [3, { topicPartitions: [{ topicId: topic.topicId, partitions: [0, 1] }] }]);
    const { groups } = await roundTrip(client, shareGroupDescribeApi, 1, { groupIds: ['s', 'missing'], includeAuthorizedOperations: true });
    const [g, missing] = groups;
    assert.deepEqual([g!.groupState, g!.groupEpoch, g!.assignmentEpoch, g!.assignorName, g!.authorizedOperations], ['Stable', 3, 3, 'simple', GROUP_AUTHORIZED_OPERATIONS]);
    const member = g!.members[0]!;
    assert.deepEqual([member.memberId, member.memberEpoch, member.clientId, member.clientHost, member.subscribedTopicNames], ['member-1', 3, 'test-client', '/127.0.0.1', ['t']]);
    assert.deepEqual(member.assignment.topicPartitions, [{ topicId: topic.topicId, topicName: 't', partitions: [0, 1] }]);
    assert.deepEqual([missing!.errorCode, missing!.errorMessage], [ErrorCode.GROUP_ID_NOT_FOUND, 'Group missing not found.']);

    await features.apply([{ name: SHARE_VERSION, level: 0 }]);
    const off = await roundTrip(client, shareGroupHeartbeatApi, 1, { ...join, memberEpoch: 3, subscribedTopicNames: null });
    assert.deepEqual([off.errorCode, off.memberId, off.memberEpoch], [ErrorCode.UNSUPPORTED_VERSION, null, 0]);
    const described = await roundTrip(client, shareGroupDescribeApi, 1, { groupIds: ['s'], includeAuthorizedOperations: false });
    assert.deepEqual(described.groups.map((d) => [d.groupId, d.errorCode]), [['s', ErrorCode.UNSUPPORTED_VERSION]]);
  } finally {
    await client.close();
    await broker.close();
  }
});
