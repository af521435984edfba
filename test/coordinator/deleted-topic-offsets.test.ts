// Committed offsets of a deleted topic, over a real socket: DeleteTopics makes the group coordinator write
// tombstones for every group's offsets on the topic's partitions, committed or pending in an open transaction,
// as Kafka 4.3.1's onPartitionsDeleted does. What OffsetFetch answers below is what the reference broker
// answered for the same requests: the offsets are gone, stay gone after a restart (file engine), and do not
// come back when a topic of the same name is created again. Also: the empty group id "", which Kafka accepts
// for OffsetCommit, OffsetFetch, DescribeGroups and DeleteGroups, and refuses for TxnOffsetCommit and JoinGroup.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ErrorCode } from '../../src/protocol/error-codes.js';
import { addOffsetsToTxnApi } from '../../src/protocol/generated/add-offsets-to-txn.js';
import { createTopicsApi } from '../../src/protocol/generated/create-topics.js';
import { deleteGroupsApi } from '../../src/protocol/generated/delete-groups.js';
import { createDeleteTopicsRequest, deleteTopicsApi } from '../../src/protocol/generated/delete-topics.js';
import { describeGroupsApi } from '../../src/protocol/generated/describe-groups.js';
import { createJoinGroupRequest, joinGroupApi } from '../../src/protocol/generated/join-group.js';
import { createOffsetCommitRequest, offsetCommitApi } from '../../src/protocol/generated/offset-commit.js';
import { createOffsetFetchRequest, offsetFetchApi, type OffsetFetchResponsePartitions } from '../../src/protocol/generated/offset-fetch.js';
import { txnOffsetCommitApi } from '../../src/protocol/generated/txn-offset-commit.js';
import { ZERO_UUID } from '../../src/protocol/uuid.js';
import { roundTrip, startTestBroker } from '../server/broker-harness.js';
import type { RawClient } from '../server/raw-client.js';
import { TxnClient } from '../server/handlers/txn-client.js';

const root = mkdtempSync(join(tmpdir(), 'gregor-deleted-topic-offsets-'));
after(() => rmSync(root, { recursive: true, force: true }));

const SETTINGS = { 'offsets.topic.num.partitions': '2', 'transaction.state.log.num.partitions': '2' };

/** topic-partition → committed offset, as OffsetFetch lists them. */
const seen = (topics: readonly { name: string; partitions: readonly OffsetFetchResponsePartitions[] }[]): Record<string, bigint> =>
  Object.fromEntries(topics.flatMap((t) => t.partitions.map((p) => [`${t.name}-${p.partitionIndex}`, p.committedOffset])));

async function createTopic(client: RawClient, name: string, numPartitions: number): Promise<void> {
  const created = await roundTrip(client, createTopicsApi, 7, { topics: [{ name, numPartitions, replicationFactor: -1, assignments: [], configs: [] }], timeoutMs: 5000, validateOnly: false });
  assert.equal(created.topics[0]!.errorCode, ErrorCode.NONE);
}

async function deleteTopic(client: RawClient, name: string): Promise<void> {
  const deleted = await roundTrip(client, deleteTopicsApi, 6, { ...createDeleteTopicsRequest(), topics: [{ name, topicId: ZERO_UUID }], timeoutMs: 5000 });
  assert.equal(deleted.responses[0]!.errorCode, ErrorCode.NONE);
}

async function commit(client: RawClient, groupId: string, topic: string, offsets: Record<number, bigint>): Promise<number[]> {
  const response = await roundTrip(client, offsetCommitApi, 9, {
    ...createOffsetCommitRequest(),
    groupId,
    generationIdOrMemberEpoch: -1,
    topics: [{
      name: topic,
      topicId: ZERO_UUID,
      partitions: Object.entries(offsets).map(([p, committedOffset]) => ({ partitionIndex: Number(p), committedOffset, committedLeaderEpoch: -1, committedMetadata: 'm' })),
    }],
  });
  return response.topics.flatMap((t) => t.partitions.map((p) => p.errorCode));
}

