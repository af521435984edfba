// An aborted transaction on a compacted topic (file engine): the cleaner merges the segments around its ABORT
// marker into one and carries the marker's .txnindex entry into the cleaned segment (Kafka's
// CleanedTransactionMetadata writes the cleaned index), so after the compaction and a restart the log still
// indexes it and a read_committed kafkajs consumer reads only the committed records.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import kafkajs from 'kafkajs';
import { resolveBrokerConfig } from '../../src/config/index.js';
import { startBroker, type Broker } from '../../src/server/broker.js';
import { FileLogStore } from '../../src/storage/file/file-store.js';
import { decodeTxnIndex } from '../../src/storage/file/txn-index.js';
import { until } from '../coordinator/kafkajs-group-helpers.js';

const { Kafka, logLevel } = kafkajs;
process.env['KAFKAJS_NO_PARTITIONER_WARNING'] = '1';

async function open(logDir: string, port = 0): Promise<{ broker: Broker; store: FileLogStore; port: number }> {
  const store = await FileLogStore.open({ logDir, nodeId: 1 });
  // The cleaner runs only when the test kicks it.
  store.startBackground({ cleaner: { backoffMs: 1e9, dedupeBufferSize: 1 << 20 } });
  const broker = await startBroker(resolveBrokerConfig({ listeners: `PLAINTEXT://127.0.0.1:${port}`, 'node.id': '1', 'log.dirs': logDir }), { store });
  return { broker, store, port: broker.addresses[0]!.port };
}

test('an aborted transaction survives a compaction that merges its segment, and a restart: read_committed still skips it', async () => {
  const logDir = await mkdtemp(join(tmpdir(), 'gregor-compaction-txn-'));
  let { broker, store, port } = await open(logDir);
  try {
    // Record time steps 10 s per send and segment.ms is 5 s: each send starts a segment. Markers carry the broker's
    // clock, behind the records' (which stay within message.timestamp.after.max.ms): each joins its segment.
    await store.createTopic('txns', 1, { 'cleanup.policy': 'compact', 'segment.ms': '5000', 'min.cleanable.dirty.ratio': '0.01' });
    const kafka = new Kafka({ clientId: 'compaction-txn', brokers: [`127.0.0.1:${port}`], logLevel: logLevel.NOTHING, retry: { retries: 20, initialRetryTime: 50, maxRetryTime: 500 } });
    const producer = kafka.producer({ transactionalId: 'compaction-txn-1', idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    let timestamp = Date.now() + 60_000;
    for (const [name, commit] of [['c1', true], ['ab', false], ['c2', true], ['c3', true]] as const) {
      const txn = await producer.transaction();
      for (let send = 0; send < 2; send++) {
        timestamp += 10_000;
        const messages = Array.from({ length: 5 }, (_, k) => ({ key: `k-${k}`, value: `${name}-${send}-${k}`, timestamp: String(timestamp) }));
        await txn.send({ topic: 'txns', messages });
      }
      await (commit ? txn.commit() : txn.abort());
    }
    await producer.disconnect();

    const log = store.log('txns', 0)!;
    const aborted = log.abortedTransactions(0, log.logEndOffset);
    assert.equal(aborted.length, 1, 'the abort is indexed');
    const marker = aborted[0]!.lastOffset;
    const segmentsBefore = (await readdir(join(logDir, 'txns-0'))).filter((n) => n.endsWith('.log')).length;
    await store.logCleaner!.kick();
    assert.ok(store.logCleaner!.history.some((c) => c.topic === 'txns'), 'the topic was cleaned');
    const segmentsAfter = (await readdir(join(logDir, 'txns-0'))).filter((n) => n.endsWith('.log')).length;
    assert.ok(segmentsAfter < segmentsBefore, `segments merged: ${segmentsBefore} -> ${segmentsAfter}`);
    assert.deepEqual(log.abortedTransactions(0, log.logEndOffset), aborted, 'the cleaned segment indexes the abort');

    await broker.close();
    ({ broker, store } = await open(logDir, port));
    const reopened = store.log('txns', 0)!;
    assert.deepEqual(reopened.abortedTransactions(0, reopened.logEndOffset), aborted, 'and so does the log after a restart');
    const files = await readdir(join(logDir, 'txns-0'));
    const indexes = files.filter((n) => n.endsWith('.txnindex'));
    const holder = files.filter((n) => n.endsWith('.log')).map((n) => Number(n.slice(0, 20))).filter((b) => b <= marker).sort((a, b) => a - b).at(-1)!;
    assert.deepEqual(indexes, [`${String(holder).padStart(20, '0')}.txnindex`], 'one index, next to the segment holding the marker');
    assert.deepEqual(decodeTxnIndex(await readFile(join(logDir, 'txns-0', indexes[0]!))).entries, aborted);

    const consumer = kafka.consumer({ groupId: 'compaction-txn-reader', readUncommitted: false, maxWaitTimeInMs: 100 });
    const seen: string[] = [];
    await consumer.connect();
    await consumer.subscribe({ topic: 'txns', fromBeginning: true });
    await consumer.run({ eachMessage: async ({ message }) => void seen.push(message.value!.toString()) });
    await until(() => seen.some((v) => v === 'c3-1-4'), 'the last committed record is read');
    await consumer.disconnect();
    assert.deepEqual(seen.filter((v) => v.startsWith('ab')), [], 'nothing of the aborted transaction');
    assert.deepEqual(seen.slice(-5), ['c3-1-0', 'c3-1-1', 'c3-1-2', 'c3-1-3', 'c3-1-4']);
  } finally {
    await broker.close();
    await rm(logDir, { recursive: true, force: true });
  }
});
