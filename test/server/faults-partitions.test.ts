// An injected error for one partition (or group) of a request: that partition answers the error and is not handled,
// the rest of the request is handled as usual (a broker that lost the leadership of one partition), per API.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ErrorCode } from '../../src/protocol/error-codes.js';
import { ZERO_UUID } from '../../src/protocol/uuid.js';
import { produceApi, type ProduceRequest } from '../../src/protocol/generated/produce.js';
import { createListOffsetsRequest, listOffsetsApi } from '../../src/protocol/generated/list-offsets.js';
import { createOffsetCommitRequest, offsetCommitApi } from '../../src/protocol/generated/offset-commit.js';
import { createOffsetFetchRequest, createOffsetFetchRequestGroup, offsetFetchApi } from '../../src/protocol/generated/offset-fetch.js';
import { createDeleteRecordsRequest, deleteRecordsApi } from '../../src/protocol/generated/delete-records.js';
import { createInitProducerIdRequest, initProducerIdApi } from '../../src/protocol/generated/init-producer-id.js';
import { addPartitionsToTxnApi, createAddPartitionsToTxnRequest } from '../../src/protocol/generated/add-partitions-to-txn.js';
import { addOffsetsToTxnApi, createAddOffsetsToTxnRequest } from '../../src/protocol/generated/add-offsets-to-txn.js';
import { createTxnOffsetCommitRequest, txnOffsetCommitApi } from '../../src/protocol/generated/txn-offset-commit.js';
import { createDescribeGroupsRequest, describeGroupsApi } from '../../src/protocol/generated/describe-groups.js';
import { createFetchPartition } from '../../src/protocol/generated/fetch.js';
import { batch, fetch, fetchRequest, recordsOf, values, withDataBroker, type DataBroker } from '../broker/data-harness.js';
import { roundTrip } from './broker-harness.js';
import { RawClient } from './raw-client.js';

const NOT_LEADER = ErrorCode.NOT_LEADER_OR_FOLLOWER;

function produceBoth(acks = -1): ProduceRequest {
  return {
    transactionalId: null, acks, timeoutMs: 30_000,
    topicData: [{ topicId: ZERO_UUID, name: 't', partitionData: [0, 1].map((index) => ({ index, records: batch(values(`p${index}`)) })) }],
  };
}

/** Both partitions of t fetched from offset 0 (by name, and by id from v13). */
const fetchBoth = (topicId?: string) => {
  const request = fetchRequest([{ topic: 't', ...(topicId === undefined ? {} : { topicId }) }]);
  request.topics[0]!.partitions = [0, 1].map((partition) => ({ ...createFetchPartition(), partition, fetchOffset: 0n, partitionMaxBytes: 1 << 20, currentLeaderEpoch: -1 }));
  return request;
};

async function highWatermarks(b: DataBroker): Promise<bigint[]> {
  const read = await fetch(b.client, fetchBoth());
  return read.responses[0]!.partitions.sort((x, y) => x.partitionIndex - y.partitionIndex).map((p) => p.highWatermark);
}

const withTwoPartitions = (run: (b: DataBroker) => Promise<void>) => withDataBroker(async (b) => {
  await b.store.createTopic('t', 2);
  await run(b);
  assert.deepEqual(b.broker.faults.list(), [], 'every rule fired');
});

test('Produce: the named partition answers NOT_LEADER_OR_FOLLOWER with its leader (KIP-951) and is not appended; the other is', async () => {
  await withTwoPartitions(async (b) => {
    b.broker.faults.add({ api: 'Produce', topic: 't', partition: 1, action: 'error', error: 'NOT_LEADER_OR_FOLLOWER', count: 1 });
    const response = await roundTrip(b.client, produceApi, 11, produceBoth());
    const [p0, p1] = response.responses[0]!.partitionResponses.sort((x, y) => x.index - y.index);
    assert.deepEqual([p0!.errorCode, p0!.baseOffset, p0!.currentLeader], [ErrorCode.NONE, 0n, { leaderId: -1, leaderEpoch: -1 }]);
    assert.deepEqual([p1!.errorCode, p1!.baseOffset, p1!.currentLeader], [NOT_LEADER, -1n, { leaderId: 1, leaderEpoch: 0 }]);
    assert.deepEqual(response.nodeEndpoints, [{ nodeId: 1, host: '127.0.0.1', port: b.broker.port, rack: null }]);
    assert.deepEqual(await highWatermarks(b), [1n, 0n]);
  });
});

test('Produce acks=0: the other partition is appended, then the connection closes as for a failed acks=0 request', async () => {
  await withTwoPartitions(async (b) => {
    b.broker.faults.add({ api: 'Produce', partition: 0, action: 'error', error: 'KAFKA_STORAGE_ERROR', count: 1 });
    const client = await RawClient.connect(b.broker.port);
    await assert.rejects(roundTrip(client, produceApi, 11, produceBoth(0)));
    await client.close();
    assert.deepEqual(await highWatermarks(b), [0n, 1n]);
  });
});

