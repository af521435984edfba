// Codec throughput: decode and encode rates of a Produce v9 request holding one 16 KiB record batch,
// and of a Metadata v12 response describing 1,000 partitions.
//
//   npx tsc -p . && node dist/bench/codec.js
import { ZERO_UUID } from '../src/protocol/uuid.js';
import { pathToFileURL } from 'node:url';
import { Reader } from '../src/protocol/io/reader.js';
import { Writer } from '../src/protocol/io/writer.js';
import { decodeProduceRequest, encodeProduceRequest, type ProduceRequest } from '../src/protocol/generated/produce.js';
import {
  createMetadataResponse,
  decodeMetadataResponse,
  encodeMetadataResponse,
  type MetadataResponse,
} from '../src/protocol/generated/metadata.js';

export interface CodecBenchResult {
  name: string;
  bytes: number;
  opsPerSec: number;
  mbPerSec: number;
}

const RUN_MS = 1000;

function measure(name: string, bytes: number, op: () => void): CodecBenchResult {
  for (let i = 0; i < 2000; i++) op(); // warm up the JIT
  let ops = 0;
  const start = process.hrtime.bigint();
  const limit = BigInt(RUN_MS) * 1_000_000n;
  let elapsed = 0n;
  while (elapsed < limit) {
    for (let i = 0; i < 200; i++) op();
    ops += 200;
    elapsed = process.hrtime.bigint() - start;
  }
  const seconds = Number(elapsed) / 1e9;
  const opsPerSec = ops / seconds;
  return { name, bytes, opsPerSec, mbPerSec: (opsPerSec * bytes) / (1024 * 1024) };
}

function produceRequest(): ProduceRequest {
  const batch = Buffer.alloc(16 * 1024);
  for (let i = 0; i < batch.length; i++) batch[i] = (i * 31) & 0xff;
  return {
    transactionalId: null,
    acks: -1,
    timeoutMs: 30000,
    topicData: [{ topicId: ZERO_UUID, name: 'bench-topic', partitionData: [{ index: 0, records: batch }] }],
  };
}

function metadataResponse(): MetadataResponse {
  const m = createMetadataResponse();
  m.brokers = [{ nodeId: 1, host: 'localhost', port: 9092, rack: null }];
  m.clusterId = 'gregor-bench-cluster';
  m.controllerId = 1;
  for (let t = 0; t < 10; t++) {
    const topicId = Buffer.alloc(16, t + 1).toString('base64url');
    const partitions = [];
    for (let p = 0; p < 100; p++) {
      partitions.push({ errorCode: 0, partitionIndex: p, leaderId: 1, leaderEpoch: 0, replicaNodes: [1, 2, 3], isrNodes: [1, 2, 3], offlineReplicas: [] });
    }
    m.topics.push({ errorCode: 0, name: `topic-${t}`, topicId, isInternal: false, partitions, topicAuthorizedOperations: -2147483648 });
  }
  return m;
}

export function runCodecBench(): CodecBenchResult[] {
  const results: CodecBenchResult[] = [];

  const produce = produceRequest();
  const pw = new Writer();
  encodeProduceRequest(pw, produce, 9);
  const produceBytes = pw.toBuffer();
  results.push(measure('Produce v9 request (16 KiB batch) decode', produceBytes.length, () => {
    decodeProduceRequest(new Reader(produceBytes), 9);
  }));
  results.push(measure('Produce v9 request (16 KiB batch) encode', produceBytes.length, () => {
    const w = new Writer(256);
    encodeProduceRequest(w, produce, 9);
    w.finish();
  }));

  const metadata = metadataResponse();
  const mw = new Writer();
  encodeMetadataResponse(mw, metadata, 12);
  const metadataBytes = mw.toBuffer();
  results.push(measure('Metadata v12 response (1,000 partitions) decode', metadataBytes.length, () => {
    decodeMetadataResponse(new Reader(metadataBytes), 12);
  }));
  results.push(measure('Metadata v12 response (1,000 partitions) encode', metadataBytes.length, () => {
    const w = new Writer(64 * 1024);
    encodeMetadataResponse(w, metadata, 12);
    w.finish();
  }));
  return results;
}

function print(results: CodecBenchResult[]): void {
  for (const r of results) {
    const ops = Math.round(r.opsPerSec).toLocaleString('en-US');
    console.log(`${r.name.padEnd(50)} ${String(r.bytes).padStart(7)} B  ${ops.padStart(11)} ops/s  ${r.mbPerSec.toFixed(1).padStart(9)} MB/s`);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  print(runCodecBench());
}
