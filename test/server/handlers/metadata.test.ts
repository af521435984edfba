import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ErrorCode } from '../../../src/protocol/error-codes.js';
import { metadataApi, type MetadataRequest, type MetadataResponse } from '../../../src/protocol/generated/metadata.js';
import { ZERO_UUID } from '../../../src/protocol/io/reader.js';
import { MemoryTopicCatalog, type TopicInfo } from '../../../src/broker/topic-catalog.js';
import { RawClient } from '../raw-client.js';
import { roundTrip, startTestBroker } from '../broker-harness.js';

const ORDERS: TopicInfo = { name: 'orders', id: 'b2-lGxk1Sr2W9nZ3Xb7y8g', partitionCount: 3, internal: false };
const OFFSETS: TopicInfo = { name: '__consumer_offsets', id: 'GZ0nOfjOTbuAqlu2jmHc2A', partitionCount: 1, internal: true };
const OMITTED = -2147483648;

function request(topics: MetadataRequest['topics'], extra: Partial<MetadataRequest> = {}): MetadataRequest {
  return { topics, allowAutoTopicCreation: true, includeClusterAuthorizedOperations: false, includeTopicAuthorizedOperations: false, ...extra };
}

function byName(names: string[]): MetadataRequest['topics'] {
  return names.map((name) => ({ name, topicId: ZERO_UUID }));
}

async function withBroker(run: (client: RawClient, port: number, clusterId: string) => Promise<void>, settings: Record<string, string> = {}): Promise<void> {
  const broker = await startTestBroker({ 'node.id': '7', ...settings }, { topics: new MemoryTopicCatalog([ORDERS, OFFSETS]) });
  const client = await RawClient.connect(broker.port);
  try {
    await run(client, broker.port, broker.clusterId);
  } finally {
    await client.close();
    await broker.close();
  }
}

function checkOrders(response: MetadataResponse, version: number): void {
  const topic = response.topics.find((t) => t.name === 'orders');
  assert.ok(topic, `v${version}: orders listed`);
  assert.equal(topic.errorCode, ErrorCode.NONE);
  assert.equal(topic.topicId, version >= 10 ? ORDERS.id : ZERO_UUID);
  assert.deepEqual(
    topic.partitions.map((p) => [p.partitionIndex, p.errorCode, p.leaderId, p.replicaNodes, p.isrNodes]),
    [0, 1, 2].map((i) => [i, ErrorCode.NONE, 7, [7], [7]]),
  );
}

test('Metadata v0-v13: brokers, cluster id, controller and every topic; v13\'s top-level error code is NONE', async () => {
  await withBroker(async (client, port, clusterId) => {
    for (let version = 0; version <= 13; version++) {
      const response = await roundTrip(client, metadataApi, version, request(version === 0 ? [] : null));
      assert.deepEqual(response.brokers, [{ nodeId: 7, host: '127.0.0.1', port, rack: null }], `v${version}`);
      assert.equal(response.clusterId, version >= 2 ? clusterId : null, `v${version}`);
      assert.equal(response.controllerId, version >= 1 ? 7 : -1, `v${version}`);
      assert.deepEqual(response.topics.map((t) => t.name).sort(), ['__consumer_offsets', 'orders'], `v${version}`);
      assert.equal(response.topics.find((t) => t.name === '__consumer_offsets')!.isInternal, version >= 1);
      checkOrders(response, version);
      assert.equal(response.errorCode, ErrorCode.NONE, `v${version}`);
    }
  });
});

test('an empty topic list means no topics from v1 on', async () => {
  await withBroker(async (client) => {
    for (let version = 1; version <= 13; version++) {
      const response = await roundTrip(client, metadataApi, version, request([]));
      assert.deepEqual(response.topics, [], `v${version}`);
      assert.equal(response.brokers.length, 1);
    }
  });
});

test('named topics: known ones described, unknown ones UNKNOWN_TOPIC_OR_PARTITION, illegal names INVALID_TOPIC_EXCEPTION', async () => {
  await withBroker(async (client) => {
    for (let version = 0; version <= 13; version++) {
      const response = await roundTrip(client, metadataApi, version, request(byName(['orders', 'missing', 'bad/name', 'orders'])));
      assert.deepEqual(
        response.topics.map((t) => [t.name, t.errorCode, t.partitions.length]),
        [['orders', ErrorCode.NONE, 3], ['missing', ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, 0], ['bad/name', ErrorCode.INVALID_TOPIC_EXCEPTION, 0]],
        `v${version}`,
      );
      checkOrders(response, version);
    }
  });
});

