// Batches written by Apache Kafka's own client code (kafka-clients 4.0.0; see test/fixtures/records/JavaBatches.java).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Compression, compressionOf, readBatchHeader, verifyBatchCrc } from '../../../src/protocol/records/batch.js';
import { batchRecordsData, decodeBatchRecords, encodeRecordBatch } from '../../../src/protocol/records/record.js';
import { ControlRecordType, encodeControlBatch, readTransactionMarker } from '../../../src/protocol/records/control.js';
import { validateProducedBatch } from '../../../src/protocol/records/validate.js';
import { isXerialFramed } from '../../../src/protocol/compression/snappy.js';
import { zstdOutputBound } from '../../../src/protocol/compression/zstd.js';
import { FIXTURE, fixture } from './fixtures.js';

const codecs = { NONE: Compression.NONE, GZIP: Compression.GZIP, SNAPPY: Compression.SNAPPY, LZ4: Compression.LZ4, ZSTD: Compression.ZSTD };

for (const [name, codec] of Object.entries(codecs)) {
  test(`Java ${name} batch: header, CRC, records, produce validation`, () => {
    const batch = fixture(`java-${name.toLowerCase()}`);
    const h = readBatchHeader(batch);
    assert.equal(compressionOf(h.attributes), codec);
    assert.equal(h.producerId, FIXTURE.producerId);
    assert.equal(h.baseSequence, FIXTURE.baseSequence);
    assert.equal(h.maxTimestamp, FIXTURE.maxTimestamp);
    assert.ok(verifyBatchCrc(batch, 0, batch.length));
    const records = decodeBatchRecords(batch);
    assert.deepEqual(records.map((r) => [r.offset, r.timestamp, r.key?.toString() ?? null, r.value?.toString() ?? null]), [
      [0, FIXTURE.baseTimestamp, 'key-0', '{"n":0,"text":"hello"}'],
      [1, FIXTURE.baseTimestamp + 5, null, '{"n":1}'],
      [2, FIXTURE.baseTimestamp + 9, '', null],
    ]);
    assert.deepEqual(records[0]!.headers.map((x) => [x.key, x.value?.toString()]), [['trace', 'abc'], ['empty', '']]);
    assert.ok(validateProducedBatch(batch, { apiVersion: 11, maxMessageBytes: 1 << 20 }).ok);
  });
}

test('an uncompressed batch encodes to the same bytes as Kafka\'s MemoryRecordsBuilder', () => {
  const ours = encodeRecordBatch({
    partitionLeaderEpoch: 0,
    producerId: FIXTURE.producerId,
    producerEpoch: FIXTURE.producerEpoch,
    baseSequence: FIXTURE.baseSequence,
    records: decodeBatchRecords(fixture('java-none')),
  });
  assert.deepEqual(ours, fixture('java-none'));
});

for (const name of ['SNAPPY', 'LZ4', 'ZSTD']) {
  test(`Java ${name} batch spanning several compression blocks decodes`, () => {
    const batch = fixture(`java-large-${name.toLowerCase()}`);
    const records = decodeBatchRecords(batch);
    assert.equal(records.length, 2000);
    records.forEach((r, i) => {
      assert.equal(r.offset, i);
      assert.equal(r.key?.toString(), `k${i % 100}`);
      assert.equal(JSON.parse(r.value!.toString()).id, i);
    });
    const body = batch.subarray(61);
    if (name === 'SNAPPY') assert.ok(isXerialFramed(body));
    if (name === 'LZ4') assert.equal(body.subarray(0, 7).toString('hex'), '04224d18604082');
    if (name === 'ZSTD') {
      // Kafka's zstd stream declares no content size; the block-walk bound stays within one block of the truth.
      const actual = batchRecordsData(batch).length;
      const bound = zstdOutputBound(body);
      assert.ok(bound >= actual && bound - actual <= 128 * 1024, `bound ${bound} vs ${actual}`);
    }
  });
}

test('our COMMIT marker is byte-identical to Kafka\'s', () => {
  const java = fixture('java-commit-marker');
  assert.deepEqual(readTransactionMarker(java), { type: ControlRecordType.COMMIT, coordinatorEpoch: 9 });
  const ours = encodeControlBatch({
    baseOffset: 42,
    partitionLeaderEpoch: 5,
    producerId: 77,
    producerEpoch: 2,
    type: ControlRecordType.COMMIT,
    coordinatorEpoch: 9,
    timestamp: FIXTURE.baseTimestamp,
  });
  assert.deepEqual(ours, java);
});
