import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ErrorCode } from '../../../src/protocol/error-codes.js';
import { Compression, TimestampType, computeBatchCrc, setBaseOffset, setLogAppendTime } from '../../../src/protocol/records/batch.js';
import { encodeRecordBatch, type EncodeBatchInput } from '../../../src/protocol/records/record.js';
import { encodeControlBatch } from '../../../src/protocol/records/control.js';
import { validateProducedBatch, validateProducedRecords, type RecordCheckOptions } from '../../../src/protocol/records/validate.js';
import { fixture } from './fixtures.js';

const framing = { apiVersion: 9, maxMessageBytes: 1_048_588 };
const now = 1_700_000_000_000;
const recordChecks: RecordCheckOptions = {
  now,
  timestampType: TimestampType.CREATE_TIME,
  timestampBeforeMaxMs: Number.MAX_SAFE_INTEGER,
  timestampAfterMaxMs: 3_600_000,
  compacted: false,
};

function batch(overrides: Partial<EncodeBatchInput> = {}): Buffer {
  return encodeRecordBatch({
    producerId: 1,
    producerEpoch: 0,
    baseSequence: 0,
    records: [
      { timestamp: now, key: Buffer.from('a'), value: Buffer.from('1') },
      { timestamp: now + 5, key: null, value: Buffer.from('2') },
    ],
    ...overrides,
  });
}

/** Rewrites a header field and fixes the CRC, so only the intended check can fail. */
function patched(buf: Buffer, edit: (b: Buffer) => void): Buffer {
  const b = Buffer.from(buf);
  edit(b);
  b.writeUInt32BE(computeBatchCrc(b, 0, b.length), 17);
  return b;
}

function code(result: { ok: boolean; errorCode?: number }): number {
  return result.ok ? ErrorCode.NONE : result.errorCode!;
}

test('a well-formed batch from a real client passes, a trailing partial batch is trimmed', () => {
  const ok = validateProducedBatch(fixture('kafkajs-gzip'), framing);
  assert.ok(ok.ok);
  const withTail = validateProducedBatch(Buffer.concat([fixture('kafkajs-none'), fixture('kafkajs-none').subarray(0, 30)]), framing);
  assert.ok(withTail.ok && withTail.trailingBytes === 30 && withTail.size === fixture('kafkajs-none').length);
});

test('batch-level failures carry Kafka\'s error codes', () => {
  const good = batch();
  const cases: [string, Buffer | null, number, Partial<typeof framing>?][] = [
    ['null records', null, ErrorCode.INVALID_RECORD],
    ['only a partial batch', good.subarray(0, 40), ErrorCode.INVALID_RECORD],
    ['length below 14', patched(good, (b) => b.writeInt32BE(10, 8)), ErrorCode.CORRUPT_MESSAGE],
    ['magic 3', patched(good, (b) => (b[16] = 3)), ErrorCode.CORRUPT_MESSAGE],
    ['magic 1', patched(good, (b) => (b[16] = 1)), ErrorCode.INVALID_RECORD],
    ['two batches', Buffer.concat([good, good]), ErrorCode.INVALID_RECORD],
    ['zstd before v7', batch({ compression: Compression.ZSTD }), ErrorCode.UNSUPPORTED_COMPRESSION_TYPE, { apiVersion: 6 }],
    ['codec 6', patched(good, (b) => b.writeInt16BE(6, 21)), ErrorCode.UNSUPPORTED_COMPRESSION_TYPE],
    ['base offset 5', (() => { const b = Buffer.from(good); setBaseOffset(b, 0, 5); return b; })(), ErrorCode.INVALID_RECORD],
    ['larger than max.message.bytes', good, ErrorCode.MESSAGE_TOO_LARGE, { maxMessageBytes: good.length - 1 }],
    ['bad CRC', (() => { const b = Buffer.from(good); b[b.length - 1] ^= 1; return b; })(), ErrorCode.CORRUPT_MESSAGE],
    ['count vs lastOffsetDelta', patched(good, (b) => b.writeInt32BE(3, 57)), ErrorCode.INVALID_RECORD],
    ['negative lastOffsetDelta', patched(good, (b) => b.writeInt32BE(-1, 23)), ErrorCode.INVALID_RECORD],
    ['zero count', patched(good, (b) => { b.writeInt32BE(0, 57); b.writeInt32BE(-1, 23); }), ErrorCode.INVALID_RECORD],
    ['control batch', encodeControlBatch({ baseOffset: 0, producerId: 1, producerEpoch: 0, type: 1, coordinatorEpoch: 0, timestamp: now }), ErrorCode.INVALID_RECORD],
    ['producer id without sequence', batch({ baseSequence: -1 }), ErrorCode.INVALID_RECORD],
  ];
  for (const [name, records, expected, opts] of cases) {
    const result = validateProducedBatch(records, { ...framing, ...opts });
    assert.equal(code(result), expected, name);
    if (!result.ok) assert.ok(result.message.length > 0);
  }
  assert.equal(code(validateProducedBatch(batch({ compression: Compression.ZSTD }), framing)), ErrorCode.NONE);
  assert.equal(code(validateProducedBatch(batch({ producerId: -1, baseSequence: -1 }), framing)), ErrorCode.NONE);
});

