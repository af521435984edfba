import { test } from 'node:test';
import { TimestampType } from '../../../src/protocol/records/batch.js';
import assert from 'node:assert/strict';
import { MemoryLogStore } from '../../../src/storage/memory/memory-store.js';
import { batchOf } from '../batch-fixtures.js';

test('memory store: topics, configs and logs', async () => {
  const store = new MemoryLogStore({ nodeId: 1 });
  const t = await store.createTopic('m', 2, { 'message.timestamp.type': 'LogAppendTime' });
  assert.equal(store.topics().length, 1);
  assert.equal(store.log('m', 1)!.config.messageTimestampType, TimestampType.LOG_APPEND_TIME);
  const r = await store.log('m', 1)!.append(await batchOf(1), { leaderEpoch: 0, now: 42 });
  assert.equal(r.logAppendTime, 42);
  await assert.rejects(store.createTopic('m', 1), { code: 'TOPIC_ALREADY_EXISTS' });
  await store.setTopicConfigs('m', {});
  assert.equal(store.log('m', 0)!.config.messageTimestampType, TimestampType.CREATE_TIME);
  await store.deleteTopic('m');
  assert.equal(store.topicById(t.topicId), undefined);
  assert.equal(store.log('m', 0), undefined);
  await store.close();
});
