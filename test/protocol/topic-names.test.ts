import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  collidingTopic,
  invalidTopicNameMessage,
  isInternalTopic,
  isValidTopicName,
} from '../../src/protocol/topic-names.js';

test("topic name messages are Kafka's", () => {
  assert.equal(invalidTopicNameMessage('orders'), null);
  assert.equal(invalidTopicNameMessage(''), 'Topic name is invalid: the empty string is not allowed');
  assert.equal(invalidTopicNameMessage('.'), "Topic name is invalid: '.' is not allowed");
  assert.equal(invalidTopicNameMessage('..'), "Topic name is invalid: '..' is not allowed");
  assert.equal(invalidTopicNameMessage('bad!name'),
    "Topic name is invalid: 'bad!name' contains one or more characters other than ASCII alphanumerics, '.', '_' and '-'");
  const long = 'x'.repeat(250);
  assert.equal(invalidTopicNameMessage(long), `Topic name is invalid: the length of '${long}' is longer than the max allowed length 249`);
});

test('legal names: ASCII alphanumerics, dot, underscore, dash, up to 249 UTF-16 units', () => {
  for (const name of ['a', 'A.b_c-9', '...', 'x'.repeat(249), '__consumer_offsets']) assert.equal(isValidTopicName(name), true, name);
  for (const name of ['', '.', '..', 'x'.repeat(250), 'a b', 'é', 'a/b', 'a\u0000']) assert.equal(isValidTopicName(name), false, name);
});

test('internal topics are the three Kafka owns', () => {
  assert.equal(isInternalTopic('__consumer_offsets'), true);
  assert.equal(isInternalTopic('__transaction_state'), true);
  assert.equal(isInternalTopic('__share_group_state'), true);
  assert.equal(isInternalTopic('__cluster_metadata'), false);
  assert.equal(isInternalTopic('orders'), false);
});

test("'.' and '_' collide, an exact match does not", () => {
  assert.equal(collidingTopic('t_x', ['t.x', 'other']), 't.x');
  assert.equal(collidingTopic('t.x', ['t.x']), undefined);
  assert.equal(collidingTopic('tx', ['t.x']), undefined);
});
