// A small inter-broker client: one TCP connection to another broker's listener, requests encoded with the
// protocol's generated codecs and matched to their responses by correlation id (pipelined, answered in order).
// A follower's fetcher uses it to reach its leader. PLAINTEXT only for now; any socket error or close fails what
// is in flight and the connection is not reused.
import { connect, type Socket } from 'node:net';
import type { ApiDescriptor } from '../protocol/generated/api-descriptor.js';
import { decodeResponseHeader, encodeRequestHeader, requestHeaderVersion, responseHeaderVersion } from '../protocol/generated/headers.js';
import { Reader } from '../protocol/io/reader.js';
import { Writer } from '../protocol/io/writer.js';

interface InFlight {
  readonly correlationId: number;
  readonly resolve: (frame: Buffer) => void;
  readonly reject: (err: Error) => void;
}

export class BrokerClient {
  private nextCorrelationId = 1;
  private readonly inFlight: InFlight[] = [];
  /** Received bytes not yet split into frames, and their total length. */
  private chunks: Buffer[] = [];
  private buffered = 0;
  private failure: Error | undefined;

  private constructor(private readonly socket: Socket, private readonly clientId: string) {
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.received(chunk));
    socket.on('error', (err) => this.fail(err));
    socket.on('close', () => this.fail(new Error('connection closed')));
  }

  static connect(host: string, port: number, clientId: string, timeoutMs: number): Promise<BrokerClient> {
    return new Promise((resolve, reject) => {
      const socket = connect({ host, port });
      const timer = setTimeout(() => socket.destroy(new Error(`connecting to ${host}:${port} timed out`)), timeoutMs);
      socket.once('connect', () => {
        clearTimeout(timer);
        resolve(new BrokerClient(socket, clientId));
      });
      socket.once('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
    });
  }

  get broken(): boolean {
    return this.failure !== undefined;
  }

  /** Sends the request and resolves with its decoded response; rejects if the connection fails or `timeoutMs` passes. */
  request<Req, Res>(api: ApiDescriptor<Req, Res>, version: number, request: Req, timeoutMs: number): Promise<Res> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    const correlationId = this.nextCorrelationId++;
    const w = new Writer();
    w.int32(0);
    encodeRequestHeader(w, { requestApiKey: api.apiKey, requestApiVersion: version, correlationId, clientId: this.clientId }, requestHeaderVersion(api.apiKey, version));
    api.encodeRequest(w, request, version);
    const frame = w.toBuffer();
    frame.writeInt32BE(frame.length - 4, 0);
    return new Promise<Buffer>((resolve, reject) => {
      const timer = setTimeout(() => this.fail(new Error(`${api.name} v${version} got no answer in ${timeoutMs} ms`)), timeoutMs);
      this.inFlight.push({
        correlationId,
        resolve: (body) => { clearTimeout(timer); resolve(body); },
        reject: (err) => { clearTimeout(timer); reject(err); },
      });
      this.socket.write(frame);
    }).then((body) => {
      const r = new Reader(body);
      const header = decodeResponseHeader(r, responseHeaderVersion(api.apiKey, version));
      if (header.correlationId !== correlationId) throw new Error(`correlation id ${header.correlationId}, expected ${correlationId}`);
      return api.decodeResponse(r, version);
    });
  }

  close(): void {
    this.fail(new Error('closed'));
  }

  private received(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    while (this.buffered >= 4) {
      if (this.chunks[0]!.length < 4) this.chunks = [Buffer.concat(this.chunks)];
      const size = this.chunks[0]!.readInt32BE(0);
      if (this.buffered < 4 + size) break;
      // One copy of the frame: the decoded records are kept (appended to the log) after the chunks are gone.
      const all = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.buffered);
      const body = Buffer.from(all.subarray(4, 4 + size));
      const rest = all.subarray(4 + size);
      this.chunks = rest.length === 0 ? [] : [rest];
      this.buffered = rest.length;
      const next = this.inFlight.shift();
      if (next === undefined) return this.fail(new Error('a response nobody asked for'));
      next.resolve(body);
    }
  }

  private fail(err: Error): void {
    if (this.failure === undefined) this.failure = err;
    this.socket.destroy();
    for (const waiting of this.inFlight.splice(0)) waiting.reject(this.failure);
  }
}
