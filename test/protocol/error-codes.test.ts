import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ErrorCode, allErrorInfos, errorInfo, errorName, isRetriable } from '../../src/protocol/error-codes.js';

test('codes are unique and cover -1..136 without gaps', () => {
  const codes = Object.values(ErrorCode);
  assert.equal(new Set(codes).size, codes.length);
  const sorted = [...codes].sort((a, b) => a - b);
  assert.equal(sorted[0], -1);
  assert.equal(sorted.at(-1), 136);
  sorted.forEach((c, i) => assert.equal(c, i - 1));
  assert.equal(allErrorInfos().length, codes.length);
});

test('well-known codes have Kafka numbers', () => {
  assert.equal(ErrorCode.NONE, 0);
  assert.equal(ErrorCode.UNKNOWN_SERVER_ERROR, -1);
  assert.equal(ErrorCode.OFFSET_OUT_OF_RANGE, 1);
  assert.equal(ErrorCode.CORRUPT_MESSAGE, 2);
  assert.equal(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, 3);
  assert.equal(ErrorCode.NOT_LEADER_OR_FOLLOWER, 6);
  assert.equal(ErrorCode.MESSAGE_TOO_LARGE, 10);
  assert.equal(ErrorCode.REBALANCE_IN_PROGRESS, 27);
  assert.equal(ErrorCode.UNSUPPORTED_VERSION, 35);
  assert.equal(ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER, 45);
  assert.equal(ErrorCode.UNKNOWN_PRODUCER_ID, 59);
  assert.equal(ErrorCode.UNSUPPORTED_COMPRESSION_TYPE, 76);
  assert.equal(ErrorCode.MEMBER_ID_REQUIRED, 79);
  assert.equal(ErrorCode.INVALID_RECORD, 87);
  assert.equal(ErrorCode.UNKNOWN_TOPIC_ID, 100);
  assert.equal(ErrorCode.FENCED_MEMBER_EPOCH, 110);
  assert.equal(ErrorCode.TRANSACTION_ABORTABLE, 120);
  assert.equal(ErrorCode.SHARE_SESSION_LIMIT_REACHED, 133);
  assert.equal(ErrorCode.CONTROLLER_ID_NOT_REGISTERED, 136);
});

test('retriable flags follow the exception classes', () => {
  for (const name of ['CORRUPT_MESSAGE', 'UNKNOWN_TOPIC_OR_PARTITION', 'NOT_LEADER_OR_FOLLOWER', 'REQUEST_TIMED_OUT', 'NOT_COORDINATOR',
    'COORDINATOR_LOAD_IN_PROGRESS', 'NOT_ENOUGH_REPLICAS', 'CONCURRENT_TRANSACTIONS', 'UNSTABLE_OFFSET_COMMIT', 'UNKNOWN_TOPIC_ID', 'SHARE_SESSION_LIMIT_REACHED'] as const) {
    assert.ok(isRetriable(ErrorCode[name]), name);
  }
  for (const name of ['NONE', 'UNKNOWN_SERVER_ERROR', 'OFFSET_OUT_OF_RANGE', 'MESSAGE_TOO_LARGE', 'INVALID_RECORD', 'REBALANCE_IN_PROGRESS',
    'TOPIC_AUTHORIZATION_FAILED', 'OUT_OF_ORDER_SEQUENCE_NUMBER', 'PRODUCER_FENCED', 'UNSUPPORTED_VERSION'] as const) {
    assert.ok(!isRetriable(ErrorCode[name]), name);
  }
});

test('errorInfo gives name and message; unknown codes get a placeholder', () => {
  const info = errorInfo(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
  assert.equal(info.name, 'UNKNOWN_TOPIC_OR_PARTITION');
  assert.equal(info.code, 3);
  assert.match(info.message, /does not host this topic-partition/);
  assert.equal(errorInfo(0).message, '');
  for (const e of allErrorInfos()) if (e.code !== 0) assert.ok(e.message.length > 0, e.name);
  assert.equal(errorName(9999), 'UNKNOWN_ERROR_CODE_9999');
  assert.equal(isRetriable(9999), false);
});
