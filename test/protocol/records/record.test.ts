import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { Compression, TimestampType, hasDeleteHorizon, readBatchHeader, verifyBatchCrc } from '../../../src/protocol/records/batch.js';
import {
  batchRecordsData,
  decodeBatchRecords,
  encodeRecordBatch,
  forEachBatchRecordMeta,
  forEachRecordMeta,
  type RecordInput,
} from '../../../src/protocol/records/record.js';
import { ControlRecordType, encodeControlBatch, readControlRecordType, readTransactionMarker } from '../../../src/protocol/records/control.js';
import { ProtocolError } from '../../../src/protocol/protocol-error.js';
import { FIXTURE, fixture } from './fixtures.js';

const require = createRequire(import.meta.url);
const KafkajsDecoder = require('kafkajs/src/protocol/decoder') as new (b: Buffer) => unknown;
const decodeKafkajsBatch = require('kafkajs/src/protocol/recordBatch/v0/decoder') as (d: unknown) => Promise<{
  firstOffset: string;
  maxTimestamp: string;
  inTransaction: boolean;
  isControlBatch: boolean;
  records: { offset: string; timestamp: string; key: Buffer | null; value: Buffer | null; headers: { [k: string]: Buffer } }[];
}>;

const fixtureRecords: RecordInput[] = [
  { timestamp: FIXTURE.baseTimestamp, key: Buffer.from('key-0'), value: Buffer.from('{"n":0,"text":"hello"}'), headers: [{ key: 'trace', value: Buffer.from('abc') }, { key: 'empty', value: Buffer.alloc(0) }] },
  { timestamp: FIXTURE.baseTimestamp + 5, key: null, value: Buffer.from('{"n":1}') },
  { timestamp: FIXTURE.baseTimestamp + 9, key: Buffer.alloc(0), value: null },
];

const fixtureBatch = {
  partitionLeaderEpoch: 0,
  producerId: FIXTURE.producerId,
  producerEpoch: FIXTURE.producerEpoch,
  baseSequence: FIXTURE.baseSequence,
  records: fixtureRecords,
};

test('decodes every record of the kafkajs batches (plain and gzip)', () => {
  for (const name of ['kafkajs-none', 'kafkajs-gzip']) {
    const records = decodeBatchRecords(fixture(name));
    assert.equal(records.length, 3);
    assert.deepEqual(records.map((r) => [r.offset, r.offsetDelta, r.timestamp]), [[0, 0, FIXTURE.baseTimestamp], [1, 1, FIXTURE.baseTimestamp + 5], [2, 2, FIXTURE.baseTimestamp + 9]]);
    assert.deepEqual(records[0]!.key, Buffer.from('key-0'));
    assert.deepEqual(records[0]!.headers, [{ key: 'trace', value: Buffer.from('abc') }, { key: 'empty', value: Buffer.alloc(0) }]);
    assert.equal(records[1]!.key, null);
    assert.deepEqual(records[2]!.key, Buffer.alloc(0));
    assert.equal(records[2]!.value, null);
  }
});

test('an uncompressed batch encodes to the same bytes kafkajs writes', () => {
  assert.deepEqual(encodeRecordBatch(fixtureBatch), fixture('kafkajs-none'));
  assert.deepEqual(encodeRecordBatch({ ...fixtureBatch, isTransactional: true }), fixture('kafkajs-none-transactional'));
});

