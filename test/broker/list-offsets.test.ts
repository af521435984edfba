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

test('each special timestamp from the version that brought it (v7 -3, v8 -4, v9 -5, v11 -6); others UNSUPPORTED_VERSION', async () => {
  // What Kafka 4.3.1 answers (compat-tests/reference): the gate comes before the partition lookup.
  await withDataBroker(async ({ store, client }) => {
    await store.createTopic('gate', 1);
    await produce(client, 'gate', 0, batch([{ value: Buffer.from('a'), timestamp: 1000 }, { value: Buffer.from('b'), timestamp: 2000 }]));
    const ask = async (version: number, topic: string, timestamp: number) => {
      const response = await roundTrip(client, listOffsetsApi, version, {
        ...createListOffsetsRequest(), replicaId: -1, topics: [{ name: topic, partitions: [{ partitionIndex: 0, currentLeaderEpoch: -1, timestamp: BigInt(timestamp) }] }],
      });
      const p = response.topics[0]!.partitions[0]!;
      return [p.errorCode, Number(p.timestamp), Number(p.offset), p.leaderEpoch];
    };
    const UNSUPPORTED = [ErrorCode.UNSUPPORTED_VERSION, -1, -1, -1];
    const NONE_FOUND = [ErrorCode.NONE, -1, -1, -1];
    const answers = (version: number): Promise<unknown[]> => Promise.all([-1, -2, -3, -4, -5, -6, -7, -100].map((ts) => ask(version, 'gate', ts)));
    const epoch = (version: number): number => (version >= 4 ? 0 : -1);
    const latest = (v: number) => [ErrorCode.NONE, -1, 2, epoch(v)];
    const earliest = (v: number) => [ErrorCode.NONE, -1, 0, epoch(v)];
    const max = (v: number) => [ErrorCode.NONE, 2000, 1, epoch(v)];
    assert.deepEqual(await answers(1), [latest(1), earliest(1), UNSUPPORTED, UNSUPPORTED, UNSUPPORTED, UNSUPPORTED, UNSUPPORTED, UNSUPPORTED]);
    assert.deepEqual(await answers(6), [latest(6), earliest(6), UNSUPPORTED, UNSUPPORTED, UNSUPPORTED, UNSUPPORTED, UNSUPPORTED, UNSUPPORTED]);
    assert.deepEqual(await answers(7), [latest(7), earliest(7), max(7), UNSUPPORTED, UNSUPPORTED, UNSUPPORTED, UNSUPPORTED, UNSUPPORTED]);
    assert.deepEqual(await answers(8), [latest(8), earliest(8), max(8), earliest(8), UNSUPPORTED, UNSUPPORTED, UNSUPPORTED, UNSUPPORTED]);
    assert.deepEqual(await answers(10), [latest(10), earliest(10), max(10), earliest(10), NONE_FOUND, UNSUPPORTED, UNSUPPORTED, UNSUPPORTED]);
    assert.deepEqual(await answers(11), [latest(11), earliest(11), max(11), earliest(11), NONE_FOUND, NONE_FOUND, UNSUPPORTED, UNSUPPORTED]);
    assert.deepEqual(await ask(11, 'nope', -7), UNSUPPORTED);
    assert.deepEqual(await ask(11, 'nope', -6), [ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, -1, -1, -1]);
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
