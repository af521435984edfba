// What captured broker config at start-up follows a dynamic change: every log's config (topics without their
// own override), the log cleaner (restarted with new log.cleaner.* settings, as Kafka's LogCleaner.reconfigure),
// and the AlterConfigs checks Kafka makes on the broker resource (per-broker keys at the cluster level: the e2e test).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import kafkajs, { type Admin } from 'kafkajs';
import { resolveBrokerConfig } from '../../../src/config/index.js';
import { openLogStore } from '../../../src/broker/open-store.js';
import type { FileLogStore } from '../../../src/storage/file/file-store.js';
import { startTestBroker } from '../broker-harness.js';

const { ConfigResourceTypes, Kafka, logLevel } = kafkajs;

let dir: string;
let store: FileLogStore;
let broker: Awaited<ReturnType<typeof startTestBroker>>;
let admin: Admin;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'gregor-reconfigure-'));
  const settings = { 'node.id': '1', 'gregor.log.engine': 'file', 'log.dirs': dir };
  store = (await openLogStore(resolveBrokerConfig(settings))) as FileLogStore;
  broker = await startTestBroker(settings, { store });
  admin = new Kafka({ clientId: 'reconfigure', brokers: [`127.0.0.1:${broker.port}`], logLevel: logLevel.NOTHING, retry: { retries: 0 } }).admin();
  await admin.connect();
});

after(async () => {
  await admin?.disconnect();
  await broker?.close();
  rmSync(dir, { recursive: true, force: true });
});

const alterBroker1 = (entries: Record<string, string>) => admin.alterConfigs({ validateOnly: false, resources: [{
  type: ConfigResourceTypes.BROKER, name: '1', configEntries: Object.entries(entries).map(([name, value]) => ({ name, value })),
}] });

test('logs without their own override take the new broker defaults; an override still wins', async () => {
  await admin.createTopics({ topics: [
    { topic: 'inherits', numPartitions: 2 },
    { topic: 'overrides', configEntries: [{ name: 'segment.bytes', value: '2000000' }] },
  ] });
  await alterBroker1({ 'log.segment.bytes': '3000000', 'log.cleanup.policy': 'compact', 'log.retention.bytes': '12345' });
  for (const partition of [0, 1]) {
    const config = store.log('inherits', partition)!.config;
    assert.equal(config.segmentBytes, 3_000_000);
    assert.equal(config.compactEnabled, true);
    assert.equal(config.deleteEnabled, false);
    assert.equal(config.retentionBytes, 12345);
  }
  assert.equal(store.log('overrides', 0)!.config.segmentBytes, 2_000_000);
  assert.equal(store.log('overrides', 0)!.config.retentionBytes, 12345);
  await alterBroker1({});
  assert.equal(store.log('inherits', 0)!.config.segmentBytes, 1024 * 1024 * 1024);
  assert.equal(store.log('inherits', 0)!.config.compactEnabled, false);
});

test('new log.cleaner.* settings restart the cleaner; other keys leave it running', async () => {
  const first = store.logCleaner;
  assert.ok(first !== undefined);
  await alterBroker1({ 'num.io.threads': '4' });
  assert.equal(store.logCleaner, first, 'a key the cleaner does not read');
  await alterBroker1({ 'log.cleaner.backoff.ms': '1000' });
  assert.ok(store.logCleaner !== undefined && store.logCleaner !== first, 'a new cleaner with the new backoff');
});

test('refused as Kafka refuses: read-only keys, thread counts beyond double, a retention that does not resolve', async () => {
  const refusal = async (resourceName: string, entries: Record<string, string>) => {
    try {
      await admin.alterConfigs({ validateOnly: false, resources: [{
        type: ConfigResourceTypes.BROKER, name: resourceName, configEntries: Object.entries(entries).map(([name, value]) => ({ name, value })),
      }] });
      return 'accepted';
    } catch (error) {
      return (error as { type?: string }).type ?? String(error);
    }
  };
  assert.equal(await refusal('1', { 'log.retention.hours': '1' }), 'INVALID_REQUEST');
  assert.equal(await refusal('1', { 'log.cleaner.threads': '5' }), 'INVALID_REQUEST');
  assert.equal(await refusal('1', { 'log.retention.ms': '0' }), 'INVALID_REQUEST');
  assert.equal(store.log('inherits', 0)!.config.retentionMs, 7 * 24 * 3_600_000, 'nothing refused took effect');
});
