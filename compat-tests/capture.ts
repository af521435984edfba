// A recording TCP proxy between Kafka clients and a broker. Each request frame and its response are written as
// one line of hex (the frame without its 4-byte size prefix) to
//   <out>/<NN>-<ApiName>-v<version>.request.hex   and   .response.hex
// NN counts requests in arrival order across all connections. Bytes are forwarded unchanged (but see `advertised`);
// a response is recorded before it is forwarded, so once a client has its answer the files exist.
//
// CLI: node dist/compat-tests/capture.js --listen <port> --upstream <host:port> --out <dir> [--rename-upstream]
// (runs until SIGINT/SIGTERM; --rename-upstream: the broker advertises the upstream address, see `advertised`)
// The broker must advertise the proxy's port (reference/start.sh --advertised-port), or clients bypass it; a broker
// that cannot be told (one already running) is covered by `advertised`, which rewrites its address in responses.
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
  /** Where the hex files go; without it nothing is written (the request log is kept). */
  outDir?: string;
  /**
   * The address the broker advertises, when it names itself rather than the proxy: responses that name it
   * (Metadata, FindCoordinator, DescribeCluster) are forwarded naming the proxy's port instead, so a client's later
   * connections come back through the proxy. Only those 4 port bytes change; the files keep the broker's bytes.
   */
  advertised?: { host: string; port: number };
}

/** One request seen, in arrival order across connections. */
export interface CapturedRequest {
  apiKey: number;
  version: number;
}

export interface CaptureProxy {
  readonly port: number;
  /** Pairs recorded so far. */
  readonly recorded: number;
  /** Every request forwarded so far (including those that get no response, such as Produce with acks=0). */
  readonly requests: readonly CapturedRequest[];
  /** Responses whose advertised address was renamed to the proxy's (see `advertised`). */
  readonly renamed: number;
  /** Stops listening, closes open connections and removes request files that never got a response. */
  close(): Promise<void>;
}

interface PendingRequest {
  baseName: string;
  apiKey: number;
}

/** The APIs whose responses name brokers by host and port (a host string is followed by the int32 port in each). */
const NAMING_BROKERS = new Set([3 /* Metadata */, 10 /* FindCoordinator */, 60 /* DescribeCluster */]);

/** Replaces the port after each occurrence of `host` + `port` in a response frame with `proxyPort` (same length). */
export function rewriteAdvertisedPort(frame: Buffer, host: string, port: number, proxyPort: number): Buffer {
  const needle = Buffer.alloc(host.length + 4);
  needle.write(host, 0, 'latin1');
  needle.writeInt32BE(port, host.length);
  let at = frame.indexOf(needle);
  if (at < 0) return frame;
  const copy = Buffer.from(frame);
  while (at >= 0) {
    copy.writeInt32BE(proxyPort, at + host.length);
    at = copy.indexOf(needle, at + needle.length);
  }
  return copy;
}

function sized(frame: Buffer): Buffer {
  const size = Buffer.alloc(4);
  size.writeInt32BE(frame.length);
  return Buffer.concat([size, frame]);
}

export async function startCaptureProxy(options: CaptureOptions): Promise<CaptureProxy> {
  const { outDir, advertised } = options;
  if (outDir !== undefined) mkdirSync(outDir, { recursive: true });
  let sequence = 0;
  let recorded = 0;
  let renamed = 0;
  let listenPort = options.listenPort;
  const log: CapturedRequest[] = [];
  const sockets = new Set<Socket>();
  const unanswered = new Set<string>();

  const write = (baseName: string, kind: 'request' | 'response', frame: Buffer): void => {
    if (outDir !== undefined) writeFileSync(join(outDir, `${baseName}.${kind}.hex`), frame.toString('hex') + '\n');
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
          log.push({ apiKey: key, version });
          unanswered.add(baseName);
          inFlight.set(correlationId, { baseName, apiKey: key });
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
      // Rewriting forwards whole frames (a response is held until it is complete); otherwise bytes pass as they come.
      const forwarded: Buffer[] = [];
      try {
        for (const frame of responses.push(chunk)) {
          if (frame.length < 4) throw new Error(`response frame of ${frame.length} bytes has no correlation id`);
          const request = inFlight.get(frame.readInt32BE(0));
          if (request !== undefined) {
            inFlight.delete(frame.readInt32BE(0));
            write(request.baseName, 'response', frame);
            unanswered.delete(request.baseName);
            recorded += 1;
          }
          if (advertised === undefined) continue;
          const namesBrokers = request !== undefined && NAMING_BROKERS.has(request.apiKey);
          const answer = namesBrokers ? rewriteAdvertisedPort(frame, advertised.host, advertised.port, listenPort) : frame;
          if (answer !== frame) renamed += 1;
          forwarded.push(sized(answer));
        }
      } catch (error) {
        console.error(`capture: ${(error as Error).message}; closing that connection`);
        client.destroy();
        upstream.destroy();
        return;
      }
      if (advertised === undefined) client.write(chunk);
      else for (const frame of forwarded) client.write(frame);
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
  listenPort = typeof address === 'object' && address !== null ? address.port : options.listenPort;

  return {
    port: listenPort,
    get recorded() {
      return recorded;
    },
    requests: log,
    get renamed() {
      return renamed;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      // A request cut off by the client's exit has no pair; leaving it would make regenerated fixtures vary.
      if (outDir !== undefined) for (const baseName of unanswered) rmSync(join(outDir, `${baseName}.request.hex`), { force: true });
    },
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { listen: { type: 'string' }, upstream: { type: 'string' }, out: { type: 'string' }, 'rename-upstream': { type: 'boolean' } },
  });
  const [host, portText] = (values.upstream ?? '').split(':');
  if (!values.listen || !host || !portText || !values.out) {
    console.error('usage: capture.js --listen <port> --upstream <host:port> --out <dir> [--rename-upstream]');
    process.exit(2);
  }
  const proxy = await startCaptureProxy({
    listenPort: Number(values.listen),
    upstreamHost: host,
    upstreamPort: Number(portText),
    outDir: values.out,
    ...(values['rename-upstream'] === true ? { advertised: { host, port: Number(portText) } } : {}),
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
