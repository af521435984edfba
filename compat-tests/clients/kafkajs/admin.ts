// kafkajs admin scenarios: metadata, topic administration and the error cases.
import assert from 'node:assert/strict';
import type { Admin } from 'kafkajs';
import { eventually } from '../../runner/eventually.js';
import { pass, type Outcome, type ScenarioContext } from '../../runner/types.js';
import { ConfigResourceTypes, failsWith, kafkaFor, withAdmin } from './common.js';

async function partitionCount(admin: Admin, topic: string): Promise<number> {
  const metadata = await admin.fetchTopicMetadata({ topics: [topic] });
  return metadata.topics[0]?.partitions.length ?? 0;
}

export async function metadata(context: ScenarioContext): Promise<Outcome> {
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
    const layout = partitions.map((p) => ({ id: p.partitionId, leader: p.leader, replicas: p.replicas, isr: p.isr }));
    assert.deepEqual(layout, [0, 1, 2].map((id) => ({ id, leader: broker.nodeId, replicas: [broker.nodeId], isr: [broker.nodeId] })));
    context.observe('partitions', layout.length);
    assert.ok((await admin.listTopics()).includes(topic), 'listTopics shows the new topic');
    // Creating it again is refused with TOPIC_ALREADY_EXISTS, which kafkajs reports as "not created" (false).
    assert.equal(await admin.createTopics({ topics: [{ topic }] }), false, 'creating the topic again');
  });
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

export async function topicAdmin(context: ScenarioContext): Promise<Outcome> {
  const topic = context.name('topic');
  const names = ['cleanup.policy', 'retention.ms', 'max.message.bytes', 'segment.bytes'];
  await withAdmin(context, async (admin) => {
    await admin.createTopics({
      topics: [{ topic, numPartitions: 3, configEntries: [{ name: 'cleanup.policy', value: 'compact' }] }],
      waitForLeaders: true,
    });
    assert.equal(await partitionCount(admin, topic), 3);
    const created = await topicConfigs(admin, topic, names);
    assert.deepEqual({ 'cleanup.policy': created['cleanup.policy'], 'retention.ms': created['retention.ms'] }, {
      'cleanup.policy': 'compact',
      'retention.ms': '604800000',
    });
    context.observe('configs-created', created);
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
    context.observe('configs-altered', await topicConfigs(admin, topic, names));
    await admin.createPartitions({ topicPartitions: [{ topic, count: 5 }] });
    await eventually('5 partitions', async () => ((await partitionCount(admin, topic)) === 5 ? true : undefined));
    context.observe('shrink-partitions', await failsWith('shrinking to 2 partitions', () =>
      admin.createPartitions({ topicPartitions: [{ topic, count: 2 }] })));
    await admin.deleteTopics({ topics: [topic] });
    await eventually('the deleted topic to leave listTopics', async () =>
      (await admin.listTopics()).includes(topic) ? undefined : true,
    );
  });
  return pass;
}

export async function errorUnknownTopic(context: ScenarioContext): Promise<Outcome> {
  const topic = context.name('missing');
  // A producer that does not ask for auto-creation: its Metadata requests say allowAutoTopicCreation=false.
  const producer = kafkaFor(context, 1).producer({ allowAutoTopicCreation: false });
  await producer.connect();
  try {
    context.observe('produce', await failsWith('producing to a missing topic', () => producer.send({ topic, messages: [{ value: 'x' }] })));
  } finally {
    await producer.disconnect();
  }
  await withAdmin(context, async (admin) => {
    assert.ok(!(await admin.listTopics()).includes(topic), 'the topic was not created');
    context.observe('describe-configs', await failsWith('describing a missing topic', () => topicConfigs(admin, topic, ['retention.ms'])));
    context.observe('delete', await failsWith('deleting a missing topic', () => admin.deleteTopics({ topics: [topic] })));
    context.observe('add-partitions', await failsWith('adding partitions to a missing topic', () =>
      admin.createPartitions({ topicPartitions: [{ topic, count: 2 }] })));
  });
  return pass;
}

export async function errorMessageTooLarge(context: ScenarioContext): Promise<Outcome> {
  const topic = context.name('topic');
  await withAdmin(context, (admin) =>
    admin.createTopics({ topics: [{ topic, configEntries: [{ name: 'max.message.bytes', value: '2000' }] }], waitForLeaders: true }));
  const producer = kafkaFor(context, 1).producer();
  await producer.connect();
  try {
    // Over the topic's max.message.bytes, then over the broker default (1 MiB + 12) on another topic.
    context.observe('over-topic-limit', await failsWith('a 3000-byte record', () =>
      producer.send({ topic, messages: [{ value: Buffer.alloc(3000, 'x') }] })));
    context.observe('over-broker-default', await failsWith('a 1.1 MB record', () =>
      producer.send({ topic: context.name('default'), messages: [{ value: Buffer.alloc(1_100_000, 'x') }] })));
    // A record under the limit still goes through.
    const [written] = await producer.send({ topic, messages: [{ value: Buffer.alloc(1000, 'x') }] });
    context.observe('under-limit-offset', written?.baseOffset);
  } finally {
    await producer.disconnect();
  }
  return pass;
}

export async function errorInvalidTopic(context: ScenarioContext): Promise<Outcome> {
  await withAdmin(context, async (admin) => {
    const create = (topic: string) => () => admin.createTopics({ topics: [{ topic }] });
    context.observe('space-and-bang', await failsWith('"bad name!"', create('bad name!')));
    context.observe('dot', await failsWith('"."', create('.')));
    context.observe('250-chars', await failsWith('a 250-character name', create('x'.repeat(250))));
    context.observe('zero-partitions', await failsWith('0 partitions', () =>
      admin.createTopics({ topics: [{ topic: context.name('zero'), numPartitions: 0 }] })));
  });
  return pass;
}

export async function errorInvalidConfig(context: ScenarioContext): Promise<Outcome> {
  const topic = context.name('topic');
  await withAdmin(context, async (admin) => {
    context.observe('create-bad-value', await failsWith('cleanup.policy=bogus', () =>
      admin.createTopics({ topics: [{ topic, configEntries: [{ name: 'cleanup.policy', value: 'bogus' }] }] })));
    context.observe('create-bad-number', await failsWith('retention.ms=abc', () =>
      admin.createTopics({ topics: [{ topic, configEntries: [{ name: 'retention.ms', value: 'abc' }] }] })));
    assert.ok(!(await admin.listTopics()).includes(topic), 'a refused topic is not created');
    await admin.createTopics({ topics: [{ topic }], waitForLeaders: true });
    context.observe('alter-bad-value', await failsWith('altering retention.ms=abc', () =>
      admin.alterConfigs({
        validateOnly: false,
        resources: [{ type: ConfigResourceTypes.TOPIC, name: topic, configEntries: [{ name: 'retention.ms', value: 'abc' }] }],
      })));
    context.observe('configs-after', await topicConfigs(admin, topic, ['retention.ms']));
  });
  return pass;
}
