import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dynamicSettingApplies, effectiveBrokerConfig } from '../../src/config/broker-config.js';
import { ConfigDescriber, ConfigError, ConfigSourceId as Source, explicitBrokerSettings, resolveBrokerConfig } from '../../src/config/index.js';

const layers = (perBroker: Record<string, string>, clusterDefault: Record<string, string>) => ({
  perBroker: new Map(Object.entries(perBroker)),
  clusterDefault: new Map(Object.entries(clusterDefault)),
});

test('precedence: per-broker dynamic > cluster-default dynamic > static > default', () => {
  const staticConfig = resolveBrokerConfig({ 'message.max.bytes': '5000', 'log.segment.bytes': '2000000' });
  const none = effectiveBrokerConfig(staticConfig, layers({}, {}));
  assert.equal(none['message.max.bytes'], 5000);
  assert.equal(none['log.retention.bytes'], -1, 'the default under everything');

  const clusterOnly = effectiveBrokerConfig(staticConfig, layers({}, { 'message.max.bytes': '4000', 'log.retention.bytes': '100' }));
  assert.equal(clusterOnly['message.max.bytes'], 4000);
  assert.equal(clusterOnly['log.retention.bytes'], 100);
  assert.equal(clusterOnly['log.segment.bytes'], 2_000_000, 'a static key with no dynamic value stays');

  const both = effectiveBrokerConfig(staticConfig, layers({ 'message.max.bytes': '3000' }, { 'message.max.bytes': '4000' }));
  assert.equal(both['message.max.bytes'], 3000);
});

test('time synonyms: a dynamic log.retention.ms wins over a static log.retention.hours; a dynamic key drops its static synonyms', () => {
  const hours = resolveBrokerConfig({ 'log.retention.hours': '24' });
  assert.equal(effectiveBrokerConfig(hours, layers({}, { 'log.retention.ms': '1000' }))['log.retention.ms'], 1000);
  assert.equal(effectiveBrokerConfig(hours, layers({}, {}))['log.retention.ms'], 24 * 3_600_000);
  // Kafka's overrideProps: log.flush.scheduler.interval.ms is a synonym of log.flush.interval.ms, removed below it.
  const scheduler = resolveBrokerConfig({ 'log.flush.scheduler.interval.ms': '5000' });
  const flushed = effectiveBrokerConfig(scheduler, layers({ 'log.flush.interval.ms': '2000' }, {}));
  assert.equal(flushed['log.flush.interval.ms'], 2000);
  assert.notEqual(flushed['log.flush.scheduler.interval.ms'], 5000);
});

test('settings that cannot take effect are ignored: read-only, per-broker at cluster level, unknown, unparsable', () => {
  assert.equal(dynamicSettingApplies('num.partitions', '3', 'perBroker'), false);
  assert.equal(dynamicSettingApplies('listeners', 'PLAINTEXT://127.0.0.1:1', 'clusterDefault'), false);
  assert.equal(dynamicSettingApplies('listeners', 'PLAINTEXT://127.0.0.1:1', 'perBroker'), true);
  assert.equal(dynamicSettingApplies('no.such.key', '1', 'perBroker'), false);
  assert.equal(dynamicSettingApplies('message.max.bytes', 'lots', 'perBroker'), false);
  const config = effectiveBrokerConfig(resolveBrokerConfig({}), layers(
    { 'num.partitions': '7', 'message.max.bytes': 'lots' },
    { 'listeners': 'PLAINTEXT://127.0.0.1:1', 'log.retention.bytes': '10' },
  ));
  assert.equal(config['num.partitions'], 1);
  assert.equal(config['message.max.bytes'], 1024 * 1024 + 12);
  assert.deepEqual(config['listeners'], ['PLAINTEXT://localhost:9092']);
  assert.equal(config['log.retention.bytes'], 10);
});

test('the live config keeps only the static settings as explicit, so DescribeConfigs sources stay right', () => {
  const staticConfig = resolveBrokerConfig({ 'log.segment.bytes': '2000000' });
  const dynamic = layers({}, { 'message.max.bytes': '4000' });
  const live = effectiveBrokerConfig(staticConfig, dynamic);
  assert.deepEqual(explicitBrokerSettings(live), { 'log.segment.bytes': '2000000' });
  const topic = new Map(new ConfigDescriber(live, dynamic).topicEntries({}).map((e) => [e.name, e]));
  assert.equal(topic.get('max.message.bytes')!.value, '4000');
  assert.equal(topic.get('max.message.bytes')!.source, Source.DYNAMIC_DEFAULT_BROKER_CONFIG);
  assert.equal(topic.get('segment.bytes')!.source, Source.STATIC_BROKER_CONFIG);
});

test('layers that do not resolve together throw ConfigError', () => {
  const staticConfig = resolveBrokerConfig({});
  assert.throws(() => effectiveBrokerConfig(staticConfig, layers({ 'log.retention.ms': '0' }, {})), ConfigError);
});

test('the engine chosen for an unset one stays through dynamic configs (the command: file)', () => {
  const command = resolveBrokerConfig({}, undefined, { logEngineWhenUnset: 'file' });
  assert.equal(effectiveBrokerConfig(command, layers({ 'message.max.bytes': '3000' }, {}))['gregor.log.engine'], 'file');
  const embedded = resolveBrokerConfig({});
  assert.equal(effectiveBrokerConfig(embedded, layers({ 'message.max.bytes': '3000' }, {}))['gregor.log.engine'], 'memory');
});
