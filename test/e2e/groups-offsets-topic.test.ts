// __consumer_offsets can be read by an ordinary consumer, as on Kafka: a committed offset is there as an
// OffsetCommitKey/OffsetCommitValue record pair in Kafka's layout (a version prefix, then the schema).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveBrokerConfig } from '../../src/config/index.js';
import { startBroker } from '../../src/server/broker.js';
import { Reader } from '../../src/protocol/io/reader.js';
import { decodeOffsetCommitKey } from '../../src/protocol/generated/internal/group-coordinator/offset-commit-key.js';
import { decodeOffsetCommitValue } from '../../src/protocol/generated/internal/group-coordinator/offset-commit-value.js';
import { kafkaFor } from '../coordinator/kafkajs-group-helpers.js';

test('a kafkajs consumer reads a committed offset back from __consumer_offsets', { timeout: 60_000 }, async () => {
  const broker = await startBroker(resolveBrokerConfig({
    listeners: 'PLAINTEXT://127.0.0.1:0',
    'gregor.log.engine': 'memory',
    'offsets.topic.num.partitions': '3',
  }));
  const kafka = kafkaFor(broker.addresses[0]!.port);
  const admin = kafka.admin();
  const reader = kafka.consumer({ groupId: 'offsets-reader', maxWaitTimeInMs: 200 });
  try {
    await admin.connect();
    await admin.createTopics({ topics: [{ topic: 'orders', numPartitions: 2 }] });
    // An empty group takes commits from a non-member (OffsetCommit with generation -1).
    await admin.setOffsets({ groupId: 'billing', topic: 'orders', partitions: [{ partition: 1, offset: '42' }] });

    const topics = await admin.fetchTopicMetadata({ topics: ['__consumer_offsets'] });
    assert.equal(topics.topics[0]!.partitions.length, 3);

    let found: { offset: bigint; metadata: string } | undefined;
    await reader.connect();
    await reader.subscribe({ topic: '__consumer_offsets', fromBeginning: true });
    await new Promise<void>((resolve, reject) => {
      reader.run({
        eachMessage: async ({ message }) => {
          try {
            if (message.key === null || message.value === null) return;
            const keyReader = new Reader(message.key);
            const keyVersion = keyReader.int16();
            if (keyVersion > 1) return; // group metadata, not an offset
            const key = decodeOffsetCommitKey(keyReader, 0); // the key is version 0, the int16 before it its record type
            if (key.group !== 'billing') return;
            assert.equal(key.topic, 'orders');
            assert.equal(key.partition, 1);
            const valueReader = new Reader(message.value);
            const value = decodeOffsetCommitValue(valueReader, valueReader.int16());
            found = { offset: value.offset, metadata: value.metadata };
            resolve();
          } catch (err) {
            reject(err as Error);
          }
        },
      }).catch(reject);
    });
    assert.deepEqual(found, { offset: 42n, metadata: '' });
  } finally {
    await reader.disconnect();
    await admin.disconnect();
    await broker.close();
  }
});
