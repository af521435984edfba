// Topic names up to Kafka's 249-character limit on the file engine, through kafkajs: create, produce, consume,
// delete and create again (empty), and a restart after it. Kafka 4.3.1 does all of these for 249 characters and
// answers INVALID_TOPIC_EXCEPTION for 250; a deleted partition's dir is renamed `<topic>-<p>.<uuid>-delete` with the
// topic cut so the name stays within 255 bytes.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import kafkajs, { type Admin, type Kafka as KafkaClient, type Producer } from 'kafkajs';
import { resolveBrokerConfig } from '../../src/config/index.js';
import { startBroker, type Broker } from '../../src/server/broker.js';

const { Kafka, logLevel } = kafkajs;
const LENGTHS = [209, 214, 247, 249];

let dir: string;
let broker: Broker;
let kafka: KafkaClient;
let admin: Admin;
let producer: Producer;

async function start(): Promise<void> {
  // A long file.delete.delay.ms keeps the renamed dirs on disk until the restart removes them.
  broker = await startBroker(resolveBrokerConfig({
    listeners: 'PLAINTEXT://127.0.0.1:0',
    'node.id': '1',
    'gregor.log.engine': 'file',
    'log.dirs': dir,
    'file.delete.delay.ms': '3600000',
    'group.initial.rebalance.delay.ms': '0',
  }));
  kafka = new Kafka({ clientId: 'long-names', brokers: [`127.0.0.1:${broker.addresses[0]!.port}`], logLevel: logLevel.NOTHING, retry: { retries: 0 } });
  admin = kafka.admin();
  await admin.connect();
  producer = kafka.producer();
  await producer.connect();
}

async function stop(): Promise<void> {
  await producer.disconnect();
  await admin.disconnect();
  await broker.close();
}

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gregor-long-names-'));
  await start();
});

after(async () => {
  await stop();
  await rm(dir, { recursive: true, force: true });
});

/** A legal topic name of exactly `length` characters, distinct per length. */
function nameOf(length: number): string {
  return `t${length}-`.padEnd(length, 'x');
}

/** Every record of the topic's one partition, read from the start up to its high watermark. */
async function consumeAll(topic: string): Promise<string[]> {
  const [{ high }] = (await admin.fetchTopicOffsets(topic)) as unknown as [{ high: string }];
  const end = Number(high);
  const seen: string[] = [];
  if (end === 0) return seen;
  const consumer = kafka.consumer({ groupId: `g-${topic.length}-${Date.now()}`, maxWaitTimeInMs: 100 });
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  await new Promise<void>((resolve) => {
    void consumer.run({
      eachMessage: async ({ message }) => {
        seen.push(message.value!.toString());
        if (Number(message.offset) === end - 1) resolve();
      },
    });
  });
  await consumer.disconnect();
  return seen;
}

test('names of 209 to 249 characters create, serve, delete and create again empty; 250 is INVALID_TOPIC_EXCEPTION', async () => {
  for (const length of LENGTHS) {
    const topic = nameOf(length);
    assert.equal(topic.length, length);
    assert.equal(await admin.createTopics({ topics: [{ topic, numPartitions: 1 }] }), true, `create ${length}`);
    await producer.send({ topic, messages: [{ value: `old-${length}-a` }, { value: `old-${length}-b` }] });
    assert.deepEqual(await consumeAll(topic), [`old-${length}-a`, `old-${length}-b`]);

    await admin.deleteTopics({ topics: [topic] });
    assert.ok(!(await admin.listTopics()).includes(topic), `${length}: deleted`);
    const names = await readdir(dir);
    assert.ok(!names.includes(`${topic}-0`), `${length}: the partition dir is renamed`);
    const deleting = names.filter((n) => n.endsWith('-delete') && topic.startsWith(n.slice(0, n.lastIndexOf('-0.'))));
    assert.equal(deleting.length, 1, `${length}: one dir awaits deletion`);
    // Kafka's name: the topic cut to fit 255 bytes with `-0.<32 hex>-delete`.
    const suffixLength = '-0.'.length + 32 + '-delete'.length;
    assert.equal(deleting[0], `${topic.slice(0, Math.min(length, 255 - suffixLength))}${deleting[0]!.slice(-suffixLength)}`);
    assert.match(deleting[0]!, /-0\.[0-9a-f]{32}-delete$/);

    assert.equal(await admin.createTopics({ topics: [{ topic, numPartitions: 1 }] }), true, `create ${length} again`);
    assert.deepEqual(await admin.fetchTopicOffsets(topic), [{ partition: 0, offset: '0', high: '0', low: '0' }], `${length}: the new topic is empty`);
    await producer.send({ topic, messages: [{ value: `new-${length}` }] });
    assert.deepEqual(await consumeAll(topic), [`new-${length}`]);
  }
  await assert.rejects(admin.createTopics({ topics: [{ topic: nameOf(250) }] }),
    (error: { errors?: { type: string }[] }) => error.errors?.[0]?.type === 'INVALID_TOPIC_EXCEPTION');

  // After a restart the dirs awaiting deletion are removed, not loaded, and each topic holds its new record only.
  await stop();
  await start();
  assert.deepEqual((await readdir(dir)).filter((n) => n.endsWith('-delete')), []);
  for (const length of LENGTHS) assert.deepEqual(await consumeAll(nameOf(length)), [`new-${length}`]);
});
