// kafkajs produces (all four codecs, acks 0/1/-1, keys, headers, null and empty values, timestamps) to an
// in-process broker; kcat (librdkafka) reads everything back. Then the file engine keeps it across a restart.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import kafkajs, { type Producer } from 'kafkajs';
import { resolveBrokerConfig } from '../../src/config/index.js';
import { startBroker, type Broker } from '../../src/server/broker.js';
import { registerKafkajsCodecs } from './kafkajs-codecs.js';

const { CompressionTypes, Kafka, logLevel } = kafkajs;
const run = promisify(execFile);
registerKafkajsCodecs();

interface KcatMessage {
  partition: number;
  offset: number;
  ts: number;
  key: string | null;
  payload: string | null;
  headers?: string[];
}

async function kcatAll(bootstrap: string, topic: string): Promise<KcatMessage[]> {
  const { stdout } = await run('kcat', ['-C', '-b', bootstrap, '-t', topic, '-o', 'beginning', '-e', '-J', '-q'], { timeout: 60_000 });
  return stdout.split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as KcatMessage);
}

async function start(settings: Record<string, string>): Promise<{ broker: Broker; bootstrap: string }> {
  const broker = await startBroker(resolveBrokerConfig({ listeners: 'PLAINTEXT://127.0.0.1:0', 'node.id': '1', ...settings }));
  return { broker, bootstrap: `127.0.0.1:${broker.addresses[0]!.port}` };
}

async function withProducer<T>(bootstrap: string, use: (producer: Producer) => Promise<T>): Promise<T> {
  const kafka = new Kafka({ clientId: 'data-e2e', brokers: [bootstrap], logLevel: logLevel.NOTHING, retry: { retries: 8, initialRetryTime: 50 } });
  const producer = kafka.producer({ allowAutoTopicCreation: true });
  await producer.connect();
  try {
    return await use(producer);
  } finally {
    await producer.disconnect();
  }
}

const CODECS = [
  ['none', CompressionTypes.None],
  ['gzip', CompressionTypes.GZIP],
  ['snappy', CompressionTypes.Snappy],
  ['lz4', CompressionTypes.LZ4],
  ['zstd', CompressionTypes.ZSTD],
] as const;

test('kafkajs produces with every codec and acks setting; kcat reads every record back', async () => {
  const { broker, bootstrap } = await start({ 'gregor.log.engine': 'memory' });
  try {
    await withProducer(bootstrap, async (producer) => {
      for (const [name, compression] of CODECS) {
        for (const acks of [-1, 1]) {
          const sent = await producer.send({
            topic: `codec-${name}`,
            acks,
            compression,
            messages: [
              { key: 'k1', value: `hello ${name} ${acks}`, headers: { h: 'v' }, timestamp: '1700000000000' },
              { key: null, value: null },
              { key: 'empty', value: '' },
              { value: 'x'.repeat(5000) },
            ],
          });
          assert.equal(sent[0]!.errorCode, 0);
        }
        // acks=0: kafkajs resolves without a response; a later acks=1 send proves the order held.
        await producer.send({ topic: `codec-${name}`, acks: 0, compression, messages: [{ value: 'no ack' }] });
        await producer.send({ topic: `codec-${name}`, acks: 1, compression, messages: [{ value: 'last' }] });
      }
    });
    for (const [name] of CODECS) {
      const messages = await kcatAll(bootstrap, `codec-${name}`);
      assert.deepEqual(messages.map((m) => m.offset), [...Array(10).keys()], `codec ${name}`);
      const [first, nullValue, empty, big] = messages;
      assert.deepEqual([first!.key, first!.payload, first!.ts, first!.headers], ['k1', `hello ${name} -1`, 1700000000000, ['h', 'v']]);
      assert.deepEqual([nullValue!.key, nullValue!.payload], [null, null]);
      assert.deepEqual([empty!.key, empty!.payload], ['empty', '']);
      assert.equal(big!.payload, 'x'.repeat(5000));
      assert.deepEqual(messages.slice(8).map((m) => m.payload), ['no ack', 'last']);
    }
  } finally {
    await broker.close();
  }
});

test('the file engine keeps topics and records across a restart', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'gregor-data-'));
  const settings = { 'log.dirs': dir, 'gregor.log.engine': 'file' };
  try {
    const first = await start(settings);
    try {
      await withProducer(first.bootstrap, (producer) =>
        producer.send({ topic: 'durable', acks: -1, compression: CompressionTypes.GZIP, messages: [{ key: 'a', value: '1' }, { key: 'b', value: '2' }] }),
      );
    } finally {
      await first.broker.close();
    }
    const second = await start(settings);
    try {
      assert.equal(second.broker.clusterId, first.broker.clusterId, 'meta.properties keeps the cluster id');
      const messages = await kcatAll(second.bootstrap, 'durable');
      assert.deepEqual(messages.map((m) => [m.offset, m.key, m.payload]), [[0, 'a', '1'], [1, 'b', '2']]);
      await withProducer(second.bootstrap, (producer) => producer.send({ topic: 'durable', acks: 1, messages: [{ value: '3' }] }));
      assert.deepEqual((await kcatAll(second.bootstrap, 'durable')).map((m) => m.offset), [0, 1, 2]);
    } finally {
      await second.broker.close();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
