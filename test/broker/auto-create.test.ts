// Metadata auto-creation against the store: Kafka 4.3.1's first answer, partition counts, refusals.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ErrorCode } from '../../src/protocol/error-codes.js';
import { createMetadataRequest, metadataApi } from '../../src/protocol/generated/metadata.js';
import { ZERO_UUID } from '../../src/protocol/io/reader.js';
import type { RawClient } from '../server/raw-client.js';
import { roundTrip } from '../server/broker-harness.js';
import { withDataBroker } from './data-harness.js';

async function metadata(client: RawClient, name: string, allowAutoTopicCreation = true) {
  const response = await roundTrip(client, metadataApi, 12, { ...createMetadataRequest(), topics: [{ name, topicId: ZERO_UUID }], allowAutoTopicCreation });
  return response.topics[0]!;
}

test('an unknown topic is created with num.partitions and first answered UNKNOWN_TOPIC_OR_PARTITION', async () => {
  await withDataBroker(
    async ({ store, client }) => {
      const first = await metadata(client, 'fresh');
      assert.deepEqual([first.errorCode, first.topicId, first.partitions.length], [ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, ZERO_UUID, 0]);
      assert.equal(store.topic('fresh')?.partitions, 3);
      const second = await metadata(client, 'fresh');
      assert.deepEqual([second.errorCode, second.topicId, second.partitions.length], [ErrorCode.NONE, store.topic('fresh')!.topicId, 3]);
      assert.equal((await metadata(client, 'bad name!')).errorCode, ErrorCode.INVALID_TOPIC_EXCEPTION);
      assert.equal((await metadata(client, 'not-allowed', false)).errorCode, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
      assert.equal(store.topic('not-allowed'), undefined);
    },
    { 'num.partitions': '3' },
  );
});

test('internal topics are created with their own settings', async () => {
  await withDataBroker(
    async ({ store, client }) => {
      await metadata(client, '__consumer_offsets');
      const topic = store.topic('__consumer_offsets')!;
      assert.equal(topic.partitions, 5);
      assert.equal(topic.configs['cleanup.policy'], 'compact');
      assert.equal((await metadata(client, '__consumer_offsets')).isInternal, true);
    },
    { 'offsets.topic.num.partitions': '5' },
  );
});

test('auto.create.topics.enable=false, or a replication factor one node cannot hold, creates nothing', async () => {
  await withDataBroker(
    async ({ store, client }) => {
      assert.equal((await metadata(client, 'off')).errorCode, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
      assert.equal(store.topic('off'), undefined);
    },
    { 'auto.create.topics.enable': 'false' },
  );
  await withDataBroker(
    async ({ store, client }) => {
      assert.equal((await metadata(client, 'rf3')).errorCode, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
      assert.equal(store.topic('rf3'), undefined);
    },
    { 'default.replication.factor': '3' },
  );
});
