import { test } from 'node:test';
import assert from 'node:assert/strict';
import { collidingTopic, invalidTopicNameMessage } from '../../../src/server/admin/topic-rules.js';

test("topic name messages are Kafka's", () => {
  assert.equal(invalidTopicNameMessage('orders'), null);
  assert.equal(invalidTopicNameMessage(''), 'Topic name is invalid: the empty string is not allowed');
  assert.equal(invalidTopicNameMessage('..'), "Topic name is invalid: '..' is not allowed");
  assert.equal(invalidTopicNameMessage('bad!name'),
    "Topic name is invalid: 'bad!name' contains one or more characters other than ASCII alphanumerics, '.', '_' and '-'");
  const long = 'x'.repeat(250);
  assert.equal(invalidTopicNameMessage(long), `Topic name is invalid: the length of '${long}' is longer than the max allowed length 249`);
});

test("'.' and '_' collide, an exact match does not", () => {
  assert.equal(collidingTopic('t_x', ['t.x', 'other']), 't.x');
  assert.equal(collidingTopic('t.x', ['t.x']), undefined);
  assert.equal(collidingTopic('tx', ['t.x']), undefined);
});
