// The replica placer against Kafka 4.3.1's StripedReplicaPlacerTest: the same brokers and the same random source
// (Kafka's MockRandom, through java.util.Random's nextInt) give the same assignments, counts and messages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { placeReplicas, type RandomInt, type UsableBroker } from '../../src/cluster/replica-placer.js';

const MASK_64 = (1n << 64n) - 1n;

/** Kafka's MockRandom (state 17, its own next(bits)) under java.util.Random.nextInt(bound). */
function mockRandom(): RandomInt {
  let state = 17n;
  const next = (bits: number): number => {
    state = (state * 2862933555777941757n + 3037000493n) & MASK_64;
    return Number(BigInt.asIntN(32, state >> BigInt(64 - bits)));
  };
  return (bound) => {
    if ((bound & -bound) === bound) return Number((BigInt(bound) * BigInt(next(31))) >> 31n);
    for (;;) {
      const bits = next(31);
      const value = bits % bound;
      if (bits - value + (bound - 1) <= 0x7fffffff) return value;
    }
  };
}

const broker = (id: number, rack: string | null = null, fenced = false): UsableBroker => ({ id, rack, fenced });

test('testAvoidFencedReplicaIfPossibleOnSingleRack', () => {
  const brokers = [broker(3), broker(1, null, true), broker(0), broker(4), broker(2)];
  assert.deepEqual(placeReplicas(5, 4, brokers, mockRandom()), [[3, 4, 0, 2], [4, 0, 2, 3], [0, 2, 3, 4], [2, 3, 4, 0], [0, 4, 3, 2]]);
});

test('testPlacementOnFencedReplicaOnSingleRack', () => {
  assert.deepEqual(placeReplicas(4, 3, [broker(3), broker(1, null, true), broker(2)], mockRandom()), [[3, 2, 1], [2, 3, 1], [3, 2, 1], [2, 3, 1]]);
});

test('testRackListWithMultipleRacks', () => {
  const brokers = [broker(11, '1'), broker(10, '1'), broker(30, '3'), broker(31, '3'), broker(21, '2'), broker(20, '2', true)];
  assert.deepEqual(placeReplicas(3, 4, brokers, mockRandom()), [[11, 21, 31, 10], [21, 30, 10, 20], [31, 11, 21, 30]]);
});

test('testRackListWithInvalidRacks', () => {
  const brokers = [broker(11, '1'), broker(10, '1'), broker(30, '3', true), broker(31, '3', true), broker(20, '2', true), broker(21, '2', true),
    broker(41, '4'), broker(40, '4', true)];
  assert.deepEqual(placeReplicas(3, 4, brokers, mockRandom()), [[41, 11, 21, 30], [10, 20, 31, 41], [41, 21, 30, 11]]);
});

test('testMultiPartitionTopicPlacementOnSingleUnfencedBroker', () => {
  assert.deepEqual(placeReplicas(3, 1, [broker(0), broker(1, null, true)], mockRandom()), [[0], [0], [0]]);
});

test('testSuccessfulPlacement', () => {
  assert.deepEqual(placeReplicas(5, 3, [broker(0), broker(3), broker(2), broker(1)], mockRandom()), [[2, 3, 0], [3, 0, 1], [0, 1, 2], [1, 2, 3], [1, 0, 2]]);
});

test('testEvenDistribution', () => {
  const counts = new Map<string, number>();
  for (const replicas of placeReplicas(200, 2, [broker(0), broker(1), broker(2), broker(3)], mockRandom())) {
    counts.set(replicas.join(','), (counts.get(replicas.join(',')) ?? 0) + 1);
  }
  assert.deepEqual(Object.fromEntries([...counts].sort()), {
    '0,1': 14, '0,2': 22, '0,3': 14, '1,0': 17, '1,2': 17, '1,3': 16, '2,0': 13, '2,1': 17, '2,3': 20, '3,0': 20, '3,1': 19, '3,2': 11,
  });
});

test("Kafka 4.3.1's messages: all fenced, too few brokers, a non-positive factor (INVALID_REPLICATION_FACTOR)", () => {
  const refusal = (partitions: number, factor: number, brokers: UsableBroker[]) => {
    try {
      placeReplicas(partitions, factor, brokers, mockRandom());
    } catch (error) {
      return { code: (error as { code: string }).code, message: (error as Error).message };
    }
    return assert.fail('placed');
  };
  assert.deepEqual(refusal(1, 1, [broker(11, '1', true), broker(10, '1', true)]),
    { code: 'INVALID_REPLICATION_FACTOR', message: 'All brokers are currently fenced, or have all their log directories cordoned.' });
  assert.deepEqual(refusal(1, 3, [broker(11, '1'), broker(10, '1')]), {
    code: 'INVALID_REPLICATION_FACTOR',
    message: 'The target replication factor of 3 cannot be reached because only 2 broker(s) are registered or some brokers have all their log directories cordoned.',
  });
  assert.deepEqual(refusal(1, 0, [broker(11, '1'), broker(10, '1')]),
    { code: 'INVALID_REPLICATION_FACTOR', message: 'Invalid replication factor 0: the replication factor must be positive.' });
});
