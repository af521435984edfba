// The store's background settings from the broker config: log.cleaner.* reach the cleaner, and the producer
// state's last stable offset keeps a log with an open transaction from being chosen for a clean it cannot do.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { backgroundIntervals, cleanerSettings, logEngine, openLogStore } from '../../src/broker/open-store.js';
import { ProducerStates } from '../../src/broker/producer-states.js';
import { ReplicaManager } from '../../src/broker/replica-manager.js';
import { resolveBrokerConfig } from '../../src/config/index.js';
import { ErrorCode } from '../../src/protocol/error-codes.js';
import { DEFAULT_CLEANER_SETTINGS } from '../../src/storage/cleaner/cleaner-config.js';
import { MemoryLogStore } from '../../src/storage/memory/memory-store.js';
import { ManualScheduler } from '../../src/storage/scheduler.js';
import { batch } from '../storage/cleaner/helpers.js';

const base = { 'node.id': '1', 'gregor.log.engine': 'memory' };

test('one place picks the engine: gregor.log.engine, or memory for a broker serving a test catalog', async () => {
  const file = resolveBrokerConfig({ 'node.id': '1', 'log.dirs': '/nonexistent/gregor-must-not-write-here' });
  assert.equal(logEngine(file), 'file');
  assert.equal(logEngine(file, true), 'memory');
  assert.equal(logEngine(resolveBrokerConfig(base)), 'memory');
  const store = await openLogStore(file, undefined, logEngine(file, true));
  assert.ok(store instanceof MemoryLogStore, 'nothing is written to log.dirs');
  await store.close();
});

test("log.cleaner.* map onto the cleaner's settings; Kafka's defaults give the cleaner's defaults", () => {
  assert.deepEqual(cleanerSettings(resolveBrokerConfig(base)), DEFAULT_CLEANER_SETTINGS);
  const set = cleanerSettings(
    resolveBrokerConfig({
      ...base,
      'log.cleaner.enable': 'false',
      'log.cleaner.backoff.ms': '250',
      'log.cleaner.dedupe.buffer.size': '1048576',
      'log.cleaner.io.buffer.size': '65536',
      'log.cleaner.io.buffer.load.factor': '0.5',
      'log.cleaner.io.max.bytes.per.second': '1000000',
    }),
  );
  assert.deepEqual(set, { enable: false, backoffMs: 250, dedupeBufferSize: 1 << 20, ioBufferSize: 65536, dedupeBufferLoadFactor: 0.5, ioMaxBytesPerSecond: 1e6 });
  assert.equal(cleanerSettings(resolveBrokerConfig({ ...base, 'log.cleaner.threads': '0' })).enable, false, 'no cleaner threads, no cleaning');
  assert.equal(cleanerSettings(resolveBrokerConfig({ ...base, 'log.cleaner.dedupe.buffer.size': String(8 * 2 ** 30) })).dedupeBufferSize, 2 ** 31 - 1);
  assert.equal(backgroundIntervals(resolveBrokerConfig({ ...base, 'log.cleaner.backoff.ms': '7' })).cleaner?.backoffMs, 7);
});

test('the last stable offset reaches the cleaner: a log held by an open transaction does not starve a cleanable one', async () => {
  const config = resolveBrokerConfig({ ...base, 'log.cleaner.backoff.ms': '1000000000' });
  const scheduler = new ManualScheduler(1_000_000);
  const store = new MemoryLogStore({ nodeId: 1, scheduler });
  const compact = { 'cleanup.policy': 'compact', 'internal.segment.bytes': '1000', 'min.cleanable.dirty.ratio': '0.1' };
  await store.createTopic('held', 1, compact);
  await store.createTopic('free', 1, compact);
  const producerStates = await ProducerStates.load(store, () => scheduler.now());
  const replicas = new ReplicaManager(store, config, { producerState: producerStates, now: () => scheduler.now() });
  const produce = async (topic: string, bytes: Buffer): Promise<void> => {
    const result = await replicas.appendRecords(topic, 0, bytes, { apiVersion: 11, internalTopicsAllowed: false });
    assert.equal(result.errorCode, ErrorCode.NONE);
  };
  // 'held': a transaction opens at offset 0, then many overwrites: the dirtiest log, but nothing in it is stable.
  await produce('held', batch([{ key: 'k', value: 'in a transaction' }], { producerId: 5, transactional: true }));
  for (let i = 0; i < 30; i++) await produce('held', batch([{ key: 'a', value: 'x'.repeat(150) }]));
  // 'free': fewer overwrites, still over min.cleanable.dirty.ratio.
  for (let i = 0; i < 12; i++) await produce('free', batch([{ key: 'b', value: 'y'.repeat(150) }]));
  assert.equal(producerStates.lastStableOffset(store.log('held', 0)!), 0);

  store.startBackground(backgroundIntervals(config, (log) => producerStates.lastStableOffset(log)));
  await store.logCleaner!.kick();
  assert.deepEqual(store.logCleaner!.history.map((c) => `${c.topic}-${c.partition}`), ['free-0']);
  await store.close();
});
