import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  defaultBrokerConfig, LONG_MAX_VALUE, resolveBrokerConfig, resolveTopicConfig, topicConfigDefinitions,
  validateTopicConfig, validateTopicConfigs, ConfigError,
} from '../../src/config/index.js';

test("every topic config of Kafka 4.3 is defined", () => {
  const expected = [
    'cleanup.policy', 'compression.type', 'compression.gzip.level', 'compression.lz4.level', 'compression.zstd.level',
    'delete.retention.ms', 'file.delete.delay.ms', 'flush.messages', 'flush.ms',
    'follower.replication.throttled.replicas', 'index.interval.bytes', 'leader.replication.throttled.replicas',
    'local.retention.bytes', 'local.retention.ms', 'max.compaction.lag.ms', 'max.message.bytes',
    'message.timestamp.after.max.ms', 'message.timestamp.before.max.ms',
    'message.timestamp.type', 'min.cleanable.dirty.ratio', 'min.compaction.lag.ms', 'min.insync.replicas',
    'preallocate', 'remote.log.copy.disable', 'remote.log.delete.on.disable', 'remote.storage.enable',
    'retention.bytes', 'retention.ms', 'segment.bytes', 'segment.index.bytes', 'segment.jitter.ms', 'segment.ms',
    'unclean.leader.election.enable',
  ];
  assert.deepEqual(Object.keys(topicConfigDefinitions).sort(), expected.sort());
});

test('defaults come from the broker: Kafka defaults on a default broker', () => {
  const topic = resolveTopicConfig({}, defaultBrokerConfig());
  assert.equal(topic['retention.ms'], 604800000);
  assert.equal(topic['retention.bytes'], -1);
  assert.equal(topic['segment.bytes'], 1073741824);
  assert.equal(topic['segment.ms'], 604800000);
  assert.equal(topic['max.message.bytes'], 1048588);
  assert.deepEqual(topic['cleanup.policy'], ['delete']);
  assert.equal(topic['flush.ms'], LONG_MAX_VALUE);
  assert.equal(topic['message.timestamp.type'], 'CreateTime');
  assert.equal(topic['min.cleanable.dirty.ratio'], 0.5);
  assert.equal(topic['remote.storage.enable'], false);
});

test("broker synonyms give a topic its defaults, resolved as Kafka resolves them", () => {
  const broker = resolveBrokerConfig({
    'log.retention.hours': '24', 'message.max.bytes': '2000000', 'log.roll.hours': '1',
    'log.cleanup.policy': 'compact', 'log.flush.scheduler.interval.ms': '1000', 'log.cleaner.min.cleanable.ratio': '0.2',
  });
  const topic = resolveTopicConfig({}, broker);
  assert.equal(topic['retention.ms'], 86400000);
  assert.equal(topic['max.message.bytes'], 2000000);
  assert.equal(topic['segment.ms'], 3600000);
  assert.deepEqual(topic['cleanup.policy'], ['compact']);
  assert.equal(topic['flush.ms'], 1000);
  assert.equal(topic['min.cleanable.dirty.ratio'], 0.2);
});

test('a topic override wins over the broker', () => {
  const broker = resolveBrokerConfig({ 'log.retention.ms': '1000' });
  const topic = resolveTopicConfig({ 'retention.ms': '-1', 'cleanup.policy': 'compact,delete', 'unknown.removed.key': 'x' }, broker);
  assert.equal(topic['retention.ms'], -1);
  assert.deepEqual(topic['cleanup.policy'], ['compact', 'delete']);
  assert.throws(() => resolveTopicConfig({ 'segment.bytes': '10' }, broker), ConfigError);
});

test('validateTopicConfig: null when fine, otherwise the message for INVALID_CONFIG', () => {
  assert.equal(validateTopicConfig('retention.ms', '-1'), null);
  assert.equal(validateTopicConfig('cleanup.policy', 'compact'), null);
  assert.equal(validateTopicConfig('compression.type', 'lz4'), null);
  assert.equal(validateTopicConfig('no.such.config', '1'), 'Unknown topic config name: no.such.config');
  assert.match(validateTopicConfig('retention.ms', '-2') ?? '', /retention\.ms.*\[-1,\.\.\.\]/);
  assert.match(validateTopicConfig('segment.bytes', '1000') ?? '', /segment\.bytes/);
  assert.match(validateTopicConfig('cleanup.policy', 'forever') ?? '', /\[compact, delete\]/);
  assert.match(validateTopicConfig('message.timestamp.type', 'Now') ?? '', /CreateTime, LogAppendTime/);
  assert.match(validateTopicConfig('min.cleanable.dirty.ratio', '2') ?? '', /\[0,\.\.\.,1\]/);
  assert.match(validateTopicConfig('compression.zstd.level', '23') ?? '', /-131072/);
  assert.equal(validateTopicConfig('leader.replication.throttled.replicas', '0:1,1:1'), null);
  assert.equal(validateTopicConfig('leader.replication.throttled.replicas', '*'), null);
  assert.notEqual(validateTopicConfig('leader.replication.throttled.replicas', 'x'), null);
});

test('validateTopicConfigs checks rules across keys as Kafka does', () => {
  const broker = defaultBrokerConfig();
  assert.equal(validateTopicConfigs({ 'retention.ms': '1000' }, broker), null);
  assert.match(validateTopicConfigs({ 'min.compaction.lag.ms': '10', 'max.compaction.lag.ms': '5' }, broker) ?? '', /min\.compaction\.lag\.ms/);
  assert.match(validateTopicConfigs({ 'remote.storage.enable': 'true' }, broker) ?? '', /Tiered Storage/);
  assert.equal(validateTopicConfigs({ bogus: '1' }, broker), 'Unknown topic config name: bogus');
});
