import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveBrokerConfig } from '../../../src/config/index.js';
import type { BrokerConfig } from '../../../src/config/broker-config.js';
import {
  DYNAMIC_CONFIGS_FILE, fileDynamicConfigStore, memoryDynamicConfigStore, parseDynamicConfigs,
} from '../../../src/server/admin/dynamic-config-store.js';
import { DynamicConfigs, reconfigurationProblem } from '../../../src/server/admin/dynamic-configs.js';

async function withDir(run: (dir: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'gregor-dyn-'));
  try {
    await run(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

test('nothing stored: the cluster default holds the static min.insync.replicas, as a formed Kafka cluster has', async () => {
  const configs = await DynamicConfigs.open(resolveBrokerConfig({ 'min.insync.replicas': '2' }));
  assert.deepEqual([...configs.clusterDefault], [['min.insync.replicas', '2']]);
  assert.deepEqual([...configs.perBroker], []);
});

test('replace changes the live config at once, tells listeners, and stores both layers', async () => {
  const store = memoryDynamicConfigStore();
  const configs = await DynamicConfigs.open(resolveBrokerConfig({}), store);
  const seen: [number, number][] = [];
  configs.onChange((next: BrokerConfig, previous: BrokerConfig) => {
    seen.push([previous['message.max.bytes'], next['message.max.bytes']]);
  });
  const done = configs.replace('clusterDefault', { 'min.insync.replicas': '1', 'message.max.bytes': '2000' });
  assert.equal(configs.config['message.max.bytes'], 2000, 'live before the store write finishes');
  assert.deepEqual(seen, [[1024 * 1024 + 12, 2000]]);
  await done;
  const stored = await store.load();
  assert.deepEqual(Object.fromEntries(stored!.clusterDefault), { 'min.insync.replicas': '1', 'message.max.bytes': '2000' });

  await configs.replace('perBroker', { 'message.max.bytes': '1500' });
  assert.equal(configs.config['message.max.bytes'], 1500);
  await configs.replace('perBroker', {});
  assert.equal(configs.config['message.max.bytes'], 2000, 'removing the per-broker value falls back to the cluster default');
});

test('the file store survives a restart: written atomically, read back by the next open', async () => {
  await withDir(async (dir) => {
    const staticConfig = resolveBrokerConfig({ 'log.dirs': dir });
    const first = await DynamicConfigs.open(staticConfig, fileDynamicConfigStore(dir));
    await first.replace('clusterDefault', { 'min.insync.replicas': '1', 'log.retention.ms': '1000' });
    await first.replace('perBroker', { 'log.cleaner.threads': '2' });
    assert.deepEqual((await readdir(dir)).sort(), [DYNAMIC_CONFIGS_FILE], 'no temp file is left behind');
    const text = await readFile(join(dir, DYNAMIC_CONFIGS_FILE), 'utf8');
    assert.deepEqual(JSON.parse(text), {
      version: 1,
      perBroker: { 'log.cleaner.threads': '2' },
      clusterDefault: { 'log.retention.ms': '1000', 'min.insync.replicas': '1' },
    });

    const second = await DynamicConfigs.open(staticConfig, fileDynamicConfigStore(dir));
    assert.deepEqual(Object.fromEntries(second.clusterDefault), { 'min.insync.replicas': '1', 'log.retention.ms': '1000' });
    assert.equal(second.config['log.retention.ms'], 1000);
    assert.equal(second.config['log.cleaner.threads'], 2);
  });
});

test('a missing directory is created on the first save; a missing file means nothing stored', async () => {
  await withDir(async (dir) => {
    const logDir = join(dir, 'not', 'yet');
    const store = fileDynamicConfigStore(logDir);
    assert.equal(await store.load(), undefined);
    await store.save({ perBroker: new Map([['num.io.threads', '4']]), clusterDefault: new Map() });
    assert.deepEqual(Object.fromEntries((await store.load())!.perBroker), { 'num.io.threads': '4' });
  });
});

test('a malformed file stops start-up with one line naming the file', async () => {
  await withDir(async (dir) => {
    const staticConfig = resolveBrokerConfig({ 'log.dirs': dir });
    const path = join(dir, DYNAMIC_CONFIGS_FILE);
    for (const [text, problem] of [
      ['{"version":1,"perBroker":[', 'not valid JSON'],
      ['[]', 'expects a JSON object'],
      ['{"version":7}', 'unsupported version 7'],
      ['{"version":1,"perBroker":{"a":1}}', '"perBroker"."a" must be a string'],
      ['{"version":1,"clusterDefault":"x"}', '"clusterDefault" must be an object of strings'],
    ] as const) {
      await writeFile(path, text);
      await assert.rejects(DynamicConfigs.open(staticConfig, fileDynamicConfigStore(dir)), (error: Error) => {
        assert.ok(error.message.startsWith(`${path}: ${problem}`), error.message);
        assert.ok(!error.message.includes('\n'));
        return true;
      });
    }
    assert.throws(() => parseDynamicConfigs('null', 'f'), /f: expects a JSON object/);
  });
});

test('thread counts change as Kafka allows: at least 1, at most double, at least half', () => {
  const current = resolveBrokerConfig({ 'num.io.threads': '8', 'log.cleaner.threads': '2' });
  const next = (settings: Record<string, string>) => resolveBrokerConfig({ 'num.io.threads': '8', 'log.cleaner.threads': '2', ...settings });
  assert.equal(reconfigurationProblem(current, next({ 'num.io.threads': '16', 'log.cleaner.threads': '4' })), null);
  assert.match(reconfigurationProblem(current, next({ 'num.io.threads': '17' }))!, /value should not be greater than double the current value 8/);
  assert.match(reconfigurationProblem(current, next({ 'num.io.threads': '3' }))!, /value should be at least half the current value 8/);
  assert.match(reconfigurationProblem(current, next({ 'log.cleaner.threads': '5' }))!,
    /^Invalid value org.apache.kafka.common.config.ConfigException: Log cleaner threads cannot be increased to more than double the current value 2 for configuration Invalid dynamic configuration$/);
  assert.match(reconfigurationProblem(current, next({ 'log.cleaner.threads': '0' }))!, /Log cleaner threads should be at least 1/);
});
