import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ErrorCode } from '../../../src/protocol/error-codes.js';
import { KafkaError } from '../../../src/protocol/kafka-error.js';
import { nextEpoch, ShareSessionCache } from '../../../src/broker/share/share-session-cache.js';

const p0 = { topicId: 'AAAAAAAAAAAAAAAAAAAAAQ', partition: 0 };
const p1 = { topicId: 'AAAAAAAAAAAAAAAAAAAAAQ', partition: 1 };

function code(fn: () => unknown): number {
  try {
    fn();
  } catch (error) {
    if (error instanceof KafkaError) return error.errorCode;
    throw error;
  }
  return ErrorCode.NONE;
}

test('epoch 0 opens a session at epoch 1; each later request must carry the epoch and moves it on', () => {
  const cache = new ShareSessionCache(() => 10);
  const opened = cache.fetchContext('g', 'm', 0, [p0], [], false);
  assert.equal(opened.kind, 'full');
  assert.equal(opened.session.epoch, 1);
  assert.equal(code(() => cache.fetchContext('g', 'm', 2, [], [], false)), ErrorCode.INVALID_SHARE_SESSION_EPOCH);
  const next = cache.fetchContext('g', 'm', 1, [p1], [p0], true);
  assert.equal(next.kind, 'incremental');
  assert.deepEqual([...next.session.partitions.values()], [p1]);
  assert.equal(cache.acknowledgeContext('g', 'm', 2).session.epoch, 3);
  assert.equal(code(() => cache.acknowledgeContext('g', 'm', 0)), ErrorCode.INVALID_SHARE_SESSION_EPOCH);
  assert.equal(cache.fetchContext('g', 'm', -1, [], [], false).kind, 'final');
});

test('without a session: SHARE_SESSION_NOT_FOUND; acknowledgements in an opening request: INVALID_REQUEST; the limit', () => {
  const cache = new ShareSessionCache(() => 1);
  assert.equal(code(() => cache.fetchContext('g', 'm', 1, [], [], false)), ErrorCode.SHARE_SESSION_NOT_FOUND);
  assert.equal(code(() => cache.fetchContext('g', 'm', -1, [], [], false)), ErrorCode.SHARE_SESSION_NOT_FOUND);
  assert.equal(code(() => cache.acknowledgeContext('g', 'm', 1)), ErrorCode.SHARE_SESSION_NOT_FOUND);
  assert.equal(code(() => cache.fetchContext('g', 'm', 0, [p0], [], true)), ErrorCode.INVALID_REQUEST);
  cache.fetchContext('g', 'm', 0, [p0], [], false);
  // The member's own new session replaces its old one; another member's would exceed the limit.
  assert.equal(cache.fetchContext('g', 'm', 0, [p0], [], false).session.epoch, 1);
  assert.equal(code(() => cache.fetchContext('g', 'other', 0, [p0], [], false)), ErrorCode.SHARE_SESSION_LIMIT_REACHED);
});

test('the epoch wraps from Integer.MAX_VALUE to 1', () => {
  assert.equal(nextEpoch(0x7fffffff), 1);
  assert.equal(nextEpoch(0), 1);
  assert.equal(nextEpoch(-1), -1);
});
