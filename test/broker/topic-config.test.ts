// One resolution of a topic's effective config: Produce and the storage engine read the same values.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ErrorCode } from '../../src/protocol/error-codes.js';
import { defaultBrokerConfig, resolveStoredTopicConfig } from '../../src/config/index.js';
import { MemoryLogStore } from '../../src/storage/memory/memory-store.js';
import { batch, produce, values, withDataBroker } from './data-harness.js';

const GIB = 1024 * 1024 * 1024;

test('a stored segment.bytes=-5 (refused by Kafka\'s validator) is left out for Produce and the roll alike', async () => {
  await withDataBroker(async ({ store, client }) => {
    await store.createTopic('bad-segment', 1, { 'segment.bytes': '-5' });
    for (const text of ['a', 'b', 'c']) {
      const response = await produce(client, 'bad-segment', 0, batch(values(text)));
      assert.equal(response.responses[0]!.partitionResponses[0]!.errorCode, ErrorCode.NONE);
    }
    const log = (store as MemoryLogStore).log('bad-segment', 0)!;
    assert.equal(log.config.segmentBytes, GIB);
    // -5 reaching the roll check would give every append its own segment.
    assert.equal(log.segments.length, 1);
    assert.equal(log.logEndOffset, 3);
  });
});

test('resolveStoredTopicConfig: a refused override is reported and the broker value stands; valid ones apply', () => {
  const broker = { ...defaultBrokerConfig(), 'log.segment.bytes': 4 * 1024 * 1024 };
  const reported: string[] = [];
  const topic = resolveStoredTopicConfig({ 'segment.bytes': '-5', 'retention.ms': '1000', 'no.such.config': 'x' }, broker, (name, value) => reported.push(`${name}=${value}`));
  assert.deepEqual(reported, ['segment.bytes=-5']);
  assert.equal(topic['segment.bytes'], 4 * 1024 * 1024);
  assert.equal(topic['retention.ms'], 1000);
});
