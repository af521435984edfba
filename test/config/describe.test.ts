import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  defaultBrokerConfig, describeBrokerConfigs, describeTopicConfigs, resolveBrokerConfig,
} from '../../src/config/index.js';

test('a broker config at its default: DEFAULT_CONFIG, Kafka-printed value, read-only flag from the update mode', () => {
  const entries = describeBrokerConfigs(defaultBrokerConfig());
  const byName = new Map(entries.map((e) => [e.name, e]));
  const partitions = byName.get('num.partitions')!;
  assert.equal(partitions.value, '1');
  assert.equal(partitions.source, 'DEFAULT_CONFIG');
  assert.equal(partitions.readOnly, true);
  assert.equal(partitions.type, 'INT');
  assert.deepEqual(partitions.synonyms, [{ name: 'num.partitions', value: '1', source: 'DEFAULT_CONFIG' }]);
  assert.equal(byName.get('message.max.bytes')!.readOnly, false);
  assert.equal(byName.get('log.cleaner.io.max.bytes.per.second')!.value, '1.7976931348623157E308');
  assert.equal(byName.get('log.flush.interval.messages')!.value, '9223372036854775807');
  assert.equal(byName.get('advertised.listeners')!.value, null);
});

test('synonyms: log.retention.ms shows its own (null) value and the hours setting that decides it', () => {
  const config = resolveBrokerConfig({ 'log.retention.hours': '24' });
  const entry = describeBrokerConfigs(config).find((e) => e.name === 'log.retention.ms')!;
  assert.equal(entry.value, null);
  assert.equal(entry.source, 'STATIC_BROKER_CONFIG');
  assert.deepEqual(entry.synonyms, [
    { name: 'log.retention.hours', value: '24', source: 'STATIC_BROKER_CONFIG' },
    { name: 'log.retention.hours', value: '168', source: 'DEFAULT_CONFIG' },
  ]);
});

test('a topic: the override first, then the broker synonyms', () => {
  const broker = resolveBrokerConfig({ 'log.retention.ms': '5000' });
  const entries = describeTopicConfigs({ 'cleanup.policy': 'compact' }, broker);
  const policy = entries.find((e) => e.name === 'cleanup.policy')!;
  assert.equal(policy.value, 'compact');
  assert.equal(policy.source, 'DYNAMIC_TOPIC_CONFIG');
  assert.deepEqual(policy.synonyms.map((s) => s.source), ['DYNAMIC_TOPIC_CONFIG', 'DEFAULT_CONFIG']);
  const retention = entries.find((e) => e.name === 'retention.ms')!;
  assert.equal(retention.value, '5000');
  assert.equal(retention.source, 'STATIC_BROKER_CONFIG');
  assert.equal(retention.readOnly, false);
  const segment = entries.find((e) => e.name === 'segment.bytes')!;
  assert.equal(segment.value, '1073741824');
  assert.equal(segment.source, 'DEFAULT_CONFIG');
});
