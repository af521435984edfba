import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveBrokerConfig } from '../../src/config/index.js';
import { resolveStoredTopicConfig } from '../../src/config/topic-configs.js';
import { autoCreateSpec } from '../../src/broker/auto-create.js';
import { CONSUMER_OFFSETS_TOPIC, SHARE_GROUP_STATE_TOPIC, TRANSACTION_STATE_TOPIC } from '../../src/protocol/topic-names.js';

const config = resolveBrokerConfig({ 'node.id': '1' });

test('__transaction_state gets the overrides Kafka 4.3.1 gives it (kafka-configs --describe on the reference)', () => {
  assert.deepEqual(autoCreateSpec(TRANSACTION_STATE_TOPIC, config).configs, {
    'cleanup.policy': 'compact',
    'compression.type': 'uncompressed',
    'min.insync.replicas': '1',
    'segment.bytes': '104857600',
    'unclean.leader.election.enable': 'false',
  });
});

test('every internal topic\'s overrides are valid topic configs: none is dropped with a warning when its log opens', () => {
  for (const name of [CONSUMER_OFFSETS_TOPIC, TRANSACTION_STATE_TOPIC, SHARE_GROUP_STATE_TOPIC]) {
    const refused: string[] = [];
    resolveStoredTopicConfig(autoCreateSpec(name, config).configs, config, (key, value, problem) => refused.push(`${key}=${value}: ${problem}`));
    assert.deepEqual(refused, [], name);
  }
});
