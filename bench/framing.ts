// Framing throughput: frames through one connection of an in-process broker (client and broker share
// the event loop, so this is the cost of both ends). Two loads:
//  - many small pipelined ApiVersions v0 requests, up to PIPELINE in flight (responses ~200 B);
//  - large frames: ApiVersions v0 requests padded to 1 MiB (the broker ignores trailing bytes, as
//    Kafka does), so framing and buffering dominate.
//
//   npx tsc -p . && node dist/bench/framing.js
import { connect, type Socket } from 'node:net';
import { pathToFileURL } from 'node:url';
import { resolveBrokerConfig } from '../src/config/index.js';
import { apiVersionsApi } from '../src/protocol/generated/api-versions.js';
import { encodeRequestHeader, requestHeaderVersion } from '../src/protocol/generated/headers.js';
import { Writer } from '../src/protocol/io/writer.js';
import { startBroker } from '../src/server/broker.js';
import { FrameDecoder } from '../src/server/frame-decoder.js';

export interface FramingBenchResult {
  name: string;
  frames: number;
  framesPerSec: number;
  /** Request and response bytes (size prefixes included) per second. */
  mbPerSec: number;
}

const RUN_MS = 2000;

function apiVersionsFrame(padding: number): Buffer {
  const w = new Writer();
  w.int32(0);
  encodeRequestHeader(w, { requestApiKey: apiVersionsApi.apiKey, requestApiVersion: 0, correlationId: 1, clientId: 'bench' }, requestHeaderVersion(18, 0));
  apiVersionsApi.encodeRequest(w, { clientSoftwareName: '', clientSoftwareVersion: '' }, 0);
  if (padding > 0) w.raw(Buffer.alloc(padding));
  w.patchInt32(0, w.length - 4);
  return w.toBuffer();
}

/** Keeps `pipeline` requests in flight on one socket for RUN_MS and counts the responses. */
function drive(socket: Socket, frame: Buffer, pipeline: number, batch: number): Promise<{ frames: number; bytes: number; seconds: number }> {
  return new Promise((resolve) => {
    const decoder = new FrameDecoder(1 << 30);
    const start = process.hrtime.bigint();
    let inFlight = 0;
    let frames = 0;
    let responseBytes = 0;
    let stopping = false;
    const batchBytes = Buffer.concat(Array.from({ length: batch }, () => frame));
    const refill = () => {
      while (!stopping && inFlight + batch <= pipeline) {
        socket.write(batchBytes);
        inFlight += batch;
      }
    };
    socket.on('data', (chunk: Buffer) => {
      decoder.push(chunk);
      for (let f = decoder.next(); f !== null; f = decoder.next()) {
        frames++;
        inFlight--;
        responseBytes += f.length + 4;
      }
      const elapsed = process.hrtime.bigint() - start;
      if (!stopping && elapsed >= BigInt(RUN_MS) * 1_000_000n) stopping = true;
      if (stopping && inFlight === 0) {
        const seconds = Number(process.hrtime.bigint() - start) / 1e9;
        resolve({ frames, bytes: frames * frame.length + responseBytes, seconds });
        return;
      }
      refill();
    });
    refill();
  });
}

export async function runFramingBench(): Promise<FramingBenchResult[]> {
  const broker = await startBroker(resolveBrokerConfig({ listeners: 'PLAINTEXT://127.0.0.1:0', 'gregor.log.engine': 'memory' }));
  const { port } = broker.addresses[0]!;
  const results: FramingBenchResult[] = [];
  const loads = [
    { name: 'ApiVersions v0, pipelined x64', frame: apiVersionsFrame(0), pipeline: 64, batch: 16 },
    { name: 'ApiVersions v0 padded to 1 MiB, pipelined x4', frame: apiVersionsFrame(1024 * 1024 - 20), pipeline: 4, batch: 1 },
  ];
  try {
    for (const load of loads) {
      const socket = await new Promise<Socket>((resolve, reject) => {
        const s = connect({ port, host: '127.0.0.1' }, () => resolve(s));
        s.once('error', reject);
      });
      socket.setNoDelay(true);
      const { frames, bytes, seconds } = await drive(socket, load.frame, load.pipeline, load.batch);
      socket.destroy();
      results.push({ name: load.name, frames, framesPerSec: frames / seconds, mbPerSec: bytes / seconds / (1024 * 1024) });
    }
  } finally {
    await broker.close();
  }
  return results;
}

function print(results: FramingBenchResult[]): void {
  for (const r of results) {
    const rate = Math.round(r.framesPerSec).toLocaleString('en-US');
    console.log(`${r.name.padEnd(48)} ${rate.padStart(9)} frames/s  ${r.mbPerSec.toFixed(1).padStart(8)} MB/s`);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  print(await runFramingBench());
}
