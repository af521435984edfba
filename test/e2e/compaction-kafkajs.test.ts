// Compacted topics end to end: kafkajs produces many overwrites of a few keys to gregor (file engine), the log
// cleaner compacts them, kcat reads from the beginning and sees exactly the latest value per key (plus
// whatever is newer than the cleaned part), the disk shrinks, and it all survives a restart. Keyless
// records are refused with Kafka's INVALID_RECORD.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import kafkajs from 'kafkajs';
import { resolveBrokerConfig } from '../../src/config/index.js';
import { startBroker, type Broker } from '../../src/server/broker.js';
import { FileLogStore } from '../../src/storage/file/file-store.js';

const { Kafka, logLevel } = kafkajs;
const run = promisify(execFile);

interface KcatMessage {
  offset: number;
  key: string | null;
  payload: string | null;
}

async function kcatAll(bootstrap: string, topic: string): Promise<KcatMessage[]> {
  const { stdout } = await run('kcat', ['-C', '-b', bootstrap, '-t', topic, '-o', 'beginning', '-e', '-J', '-q'], { timeout: 60_000, maxBuffer: 64 << 20 });
  return stdout.split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as KcatMessage);
}

async function open(logDir: string): Promise<{ broker: Broker; store: FileLogStore; bootstrap: string }> {
  const store = await FileLogStore.open({ logDir, nodeId: 1 });
  // The cleaner runs only when the test kicks it.
  store.startBackground({ cleaner: { backoffMs: 1e9, dedupeBufferSize: 1 << 20 } });
  const broker = await startBroker(resolveBrokerConfig({ listeners: 'PLAINTEXT://127.0.0.1:0', 'node.id': '1', 'log.dirs': logDir }), { store });
  return { broker, store, bootstrap: `127.0.0.1:${broker.addresses[0]!.port}` };
}

test('20,000 writes over 100 keys compact to the latest value per key; consumers from the start see exactly that', async () => {
  const logDir = await mkdtemp(join(tmpdir(), 'gregor-compaction-'));
  let { broker, store, bootstrap } = await open(logDir);
  try {
    // Small segments so most of the log is inactive (Kafka's test-only internal.segment.bytes: segment.bytes has a 1 MiB minimum).
    await store.createTopic('compacted', 1, { 'cleanup.policy': 'compact', 'internal.segment.bytes': '65536', 'min.cleanable.dirty.ratio': '0.1' });
    const kafka = new Kafka({ clientId: 'compaction-e2e', brokers: [bootstrap], logLevel: logLevel.NOTHING });
    const producer = kafka.producer();
    await producer.connect();
    const expected = new Map<string, string>();
    for (let round = 0; round < 200; round++) {
      const messages = Array.from({ length: 100 }, (_, k) => ({ key: `key-${k}`, value: `value-${round}-${k}-${'p'.repeat(40)}` }));
      await producer.send({ topic: 'compacted', messages });
      for (const m of messages) expected.set(m.key, m.value);
    }
    // A keyless record is refused: Kafka's INVALID_RECORD.
    await assert.rejects(
      kafkajs.Kafka.prototype.constructor === Kafka ? producer.send({ topic: 'compacted', messages: [{ value: 'no key' }] }) : Promise.resolve(),
      (err: Error & { type?: string; cause?: { type?: string } }) => JSON.stringify(err, Object.getOwnPropertyNames(err)).includes('INVALID_RECORD'),
    );
    await producer.disconnect();

    const log = store.log('compacted', 0)!;
    const sizeBefore = log.sizeInBytes();
    await store.logCleaner!.kick();
    assert.ok(store.logCleaner!.history.length >= 1);
    const activeBase = log.segments[log.segments.length - 1]!.baseOffset;
    const messages = await kcatAll(bootstrap, 'compacted');
    const cleanedPart = messages.filter((m) => m.offset < activeBase);
    assert.equal(new Set(cleanedPart.map((m) => m.key)).size, cleanedPart.length, 'one record per key below the active segment');
    const seen = new Map(messages.map((m) => [m.key!, m.payload!]));
    assert.deepEqual(seen, expected);
    assert.equal(messages[messages.length - 1]!.offset, 19_999, 'offsets are kept');
    const activeBytes = log.segments[log.segments.length - 1]!.size;
    assert.ok(log.sizeInBytes() - activeBytes < sizeBefore / 20, `cleaned part: ${log.sizeInBytes() - activeBytes} bytes of ${sizeBefore}`);

    await broker.close();
    ({ broker, store, bootstrap } = await open(logDir));
    const again = await kcatAll(bootstrap, 'compacted');
    assert.deepEqual(again, messages, 'the compacted log survives a restart');
  } finally {
    await broker.close();
    await rm(logDir, { recursive: true, force: true });
  }
});
