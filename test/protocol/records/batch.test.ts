import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  BATCH_HEADER_SIZE,
  Compression,
  TimestampType,
  batchSizeAt,
  compressionOf,
  computeBatchCrc,
  hasDeleteHorizon,
  isControl,
  isTransactional,
  lastOffsetAt,
  makeAttributes,
  readBatchHeader,
  readInt64,
  setBaseOffset,
  setLogAppendTime,
  setMaxTimestamp,
  setPartitionLeaderEpoch,
  splitBatches,
  timestampTypeOf,
  verifyBatchCrc,
  writeInt64,
} from '../../../src/protocol/records/batch.js';
import { ProtocolError } from '../../../src/protocol/protocol-error.js';
import { FIXTURE, fixture } from './fixtures.js';

test('reads the header of a batch written by kafkajs', () => {
  const buf = fixture('kafkajs-none');
  const h = readBatchHeader(buf);
  assert.equal(h.baseOffset, 0);
  assert.equal(h.batchLength, buf.length - 12);
  assert.equal(h.partitionLeaderEpoch, 0);
  assert.equal(h.magic, 2);
  assert.equal(h.attributes, 0);
  assert.equal(h.lastOffsetDelta, FIXTURE.lastOffsetDelta);
  assert.equal(h.baseTimestamp, FIXTURE.baseTimestamp);
  assert.equal(h.maxTimestamp, FIXTURE.maxTimestamp);
  assert.equal(h.producerId, FIXTURE.producerId);
  assert.equal(h.producerEpoch, FIXTURE.producerEpoch);
  assert.equal(h.baseSequence, FIXTURE.baseSequence);
  assert.equal(h.recordCount, FIXTURE.recordCount);
  assert.equal(h.crc, computeBatchCrc(buf, 0, buf.length));
  assert.ok(verifyBatchCrc(buf, 0, buf.length));
  assert.equal(batchSizeAt(buf, 0), buf.length);
  assert.equal(lastOffsetAt(buf, 0), 2);
});

test('attribute helpers decode compression, timestamp type and flags', () => {
  assert.equal(compressionOf(readBatchHeader(fixture('kafkajs-gzip')).attributes), Compression.GZIP);
  assert.ok(isTransactional(readBatchHeader(fixture('kafkajs-none-transactional')).attributes));
  assert.ok(!isTransactional(readBatchHeader(fixture('kafkajs-none')).attributes));
  const a = makeAttributes({ compression: Compression.ZSTD, timestampType: TimestampType.LOG_APPEND_TIME, isControl: true, hasDeleteHorizon: true });
  assert.equal(compressionOf(a), 4);
  assert.equal(timestampTypeOf(a), TimestampType.LOG_APPEND_TIME);
  assert.ok(isControl(a) && hasDeleteHorizon(a) && !isTransactional(a));
  assert.equal(timestampTypeOf(0), TimestampType.CREATE_TIME);
});

test('int64 as number round-trips negatives and large values', () => {
  const b = Buffer.alloc(8);
  for (const v of [0, 1, -1, -2, 2 ** 32, -(2 ** 32), 2 ** 32 - 1, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 1_700_000_000_000]) {
    writeInt64(b, 0, v);
    assert.equal(readInt64(b, 0), v);
    assert.equal(b.readBigInt64BE(0), BigInt(v));
  }
});

test('base offset and leader epoch patches leave the CRC valid', () => {
  const buf = Buffer.from(fixture('kafkajs-none'));
  setBaseOffset(buf, 0, 123_456_789_012);
  setPartitionLeaderEpoch(buf, 0, 7);
  const h = readBatchHeader(buf);
  assert.equal(h.baseOffset, 123_456_789_012);
  assert.equal(h.partitionLeaderEpoch, 7);
  assert.ok(verifyBatchCrc(buf, 0, buf.length));
  assert.equal(lastOffsetAt(buf, 0), 123_456_789_014);
});

test('setLogAppendTime sets the type bit and max timestamp and recomputes the CRC', () => {
  const buf = Buffer.from(fixture('kafkajs-gzip'));
  setLogAppendTime(buf, 0, 1_800_000_000_123);
  const h = readBatchHeader(buf);
  assert.equal(timestampTypeOf(h.attributes), TimestampType.LOG_APPEND_TIME);
  assert.equal(compressionOf(h.attributes), Compression.GZIP);
  assert.equal(h.maxTimestamp, 1_800_000_000_123);
  assert.equal(h.baseTimestamp, FIXTURE.baseTimestamp);
  assert.ok(verifyBatchCrc(buf, 0, buf.length));
  // Back to create time with the original max timestamp gives the original bytes.
  setMaxTimestamp(buf, 0, TimestampType.CREATE_TIME, FIXTURE.maxTimestamp);
  assert.deepEqual(buf, fixture('kafkajs-gzip'));
});

test('a flipped byte inside the CRC range fails verification; outside it does not', () => {
  const buf = Buffer.from(fixture('kafkajs-none'));
  buf[buf.length - 3] ^= 0x01;
  assert.ok(!verifyBatchCrc(buf, 0, buf.length));
  const buf2 = Buffer.from(fixture('kafkajs-none'));
  buf2[3] ^= 0xff; // baseOffset is outside the CRC
  assert.ok(verifyBatchCrc(buf2, 0, buf2.length));
  assert.ok(!verifyBatchCrc(buf2, 0, BATCH_HEADER_SIZE - 1));
});

test('readBatchHeader rejects a short buffer with a truncated ProtocolError', () => {
  const buf = fixture('kafkajs-none').subarray(0, 60);
  assert.throws(() => readBatchHeader(buf), (e: unknown) => e instanceof ProtocolError && e.kind === 'truncated');
  assert.throws(() => readBatchHeader(fixture('kafkajs-none'), 100), ProtocolError);
});

test('splitBatches finds every batch and reports a trailing partial one', () => {
  const a = fixture('kafkajs-none');
  const b = fixture('kafkajs-gzip');
  const joined = Buffer.concat([a, b]);
  assert.deepEqual(splitBatches(joined), { batches: [{ pos: 0, size: a.length }, { pos: a.length, size: b.length }], trailingBytes: 0 });
  for (const cut of [1, 11, 12, 20, b.length - 1]) {
    const partial = joined.subarray(0, a.length + cut);
    assert.deepEqual(splitBatches(partial), { batches: [{ pos: 0, size: a.length }], trailingBytes: cut });
  }
  assert.deepEqual(splitBatches(Buffer.alloc(0)), { batches: [], trailingBytes: 0 });
  assert.equal(batchSizeAt(a, a.length - 5), -1);
});

test('splitBatches rejects a length below the minimum and an unknown magic', () => {
  const tiny = Buffer.from(fixture('kafkajs-none'));
  tiny.writeInt32BE(13, 8);
  assert.throws(() => splitBatches(tiny), (e: unknown) => e instanceof ProtocolError && e.kind === 'invalid');
  const negative = Buffer.from(fixture('kafkajs-none'));
  negative.writeInt32BE(-5, 8);
  assert.throws(() => splitBatches(negative), ProtocolError);
  const magic = Buffer.from(fixture('kafkajs-none'));
  magic[16] = 3;
  assert.throws(() => splitBatches(magic), /magic 3/);
});
