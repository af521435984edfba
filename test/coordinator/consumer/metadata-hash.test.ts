// The metadata hash against hash4j 0.22.0 (the library Kafka 4.3.1 hashes with): XXH3-64 over every input length
// path, and the topic hash's encoding of racks; the hash of a real group is checked in records.test.ts.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { groupHash, topicHash } from '../../../src/coordinator/group/consumer/metadata-hash.js';
import { loadXxh3, xxh3 } from '../../../src/coordinator/group/consumer/xxh3.js';
import { ORDERS_ID } from './kafka-records.js';


before(loadXxh3);

test('XXH3-64 equals hash4j’s for inputs of every length class', () => {
  // Hashing.xxh3_64().hashBytesToLong(b) with b[i] = (byte)(i * 31 + 7).
  const vectors: [number, bigint][] = [
    [0, 0x2d06800538d394c2n],
    [2, 0xa7e250c97710ff27n],
    [5, 0xb290cafc7b254345n],
    [12, 0x46aaf92c7550afa4n],
    [17, 0x208bde5ee2bed407n],
    [100, 0x8c97158042fbf926n],
    [129, 0xf8f76713f2bb60fan],
    [240, 0xccc7375172c41f03n],
    [241, 0xb3b630948ce4a00n],
    [1024, 0x23bc880ebf0d29c6n],
    [1025, 0xc09fdfbc398c7d82n],
    [5000, 0x559fff92c2b7f8een],
  ];
  for (const [len, expected] of vectors) {
    const input = Buffer.alloc(len);
    for (let i = 0; i < len; i++) input[i] = (i * 31 + 7) & 0xff;
    assert.equal(xxh3(input), expected, `length ${len}`);
  }
});

test('a topic hash covers each partition’s racks, sorted, each with its length; the group hash is over the topics’ hashes', () => {
  // hash4j's stream fed as Kafka's Utils.computeTopicHash feeds it, for racks [rack-b, rack-a], [], [rack-é].
  const racks: string[][] = [['rack-b', 'rack-a'], [], ['rack-é']];
  const hash = topicHash({ id: ORDERS_ID, name: 'orders', numPartitions: 3, racks: (p) => racks[p]! });
  assert.equal(hash, -4304713436820127309n);
  assert.equal(groupHash(new Map([['a', hash], ['b', 42n]])), -2054849951457235643n);
  assert.equal(groupHash(new Map()), 0n);
});
