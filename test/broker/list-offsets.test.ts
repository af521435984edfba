// ListOffsets and OffsetForLeaderEpoch over a real socket, with the answers Kafka 4.3.1 gives.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ErrorCode } from '../../src/protocol/error-codes.js';
import { createListOffsetsRequest, listOffsetsApi } from '../../src/protocol/generated/list-offsets.js';
import { createOffsetForLeaderEpochRequest, offsetForLeaderEpochApi } from '../../src/protocol/generated/offset-for-leader-epoch.js';
import type { RawClient } from '../server/raw-client.js';
import { roundTrip } from '../server/broker-harness.js';
import { batch, produce, withDataBroker } from './data-harness.js';

async function listOffset(client: RawClient, topic: string, timestamp: number, extra: { isolationLevel?: number; currentLeaderEpoch?: number } = {}) {
  const response = await roundTrip(client, listOffsetsApi, 9, {
    ...createListOffsetsRequest(),
    replicaId: -1,
    isolationLevel: extra.isolationLevel ?? 0,
    topics: [{ name: topic, partitions: [{ partitionIndex: 0, currentLeaderEpoch: extra.currentLeaderEpoch ?? -1, timestamp: BigInt(timestamp) }] }],
  });
  const p = response.topics[0]!.partitions[0]!;
  return [p.errorCode, Number(p.timestamp), Number(p.offset), p.leaderEpoch];
}

test('latest, earliest, max timestamp, tiered and by-timestamp answers, empty and filled', async () => {
  await withDataBroker(async ({ store, client }) => {
    await store.createTopic('empty', 1);
    await store.createTopic('full', 1);
    for (const ts of [1000, 3000, 2000]) await produce(client, 'full', 0, batch([{ value: Buffer.from('a'), timestamp: ts }, { value: Buffer.from('b'), timestamp: ts + 1 }]));
    assert.deepEqual(await listOffset(client, 'empty', -1), [0, -1, 0, 0]);
    assert.deepEqual(await listOffset(client, 'empty', -2), [0, -1, 0, 0]);
    assert.deepEqual(await listOffset(client, 'empty', -3), [0, -1, -1, -1]);
    assert.deepEqual(await listOffset(client, 'empty', 0), [0, -1, -1, -1]);
    assert.deepEqual(await listOffset(client, 'full', -1), [0, -1, 6, 0]);
    assert.deepEqual(await listOffset(client, 'full', -1, { isolationLevel: 1 }), [0, -1, 6, 0]);
    assert.deepEqual(await listOffset(client, 'full', -2), [0, -1, 0, 0]);
    assert.deepEqual(await listOffset(client, 'full', -4), [0, -1, 0, 0]);
    assert.deepEqual(await listOffset(client, 'full', -5), [0, -1, -1, -1]);
    assert.deepEqual(await listOffset(client, 'full', 9999), [0, -1, -1, -1]);
    const [, maxTs, maxOffset] = await listOffset(client, 'full', -3);
    assert.equal(maxTs, 3001);
    assert.ok(maxOffset === 2 || maxOffset === 3);
    const [, firstTs, firstOffset] = await listOffset(client, 'full', 0);
    assert.deepEqual([firstTs! >= 1000, firstOffset], [true, 0]);
    assert.deepEqual(await listOffset(client, 'nope', -1), [ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, -1, -1, -1]);
    assert.deepEqual(await listOffset(client, 'full', -1, { currentLeaderEpoch: 3 }), [ErrorCode.UNKNOWN_LEADER_EPOCH, -1, -1, -1]);
  });
});

test('a partition named twice gets one INVALID_REQUEST answer', async () => {
  await withDataBroker(async ({ store, client }) => {
    await store.createTopic('dup', 1);
    const part = (timestamp: bigint) => ({ partitionIndex: 0, currentLeaderEpoch: -1, timestamp });
    const response = await roundTrip(client, listOffsetsApi, 9, { ...createListOffsetsRequest(), replicaId: -1, topics: [{ name: 'dup', partitions: [part(-1n), part(-2n)] }] });
    assert.deepEqual(response.topics[0]!.partitions.map((p) => p.errorCode), [ErrorCode.INVALID_REQUEST]);
  });
});

test('OffsetForLeaderEpoch answers from the leader-epoch cache', async () => {
  await withDataBroker(async ({ store, client }) => {
    await store.createTopic('epochs', 1);
    await store.createTopic('none', 1);
    await produce(client, 'epochs', 0, batch([{ value: Buffer.from('a') }, { value: Buffer.from('b') }]));
    const ask = async (topic: string, leaderEpoch: number, currentLeaderEpoch = -1) => {
      const r = await roundTrip(client, offsetForLeaderEpochApi, 4, { ...createOffsetForLeaderEpochRequest(), replicaId: -1, topics: [{ topic, partitions: [{ partition: 0, currentLeaderEpoch, leaderEpoch }] }] });
      const p = r.topics[0]!.partitions[0]!;
      return [p.errorCode, p.leaderEpoch, Number(p.endOffset)];
    };
    assert.deepEqual(await ask('epochs', 0), [0, 0, 2]);
    assert.deepEqual(await ask('none', 0), [0, 0, 0]);
    assert.deepEqual(await ask('epochs', -1), [0, -1, -1]);
    assert.deepEqual(await ask('epochs', 5), [0, -1, -1]);
    assert.deepEqual(await ask('epochs', 0, 3), [ErrorCode.UNKNOWN_LEADER_EPOCH, -1, -1]);
    assert.deepEqual(await ask('nope', 0), [ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, -1, -1]);
  });
});
