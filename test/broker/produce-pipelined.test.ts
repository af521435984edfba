// Pipelined Produce requests of every codec to one partition: Kafka's error codes for corrupt compressed batches,
// and offsets in arrival order (batches waiting for an append in flight are grouped, produce-group-append.ts).
import { ZERO_UUID } from '../../src/protocol/uuid.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ErrorCode } from '../../src/protocol/error-codes.js';
import { Codec } from '../../src/protocol/compression/index.js';
import { produceApi } from '../../src/protocol/generated/produce.js';
import { computeBatchCrc, decodeBatchRecords, splitBatches } from '../../src/protocol/records/index.js';
import { decodeResponse, encodeRequest } from '../server/broker-harness.js';
import { sizePrefixed } from '../server/raw-client.js';
import { batch, fetch, fetchRequest, produce, recordsOf, values, withDataBroker } from './data-harness.js';

/** Two records of random A-D: they compress (so lz4 blocks are not stored) into tens of KiB. */
function bigValues(tag: string): string[] {
  const text = (n: number) => Array.from({ length: n }, () => 'ABCD'[Math.floor(Math.random() * 4)]).join('');
  return [`${tag}-a-${text(64 * 1024)}`, `${tag}-b-${text(100)}`];
}

/** A compressed batch whose block bytes are garbage but whose CRC matches them. */
function garbledButCrcValid(codec: number): Buffer {
  const b = batch(values(...bigValues('g')), { compression: codec });
  b.fill(0xee, 61 + 16, b.length - 8);
  b.writeUInt32BE(computeBatchCrc(b, 0, b.length), 17);
  return b;
}

test('lz4 and zstd batches: a bad CRC is CORRUPT_MESSAGE; garbage with a good CRC fails decompression as in Kafka', async () => {
  await withDataBroker(async ({ store, client }) => {
    await store.createTopic('bad', 1);
    for (const codec of [Codec.LZ4, Codec.ZSTD]) {
      const crcBroken = batch(values(...bigValues('a')), { compression: codec });
      crcBroken[crcBroken.length - 3]! ^= 0x5a;
      const p1 = (await produce(client, 'bad', 0, crcBroken)).responses[0]!.partitionResponses[0]!;
      assert.equal(p1.errorCode, ErrorCode.CORRUPT_MESSAGE, `codec ${codec}: CRC`);
      const p2 = (await produce(client, 'bad', 0, garbledButCrcValid(codec))).responses[0]!.partitionResponses[0]!;
      assert.equal(p2.errorCode, ErrorCode.UNKNOWN_SERVER_ERROR, `codec ${codec}: garbage`);
      const ok = (await produce(client, 'bad', 0, batch(values('c'), { compression: codec }))).responses[0]!.partitionResponses[0]!;
      assert.equal(ok.errorCode, ErrorCode.NONE);
    }
    assert.equal(store.log('bad', 0)!.logEndOffset, 2);
  });
});

test('pipelined requests of every codec to one partition are appended in arrival order, a failed one in between', async () => {
  await withDataBroker(async ({ store, client }) => {
    await store.createTopic('mixed', 1);
    const codecs = [Codec.LZ4, Codec.NONE, Codec.ZSTD, Codec.NONE, Codec.LZ4, Codec.LZ4, Codec.NONE, Codec.GZIP, Codec.ZSTD, Codec.NONE];
    const texts = codecs.map((codec, i) => (codec === Codec.NONE ? [`m${i}-a`, `m${i}-b`] : bigValues(`m${i}`)));
    const requests = codecs.map((codec, i) => {
      const records = i === 5 ? garbledButCrcValid(codec) : batch(values(...texts[i]!), { compression: codec });
      return sizePrefixed(encodeRequest(produceApi, 9, { transactionalId: null, acks: 1, timeoutMs: 30_000, topicData: [{ topicId: ZERO_UUID, name: 'mixed', partitionData: [{ index: 0, records }] }] }, 700 + i));
    });
    client.sendRaw(Buffer.concat(requests));
    let next = 0;
    const want: string[] = [];
    for (let i = 0; i < codecs.length; i++) {
      const { correlationId, response } = decodeResponse(produceApi, 9, await client.read());
      const p = response.responses[0]!.partitionResponses[0]!;
      assert.equal(correlationId, 700 + i);
      if (i === 5) {
        assert.equal(p.errorCode, ErrorCode.UNKNOWN_SERVER_ERROR);
        continue;
      }
      assert.deepEqual([p.errorCode, p.baseOffset], [ErrorCode.NONE, BigInt(next)], `request ${i}`);
      next += 2;
      want.push(...texts[i]!);
    }
    const fetched = recordsOf((await fetch(client, fetchRequest([{ topic: 'mixed' }]))).responses[0]!.partitions[0]!.records);
    const records = splitBatches(fetched).batches.flatMap((b) => decodeBatchRecords(fetched.subarray(b.pos, b.pos + b.size)));
    assert.deepEqual(records.map((r) => r.value?.toString()), want);
  });
});