for (const [name, codec] of Object.entries(Compression)) {
  test(`${name}: encode/decode round trip, read back by kafkajs where it has the codec`, async () => {
    const records: RecordInput[] = [
      ...fixtureRecords,
      { offsetDelta: 7, timestamp: FIXTURE.baseTimestamp - 1000, key: Buffer.from('k'), value: Buffer.alloc(3000, 'v'), headers: [{ key: 'dup', value: null }, { key: 'dup', value: Buffer.from('x') }] },
    ];
    const batch = encodeRecordBatch({ ...fixtureBatch, baseOffset: 5_000_000_000, compression: codec, records });
    const header = readBatchHeader(batch);
    assert.equal(header.recordCount, 4);
    assert.equal(header.lastOffsetDelta, 7);
    assert.equal(header.baseTimestamp, FIXTURE.baseTimestamp);
    assert.equal(header.maxTimestamp, FIXTURE.baseTimestamp + 9);
    assert.ok(verifyBatchCrc(batch, 0, batch.length));
    const decoded = decodeBatchRecords(batch);
    assert.deepEqual(decoded.map((r) => ({ offsetDelta: r.offsetDelta, timestamp: r.timestamp, key: r.key, value: r.value, headers: r.headers })),
      records.map((r, i) => ({ offsetDelta: r.offsetDelta ?? i, timestamp: r.timestamp, key: r.key, value: r.value, headers: r.headers ?? [] })));
    assert.equal(decoded[3]!.offset, 5_000_000_007);
    if (codec === Compression.NONE || codec === Compression.GZIP) {
      const theirs = await decodeKafkajsBatch(new KafkajsDecoder(batch));
      assert.equal(theirs.firstOffset, '5000000000');
      assert.deepEqual(theirs.records.map((r) => r.offset), ['5000000000', '5000000001', '5000000002', '5000000007']);
      assert.deepEqual(theirs.records[0]!.headers, { trace: Buffer.from('abc'), empty: Buffer.alloc(0) });
      assert.deepEqual(theirs.records[3]!.value, Buffer.alloc(3000, 'v'));
    }
  });
}

test('LogAppendTime batches report the append time for every record', () => {
  const batch = encodeRecordBatch({ ...fixtureBatch, timestampType: TimestampType.LOG_APPEND_TIME, logAppendTime: 1_800_000_000_000 });
  assert.equal(readBatchHeader(batch).maxTimestamp, 1_800_000_000_000);
  assert.ok(decodeBatchRecords(batch).every((r) => r.timestamp === 1_800_000_000_000));
});

test('a delete horizon is stored as baseTimestamp with its attribute; record timestamps survive', () => {
  const batch = encodeRecordBatch({ ...fixtureBatch, deleteHorizonMs: FIXTURE.baseTimestamp + 86_400_000 });
  const h = readBatchHeader(batch);
  assert.ok(hasDeleteHorizon(h.attributes));
  assert.equal(h.baseTimestamp, FIXTURE.baseTimestamp + 86_400_000);
  assert.deepEqual(decodeBatchRecords(batch).map((r) => r.timestamp), fixtureRecords.map((r) => r.timestamp));
});

test('a batch without records (as compaction leaves them) keeps its lastOffsetDelta', () => {
  const batch = encodeRecordBatch({ baseOffset: 10, lastOffsetDelta: 4, records: [] });
  const h = readBatchHeader(batch);
  assert.equal(h.recordCount, 0);
  assert.equal(h.lastOffsetDelta, 4);
  assert.deepEqual(decodeBatchRecords(batch), []);
});

test('forEachRecordMeta walks offset and timestamp deltas and key presence', () => {
  for (const codec of Object.values(Compression)) {
    const batch = encodeRecordBatch({ ...fixtureBatch, compression: codec });
    const seen: [number, number, boolean][] = [];
    const n = forEachBatchRecordMeta(batch, (m) => seen.push([m.offsetDelta, m.timestampDelta, m.hasKey]));
    assert.equal(n, 3);
    assert.equal(forEachRecordMeta(batchRecordsData(batch), 3, () => {}), 3);
    assert.deepEqual(seen, [[0, 0, true], [1, 5, false], [2, 9, true]]);
  }
});