test('record checks: compacted keys, timestamp bounds, LogAppendTime from a producer', () => {
  for (const compression of Object.values(Compression)) {
    const b = batch({ compression });
    const ok = validateProducedRecords(b, readHeader(b), recordChecks);
    assert.ok(ok.ok && ok.maxTimestamp === now + 5 && ok.offsetsSequential);

    const compacted = validateProducedRecords(b, readHeader(b), { ...recordChecks, compacted: true });
    assert.equal(code(compacted), ErrorCode.INVALID_RECORD);
    assert.ok(!compacted.ok && compacted.recordErrors.length === 1 && compacted.recordErrors[0]!.batchIndex === 1);
  }
  const future = batch({ records: [{ timestamp: now + 3_600_001, key: null, value: null }, { timestamp: now, key: null, value: null }] });
  const late = validateProducedRecords(future, readHeader(future), recordChecks);
  assert.equal(code(late), ErrorCode.INVALID_TIMESTAMP);
  assert.deepEqual(!late.ok && late.recordErrors.map((e) => e.batchIndex), [0]);
  const noTimestamp = batch({ records: [{ timestamp: -1, key: null, value: null }] });
  assert.ok(validateProducedRecords(noTimestamp, readHeader(noTimestamp), { ...recordChecks, timestampBeforeMaxMs: 0 }).ok);

  const lat = Buffer.from(batch());
  setLogAppendTime(lat, 0, now);
  // As in Kafka: a CreateTime topic only range-checks (the batch's max timestamp); a LogAppendTime topic refuses it.
  assert.ok(validateProducedRecords(lat, readHeader(lat), recordChecks).ok);
  assert.equal(code(validateProducedRecords(lat, readHeader(lat), { ...recordChecks, timestampType: TimestampType.LOG_APPEND_TIME })), ErrorCode.INVALID_TIMESTAMP);
  // A LogAppendTime topic accepts any producer timestamp in a CreateTime batch.
  assert.ok(validateProducedRecords(future, readHeader(future), { ...recordChecks, timestampType: TimestampType.LOG_APPEND_TIME }).ok);
});

test('record checks: structure errors and non-sequential deltas', () => {
  const gapped = batch({ compression: Compression.GZIP, records: [{ offsetDelta: 1, timestamp: now, key: null, value: null }, { offsetDelta: 0, timestamp: now, key: null, value: null }, { offsetDelta: 2, timestamp: now, key: null, value: null }] });
  const r = validateProducedRecords(gapped, readHeader(gapped), recordChecks);
  assert.ok(r.ok && !r.offsetsSequential);
  const short = patched(batch(), (b) => { b.writeInt32BE(3, 57); b.writeInt32BE(2, 23); });
  assert.equal(code(validateProducedRecords(short, readHeader(short), recordChecks)), ErrorCode.INVALID_RECORD);
  const badGzip = patched(batch({ compression: Compression.GZIP }), (b) => b.fill(0x33, 61 + 12));
  assert.equal(code(validateProducedRecords(badGzip, readHeader(badGzip), recordChecks)), ErrorCode.UNKNOWN_SERVER_ERROR);
  const bomb = encodeRecordBatch({ compression: Compression.GZIP, records: [{ timestamp: now, key: null, value: Buffer.alloc(2_000_000) }] });
  assert.equal(code(validateProducedRecords(bomb, readHeader(bomb), { ...recordChecks, maxUncompressedBytes: 1_000_000 })), ErrorCode.MESSAGE_TOO_LARGE);
});

function readHeader(b: Buffer) {
  const r = validateProducedBatch(b, { ...framing, maxMessageBytes: Number.MAX_SAFE_INTEGER });
  if (!r.ok) throw new Error(`fixture batch rejected: ${r.message}`);
  return r.header;
}
