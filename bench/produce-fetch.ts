// Produce and Fetch throughput through the broker over loopback: a raw-socket client using gregor's own codec
// pipelines Produce requests (16 KiB batches, 16 in flight, acks=1), then fetches everything back with 8 MiB
// Fetch requests. An upper bound for real clients, which spend more per record than this one.
//   node dist/bench/produce-fetch.js    (GREGOR_BENCH_MB=<MiB>, default 256; GREGOR_BENCH_ENGINE=memory|file)
import { ZERO_UUID } from '../src/protocol/uuid.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { resolveBrokerConfig } from '../src/config/index.js';
import { createFetchPartition, createFetchRequest, fetchApi } from '../src/protocol/generated/fetch.js';
import { produceApi } from '../src/protocol/generated/produce.js';
import { encodeRecordBatch, splitBatches, readBatchHeader } from '../src/protocol/records/index.js';
import { startBroker } from '../src/server/broker.js';
import { decodeResponse, encodeRequest } from '../test/server/broker-harness.js';
import { RawClient } from '../test/server/raw-client.js';

const MIB = 1024 * 1024;
const totalBytes = Number(process.env.GREGOR_BENCH_MB ?? 256) * MIB;
const engine = process.env.GREGOR_BENCH_ENGINE ?? 'memory';
const IN_FLIGHT = 16;

function batchOfSize(size: number): Buffer {
  const valueSize = Math.floor((size - 61) / 100) - 12;
  return encodeRecordBatch({ records: Array.from({ length: 100 }, (_, i) => ({ timestamp: Date.now(), key: null, value: Buffer.alloc(valueSize, i) })) });
}

async function main(): Promise<void> {
  const dir = engine === 'file' ? mkdtempSync(join(tmpdir(), 'gregor-bench-')) : undefined;
  const broker = await startBroker(
    resolveBrokerConfig({ listeners: 'PLAINTEXT://127.0.0.1:0', 'gregor.log.engine': engine, ...(dir ? { 'log.dirs': dir } : {}), 'num.partitions': '1' }),
    { maxInFlightPerConnection: 1000 },
  );
  const port = broker.addresses[0]!.port;
  const client = await RawClient.connect(port);
  try {
    const template = batchOfSize(16 * 1024);
    const count = Math.floor(totalBytes / template.length);
    // Metadata auto-creation would do; creating directly keeps the run to Produce and Fetch.
    const request = (id: number) =>
      encodeRequest(produceApi, 9, { transactionalId: null, acks: 1, timeoutMs: 30_000, topicData: [{ topicId: ZERO_UUID, name: 'bench', partitionData: [{ index: 0, records: template }] }] }, id);
    await createTopic(port);
    let t0 = performance.now();
    let sent = 0;
    let received = 0;
    while (received < count) {
      while (sent < count && sent - received < IN_FLIGHT) client.send(request(++sent));
      const { response } = decodeResponse(produceApi, 9, await client.read());
      if (response.responses[0]!.partitionResponses[0]!.errorCode !== 0) throw new Error('produce failed');
      received++;
    }
    const produceS = (performance.now() - t0) / 1000;
    const produced = count * template.length;

    t0 = performance.now();
    let offset = 0n;
    let fetched = 0;
    let id = 1_000_000;
    while (fetched < produced) {
      const fetch = { ...createFetchRequest(), maxWaitMs: 0, maxBytes: 8 * MIB, topics: [{ topic: 'bench', topicId: 'AAAAAAAAAAAAAAAAAAAAAA', partitions: [{ ...createFetchPartition(), fetchOffset: offset, partitionMaxBytes: 8 * MIB }] }] };
      client.send(encodeRequest(fetchApi, 12, fetch, ++id));
      const { response } = decodeResponse(fetchApi, 12, await client.read());
      const records = response.responses[0]!.partitions[0]!.records as Buffer;
      const { batches } = splitBatches(records);
      const last = batches[batches.length - 1];
      if (last === undefined) throw new Error(`fetch at ${offset} returned nothing`);
      const header = readBatchHeader(records, last.pos);
      offset = BigInt(header.baseOffset + header.lastOffsetDelta + 1);
      fetched += records.length;
    }
    const fetchS = (performance.now() - t0) / 1000;
    const mb = produced / MIB;
    console.log(`engine ${engine}: ${count} batches of ${template.length} B (${mb.toFixed(0)} MiB, 100 records each)`);
    console.log(`  produce  ${(mb / produceS).toFixed(1)} MiB/s  ${((count * 100) / produceS / 1000).toFixed(0)}k records/s  (${IN_FLIGHT} requests in flight, acks=1)`);
    console.log(`  fetch    ${(fetched / MIB / fetchS).toFixed(1)} MiB/s  (8 MiB fetches, one at a time)`);
  } finally {
    await client.close();
    await broker.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}

/** Metadata with auto-creation creates the topic (num.partitions=1). */
async function createTopic(port: number): Promise<void> {
  const { metadataApi, createMetadataRequest } = await import('../src/protocol/generated/metadata.js');
  const c = await RawClient.connect(port);
  try {
    c.send(encodeRequest(metadataApi, 12, { ...createMetadataRequest(), topics: [{ name: 'bench', topicId: 'AAAAAAAAAAAAAAAAAAAAAA' }], allowAutoTopicCreation: true }, 1));
    await c.read();
  } finally {
    await c.close();
  }
}

await main();
