// Kafka's wording for bad topic configs, as Kafka 4.3.1's controller returns it (captured from the reference broker).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveBrokerConfig } from '../../../src/config/index.js';
import { topicConfigProblem, topicConfigsProblem } from '../../../src/server/admin/config-validation.js';

test('per-value messages match Kafka 4.3.1', () => {
  const cases: [string, string, string][] = [
    ['retention.ms', 'abc', 'Invalid value abc for configuration retention.ms: Not a number of type LONG'],
    ['retention.ms', '', 'Invalid value  for configuration retention.ms: Not a number of type LONG'],
    ['segment.bytes', '10', 'Invalid value 10 for configuration segment.bytes: Value must be at least 1048576'],
    ['cleanup.policy', 'foo', 'Invalid value foo for configuration cleanup.policy: String must be one of: compact, delete'],
    ['compression.type', 'foo', 'Invalid value foo for configuration compression.type: String must be one of: uncompressed, zstd, lz4, snappy, gzip, producer'],
    ['preallocate', 'maybe', 'Invalid value maybe for configuration preallocate: Expected value to be either true or false'],
    ['min.cleanable.dirty.ratio', '2', 'Invalid value 2.0 for configuration min.cleanable.dirty.ratio: Value must be no more than 1'],
    ['message.timestamp.type', 'x', 'Invalid value x for configuration message.timestamp.type: String must be one of: CreateTime, LogAppendTime'],
    ['retention.ms', '-5', 'Invalid value -5 for configuration retention.ms: Value must be at least -1'],
    ['max.message.bytes', '99999999999', 'Invalid value 99999999999 for configuration max.message.bytes: Not a number of type INT'],
    ['compression.gzip.level', '12', 'Invalid value 12 for configuration compression.gzip.level: Value must be between 1 and 9 or equal to -1'],
    ['leader.replication.throttled.replicas', 'x', 'Invalid value [x] for configuration leader.replication.throttled.replicas: ' +
      "leader.replication.throttled.replicas must be the literal '*' or a list of replicas in the following format: [partitionId]:[brokerId],[partitionId]:[brokerId],..."],
    ['foo', '1', 'Unknown topic config name: foo'],
  ];
  for (const [name, value, message] of cases) assert.equal(topicConfigProblem(name, value), message, `${name}=${value}`);
});

test('valid values pass, including padding and repeated list items', () => {
  assert.equal(topicConfigProblem('retention.ms', ' 1000 '), null);
  assert.equal(topicConfigProblem('cleanup.policy', ''), null);
  assert.equal(topicConfigProblem('cleanup.policy', 'compact,delete,compact'), null);
});

test('rules across keys: compaction lags, tiered storage', () => {
  const broker = resolveBrokerConfig({});
  assert.equal(topicConfigsProblem({ 'min.compaction.lag.ms': '10', 'max.compaction.lag.ms': '5' }, broker),
    'conflict topic config setting min.compaction.lag.ms (10) > max.compaction.lag.ms (5)');
  assert.equal(topicConfigsProblem({ 'remote.storage.enable': 'true' }, broker),
    'Tiered Storage functionality is disabled in the broker. Topic cannot be configured with remote log storage.');
  assert.equal(topicConfigsProblem({ 'retention.ms': '1000' }, broker), null);
});
