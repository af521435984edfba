import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  CONFIG_TYPE_IDS, ConfigDescriber, ConfigSourceId as Source, defaultBrokerConfig, resolveBrokerConfig,
  type ConfigEntry,
} from '../../src/config/index.js';

function byName(entries: ConfigEntry[]): Map<string, ConfigEntry> {
  return new Map(entries.map((e) => [e.name, e]));
}

test('a broker config at its default: DEFAULT_CONFIG, Kafka-printed value, read-only flag from the update mode', () => {
  const entries = byName(new ConfigDescriber(defaultBrokerConfig()).brokerEntries(true));
  const partitions = entries.get('num.partitions')!;
  assert.equal(partitions.value, '1');
  assert.equal(partitions.source, Source.DEFAULT_CONFIG);
  assert.equal(partitions.readOnly, true);
  assert.equal(partitions.type, CONFIG_TYPE_IDS.INT);
  assert.deepEqual(partitions.synonyms, [{ name: 'num.partitions', value: '1', source: Source.DEFAULT_CONFIG }]);
  assert.equal(entries.get('message.max.bytes')!.readOnly, false);
  assert.equal(entries.get('log.cleaner.io.max.bytes.per.second')!.value, '1.7976931348623157E308');
  assert.equal(entries.get('log.flush.interval.messages')!.value, '9223372036854775807');
  assert.equal(entries.get('advertised.listeners')!.value, null);
});

test('broker entries are sorted by name; the cluster-default resource lists only dynamic defaults', () => {
  const describer = new ConfigDescriber(defaultBrokerConfig(), {
    perBroker: new Map(),
    clusterDefault: new Map([['log.retention.ms', '60000']]),
  });
  const names = describer.brokerEntries(true).map((e) => e.name);
  assert.deepEqual(names, [...names].sort());
  const clusterDefault = describer.brokerEntries(false);
  assert.deepEqual(clusterDefault.map((e) => [e.name, e.value, e.source]), [['log.retention.ms', '60000', Source.DYNAMIC_DEFAULT_BROKER_CONFIG]]);
  assert.deepEqual(clusterDefault[0]!.synonyms, [{ name: 'log.retention.ms', value: '60000', source: Source.DYNAMIC_DEFAULT_BROKER_CONFIG }]);
});

test('synonyms start at the config itself: log.retention.ms unset lists none, log.retention.hours lists its layers', () => {
  const entries = byName(new ConfigDescriber(resolveBrokerConfig({ 'log.retention.hours': '24' })).brokerEntries(true));
  const ms = entries.get('log.retention.ms')!;
  assert.equal(ms.value, null);
  assert.equal(ms.source, Source.DEFAULT_CONFIG);
  assert.deepEqual(ms.synonyms, []);
  const hours = entries.get('log.retention.hours')!;
  assert.equal(hours.value, '24');
  assert.equal(hours.source, Source.STATIC_BROKER_CONFIG);
  assert.deepEqual(hours.synonyms, [
    { name: 'log.retention.hours', value: '24', source: Source.STATIC_BROKER_CONFIG },
    { name: 'log.retention.hours', value: '168', source: Source.DEFAULT_CONFIG },
  ]);
});

test('dynamic layers come first: per-broker, then cluster default, then static, then default', () => {
  const describer = new ConfigDescriber(resolveBrokerConfig({ 'log.retention.ms': '5000' }), {
    perBroker: new Map([['log.retention.ms', '7000']]),
    clusterDefault: new Map([['log.retention.ms', '6000']]),
  });
  const entry = byName(describer.brokerEntries(true)).get('log.retention.ms')!;
  assert.equal(entry.value, '7000');
  assert.deepEqual(entry.synonyms.map((s) => [s.value, s.source]), [
    ['7000', Source.DYNAMIC_BROKER_CONFIG], ['6000', Source.DYNAMIC_DEFAULT_BROKER_CONFIG], ['5000', Source.STATIC_BROKER_CONFIG],
    ['168', Source.DEFAULT_CONFIG],
  ]);
  const topicRetention = byName(describer.topicEntries({})).get('retention.ms')!;
  assert.equal(topicRetention.value, '7000');
  assert.equal(topicRetention.source, Source.DYNAMIC_BROKER_CONFIG);
});

test('a topic: the override first, then the broker synonyms', () => {
  const broker = resolveBrokerConfig({ 'log.retention.ms': '5000' });
  const entries = byName(new ConfigDescriber(broker).topicEntries({ 'cleanup.policy': 'compact' }));
  const policy = entries.get('cleanup.policy')!;
  assert.equal(policy.value, 'compact');
  assert.equal(policy.source, Source.DYNAMIC_TOPIC_CONFIG);
  assert.deepEqual(policy.synonyms.map((s) => s.source), [Source.DYNAMIC_TOPIC_CONFIG, Source.DEFAULT_CONFIG]);
  const retention = entries.get('retention.ms')!;
  assert.equal(retention.value, '5000');
  assert.equal(retention.source, Source.STATIC_BROKER_CONFIG);
  assert.equal(retention.readOnly, false);
  const segment = entries.get('segment.bytes')!;
  assert.equal(segment.value, '1073741824');
  assert.equal(segment.source, Source.DEFAULT_CONFIG);
});

test('a topic override that no longer parses falls back to the broker value', () => {
  const retention = byName(new ConfigDescriber(defaultBrokerConfig()).topicEntries({ 'retention.ms': 'soon' })).get('retention.ms')!;
  assert.equal(retention.value, '604800000');
  assert.equal(retention.source, Source.DEFAULT_CONFIG);
});
