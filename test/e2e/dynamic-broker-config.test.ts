// Dynamic broker configs take effect at once and survive a restart, set by real clients: kafkajs's admin
// (legacy AlterConfigs on this broker) and Kafka's own kafka-configs (the cluster default). Every observable
// was first seen on the reference Apache Kafka 4.3.1 for the same sequence: the retention task deletes
// the expired records of a topic without its own retention.ms, a batch over the new message.max.bytes
// gets MESSAGE_TOO_LARGE, and DescribeConfigs names the dynamic layer as the source.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import kafkajs, { type Admin, type Producer } from 'kafkajs';
import { startTestBroker } from '../server/broker-harness.js';
import { installJavaTools, runJavaTool, runJavaToolOk } from './java-tools.js';

const { ConfigResourceTypes, Kafka, logLevel } = kafkajs;
const DYNAMIC_BROKER_CONFIG = 2;
const DYNAMIC_DEFAULT_BROKER_CONFIG = 3;
const DEFAULT_CONFIG = 5;

let logDir: string;
let broker: Awaited<ReturnType<typeof startTestBroker>>;

/** The same file-engine broker each time, so a restart reads what the previous run stored. */
function startOnLogDir() {
  return startTestBroker({
    'node.id': '1',
    'gregor.log.engine': 'file',
    'log.dirs': logDir,
    'log.retention.check.interval.ms': '100',
    'log.segment.delete.delay.ms': '0',
  });
}

async function withClients<T>(run: (admin: Admin, producer: Producer) => Promise<T>): Promise<T> {
  const kafka = new Kafka({ clientId: 'dynamic-e2e', brokers: [`127.0.0.1:${broker.port}`], logLevel: logLevel.NOTHING, retry: { retries: 0 } });
  const admin = kafka.admin();
  const producer = kafka.producer({ allowAutoTopicCreation: false });
  await admin.connect();
  await producer.connect();
  try {
    return await run(admin, producer);
  } finally {
    await producer.disconnect();
    await admin.disconnect();
  }
}

/** What a produce of one record of `size` bytes answers: 'ok' or the Kafka error name. */
async function produceOf(producer: Producer, topic: string, size: number): Promise<string> {
  try {
    await producer.send({ topic, acks: -1, messages: [{ value: 'x'.repeat(size) }] });
    return 'ok';
  } catch (error) {
    return (error as { type?: string }).type ?? String(error);
  }
}

async function describeTopic(admin: Admin, topic: string, names: string[]) {
  const described = await admin.describeConfigs({ includeSynonyms: true, resources: [{ type: ConfigResourceTypes.TOPIC, name: topic, configNames: names }] });
  return Object.fromEntries(described.resources[0]!.configEntries.map((e) => [e.configName, {
    value: e.configValue,
    source: e.configSource,
    synonyms: e.configSynonyms.map((s) => [s.configName, s.configValue, s.configSource]),
  }]));
}

