// A broker restart on the file engine keeps what read_committed consumers rely on: an aborted transaction is
// served from its .txnindex file (the snapshot written at shutdown means no batch is re-read), so kafkajs reading
// with read_committed after the restart skips the aborted records and sees the committed ones once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import kafkajs from 'kafkajs';
import { resolveBrokerConfig } from '../../src/config/index.js';
import { startBroker, type Broker } from '../../src/server/broker.js';
import { until } from '../coordinator/kafkajs-group-helpers.js';

const { Kafka, logLevel } = kafkajs;
process.env['KAFKAJS_NO_PARTITIONER_WARNING'] = '1';

function start(dir: string, port: number): Promise<Broker> {
  return startBroker(resolveBrokerConfig({ listeners: `PLAINTEXT://127.0.0.1:${port}`, 'node.id': '1', 'log.dirs': dir }));
}

test('after a clean restart, read_committed skips a transaction aborted before it (from .txnindex)', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'gregor-txnindex-restart-'));
  let broker = await start(dir, 0);
  const port = broker.addresses[0]!.port;
  const kafka = new Kafka({ clientId: 'txnindex', brokers: [`127.0.0.1:${port}`], logLevel: logLevel.NOTHING, retry: { retries: 20, initialRetryTime: 50, maxRetryTime: 500 } });
  try {
    const admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic: 'aborts', numPartitions: 1 }] });
    await admin.disconnect();
    const producer = kafka.producer({ transactionalId: 'txnindex-1', idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    for (const [value, commit] of [['c1', true], ['a1', false], ['a2', false], ['c2', true]] as const) {
      const txn = await producer.transaction();
      await txn.send({ topic: 'aborts', messages: [{ value }] });
      await (commit ? txn.commit() : txn.abort());
    }
    await producer.disconnect();

    await broker.close();
    const files = await readdir(join(dir, 'aborts-0'));
    const index = files.find((n) => n.endsWith('.txnindex'));
    assert.ok(index !== undefined, `a .txnindex next to the segment: ${files.join(', ')}`);
    assert.equal((await stat(join(dir, 'aborts-0', index))).size, 2 * 34, 'two aborted transactions');
    assert.ok(files.includes('00000000000000000008.snapshot'), 'a snapshot at the log end (4 records + 4 markers)');
    broker = await start(dir, port);

    const consumer = kafka.consumer({ groupId: 'txnindex-reader', readUncommitted: false, maxWaitTimeInMs: 100 });
    const seen: string[] = [];
    await consumer.connect();
    await consumer.subscribe({ topic: 'aborts', fromBeginning: true });
    await consumer.run({ eachMessage: async ({ message }) => void seen.push(message.value!.toString()) });
    await until(() => seen.length >= 2, 'the committed records are read');
    await consumer.disconnect();
    assert.deepEqual(seen, ['c1', 'c2']);
  } finally {
    await broker.close();
    await rm(dir, { recursive: true, force: true });
  }
});