/** OffsetFetch v9 of one group: every committed offset (null topics), and the partitions of `t` asked by name. */
async function fetch(client: RawClient, groupId: string): Promise<{ all: Record<string, bigint>; named: Record<string, bigint> }> {
  const ask = (topics: { name: string; topicId: string; partitionIndexes: number[] }[] | null) =>
    roundTrip(client, offsetFetchApi, 9, { ...createOffsetFetchRequest(), groups: [{ groupId, memberId: null, memberEpoch: -1, topics }] });
  const all = (await ask(null)).groups[0]!;
  const named = (await ask([{ name: 't', topicId: ZERO_UUID, partitionIndexes: [0, 1] }])).groups[0]!;
  assert.deepEqual([all.errorCode, named.errorCode], [ErrorCode.NONE, ErrorCode.NONE]);
  return { all: seen(all.topics), named: seen(named.topics) };
}

/** A file-engine broker and a connection to it; `restart` stops both and starts them again on the same log.dirs. */
async function restartableBroker(name: string) {
  const settings = { ...SETTINGS, 'log.dirs': join(root, name), 'gregor.log.engine': 'file' };
  let broker = await startTestBroker(settings);
  const self = {
    txn: await TxnClient.connect(broker.port, 'tx'),
    get client(): RawClient {
      return self.txn.client;
    },
    async restart(): Promise<void> {
      await self.close();
      broker = await startTestBroker(settings);
      self.txn = await TxnClient.connect(broker.port, 'tx');
    },
    async close(): Promise<void> {
      await self.txn.close();
      await broker.close();
    },
  };
  return self;
}

test('DeleteTopics removes every group\'s committed offsets of the topic; they stay gone after a restart and after the name is re-created', async () => {
  const b = await restartableBroker('restart');
  try {
    await createTopic(b.client, 't', 2);
    await createTopic(b.client, 'other', 1);
    await b.txn.findCoordinator('g', 0);
    assert.deepEqual(await commit(b.client, 'g', 't', { 0: 5n, 1: 6n }), [ErrorCode.NONE, ErrorCode.NONE]);
    assert.deepEqual(await commit(b.client, 'g', 'other', { 0: 5n }), [ErrorCode.NONE]);
    assert.deepEqual(await commit(b.client, 'h', 't', { 1: 7n }), [ErrorCode.NONE]);
    assert.deepEqual(await fetch(b.client, 'g'), { all: { 't-0': 5n, 't-1': 6n, 'other-0': 5n }, named: { 't-0': 5n, 't-1': 6n } });

    await deleteTopic(b.client, 't');
    const afterDelete = { g: { all: { 'other-0': 5n }, named: { 't-0': -1n, 't-1': -1n } }, h: { all: {}, named: { 't-0': -1n, 't-1': -1n } } };
    assert.deepEqual({ g: await fetch(b.client, 'g'), h: await fetch(b.client, 'h') }, afterDelete);
    // The group itself stays (Empty, with no offsets), as on Kafka.
    const described = await roundTrip(b.client, describeGroupsApi, 5, { groups: ['h'], includeAuthorizedOperations: false });
    assert.deepEqual([described.groups[0]!.errorCode, described.groups[0]!.groupState], [ErrorCode.NONE, 'Empty']);

    await b.restart();
    await b.txn.findCoordinator('g', 0);
    assert.deepEqual({ g: await fetch(b.client, 'g'), h: await fetch(b.client, 'h') }, afterDelete, 'the tombstones are in __consumer_offsets');
    await createTopic(b.client, 't', 2);
    assert.deepEqual({ g: await fetch(b.client, 'g'), h: await fetch(b.client, 'h') }, afterDelete, 'a topic of the same name starts with no offsets');
  } finally {
    await b.close();
  }
});

