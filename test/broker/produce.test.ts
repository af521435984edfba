// Produce over a real socket: offsets, acks, Kafka's per-partition errors, broker-side compression.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ErrorCode } from '../../src/protocol/error-codes.js';
import { metadataApi } from '../../src/protocol/generated/metadata.js';
import { Codec } from '../../src/protocol/compression/index.js';
import { compressionOf, decodeBatchRecords, encodeRecordBatch, readBatchHeader, splitBatches, TimestampType, timestampTypeOf } from '../../src/protocol/records/index.js';
import { ZERO_UUID } from '../../src/protocol/io/reader.js';
import { RawClient } from '../server/raw-client.js';
import { encodeRequest, roundTrip } from '../server/broker-harness.js';
import { produceApi } from '../../src/protocol/generated/produce.js';
import { batch, fetch, fetchRequest, produce, recordsOf, values, withDataBroker } from './data-harness.js';

test('appends get consecutive offsets and come back from Fetch byte for byte', async () => {
  await withDataBroker(async ({ store, client }) => {
    await store.createTopic('orders', 2);
    const first = await produce(client, 'orders', 1, batch(values('a', 'b', 'c')));
    const p = first.responses[0]!.partitionResponses[0]!;
    assert.deepEqual([p.index, p.errorCode, p.baseOffset, p.logAppendTimeMs, p.logStartOffset], [1, 0, 0n, -1n, 0n]);
    const second = await produce(client, 'orders', 1, batch(values('d')), { acks: 1 });
    assert.equal(second.responses[0]!.partitionResponses[0]!.baseOffset, 3n);
    const fetched = await fetch(client, fetchRequest([{ topic: 'orders', partition: 1 }]));
    const part = fetched.responses[0]!.partitions[0]!;
    assert.equal(part.highWatermark, 4n);
    const records = recordsOf(part.records);
    const { batches } = splitBatches(records);
    assert.equal(batches.length, 2);
    const decoded = batches.flatMap((b) => decodeBatchRecords(records.subarray(b.pos, b.pos + b.size)));
    assert.deepEqual(decoded.map((r) => [r.offset, r.value?.toString()]), [[0, 'a'], [1, 'b'], [2, 'c'], [3, 'd']]);
    assert.equal(readBatchHeader(records, 0).partitionLeaderEpoch, 0);
  });
});

test('acks=0 gets no response; the next request is answered in order', async () => {
  await withDataBroker(async ({ store, client }) => {
    await store.createTopic('fire', 1);
    const { encodeRequest } = await import('../server/broker-harness.js');
    const { produceApi } = await import('../../src/protocol/generated/produce.js');
    client.send(encodeRequest(produceApi, 9, { transactionalId: null, acks: 0, timeoutMs: 0, topicData: [{ topicId: ZERO_UUID, name: 'fire', partitionData: [{ index: 0, records: batch(values('x')) }] }] }, 900));
    const meta = await roundTrip(client, metadataApi, 12, { topics: [{ name: 'fire', topicId: ZERO_UUID }], allowAutoTopicCreation: false, includeClusterAuthorizedOperations: false, includeTopicAuthorizedOperations: false });
    assert.equal(meta.topics[0]!.errorCode, ErrorCode.NONE);
    assert.equal(store.log('fire', 0)!.logEndOffset, 1);
  });
});

test('acks=0 with an error closes the connection, as Kafka does', async () => {
  await withDataBroker(async ({ broker }) => {
    const client = await RawClient.connect(broker.port);
    const { encodeRequest } = await import('../server/broker-harness.js');
    const { produceApi } = await import('../../src/protocol/generated/produce.js');
    client.send(encodeRequest(produceApi, 9, { transactionalId: null, acks: 0, timeoutMs: 0, topicData: [{ topicId: ZERO_UUID, name: 'missing', partitionData: [{ index: 0, records: batch(values('x')) }] }] }, 901));
    await client.whenClosed;
  });
});