/** Polls ListOffsets until the earliest offset reaches `offset` (the retention task runs every 100 ms). */
async function waitForLogStart(admin: Admin, topic: string, offset: string): Promise<void> {
  for (let attempt = 0; attempt < 300; attempt++) {
    const [partition] = await admin.fetchTopicOffsets(topic);
    if (partition!.low === offset) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.fail(`the log start offset of ${topic} never reached ${offset}`);
}

before(async () => {
  installJavaTools();
  logDir = mkdtempSync(join(tmpdir(), 'gregor-dynamic-e2e-'));
  broker = await startOnLogDir();
});

after(async () => {
  await broker?.close();
  if (logDir !== undefined) rmSync(logDir, { recursive: true, force: true });
});

test('kafkajs alterConfigs on broker 1: retention and message.max.bytes take effect at once, and go when removed', async () => {
  await withClients(async (admin, producer) => {
    const topic = 'dyn-kafkajs';
    await admin.createTopics({ topics: [{ topic, numPartitions: 1 }] });
    const hourAgo = String(Date.now() - 3_600_000);
    await producer.send({ topic, acks: -1, messages: [{ value: 'a', timestamp: hourAgo }, { value: 'b', timestamp: hourAgo }] });
    assert.equal(await produceOf(producer, topic, 3000), 'ok');
    await waitForLogStart(admin, topic, '0');

    await admin.alterConfigs({ validateOnly: false, resources: [{
      type: ConfigResourceTypes.BROKER, name: '1',
      configEntries: [{ name: 'log.retention.ms', value: '1000' }, { name: 'message.max.bytes', value: '2000' }],
    }] });
    assert.equal(await produceOf(producer, topic, 3000), 'MESSAGE_TOO_LARGE');
    // The 3000-byte record written before is an hour younger than the others: all three expire after a second.
    await waitForLogStart(admin, topic, '3');
    assert.deepEqual(await describeTopic(admin, topic, ['retention.ms', 'max.message.bytes']), {
      'retention.ms': { value: '1000', source: DYNAMIC_BROKER_CONFIG, synonyms: [
        ['log.retention.ms', '1000', DYNAMIC_BROKER_CONFIG], ['log.retention.hours', '168', DEFAULT_CONFIG]] },
      'max.message.bytes': { value: '2000', source: DYNAMIC_BROKER_CONFIG, synonyms: [
        ['message.max.bytes', '2000', DYNAMIC_BROKER_CONFIG], ['message.max.bytes', '1048588', DEFAULT_CONFIG]] },
    });

    // Legacy AlterConfigs replaces the whole set: an empty one removes both.
    await admin.alterConfigs({ validateOnly: false, resources: [{ type: ConfigResourceTypes.BROKER, name: '1', configEntries: [] }] });
    assert.equal(await produceOf(producer, topic, 3000), 'ok');
    const after = await describeTopic(admin, topic, ['retention.ms']);
    assert.equal(after['retention.ms']!.value, '604800000');
    assert.equal(after['retention.ms']!.source, DEFAULT_CONFIG);
  });
});

test('kafka-configs --entity-default: the cluster default takes effect, and still does after a restart', { timeout: 300_000 }, async () => {
  const topic = 'dyn-default';
  const bootstrap = () => ['--bootstrap-server', `127.0.0.1:${broker.port}`];
  await withClients(async (admin, producer) => {
    await admin.createTopics({ topics: [{ topic, numPartitions: 1 }] });
    assert.equal(await produceOf(producer, topic, 3000), 'ok');
    const altered = await runJavaToolOk('kafka-configs', [...bootstrap(), '--alter', '--entity-type', 'brokers', '--entity-default',
      '--add-config', 'message.max.bytes=2000,log.retention.ms=1000']);
    assert.equal(altered.trim(), 'Completed updating default config for brokers in the cluster.');
    const perBrokerKey = await runJavaTool('kafka-configs', [...bootstrap(), '--alter', '--entity-type', 'brokers', '--entity-default',
      '--add-config', 'listeners=PLAINTEXT://127.0.0.1:0']);
    assert.notEqual(perBrokerKey.code, 0);
    assert.match(perBrokerKey.stdout + perBrokerKey.stderr,
      /InvalidRequestException: Cannot update these configs at default cluster level, broker id must be specified: \[listeners\]/);
    assert.equal(await produceOf(producer, topic, 3000), 'MESSAGE_TOO_LARGE');
    await waitForLogStart(admin, topic, '1');
  });

  await broker.close();
  broker = await startOnLogDir();

  const defaults = await runJavaToolOk('kafka-configs', [...bootstrap(), '--describe', '--entity-type', 'brokers', '--entity-default']);
  assert.deepEqual(defaults.trim().split('\n'), [
    'Default configs for brokers in the cluster are:',
    '  log.retention.ms=1000 sensitive=false synonyms={DYNAMIC_DEFAULT_BROKER_CONFIG:log.retention.ms=1000}',
    '  message.max.bytes=2000 sensitive=false synonyms={DYNAMIC_DEFAULT_BROKER_CONFIG:message.max.bytes=2000}',
    '  min.insync.replicas=1 sensitive=false synonyms={DYNAMIC_DEFAULT_BROKER_CONFIG:min.insync.replicas=1}',
  ]);
  const topicConfigs = await runJavaToolOk('kafka-configs', [...bootstrap(), '--describe', '--entity-type', 'topics', '--entity-name', topic, '--all']);
  const lines = topicConfigs.split('\n').map((line) => line.trim());
  assert.ok(lines.includes('max.message.bytes=2000 sensitive=false synonyms={DYNAMIC_DEFAULT_BROKER_CONFIG:message.max.bytes=2000, DEFAULT_CONFIG:message.max.bytes=1048588}'), topicConfigs);
  assert.ok(lines.includes('retention.ms=1000 sensitive=false synonyms={DYNAMIC_DEFAULT_BROKER_CONFIG:log.retention.ms=1000, DEFAULT_CONFIG:log.retention.hours=168}'), topicConfigs);

  await withClients(async (admin, producer) => {
    assert.equal(await produceOf(producer, topic, 3000), 'MESSAGE_TOO_LARGE');
    const described = await describeTopic(admin, topic, ['max.message.bytes']);
    assert.equal(described['max.message.bytes']!.source, DYNAMIC_DEFAULT_BROKER_CONFIG);
  });
});