test('structural damage is a ProtocolError, never a crash', () => {
  const good = encodeRecordBatch(fixtureBatch);
  const isInvalid = (e: unknown) => e instanceof ProtocolError;
  // Record count larger than the records present.
  const moreCount = Buffer.from(good);
  moreCount.writeInt32BE(4, 57);
  assert.throws(() => decodeBatchRecords(moreCount), isInvalid);
  // Record count smaller: bytes remain.
  const lessCount = Buffer.from(good);
  lessCount.writeInt32BE(2, 57);
  assert.throws(() => decodeBatchRecords(lessCount), /still remaining/);
  assert.throws(() => forEachBatchRecordMeta(lessCount, () => {}), /still remaining/);
  assert.throws(() => forEachRecordMeta(batchRecordsData(lessCount), 2, () => {}), /still remaining/);
  // A huge count is refused before allocation.
  const hugeCount = Buffer.from(good);
  hugeCount.writeInt32BE(0x7fffffff, 57);
  assert.throws(() => decodeBatchRecords(hugeCount), isInvalid);
  // A zero-length record at the very end of the data.
  const empty = Buffer.concat([good.subarray(0, 61), Buffer.from([0])]);
  empty.writeInt32BE(empty.length - 12, 8);
  empty.writeInt32BE(1, 57);
  assert.throws(() => decodeBatchRecords(empty), isInvalid);
  assert.throws(() => forEachBatchRecordMeta(empty, () => {}), isInvalid);
  // First record's length varint claims more than there is.
  const longRecord = Buffer.from(good);
  longRecord[61] = 0x7e;
  assert.throws(() => decodeBatchRecords(longRecord), isInvalid);
  // Every single-byte corruption of the records section decodes or fails cleanly.
  for (let i = 61; i < good.length; i++) {
    for (const v of [0x00, 0x7f, 0x80, 0xff]) {
      const b = Buffer.from(good);
      b[i] = v;
      try {
        decodeBatchRecords(b);
      } catch (e) {
        assert.ok(e instanceof ProtocolError, `byte ${i}=${v}: ${String(e)}`);
      }
    }
  }
  // Corrupt compressed records.
  const gz = Buffer.from(fixture('kafkajs-gzip'));
  gz.fill(0x55, 70, 90);
  assert.throws(() => decodeBatchRecords(gz), isInvalid);
  // Magic other than 2.
  const v1 = Buffer.from(good);
  v1[16] = 1;
  assert.throws(() => decodeBatchRecords(v1), (e: unknown) => e instanceof ProtocolError && e.kind === 'unsupported-version');
});

test('decompression is bounded by maxUncompressedBytes', () => {
  const batch = encodeRecordBatch({ compression: Compression.ZSTD, records: [{ timestamp: 0, key: null, value: Buffer.alloc(1_000_000) }] });
  assert.throws(() => decodeBatchRecords(batch, { maxUncompressedBytes: 100_000 }), (e: unknown) => e instanceof ProtocolError && e.kind === 'too-large');
  assert.equal(decodeBatchRecords(batch).length, 1);
});

test('control batches carry COMMIT/ABORT markers that kafkajs recognises', async () => {
  for (const type of [ControlRecordType.COMMIT, ControlRecordType.ABORT]) {
    const batch = encodeControlBatch({ baseOffset: 42, producerId: 77, producerEpoch: 2, type, coordinatorEpoch: 9, timestamp: 1_700_000_000_000 });
    const h = readBatchHeader(batch);
    assert.equal(h.attributes & 0x30, 0x30);
    assert.equal(h.baseSequence, -1);
    assert.deepEqual(readTransactionMarker(batch), { type, coordinatorEpoch: 9 });
    const [record] = decodeBatchRecords(batch);
    assert.equal(readControlRecordType(record!.key), type);
    const theirs = await decodeKafkajsBatch(new KafkajsDecoder(batch));
    assert.ok(theirs.isControlBatch && theirs.inTransaction);
    assert.equal(theirs.records[0]!.offset, '42');
  }
  assert.throws(() => readControlRecordType(Buffer.from([0, 0, 1])), ProtocolError);
  assert.throws(() => readTransactionMarker(fixture('kafkajs-none')), /not a control batch/);
});
