// kafkajs 2.2.4 (the root devDependency): admin, producer and consumer-group scenarios.
import assert from 'node:assert/strict';
import kafkajsPackage, { type Admin, type KafkaMessage } from 'kafkajs';
import { eventually } from '../../runner/eventually.js';
import { pass, type ClientSuite, type ScenarioContext } from '../../runner/types.js';

// kafkajs is CommonJS; node finds only some of its named exports, so take them from the default export.
const { CompressionTypes, ConfigResourceTypes, Kafka, logLevel } = kafkajsPackage;

function kafkaFor(context: ScenarioContext): InstanceType<typeof Kafka> {
  return new Kafka({
    clientId: 'gregor-compat-kafkajs',
    brokers: [context.target.bootstrap],
    logLevel: logLevel.NOTHING,
    retry: { retries: 5 },
  });
}

async function withAdmin<T>(context: ScenarioContext, work: (admin: Admin) => Promise<T>): Promise<T> {
  const admin = kafkaFor(context).admin();
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.disconnect();
  }
}

async function partitionCount(admin: Admin, topic: string): Promise<number> {
  const metadata = await admin.fetchTopicMetadata({ topics: [topic] });
  return metadata.topics[0]?.partitions.length ?? 0;
}

async function metadata(context: ScenarioContext) {
  const [host, port] = context.target.bootstrap.split(':');
  const topic = context.name('topic');
  await withAdmin(context, async (admin) => {
    const cluster = await admin.describeCluster();
    assert.equal(cluster.brokers.length, 1, 'one broker');
    const broker = cluster.brokers[0]!;
    assert.deepEqual({ host: broker.host, port: broker.port }, { host, port: Number(port) }, 'the broker advertises the bootstrap address');
    assert.equal(cluster.controller, broker.nodeId, 'the controller is the broker');
    assert.ok(cluster.clusterId.length > 0, 'a cluster id');

    assert.equal(await admin.createTopics({ topics: [{ topic, numPartitions: 3 }], waitForLeaders: true }), true);
    const described = await admin.fetchTopicMetadata({ topics: [topic] });
    const partitions = [...described.topics[0]!.partitions].sort((a, b) => a.partitionId - b.partitionId);
    assert.deepEqual(
      partitions.map((p) => ({ id: p.partitionId, leader: p.leader, replicas: p.replicas, isr: p.isr })),
      [0, 1, 2].map((id) => ({ id, leader: broker.nodeId, replicas: [broker.nodeId], isr: [broker.nodeId] })),
    );
    assert.ok((await admin.listTopics()).includes(topic), 'listTopics shows the new topic');
  });
  return pass;
}

interface Sent {
  key: string | null;
  value: Buffer | null;
  headers: Record<string, string>;
}

/** Reads `count` messages from the start of a one-partition topic with a fresh consumer group. */
async function consumeAll(context: ScenarioContext, topic: string, count: number): Promise<KafkaMessage[]> {
  const consumer = kafkaFor(context).consumer({ groupId: context.name('group') });
  await consumer.connect();
  const received: KafkaMessage[] = [];
  try {
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ message }) => {
        received.push(message);
      },
    });
    await eventually(`${count} messages (have ${received.length})`, async () => (received.length >= count ? true : undefined), 60_000);
  } finally {
    await consumer.disconnect();
  }
  return received;
}

async function produceConsume(context: ScenarioContext) {
  const topic = context.name('topic');
  await withAdmin(context, (admin) => admin.createTopics({ topics: [{ topic, numPartitions: 1 }], waitForLeaders: true }));
  const big = Buffer.alloc(512 * 1024, 'x');
  const batches: { compression: (typeof CompressionTypes)[keyof typeof CompressionTypes]; messages: Sent[] }[] = [
    {
      compression: CompressionTypes.None,
      messages: [
        { key: 'k1', value: Buffer.from('v1'), headers: { h1: 'x', h2: 'y' } },
        { key: null, value: Buffer.from('no key'), headers: {} },
        { key: 'empty', value: Buffer.alloc(0), headers: {} },
        { key: 'null', value: null, headers: {} },
        { key: 'big', value: big, headers: {} },
      ],
    },
    {
      compression: CompressionTypes.GZIP,
      messages: [
        { key: 'gzip-1', value: Buffer.from('compressed one'), headers: { codec: 'gzip' } },
        { key: 'gzip-2', value: Buffer.from('compressed two'), headers: {} },
      ],
    },
  ];
  const producer = kafkaFor(context).producer();
  await producer.connect();
  try {
    for (const batch of batches) await producer.send({ topic, compression: batch.compression, messages: batch.messages });
  } finally {
    await producer.disconnect();
  }
  const sent = batches.flatMap((batch) => batch.messages);
  const received = await consumeAll(context, topic, sent.length);
  assert.deepEqual(
    received.map((message) => ({
      offset: message.offset,
      key: message.key === null ? null : message.key.toString(),
      value: message.value === null ? null : message.value.toString('hex'),
      headers: Object.fromEntries(Object.entries(message.headers ?? {}).map(([k, v]) => [k, String(v)])),
    })),
    sent.map((message, index) => ({
      offset: String(index),
      key: message.key,
      value: message.value === null ? null : message.value.toString('hex'),
      headers: message.headers,
    })),
  );
  return pass;
}

async function topicConfigs(admin: Admin, topic: string, names: string[]): Promise<Record<string, string>> {
  const described = await admin.describeConfigs({
    includeSynonyms: false,
    resources: [{ type: ConfigResourceTypes.TOPIC, name: topic, configNames: names }],
  });
  const entries = described.resources[0]?.configEntries ?? [];
  return Object.fromEntries(entries.map((entry) => [entry.configName, entry.configValue]));
}

async function topicAdmin(context: ScenarioContext) {
  const topic = context.name('topic');
  await withAdmin(context, async (admin) => {
    await admin.createTopics({
      topics: [{ topic, numPartitions: 3, configEntries: [{ name: 'cleanup.policy', value: 'compact' }] }],
      waitForLeaders: true,
    });
    assert.equal(await partitionCount(admin, topic), 3);
    assert.deepEqual(await topicConfigs(admin, topic, ['cleanup.policy', 'retention.ms']), {
      'cleanup.policy': 'compact',
      'retention.ms': '604800000',
    });
    // AlterConfigs (not incremental) replaces the topic's whole set: cleanup.policy falls back to its default.
    await admin.alterConfigs({
      validateOnly: false,
      resources: [{ type: ConfigResourceTypes.TOPIC, name: topic, configEntries: [{ name: 'retention.ms', value: '3600000' }] }],
    });
    // The broker applies an altered config once the controller's record reaches it: read until it shows.
    const altered = { 'cleanup.policy': 'delete', 'retention.ms': '3600000' };
    await eventually('the altered configs', async () => {
      assert.deepEqual(await topicConfigs(admin, topic, ['cleanup.policy', 'retention.ms']), altered);
      return true;
    });
    await admin.createPartitions({ topicPartitions: [{ topic, count: 5 }] });
    await eventually('5 partitions', async () => ((await partitionCount(admin, topic)) === 5 ? true : undefined));
    await admin.deleteTopics({ topics: [topic] });
    await eventually('the deleted topic to leave listTopics', async () =>
      (await admin.listTopics()).includes(topic) ? undefined : true,
    );
  });
  return pass;
}

export const kafkajs: ClientSuite = {
  name: 'kafkajs',
  install: async () => {
    // A root devDependency: present after `npm install`.
    await import('kafkajs');
  },
  scenarios: { metadata, 'produce-consume': produceConsume, 'topic-admin': topicAdmin },
};
