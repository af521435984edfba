// The simple assignor against what Kafka 4.3.1 assigned in the same cases on the reference broker (member ids and
// topic ids as there: both decide the order of Kafka's hash tables, and so who gets which partition).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { TopicPartitions } from '../../../src/coordinator/group/consumer/assignor.js';
import { kafkaMemberOrder } from '../../../src/coordinator/runtime/java-hash-table.js';
import { assignSimple, type ShareGroupSpec } from '../../../src/coordinator/group/share/simple-assignor.js';
import { JOBS_ID, MEMBER_A, MEMBER_B } from './kafka-records.js';

const Q5 = 'Z7QDZOW9RdeQE8vbZp_sbA'; // 5 partitions on the reference broker
const Q1 = 'jFD2yrBHRFGLCejSfNZW1Q'; // 1 partition
const PARTITIONS: Record<string, number> = { [Q5]: 5, [Q1]: 1, [JOBS_ID]: 3 };
const [M1, M2, M3] = ['m1aaaaaaaaaaaaaaaaaaaa', 'm2aaaaaaaaaaaaaaaaaaaa', 'm3aaaaaaaaaaaaaaaaaaaa'];

function assign(subscriptions: Record<string, string[]>, current: Record<string, TopicPartitions> = {}): Record<string, Record<string, number[]>> {
  const ids = Object.keys(subscriptions);
  const topicSets = ids.map((id) => subscriptions[id]!.join());
  const spec: ShareGroupSpec = {
    memberIds: kafkaMemberOrder(ids),
    subscriptionType: topicSets.every((t) => t === topicSets[0]) ? 'homogeneous' : 'heterogeneous',
    subscribedTopicIds: (id) => new Set(subscriptions[id]),
    memberAssignment: (id) => current[id] ?? new Map(),
    isPartitionAssignable: () => true,
  };
  const result = assignSimple(spec, { numPartitions: (t) => PARTITIONS[t] ?? -1, racksForPartition: () => new Set() });
  const out: Record<string, Record<string, number[]>> = {};
  for (const [member, topics] of result) out[member] = Object.fromEntries([...topics].map(([t, ps]) => [t, [...ps].sort((a, b) => a - b)]));
  return out;
}

test('homogeneous: three members on five partitions get 2, 1 and 2 of them, as Kafka 4.3.1 handed them out', () => {
  assert.deepEqual(assign({ [M1]: [Q5], [M2]: [Q5], [M3]: [Q5] }), { [M3]: { [Q5]: [0, 4] }, [M1]: { [Q5]: [1, 2] }, [M2]: { [Q5]: [3] } });
});

test('homogeneous: more members than partitions share each one; a joining member takes from the one holding all', () => {
  assert.deepEqual(assign({ [M1]: [Q1], [M2]: [Q1], [M3]: [Q1] }), { [M3]: { [Q1]: [0] }, [M1]: { [Q1]: [0] }, [M2]: { [Q1]: [0] } });
  // s1's run: c-a holds jobs 0-2; c-b joins and gets 0 and 1, c-a keeps 2.
  const current = { [MEMBER_A]: new Map([[JOBS_ID, new Set([0, 1, 2])]]) };
  assert.deepEqual(assign({ [MEMBER_A]: [JOBS_ID], [MEMBER_B]: [JOBS_ID] }, current), { [MEMBER_B]: { [JOBS_ID]: [0, 1] }, [MEMBER_A]: { [JOBS_ID]: [2] } });
});

test('heterogeneous: each topic shared among its own subscribers, as Kafka 4.3.1 did', () => {
  assert.deepEqual(assign({ [M1]: [Q5], [M2]: [Q5, Q1], [M3]: [Q1] }), {
    [M3]: { [Q1]: [0] },
    [M1]: { [Q5]: [0, 2, 4] },
    [M2]: { [Q5]: [1, 3], [Q1]: [0] },
  });
});

test('a subscribed topic that does not exist fails the assignment with Kafka\'s message', () => {
  assert.throws(() => assign({ [M1]: ['AAAAAAAAAAAAAAAAAAAAAA'] }), /Members are subscribed to topic AAAAAAAAAAAAAAAAAAAAAA which doesn't exist in the topic metadata\./);
});
