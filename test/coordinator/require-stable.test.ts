// OffsetFetch require_stable (v7+) over a real socket: a partition holding a transactional offset that is not yet
// committed or aborted answers UNSTABLE_OFFSET_COMMIT (offset -1), per partition, as Kafka's OffsetMetadataManager
// does; without the flag, or below v7, the last committed offset is returned.
import { ZERO_UUID } from '../../src/protocol/uuid.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ErrorCode } from '../../src/protocol/error-codes.js';
import { addOffsetsToTxnApi } from '../../src/protocol/generated/add-offsets-to-txn.js';
import { endTxnApi } from '../../src/protocol/generated/end-txn.js';
import { createFindCoordinatorRequest, findCoordinatorApi } from '../../src/protocol/generated/find-coordinator.js';
import { createInitProducerIdRequest, initProducerIdApi } from '../../src/protocol/generated/init-producer-id.js';
import { createOffsetCommitRequest, offsetCommitApi } from '../../src/protocol/generated/offset-commit.js';
import { createOffsetFetchRequest, offsetFetchApi, type OffsetFetchResponsePartitions } from '../../src/protocol/generated/offset-fetch.js';
import { txnOffsetCommitApi } from '../../src/protocol/generated/txn-offset-commit.js';
import { MemoryLogStore } from '../../src/storage/memory/memory-store.js';
import { roundTrip, startTestBroker } from '../server/broker-harness.js';
import { RawClient } from '../server/raw-client.js';

type Seen = Record<string, [number, bigint]>;
const seen = (topics: readonly { name: string; partitions: readonly OffsetFetchResponsePartitions[] }[]): Seen =>
  Object.fromEntries(topics.flatMap((t) => t.partitions.map((p) => [`${t.name}-${p.partitionIndex}`, [p.errorCode, p.committedOffset]])));

test('OffsetFetch require_stable: UNSTABLE_OFFSET_COMMIT per partition while a transaction holds an offset, v7 and v8; stable after the commit', async () => {
  const store = new MemoryLogStore({ nodeId: 1 });
  await store.createTopic('t', 3);
  const broker = await startTestBroker({ 'offsets.topic.num.partitions': '2', 'transaction.state.log.num.partitions': '2' }, { store });
  const client = await RawClient.connect(broker.port);
  try {
    for (const keyType of [0, 1]) {
      const found = await roundTrip(client, findCoordinatorApi, 4, { ...createFindCoordinatorRequest(), keyType, coordinatorKeys: [keyType === 0 ? 'g' : 'tx'] });
      assert.equal(found.coordinators[0]!.errorCode, ErrorCode.NONE);
    }
    const plain = await roundTrip(client, offsetCommitApi, 8, {
      ...createOffsetCommitRequest(),
      groupId: 'g',
      generationIdOrMemberEpoch: -1,
      topics: [{ name: 't', topicId: ZERO_UUID, partitions: [{ partitionIndex: 0, committedOffset: 5n, committedLeaderEpoch: -1, committedMetadata: '' }] }],
    });
    assert.equal(plain.topics[0]!.partitions[0]!.errorCode, ErrorCode.NONE);

    const init = await roundTrip(client, initProducerIdApi, 4, { ...createInitProducerIdRequest(), transactionalId: 'tx', transactionTimeoutMs: 60000 });
    assert.equal(init.errorCode, ErrorCode.NONE);
    const producer = { transactionalId: 'tx', producerId: init.producerId, producerEpoch: init.producerEpoch };
    assert.equal((await roundTrip(client, addOffsetsToTxnApi, 3, { ...producer, groupId: 'g' })).errorCode, ErrorCode.NONE);
    const txnCommit = await roundTrip(client, txnOffsetCommitApi, 3, {
      ...producer,
      groupId: 'g',
      generationId: -1,
      memberId: '',
      groupInstanceId: null,
      topics: [{ name: 't', partitions: [0, 1].map((partitionIndex) => ({ partitionIndex, committedOffset: 10n, committedLeaderEpoch: -1, committedMetadata: '' })) }],
    });
    assert.deepEqual(txnCommit.topics[0]!.partitions.map((p) => p.errorCode), [ErrorCode.NONE, ErrorCode.NONE]);

    const asked = [{ name: 't', topicId: ZERO_UUID, partitionIndexes: [0, 1, 2] }];
    const v7 = (requireStable: boolean, topics: typeof asked | null = asked) =>
      roundTrip(client, offsetFetchApi, 7, { ...createOffsetFetchRequest(), groupId: 'g', topics, requireStable });
    const unstable = await v7(true);
    assert.equal(unstable.errorCode, ErrorCode.NONE, 'the error is per partition, not the group');
    assert.deepEqual(seen(unstable.topics), {
      't-0': [ErrorCode.UNSTABLE_OFFSET_COMMIT, -1n],
      't-1': [ErrorCode.UNSTABLE_OFFSET_COMMIT, -1n],
      't-2': [ErrorCode.NONE, -1n],
    });
    // Every partition: only those with a committed offset are listed, so t-1 (pending only) is not.
    assert.deepEqual(seen((await v7(true, null)).topics), { 't-0': [ErrorCode.UNSTABLE_OFFSET_COMMIT, -1n] });
    assert.deepEqual(seen((await v7(false)).topics), { 't-0': [ErrorCode.NONE, 5n], 't-1': [ErrorCode.NONE, -1n], 't-2': [ErrorCode.NONE, -1n] });
    const v6 = await roundTrip(client, offsetFetchApi, 6, { ...createOffsetFetchRequest(), groupId: 'g', topics: asked });
    assert.deepEqual(seen(v6.topics)['t-0'], [ErrorCode.NONE, 5n], 'v6 has no require_stable');
    const v8 = await roundTrip(client, offsetFetchApi, 8, {
      ...createOffsetFetchRequest(),
      requireStable: true,
      groups: [
        { groupId: 'g', memberId: null, memberEpoch: -1, topics: asked },
        { groupId: 'other', memberId: null, memberEpoch: -1, topics: asked },
      ],
    });
    assert.deepEqual(v8.groups.map((g) => g.errorCode), [ErrorCode.NONE, ErrorCode.NONE]);
    assert.deepEqual(seen(v8.groups[0]!.topics)['t-1'], [ErrorCode.UNSTABLE_OFFSET_COMMIT, -1n]);
    assert.deepEqual(seen(v8.groups[1]!.topics)['t-1'], [ErrorCode.NONE, -1n], 'another group is not held up');

    assert.equal((await roundTrip(client, endTxnApi, 3, { ...producer, committed: true })).errorCode, ErrorCode.NONE);
    // The markers are written after EndTxn answers; a client retries UNSTABLE_OFFSET_COMMIT, and so does this test.
    let stable = await v7(true);
    while (Object.values(seen(stable.topics)).some(([code]) => code === ErrorCode.UNSTABLE_OFFSET_COMMIT)) stable = await v7(true);
    assert.deepEqual(seen(stable.topics), { 't-0': [ErrorCode.NONE, 10n], 't-1': [ErrorCode.NONE, 10n], 't-2': [ErrorCode.NONE, -1n] });
  } finally {
    await client.close();
    await broker.close();
  }
});
