// A recording TCP proxy between Kafka clients and a broker. Each request frame and its response are written as
// one line of hex (the frame without its 4-byte size prefix) to
//   <out>/<NN>-<ApiName>-v<version>.request.hex   and   .response.hex
// NN counts requests in arrival order across all connections. Bytes are forwarded unchanged; a response is
// recorded before it is forwarded, so once a client has its answer the files exist.
//
// CLI: node dist/compat-tests/capture.js --listen <port> --upstream <host:port> --out <dir>   (runs until SIGINT/SIGTERM)
// The broker must advertise the proxy's port (reference/start.sh --advertised-port), or clients bypass it.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { apiName } from './wire/api-names.js';
import { FrameSplitter } from './wire/frame-splitter.js';

export interface CaptureOptions {
  listenPort: number;
  upstreamHost: string;
  upstreamPort: number;
  outDir: string;
}

export interface CaptureProxy {
  readonly port: number;
  /** Pairs written so far. */
  readonly recorded: number;
  /** Stops listening, closes open connections and removes request files that never got a response. */
  close(): Promise<void>;
}

interface PendingRequest {
  baseName: string;
}

export async function startCaptureProxy(options: CaptureOptions): Promise<CaptureProxy> {
  mkdirSync(options.outDir, { recursive: true });
  let sequence = 0;
  let recorded = 0;
  const sockets = new Set<Socket>();
  const unanswered = new Set<string>();

  const write = (baseName: string, kind: 'request' | 'response', frame: Buffer): void => {
    writeFileSync(join(options.outDir, `${baseName}.${kind}.hex`), frame.toString('hex') + '\n');
  };

  const server: Server = createServer((client) => {
    const upstream = connect(options.upstreamPort, options.upstreamHost);
    sockets.add(client);
    sockets.add(upstream);
    // Responses are matched by correlation id: a request with acks=0 gets none, so order alone is not enough.
    const inFlight = new Map<number, PendingRequest>();
    const requests = new FrameSplitter();
    const responses = new FrameSplitter();

    client.on('data', (chunk: Buffer) => {
      try {
        for (const frame of requests.push(chunk)) {
          if (frame.length < 8) throw new Error(`request frame of ${frame.length} bytes has no header`);
          const key = frame.readInt16BE(0);
          const version = frame.readInt16BE(2);
          const correlationId = frame.readInt32BE(4);
          sequence += 1;
          const baseName = `${String(sequence).padStart(2, '0')}-${apiName(key)}-v${version}`;
          write(baseName, 'request', frame);
          unanswered.add(baseName);
          inFlight.set(correlationId, { baseName });
        }
      } catch (error) {
        console.error(`capture: ${(error as Error).message}; closing that connection`);
        client.destroy();
        upstream.destroy();
        return;
      }
      upstream.write(chunk);
    });

    upstream.on('data', (chunk: Buffer) => {
      try {
        for (const frame of responses.push(chunk)) {
          if (frame.length < 4) throw new Error(`response frame of ${frame.length} bytes has no correlation id`);
          const request = inFlight.get(frame.readInt32BE(0));
          if (request === undefined) continue;
          inFlight.delete(frame.readInt32BE(0));
          write(request.baseName, 'response', frame);
          unanswered.delete(request.baseName);
          recorded += 1;
        }
      } catch (error) {
        console.error(`capture: ${(error as Error).message}; closing that connection`);
        client.destroy();
        upstream.destroy();
        return;
      }
      client.write(chunk);
    });

    const closeBoth = (): void => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('close', closeBoth);
    upstream.on('close', closeBoth);
    client.on('error', closeBoth);
    upstream.on('error', closeBoth);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.listenPort, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : options.listenPort;

  return {
    port,
    get recorded() {
      return recorded;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      // A request cut off by the client's exit has no pair; leaving it would make regenerated fixtures vary.
      for (const baseName of unanswered) rmSync(join(options.outDir, `${baseName}.request.hex`), { force: true });
    },
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { listen: { type: 'string' }, upstream: { type: 'string' }, out: { type: 'string' } },
  });
  const [host, portText] = (values.upstream ?? '').split(':');
  if (!values.listen || !host || !portText || !values.out) {
    console.error('usage: capture.js --listen <port> --upstream <host:port> --out <dir>');
    process.exit(2);
  }
  const proxy = await startCaptureProxy({
    listenPort: Number(values.listen),
    upstreamHost: host,
    upstreamPort: Number(portText),
    outDir: values.out,
  });
  console.error(`capture: 127.0.0.1:${proxy.port} -> ${values.upstream}, writing ${values.out}`);
  const stop = (): void => {
    void proxy.close().then(() => {
      console.error(`capture: ${proxy.recorded} request/response pairs`);
      process.exit(0);
    });
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  void main();
}
