import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ErrorCode } from '../../src/protocol/error-codes.js';
import { KafkaError, apiErrorOf, errorCodeOf } from '../../src/protocol/kafka-error.js';
import { OffsetOutOfRangeError, StorageError } from '../../src/storage/errors.js';
import { GroupError } from '../../src/coordinator/group/group-error.js';
import { AutoCreateError } from '../../src/broker/auto-create.js';
import { TxnLogError } from '../../src/coordinator/txn/txn-log.js';

test('errors of every layer carry their Kafka code through the one base', () => {
  assert.equal(errorCodeOf(new StorageError('UNKNOWN_TOPIC_OR_PARTITION', 'no such partition')), ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
  assert.equal(errorCodeOf(new OffsetOutOfRangeError(9, 0, 5)), ErrorCode.OFFSET_OUT_OF_RANGE);
  assert.equal(errorCodeOf(new GroupError('ILLEGAL_GENERATION')), ErrorCode.ILLEGAL_GENERATION);
  assert.equal(errorCodeOf(new AutoCreateError('INVALID_REPLICATION_FACTOR', 'x')), ErrorCode.INVALID_REPLICATION_FACTOR);
  assert.equal(errorCodeOf(new TxnLogError(ErrorCode.NOT_ENOUGH_REPLICAS)), ErrorCode.NOT_ENOUGH_REPLICAS);
  assert.equal(GroupError.codeOf(new GroupError('REBALANCE_IN_PROGRESS')), ErrorCode.REBALANCE_IN_PROGRESS);
});

test('a KafkaError names its code, has its default message and retriable flag from error-codes', () => {
  const error = new KafkaError('NOT_COORDINATOR');
  assert.equal(error.code, 'NOT_COORDINATOR');
  assert.equal(error.errorCode, ErrorCode.NOT_COORDINATOR);
  assert.equal(error.message, 'This is not the correct coordinator.');
  assert.equal(error.retriable, true);
  assert.equal(new KafkaError('INVALID_CONFIG').retriable, false);
  assert.equal(KafkaError.fromCode(9999).code, 'UNKNOWN_SERVER_ERROR');
});

test('anything else is UNKNOWN_SERVER_ERROR without its message; nothing is read from messages or stray fields', () => {
  const stray = Object.assign(new Error('OFFSET_OUT_OF_RANGE: internal'), { errorCode: ErrorCode.OFFSET_OUT_OF_RANGE });
  assert.deepEqual(apiErrorOf(stray), { code: ErrorCode.UNKNOWN_SERVER_ERROR, message: null });
  assert.deepEqual(apiErrorOf('text'), { code: ErrorCode.UNKNOWN_SERVER_ERROR, message: null });
  assert.deepEqual(apiErrorOf(new StorageError('INVALID_PARTITIONS', 'bad count')), { code: ErrorCode.INVALID_PARTITIONS, message: 'bad count' });
  assert.deepEqual(apiErrorOf(new KafkaError('NOT_CONTROLLER')), { code: ErrorCode.NOT_CONTROLLER, message: null });
});