for (const restart of [false, true]) {
  test(`DeleteTopics also drops an open transaction's offsets of the topic: its COMMIT then commits none${restart ? ', also after a restart before the marker' : ''}`, async () => {
    const b = await restartableBroker(`txn-${restart}`);
    try {
      await createTopic(b.client, 't', 2);
      await createTopic(b.client, 'other', 1);
      await b.txn.findCoordinator('g', 0);
      await b.txn.findCoordinator();
      const producer = await b.txn.initProducerId();
      const added = await roundTrip(b.client, addOffsetsToTxnApi, 3, { transactionalId: 'tx', producerId: BigInt(producer.producerId), producerEpoch: producer.producerEpoch, groupId: 'g' });
      assert.equal(added.errorCode, ErrorCode.NONE);
      assert.deepEqual([await b.txn.txnOffsetCommit(3, producer, 'g', 't', 10), await b.txn.txnOffsetCommit(3, producer, 'g', 'other', 10)], [ErrorCode.NONE, ErrorCode.NONE]);

      await deleteTopic(b.client, 't');
      if (restart) {
        // The tombstone written after the transactional record drops it at load too.
        await b.restart();
        await b.txn.findCoordinator('g', 0);
      }
      assert.equal((await b.txn.endTxn(3, producer, true)).errorCode, ErrorCode.NONE);
      // The markers are written after EndTxn answers: wait for other-0 to be committed.
      let fetched = await fetch(b.client, 'g');
      while (fetched.all['other-0'] === undefined) fetched = await fetch(b.client, 'g');
      assert.deepEqual(fetched, { all: { 'other-0': 10n }, named: { 't-0': -1n, 't-1': -1n } });
    } finally {
      await b.close();
    }
  });
}

test('the empty group id: OffsetCommit, OffsetFetch, DescribeGroups and DeleteGroups serve it; TxnOffsetCommit and JoinGroup answer INVALID_GROUP_ID', async () => {
  const broker = await startTestBroker(SETTINGS);
  const txn = await TxnClient.connect(broker.port, 'tx');
  const client = txn.client;
  try {
    await createTopic(client, 't', 2);
    await txn.findCoordinator('', 0);
    assert.deepEqual(await commit(client, '', 't', { 0: 5n, 1: 6n }), [ErrorCode.NONE, ErrorCode.NONE]);
    assert.deepEqual(await fetch(client, ''), { all: { 't-0': 5n, 't-1': 6n }, named: { 't-0': 5n, 't-1': 6n } });
    const v7 = await roundTrip(client, offsetFetchApi, 7, { ...createOffsetFetchRequest(), groupId: '', topics: null });
    assert.deepEqual([v7.errorCode, seen(v7.topics)], [ErrorCode.NONE, { 't-0': 5n, 't-1': 6n }]);

    const txnCommit = await roundTrip(client, txnOffsetCommitApi, 3, {
      transactionalId: 'tx', groupId: '', producerId: 1n, producerEpoch: 0, generationId: -1, memberId: '', groupInstanceId: null,
      topics: [{ name: 't', partitions: [{ partitionIndex: 0, committedOffset: 1n, committedLeaderEpoch: -1, committedMetadata: '' }] }],
    });
    assert.equal(txnCommit.topics[0]!.partitions[0]!.errorCode, ErrorCode.INVALID_GROUP_ID);
    const join = await roundTrip(client, joinGroupApi, 9, {
      ...createJoinGroupRequest(), groupId: '', sessionTimeoutMs: 10000, rebalanceTimeoutMs: 10000, memberId: '', protocolType: 'consumer',
      protocols: [{ name: 'range', metadata: Buffer.alloc(0) }],
    });
    assert.equal(join.errorCode, ErrorCode.INVALID_GROUP_ID);

    const described = (await roundTrip(client, describeGroupsApi, 5, { groups: [''], includeAuthorizedOperations: false })).groups[0]!;
    assert.deepEqual([described.groupId, described.errorCode, described.groupState, described.protocolType], ['', ErrorCode.NONE, 'Empty', '']);
    const deleteGroup = async () => (await roundTrip(client, deleteGroupsApi, 2, { groupsNames: [''] })).results[0]!.errorCode;
    assert.equal(await deleteGroup(), ErrorCode.NONE);
    assert.deepEqual(await fetch(client, ''), { all: {}, named: { 't-0': -1n, 't-1': -1n } });
    assert.equal(await deleteGroup(), ErrorCode.GROUP_ID_NOT_FOUND);
  } finally {
    await client.close();
    await broker.close();
  }
});
