// kafkajs 2.2.4 (the root devDependency): every scenario, in-process.
import type { ClientSuite } from '../../runner/types.js';
import { errorInvalidConfig, errorInvalidTopic, errorMessageTooLarge, errorUnknownTopic, metadata, topicAdmin } from './admin.js';
import { idempotentProducer, offsetsForTimes, produceConsume, seekReplay, transactions } from './data.js';
import { brokerRestart, commitResume, groupRebalance, offsetReset, twoGroups } from './groups.js';
import { newestVersions } from './newest.js';
import { authFailure } from './security.js';

export const kafkajs: ClientSuite = {
  name: 'kafkajs',
  install: async () => {
    // A root devDependency: present after `npm install`.
    await import('kafkajs');
  },
  scenarios: {
    metadata,
    'topic-admin': topicAdmin,
    'produce-consume': produceConsume,
    'group-rebalance': groupRebalance,
    'commit-resume': commitResume,
    'offset-reset': offsetReset,
    'two-groups': twoGroups,
    'seek-replay': seekReplay,
    'offsets-for-times': offsetsForTimes,
    'idempotent-producer': idempotentProducer,
    transactions,
    'broker-restart': brokerRestart,
    'error-unknown-topic': errorUnknownTopic,
    'error-message-too-large': errorMessageTooLarge,
    'error-invalid-topic': errorInvalidTopic,
    'error-invalid-config': errorInvalidConfig,
    'newest-versions': newestVersions,
    'auth-failure': authFailure,
  },
};
