// Every served version of the data-path APIs encodes its answer (fields a version lacks are left at their defaults).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ErrorCode } from '../../src/protocol/error-codes.js';
import { createListOffsetsRequest, listOffsetsApi } from '../../src/protocol/generated/list-offsets.js';
import { createOffsetForLeaderEpochRequest, offsetForLeaderEpochApi } from '../../src/protocol/generated/offset-for-leader-epoch.js';
import { roundTrip } from '../server/broker-harness.js';
import { batch, fetch, fetchRequest, produce, recordsOf, withDataBroker } from './data-harness.js';

test('Produce v3-v11, Fetch v4-v17, ListOffsets v1-v10, OffsetForLeaderEpoch v2-v4 all answer', async () => {
  await withDataBroker(async ({ store, client }) => {
    const topic = await store.createTopic('all', 1);
    for (let v = 3; v <= 11; v++) {
      const p = (await produce(client, 'all', 0, batch([{ value: Buffer.from(`v${v}`) }]), { version: v })).responses[0]!.partitionResponses[0]!;
      assert.deepEqual([p.errorCode, p.baseOffset], [ErrorCode.NONE, BigInt(v - 3)], `Produce v${v}`);
    }
    for (let v = 4; v <= 17; v++) {
      const response = await fetch(client, fetchRequest([{ topic: 'all', topicId: topic.topicId }]), v);
      const part = response.responses[0]!.partitions[0]!;
      assert.deepEqual([part.errorCode, part.highWatermark], [ErrorCode.NONE, 9n], `Fetch v${v}`);
      assert.ok(recordsOf(part.records).length > 0);
    }
    for (let v = 1; v <= 10; v++) {
      const r = await roundTrip(client, listOffsetsApi, v, { ...createListOffsetsRequest(), replicaId: -1, topics: [{ name: 'all', partitions: [{ partitionIndex: 0, currentLeaderEpoch: -1, timestamp: -1n }] }] });
      assert.equal(r.topics[0]!.partitions[0]!.offset, 9n, `ListOffsets v${v}`);
    }
    for (let v = 2; v <= 4; v++) {
      const r = await roundTrip(client, offsetForLeaderEpochApi, v, { ...createOffsetForLeaderEpochRequest(), replicaId: v >= 3 ? -1 : -2, topics: [{ topic: 'all', partitions: [{ partition: 0, currentLeaderEpoch: -1, leaderEpoch: 0 }] }] });
      assert.equal(r.topics[0]!.partitions[0]!.endOffset, 9n, `OffsetForLeaderEpoch v${v}`);
    }
  });
});

test('Fetch v18 (KIP-1166) answers a consumer as v17, whatever high watermark its partitions carry; ListOffsets v11 as v10', async () => {
  // Kafka 4.3.1 (compat-tests/reference) ignores a consumer's high_watermark: the answer is the same for each value.
  await withDataBroker(async ({ store, client }) => {
    const topic = await store.createTopic('v18', 1);
    await produce(client, 'v18', 0, batch([{ value: Buffer.from('a') }, { value: Buffer.from('b') }]));
    const answers = [];
    for (const [version, highWatermark] of [[17, undefined], [18, 9223372036854775807n], [18, 1n], [18, -1n]] as const) {
      const request = fetchRequest([{ topic: 'v18', topicId: topic.topicId }]);
      if (highWatermark !== undefined) request.topics[0]!.partitions[0]!.highWatermark = highWatermark;
      const part = (await fetch(client, request, version)).responses[0]!.partitions[0]!;
      answers.push([part.errorCode, part.highWatermark, part.lastStableOffset, recordsOf(part.records).toString('hex')]);
    }
    assert.equal(answers[0]![1], 2n);
    for (const answer of answers.slice(1)) assert.deepEqual(answer, answers[0]);
    const latest = await roundTrip(client, listOffsetsApi, 11, { ...createListOffsetsRequest(), replicaId: -1, topics: [{ name: 'v18', partitions: [{ partitionIndex: 0, currentLeaderEpoch: -1, timestamp: -1n }] }] });
    assert.deepEqual(latest.topics[0]!.partitions.map((p) => [p.errorCode, p.offset, p.leaderEpoch]), [[ErrorCode.NONE, 2n, 0]]);
  });
});
