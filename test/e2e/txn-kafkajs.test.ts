// kafkajs transactions against gregor: commits, aborts and sendOffsets; a read_committed consumer sees only
// committed records, in order, and waits at the last stable offset while a transaction is open (even past
// later non-transactional records); a read_uncommitted consumer sees everything.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import kafkajs, { type Consumer, type Kafka } from 'kafkajs';
import { resolveBrokerConfig } from '../../src/config/index.js';
import { startBroker } from '../../src/server/broker.js';
import { until } from '../coordinator/kafkajs-group-helpers.js';

const { Kafka: KafkaClient, logLevel } = kafkajs;
process.env['KAFKAJS_NO_PARTITIONER_WARNING'] = '1';

function kafkaFor(bootstrap: string, clientId: string): Kafka {
  return new KafkaClient({ clientId, brokers: [bootstrap], logLevel: logLevel.NOTHING, retry: { retries: 20, initialRetryTime: 50, maxRetryTime: 500 } });
}

async function collect(kafka: Kafka, topic: string, groupId: string, readUncommitted: boolean): Promise<{ consumer: Consumer; seen: string[] }> {
  const consumer = kafka.consumer({ groupId, readUncommitted, maxWaitTimeInMs: 100 });
  const seen: string[] = [];
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  await consumer.run({ eachMessage: async ({ message }) => void seen.push(message.value!.toString()) });
  return { consumer, seen };
}

test('kafkajs transactional producer: commit, abort, sendOffsets; read_committed sees committed data only and waits at the LSO', async () => {
  const broker = await startBroker(resolveBrokerConfig({ listeners: 'PLAINTEXT://127.0.0.1:0', 'node.id': '1', 'gregor.log.engine': 'memory' }));
  const bootstrap = `127.0.0.1:${broker.addresses[0]!.port}`;
  const kafka = kafkaFor(bootstrap, 'txn-e2e');
  const admin = kafka.admin();
  const producer = kafka.producer({ transactionalId: 'txn-e2e-1', idempotent: true, maxInFlightRequests: 1 });
  const plain = kafka.producer({ idempotent: true });
  const consumers: Consumer[] = [];
  try {
    await admin.connect();
    await admin.createTopics({ topics: [{ topic: 'txn-data', numPartitions: 1 }, { topic: 'txn-src', numPartitions: 1 }] });
    await producer.connect();
    await plain.connect();

    const committed1 = await producer.transaction();
    await committed1.send({ topic: 'txn-data', messages: [{ value: 'c1' }, { value: 'c2' }] });
    await committed1.commit();

    const aborted = await producer.transaction();
    await aborted.send({ topic: 'txn-data', messages: [{ value: 'a1' }, { value: 'a2' }] });
    await aborted.abort();

    const withOffsets = await producer.transaction();
    await withOffsets.send({ topic: 'txn-data', messages: [{ value: 'c3' }] });
    await withOffsets.sendOffsets({ consumerGroupId: 'txn-e2e-group', topics: [{ topic: 'txn-src', partitions: [{ partition: 0, offset: '5' }] }] });
    await withOffsets.commit();

    const offsets = await admin.fetchOffsets({ groupId: 'txn-e2e-group', topics: ['txn-src'] });
    assert.deepEqual(offsets[0]!.partitions.map((p) => [p.partition, p.offset]), [[0, '5']]);

    const committedReader = await collect(kafka, 'txn-data', 'reader-committed', false);
    const uncommittedReader = await collect(kafka, 'txn-data', 'reader-uncommitted', true);
    consumers.push(committedReader.consumer, uncommittedReader.consumer);
    await until(() => committedReader.seen.length >= 3, 'read_committed consumer reads the committed records');
    await until(() => uncommittedReader.seen.length >= 5, 'read_uncommitted consumer reads every record');
    assert.deepEqual(committedReader.seen, ['c1', 'c2', 'c3']);
    assert.deepEqual(uncommittedReader.seen, ['c1', 'c2', 'a1', 'a2', 'c3']);

    // An open transaction holds the LSO: a later plain record stays invisible to read_committed until it ends.
    const open = await producer.transaction();
    await open.send({ topic: 'txn-data', messages: [{ value: 'o1' }] });
    await plain.send({ topic: 'txn-data', messages: [{ value: 'p1' }] });
    await until(() => uncommittedReader.seen.includes('p1'), 'read_uncommitted consumer reads past the open transaction');
    assert.deepEqual(committedReader.seen, ['c1', 'c2', 'c3']);
    await open.commit();
    await until(() => committedReader.seen.length >= 5, 'read_committed consumer reads on once the transaction commits');
    assert.deepEqual(committedReader.seen, ['c1', 'c2', 'c3', 'o1', 'p1']);
  } finally {
    for (const c of consumers) await c.disconnect();
    await producer.disconnect();
    await plain.disconnect();
    await admin.disconnect();
    await broker.close();
  }
});