test('invalid acks, unknown topics and partitions, internal topics', async () => {
  await withDataBroker(async ({ store, client }) => {
    await store.createTopic('t', 1);
    await store.createTopic('__consumer_offsets', 1);
    const code = async (topic: string, partition: number, acks = 1) => (await produce(client, topic, partition, batch(values('v')), { acks })).responses[0]!.partitionResponses[0]!;
    assert.equal((await code('t', 0, 2)).errorCode, ErrorCode.INVALID_REQUIRED_ACKS);
    assert.equal((await code('nope', 0, 2)).errorCode, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
    assert.equal((await code('t', 3)).errorCode, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
    const internal = await code('__consumer_offsets', 0);
    assert.deepEqual([internal.errorCode, internal.baseOffset, internal.logStartOffset], [ErrorCode.INVALID_TOPIC_EXCEPTION, -1n, -1n]);
    assert.equal(store.topic('nope'), undefined, 'Produce does not auto-create (Kafka creates topics only from Metadata)');
  });
});

test('a transactional batch without a transactional id fails the whole request: TRANSACTIONAL_ID_AUTHORIZATION_FAILED', async () => {
  await withDataBroker(async ({ store, client }) => {
    await store.createTopic('t', 2);
    const transactional = encodeRecordBatch({ producerId: 7, producerEpoch: 0, baseSequence: 0, isTransactional: true, records: [{ timestamp: Date.now(), key: null, value: Buffer.from('x') }] });
    for (const version of [3, 9, 13]) {
      const response = await roundTrip(client, produceApi, version, {
        transactionalId: null,
        acks: -1,
        timeoutMs: 30_000,
        topicData: [{ topicId: store.topic('t')!.topicId, name: 't', partitionData: [{ index: 0, records: batch(values('plain')) }, { index: 1, records: Buffer.concat([batch(values('a')), transactional]) }] }],
      });
      const codes = response.responses.flatMap((t) => t.partitionResponses.map((p) => [p.index, p.errorCode, p.baseOffset]));
      assert.deepEqual(codes, [[0, ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED, -1n], [1, ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED, -1n]], `v${version}`);
    }
    // Nothing was appended, not even the plain batch of the same request.
    assert.deepEqual((await produce(client, 't', 0, batch(values('after')))).responses[0]!.partitionResponses[0]!.baseOffset, 0n);
  });
});

test('Produce v0-v2 close the connection (Kafka 4 advertises them but refuses them)', async () => {
  await withDataBroker(async ({ broker, store }) => {
    await store.createTopic('t', 1);
    const client = await RawClient.connect(broker.port);
    // The codec starts at v3 (Kafka 4.3.1's spec), so a v3 request relabelled v2 stands for an old client's.
    const request = encodeRequest(produceApi, 3, { transactionalId: null, acks: -1, timeoutMs: 30_000, topicData: [] }, 1);
    request.writeInt16BE(2, 2);
    client.send(request);
    await client.whenClosed;
  });
});

test('Kafka validation errors: CRC, size, timestamps (record errors, message), compacted topics need keys', async () => {
  await withDataBroker(async ({ store, client }) => {
    await store.createTopic('v', 1, { 'max.message.bytes': '200', 'message.timestamp.after.max.ms': '1000' });
    await store.createTopic('compacted', 1, { 'cleanup.policy': 'compact' });
    const corrupt = batch(values('hello'));
    corrupt[corrupt.length - 1] ^= 0xff;
    const crc = (await produce(client, 'v', 0, corrupt)).responses[0]!.partitionResponses[0]!;
    assert.deepEqual([crc.errorCode, crc.errorMessage], [ErrorCode.CORRUPT_MESSAGE, null]);
    const large = (await produce(client, 'v', 0, batch([{ value: Buffer.alloc(300) }]))).responses[0]!.partitionResponses[0]!;
    assert.equal(large.errorCode, ErrorCode.MESSAGE_TOO_LARGE);
    const future = (await produce(client, 'v', 0, batch([{ value: Buffer.from('ok'), timestamp: Date.now() }, { value: Buffer.from('late'), timestamp: Date.now() + 3_600_000 }]))).responses[0]!.partitionResponses[0]!;
    assert.equal(future.errorCode, ErrorCode.INVALID_TIMESTAMP);
    assert.equal(future.errorMessage, 'One or more records have been rejected due to invalid timestamp');
    assert.deepEqual(future.recordErrors.map((e) => e.batchIndex), [1]);
    assert.equal(future.logStartOffset, 0n);
    const keyless = (await produce(client, 'compacted', 0, batch([{ key: Buffer.from('k'), value: Buffer.from('1') }, { value: Buffer.from('2') }]))).responses[0]!.partitionResponses[0]!;
    assert.equal(keyless.errorCode, ErrorCode.INVALID_RECORD);
    assert.deepEqual(keyless.recordErrors, [{ batchIndex: 1, batchIndexErrorMessage: 'Compacted topic cannot accept message without key' }]);
    const empty = (await produce(client, 'v', 0, null)).responses[0]!.partitionResponses[0]!;
    assert.equal(empty.errorCode, ErrorCode.INVALID_RECORD);
    assert.equal(store.log('v', 0)!.logEndOffset, 0, 'nothing invalid was appended');
  });
});

test('LogAppendTime topics stamp the append time and report it', async () => {
  await withDataBroker(async ({ store, client }) => {
    await store.createTopic('stamped', 1, { 'message.timestamp.type': 'LogAppendTime' });
    const before = Date.now();
    const p = (await produce(client, 'stamped', 0, batch([{ value: Buffer.from('x'), timestamp: 5 }]))).responses[0]!.partitionResponses[0]!;
    assert.ok(p.logAppendTimeMs >= BigInt(before), `logAppendTime ${p.logAppendTimeMs}`);
    const records = recordsOf((await fetch(client, fetchRequest([{ topic: 'stamped' }]))).responses[0]!.partitions[0]!.records);
    const header = readBatchHeader(records, 0);
    assert.equal(timestampTypeOf(header.attributes), TimestampType.LOG_APPEND_TIME);
    assert.equal(BigInt(header.maxTimestamp), p.logAppendTimeMs);
  });
});

test('a topic compression.type other than producer recompresses batches', async () => {
  await withDataBroker(async ({ store, client }) => {
    await store.createTopic('zipped', 1, { 'compression.type': 'gzip' });
    await store.createTopic('plain', 1, { 'compression.type': 'uncompressed' });
    await produce(client, 'zipped', 0, batch([{ key: Buffer.from('k'), value: Buffer.from('v'.repeat(500)), headers: [{ key: 'h', value: Buffer.from('1') }] }]));
    await produce(client, 'plain', 0, batch(values('a', 'b'), { compression: Codec.LZ4 }));
    const zipped = recordsOf((await fetch(client, fetchRequest([{ topic: 'zipped' }]))).responses[0]!.partitions[0]!.records);
    assert.equal(compressionOf(readBatchHeader(zipped, 0).attributes), Codec.GZIP);
    const [record] = decodeBatchRecords(zipped);
    assert.deepEqual([record!.key?.toString(), record!.value?.length, record!.headers[0]!.key], ['k', 500, 'h']);
    const plain = recordsOf((await fetch(client, fetchRequest([{ topic: 'plain' }]))).responses[0]!.partitions[0]!.records);
    assert.equal(compressionOf(readBatchHeader(plain, 0).attributes), Codec.NONE);
    assert.deepEqual(decodeBatchRecords(plain).map((r) => r.value?.toString()), ['a', 'b']);
  });
});

test('Produce v13 names topics by id: UNKNOWN_TOPIC_ID for an unknown or zero id (whatever the acks), answers by id', async () => {
  await withDataBroker(async ({ broker, store, client }) => {
    const t = (await store.createTopic('t', 2)).topicId;
    const internal = (await store.createTopic('__consumer_offsets', 1)).topicId;
    const unknown = 'AAAAAAAAAAAAAAAAAAAAAQ';
    const byId = (topicId: string, ...partitions: number[]) => ({ name: '', topicId, partitionData: partitions.map((index) => ({ index, records: batch(values('v')) })) });
    const send = (acks: number, ...topicData: ReturnType<typeof byId>[]) => roundTrip(client, produceApi, 13, { transactionalId: null, acks, timeoutMs: 30_000, topicData });
    const answer = (response: Awaited<ReturnType<typeof send>>) =>
      response.responses.map((r) => [r.name, r.topicId, r.partitionResponses.map((p) => [p.index, p.errorCode, p.baseOffset, p.logStartOffset])]);
    assert.deepEqual(answer(await send(-1, byId(t, 0, 5), byId(unknown, 0, 1), byId(ZERO_UUID, 0), byId(internal, 0), byId(t, 1))), [
      ['', t, [[0, ErrorCode.NONE, 0n, 0n], [5, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, -1n, -1n]]],
      ['', unknown, [[0, ErrorCode.UNKNOWN_TOPIC_ID, -1n, -1n], [1, ErrorCode.UNKNOWN_TOPIC_ID, -1n, -1n]]],
      ['', ZERO_UUID, [[0, ErrorCode.UNKNOWN_TOPIC_ID, -1n, -1n]]],
      ['', internal, [[0, ErrorCode.INVALID_TOPIC_EXCEPTION, -1n, -1n]]],
      ['', t, [[1, ErrorCode.NONE, 0n, 0n]]],
    ]);
    assert.deepEqual(answer(await send(2, byId(t, 0), byId(unknown, 0))), [
      ['', t, [[0, ErrorCode.INVALID_REQUIRED_ACKS, -1n, -1n]]],
      ['', unknown, [[0, ErrorCode.UNKNOWN_TOPIC_ID, -1n, -1n]]],
    ]);
    assert.equal(store.log('t', 0)!.logEndOffset, 1);
    // v12 is v11 on the wire: topics by name.
    const v12 = await produce(client, 't', 0, batch(values('w')), { version: 12 });
    assert.deepEqual([v12.responses[0]!.name, v12.responses[0]!.partitionResponses[0]!.baseOffset], ['t', 1n]);
    // acks=0 and an unknown id: the connection closes, as for any acks=0 error.
    const other = await RawClient.connect(broker.port);
    other.send(encodeRequest(produceApi, 13, { transactionalId: null, acks: 0, timeoutMs: 0, topicData: [byId(unknown, 0)] }, 902));
    await other.whenClosed;
  });
});
