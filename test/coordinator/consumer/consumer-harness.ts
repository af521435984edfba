// A GroupShard with consumer groups over one 4-partition topic "t" (and "u" when a test adds it), driven with the
// injected clock: ConsumerGroupHeartbeat as the Java client sends it, next to the classic API of GroupHarness.
import { createConsumerGroupHeartbeatRequest, type ConsumerGroupHeartbeatRequest, type ConsumerGroupHeartbeatResponse } from '../../../src/protocol/generated/consumer-group-heartbeat.js';
import type { MigrationPolicy } from '../../../src/coordinator/group/consumer/migration.js';
import { StaticTopicsImage, type TopicsImage } from '../../../src/coordinator/group/consumer/topics-image.js';
import { GroupHarness } from '../group-harness.js';

export const T = 'AAAAAAAAAAAAAAAAAAAAAQ'; // topic "t"
export const U = 'AAAAAAAAAAAAAAAAAAAAAg'; // topic "u"

export class ConsumerHarness extends GroupHarness {
  topics: TopicsImage = new StaticTopicsImage([{ id: T, name: 't', numPartitions: 4 }]);

  constructor(options: { maxSize?: number; sessionTimeoutMs?: number; assignmentIntervalMs?: number; migrationPolicy?: MigrationPolicy } = {}) {
    super({}, {
      topics: () => this.topics,
      assignors: ['uniform', 'range'],
      maxSize: options.maxSize ?? 100,
      settings: () => ({ sessionTimeoutMs: options.sessionTimeoutMs ?? 45000, heartbeatIntervalMs: 5000, assignmentIntervalMs: options.assignmentIntervalMs ?? 0 }),
      migrationPolicy: options.migrationPolicy ?? 'bidirectional',
    });
  }

  hb(fields: Partial<ConsumerGroupHeartbeatRequest>, apiVersion = 1): ConsumerGroupHeartbeatResponse {
    const request: ConsumerGroupHeartbeatRequest = { ...createConsumerGroupHeartbeatRequest(), groupId: 'g', ...fields };
    return this.apply(this.shard.consumerGroupHeartbeat({ clientId: 'c', clientHost: '/127.0.0.1', apiVersion }, request));
  }

  /** A join as the Java client sends it (epoch 0: rebalance timeout, subscription, no owned partitions). */
  joinConsumer(memberId: string, topics = ['t'], instanceId: string | null = null): ConsumerGroupHeartbeatResponse {
    return this.hb({ memberId, memberEpoch: 0, instanceId, rebalanceTimeoutMs: 300000, subscribedTopicNames: topics, topicPartitions: [] });
  }
}