test('Fetch: the named partition answers the error with its leader (v16), the other its records, at once (no long poll)', async () => {
  await withTwoPartitions(async (b) => {
    await roundTrip(b.client, produceApi, 11, produceBoth());
    b.broker.faults.add({ api: 'Fetch', topic: 't', partition: 0, action: 'error', error: 'NOT_LEADER_OR_FOLLOWER', count: 1 });
    const started = Date.now();
    const response = await fetch(b.client, { ...fetchBoth(b.store.topic('t')!.topicId), maxWaitMs: 20_000, minBytes: 1 << 20 }, 16);
    assert.ok(Date.now() - started < 10_000, 'answered without waiting for min bytes');
    const [p0, p1] = response.responses[0]!.partitions.sort((x, y) => x.partitionIndex - y.partitionIndex);
    assert.deepEqual([p0!.errorCode, p0!.highWatermark, recordsOf(p0!.records).length, p0!.currentLeader], [NOT_LEADER, -1n, 0, { leaderId: 1, leaderEpoch: 0 }]);
    assert.deepEqual([p1!.errorCode, p1!.highWatermark, p1!.currentLeader], [ErrorCode.NONE, 1n, { leaderId: -1, leaderEpoch: -1 }]);
    assert.ok(recordsOf(p1!.records).includes('p1'));
    assert.deepEqual(response.nodeEndpoints, [{ nodeId: 1, host: '127.0.0.1', port: b.broker.port, rack: null }]);
  });
});

test('ListOffsets and DeleteRecords: the named partition answers the error, the other is served (and its records deleted)', async () => {
  await withTwoPartitions(async (b) => {
    await roundTrip(b.client, produceApi, 11, produceBoth());
    b.broker.faults.add({ api: 'ListOffsets', topic: 't', partition: 1, action: 'error', error: 'NOT_LEADER_OR_FOLLOWER', count: 1 });
    const listOffsets = (timestamp: bigint) => roundTrip(b.client, listOffsetsApi, 9, {
      ...createListOffsetsRequest(), replicaId: -1, topics: [{ name: 't', partitions: [0, 1].map((partitionIndex) => ({ partitionIndex, currentLeaderEpoch: -1, timestamp })) }],
    }).then((r) => r.topics[0]!.partitions.sort((x, y) => x.partitionIndex - y.partitionIndex).map((p) => [p.errorCode, p.offset]));
    assert.deepEqual(await listOffsets(-1n), [[ErrorCode.NONE, 1n], [NOT_LEADER, -1n]]);

    b.broker.faults.add({ api: 'DeleteRecords', topic: 't', partition: 0, action: 'error', error: 'NOT_LEADER_OR_FOLLOWER', count: 1 });
    const deleted = await roundTrip(b.client, deleteRecordsApi, 2, {
      ...createDeleteRecordsRequest(), timeoutMs: 5000, topics: [{ name: 't', partitions: [0, 1].map((partitionIndex) => ({ partitionIndex, offset: 1n })) }],
    });
    assert.deepEqual(deleted.topics[0]!.partitions.sort((x, y) => x.partitionIndex - y.partitionIndex).map((p) => [p.errorCode, p.lowWatermark]), [[NOT_LEADER, -1n], [ErrorCode.NONE, 1n]]);
    assert.deepEqual(await listOffsets(-2n), [[ErrorCode.NONE, 0n], [ErrorCode.NONE, 1n]]);
  });
});

test('OffsetCommit and OffsetFetch: per partition; OffsetFetch v8+ and DescribeGroups: per group', async () => {
  await withTwoPartitions(async (b) => {
    const commit = (offset: bigint) => roundTrip(b.client, offsetCommitApi, 9, {
      ...createOffsetCommitRequest(), groupId: 'g', generationIdOrMemberEpoch: -1, memberId: '',
      topics: [{ name: 't', topicId: ZERO_UUID, partitions: [0, 1].map((partitionIndex) => ({ partitionIndex, committedOffset: offset, committedLeaderEpoch: -1, committedMetadata: null })) }],
    });
    b.broker.faults.add({ api: 'OffsetCommit', topic: 't', partition: 1, action: 'error', error: 'NOT_COORDINATOR', count: 1 });
    const committed = await commit(5n);
    assert.deepEqual(committed.topics[0]!.partitions.sort((x, y) => x.partitionIndex - y.partitionIndex).map((p) => p.errorCode), [ErrorCode.NONE, ErrorCode.NOT_COORDINATOR]);

    const offsetFetch = (groups: string[]) => roundTrip(b.client, offsetFetchApi, 9, {
      ...createOffsetFetchRequest(), groups: groups.map((groupId) => ({ ...createOffsetFetchRequestGroup(), groupId, memberId: null, memberEpoch: -1, topics: [{ name: 't', topicId: ZERO_UUID, partitionIndexes: [0, 1] }] })),
    });
    const read = (response: Awaited<ReturnType<typeof offsetFetch>>, group: string) => {
      const g = response.groups.find((x) => x.groupId === group)!;
      return [g.errorCode, ...g.topics.flatMap((t) => t.partitions).sort((x, y) => x.partitionIndex - y.partitionIndex).map((p) => [p.errorCode, p.committedOffset])];
    };
    // Only partition 0 was committed.
    assert.deepEqual(read(await offsetFetch(['g']), 'g'), [ErrorCode.NONE, [ErrorCode.NONE, 5n], [ErrorCode.NONE, -1n]]);
    b.broker.faults.add({ api: 'OffsetFetch', topic: 't', partition: 0, action: 'error', error: 'UNSTABLE_OFFSET_COMMIT', count: 1 });
    assert.deepEqual(read(await offsetFetch(['g']), 'g'), [ErrorCode.NONE, [ErrorCode.UNSTABLE_OFFSET_COMMIT, -1n], [ErrorCode.NONE, -1n]]);
    b.broker.faults.add({ api: 'OffsetFetch', groupId: 'other', action: 'error', error: 'COORDINATOR_LOAD_IN_PROGRESS', count: 1 });
    const both = await offsetFetch(['g', 'other']);
    assert.deepEqual([read(both, 'g'), read(both, 'other')], [[ErrorCode.NONE, [ErrorCode.NONE, 5n], [ErrorCode.NONE, -1n]], [ErrorCode.COORDINATOR_LOAD_IN_PROGRESS]]);

    b.broker.faults.add({ api: 'DescribeGroups', groupId: 'other', action: 'error', error: 'NOT_COORDINATOR', count: 1 });
    const described = await roundTrip(b.client, describeGroupsApi, 5, { ...createDescribeGroupsRequest(), groups: ['g', 'other'] });
    assert.deepEqual(described.groups.map((g) => [g.groupId, g.errorCode, g.groupState]).sort(), [['g', ErrorCode.NONE, 'Empty'], ['other', ErrorCode.NOT_COORDINATOR, '']]);
  });
});

