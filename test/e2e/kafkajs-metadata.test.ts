// kafkajs (a real client) against startBroker in-process: connect, cluster and topic metadata.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Kafka, logLevel } from 'kafkajs';
import { resolveBrokerConfig } from '../../src/config/index.js';
import { startBroker } from '../../src/server/broker.js';
import { MemoryTopicCatalog } from '../../src/broker/topic-catalog.js';

const ORDERS = { name: 'orders', id: 'b2-lGxk1Sr2W9nZ3Xb7y8g', partitionCount: 3, internal: false };

test('kafkajs admin: describeCluster, listTopics, fetchTopicMetadata', async () => {
  const broker = await startBroker(resolveBrokerConfig({ listeners: 'PLAINTEXT://127.0.0.1:0', 'node.id': '3' }), {
    topics: new MemoryTopicCatalog([ORDERS]),
  });
  const { port } = broker.addresses[0]!;
  const kafka = new Kafka({ clientId: 'e2e', brokers: [`127.0.0.1:${port}`], logLevel: logLevel.NOTHING, retry: { retries: 0 } });
  const admin = kafka.admin();
  try {
    await admin.connect();
    const cluster = await admin.describeCluster();
    assert.equal(cluster.clusterId, broker.clusterId);
    assert.equal(cluster.controller, 3);
    assert.deepEqual(cluster.brokers, [{ nodeId: 3, host: '127.0.0.1', port }]);

    assert.deepEqual(await admin.listTopics(), ['orders']);

    const { topics } = await admin.fetchTopicMetadata({ topics: ['orders'] });
    assert.equal(topics.length, 1);
    assert.equal(topics[0]!.name, 'orders');
    assert.deepEqual(
      topics[0]!.partitions.map((p) => ({ id: p.partitionId, leader: p.leader, replicas: p.replicas, isr: p.isr, error: p.partitionErrorCode })),
      [0, 1, 2].map((id) => ({ id, leader: 3, replicas: [3], isr: [3], error: 0 })),
    );

    await assert.rejects(admin.fetchTopicMetadata({ topics: ['no-such-topic'] }), /does not host this topic-partition/);
  } finally {
    await admin.disconnect();
    await broker.close();
  }
});