test('v7+ carries leader epochs; v8+ authorized operations only when asked; cluster operations only v8-v10', async () => {
  await withBroker(async (client) => {
    for (let version = 8; version <= 13; version++) {
      const plain = await roundTrip(client, metadataApi, version, request(byName(['orders'])));
      assert.equal(plain.topics[0]!.topicAuthorizedOperations, OMITTED);
      assert.equal(plain.clusterAuthorizedOperations, OMITTED);
      const asked = await roundTrip(client, metadataApi, version, request(byName(['orders']), {
        includeTopicAuthorizedOperations: true,
        includeClusterAuthorizedOperations: version <= 10,
      }));
      // READ WRITE CREATE DELETE ALTER DESCRIBE DESCRIBE_CONFIGS ALTER_CONFIGS
      assert.equal(asked.topics[0]!.topicAuthorizedOperations, 0b110111111000);
      // CREATE ALTER DESCRIBE CLUSTER_ACTION DESCRIBE_CONFIGS ALTER_CONFIGS IDEMPOTENT_WRITE
      assert.equal(asked.clusterAuthorizedOperations, version <= 10 ? 0b1111110100000 : OMITTED);
      assert.equal(asked.topics[0]!.partitions[0]!.leaderEpoch, 0);
    }
  });
});

test('v12 looks topics up by id; an unknown id gets UNKNOWN_TOPIC_ID', async () => {
  await withBroker(async (client) => {
    const unknownId = 'AAAAAAAAAAAAAAAAAAAAAQ';
    const response = await roundTrip(client, metadataApi, 12, request([{ name: null, topicId: ORDERS.id }, { name: null, topicId: unknownId }]));
    // Unknown ids come first, as KafkaApis builds the answer (unknownTopicIdsTopicMetadata ++ topicMetadata ++ ...).
    assert.deepEqual(response.topics.map((t) => [t.name, t.topicId, t.errorCode]), [
      [null, unknownId, ErrorCode.UNKNOWN_TOPIC_ID],
      ['orders', ORDERS.id, ErrorCode.NONE],
    ]);
  });
});

test('v10-v11 reject topic ids and null names with INVALID_REQUEST on each topic', async () => {
  await withBroker(async (client) => {
    for (const version of [10, 11]) {
      const response = await roundTrip(client, metadataApi, version, request([{ name: 'orders', topicId: ORDERS.id }, { name: null, topicId: ZERO_UUID }]));
      assert.deepEqual(response.topics.map((t) => [t.name, t.errorCode]), [['orders', ErrorCode.INVALID_REQUEST], ['', ErrorCode.INVALID_REQUEST]]);
    }
  });
});

test('the advertised listener is what clients are told', async () => {
  const broker = await startTestBroker({ 'advertised.listeners': 'PLAINTEXT://broker.example:9999' });
  const client = await RawClient.connect(broker.port);
  try {
    const response = await roundTrip(client, metadataApi, 12, request(null));
    assert.deepEqual(response.brokers, [{ nodeId: 1, host: 'broker.example', port: 9999, rack: null }]);
  } finally {
    await client.close();
    await broker.close();
  }
});

test('auto-creation goes through the catalog when allowed, and is first reported as UNKNOWN_TOPIC_OR_PARTITION (Kafka 4.3)', async () => {
  const created: string[] = [];
  const catalog = new (class extends MemoryTopicCatalog {
    async autoCreate(name: string): Promise<TopicInfo> {
      created.push(name);
      const topic = { name, id: 'c2-lGxk1Sr2W9nZ3Xb7y8g', partitionCount: 1, internal: false };
      this.add(topic);
      return topic;
    }
  })();
  const broker = await startTestBroker({}, { topics: catalog });
  const client = await RawClient.connect(broker.port);
  try {
    const refused = await roundTrip(client, metadataApi, 12, request(byName(['fresh']), { allowAutoTopicCreation: false }));
    assert.equal(refused.topics[0]!.errorCode, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
    const first = await roundTrip(client, metadataApi, 12, request(byName(['fresh'])));
    assert.equal(first.topics[0]!.errorCode, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
    assert.equal(first.topics[0]!.topicId, 'AAAAAAAAAAAAAAAAAAAAAA');
    const second = await roundTrip(client, metadataApi, 12, request(byName(['fresh'])));
    assert.equal(second.topics[0]!.errorCode, ErrorCode.NONE);
    assert.deepEqual(created, ['fresh']);
  } finally {
    await client.close();
    await broker.close();
  }
});