test('AddPartitionsToTxn: the named partition answers the error, the others OPERATION_NOT_ATTEMPTED, none added; TxnOffsetCommit per partition', async () => {
  await withTwoPartitions(async (b) => {
    const init = await roundTrip(b.client, initProducerIdApi, 4, { ...createInitProducerIdRequest(), transactionalId: 'tx', transactionTimeoutMs: 60_000, producerId: -1n, producerEpoch: -1 });
    assert.equal(init.errorCode, ErrorCode.NONE);
    const ids = { transactionalId: 'tx', producerId: init.producerId, producerEpoch: init.producerEpoch };
    const add = () => roundTrip(b.client, addPartitionsToTxnApi, 3, { ...createAddPartitionsToTxnRequest(), v3AndBelowTransactionalId: 'tx', v3AndBelowProducerId: ids.producerId,
      v3AndBelowProducerEpoch: ids.producerEpoch, v3AndBelowTopics: [{ name: 't', partitions: [0, 1] }] });
    b.broker.faults.add({ api: 'AddPartitionsToTxn', topic: 't', partition: 0, action: 'error', error: 'UNKNOWN_TOPIC_OR_PARTITION', count: 1 });
    const refused = await add();
    assert.deepEqual(refused.resultsByTopicV3AndBelow[0]!.resultsByPartition.sort((x, y) => x.partitionIndex - y.partitionIndex).map((p) => p.partitionErrorCode),
      [ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, ErrorCode.OPERATION_NOT_ATTEMPTED]);
    // Nothing was added: the next attempt adds both.
    const added = await add();
    assert.deepEqual(added.resultsByTopicV3AndBelow[0]!.resultsByPartition.map((p) => p.partitionErrorCode), [ErrorCode.NONE, ErrorCode.NONE]);

    const offsets = await roundTrip(b.client, addOffsetsToTxnApi, 3, { ...createAddOffsetsToTxnRequest(), ...ids, groupId: 'tg' });
    assert.equal(offsets.errorCode, ErrorCode.NONE);
    b.broker.faults.add({ api: 'TxnOffsetCommit', topic: 't', partition: 1, action: 'error', error: 'NOT_COORDINATOR', count: 1 });
    const committed = await roundTrip(b.client, txnOffsetCommitApi, 3, {
      ...createTxnOffsetCommitRequest(), ...ids, groupId: 'tg', generationId: -1, memberId: '', groupInstanceId: null,
      topics: [{ name: 't', partitions: [0, 1].map((partitionIndex) => ({ partitionIndex, committedOffset: 3n, committedLeaderEpoch: -1, committedMetadata: null })) }],
    });
    assert.deepEqual(committed.topics[0]!.partitions.sort((x, y) => x.partitionIndex - y.partitionIndex).map((p) => p.errorCode), [ErrorCode.NONE, ErrorCode.NOT_COORDINATOR]);
  });
});

test('a rule without topic or partition still answers Kafka\'s error response for the whole request', async () => {
  await withTwoPartitions(async (b) => {
    b.broker.faults.add({ api: 'Produce', action: 'error', error: 'NOT_LEADER_OR_FOLLOWER', count: 1 });
    const response = await roundTrip(b.client, produceApi, 11, produceBoth());
    assert.deepEqual(response.responses[0]!.partitionResponses.map((p) => p.errorCode), [NOT_LEADER, NOT_LEADER]);
    assert.deepEqual(await highWatermarks(b), [0n, 0n]);
  });
});
