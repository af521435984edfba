// kafkajs's admin client (a real client) against an in-process gregor: topics, partitions, configs, records.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import kafkajs, { type Admin } from 'kafkajs';
import { MemoryLogStore } from '../../src/storage/memory/memory-store.js';
import { encodeRecordBatch } from '../../src/protocol/records/record.js';
import { startTestBroker } from '../server/broker-harness.js';

const { ConfigResourceTypes, Kafka, logLevel } = kafkajs;
const store = new MemoryLogStore({ nodeId: 1 });
let broker: Awaited<ReturnType<typeof startTestBroker>>;
let admin: Admin;

before(async () => {
  broker = await startTestBroker({ 'node.id': '1', 'num.partitions': '1' }, { store });
  const kafka = new Kafka({ clientId: 'admin-e2e', brokers: [`127.0.0.1:${broker.port}`], logLevel: logLevel.NOTHING, retry: { retries: 0 } });
  admin = kafka.admin();
  await admin.connect();
});

after(async () => {
  await admin.disconnect();
  await broker.close();
});

test('createTopics, fetchTopicMetadata, createPartitions, deleteTopics', async () => {
  assert.equal(await admin.createTopics({ topics: [{ topic: 'kjs-orders', numPartitions: 2, configEntries: [{ name: 'retention.ms', value: '60000' }] }] }), true);
  assert.equal(await admin.createTopics({ topics: [{ topic: 'kjs-orders' }] }), false, 'an existing topic is not created again');
  await assert.rejects(admin.createTopics({ topics: [{ topic: 'kjs-bad', configEntries: [{ name: 'retention.ms', value: 'abc' }] }] }),
    (error: { errors?: { type: string }[] }) => error.errors?.[0]?.type === 'INVALID_CONFIG');
  await assert.rejects(admin.createTopics({ topics: [{ topic: 'kjs-rf', replicationFactor: 3 }] }),
    (error: { errors?: { type: string }[] }) => error.errors?.[0]?.type === 'INVALID_REPLICATION_FACTOR');

  const { topics } = await admin.fetchTopicMetadata({ topics: ['kjs-orders'] });
  assert.deepEqual(topics[0]!.partitions.map((p) => p.partitionId).sort(), [0, 1]);

  await admin.createPartitions({ topicPartitions: [{ topic: 'kjs-orders', count: 5 }] });
  assert.equal(store.topic('kjs-orders')!.partitions, 5);
  await assert.rejects(admin.createPartitions({ topicPartitions: [{ topic: 'kjs-orders', count: 5 }] }),
    (error: { type?: string }) => error.type === 'INVALID_PARTITIONS');

  await admin.deleteTopics({ topics: ['kjs-orders'] });
  assert.equal(store.topic('kjs-orders'), undefined);
  assert.ok(!(await admin.listTopics()).includes('kjs-orders'));
});

test('describeConfigs and alterConfigs (legacy): a change reaches the log at once', async () => {
  await admin.createTopics({ topics: [{ topic: 'kjs-configs', configEntries: [{ name: 'cleanup.policy', value: 'compact' }] }] });
  const described = await admin.describeConfigs({
    resources: [{ type: ConfigResourceTypes.TOPIC, name: 'kjs-configs', configNames: ['cleanup.policy', 'retention.ms'] }],
    includeSynonyms: true,
  });
  const entries = Object.fromEntries(described.resources[0]!.configEntries.map((e) => [e.configName, e]));
  assert.equal(entries['cleanup.policy']!.configValue, 'compact');
  assert.equal(entries['cleanup.policy']!.isDefault, false);
  assert.equal(entries['retention.ms']!.configValue, '604800000');

  await admin.alterConfigs({ validateOnly: false, resources: [{ type: ConfigResourceTypes.TOPIC, name: 'kjs-configs', configEntries: [{ name: 'retention.ms', value: '3600000' }] }] });
  assert.equal(store.log('kjs-configs', 0)!.config.retentionMs, 3_600_000);
  assert.deepEqual(store.topic('kjs-configs')!.configs, { 'retention.ms': '3600000' }, 'legacy AlterConfigs replaces every override');

  const broker1 = await admin.describeConfigs({ resources: [{ type: ConfigResourceTypes.BROKER, name: '1', configNames: ['num.partitions'] }], includeSynonyms: false });
  assert.equal(broker1.resources[0]!.configEntries[0]!.configValue, '1');
});

test('deleteTopicRecords moves the start offset', async () => {
  await admin.createTopics({ topics: [{ topic: 'kjs-records' }] });
  const batch = encodeRecordBatch({ records: [0, 1, 2].map((i) => ({ timestamp: 1_700_000_000_000 + i, key: null, value: Buffer.from(`r${i}`) })) });
  await store.log('kjs-records', 0)!.append(batch, { leaderEpoch: 0 });
  // kafkajs looks leaders up in its cached metadata only, so it must know the topic first.
  await admin.fetchTopicMetadata({ topics: ['kjs-records'] });
  await admin.deleteTopicRecords({ topic: 'kjs-records', partitions: [{ partition: 0, offset: '2' }] });
  assert.equal(store.log('kjs-records', 0)!.logStartOffset, 2);
});
