// A bare TCP client for server tests: writes frames, reads size-prefixed frames back, notices close.
import { connect, type Socket } from 'node:net';
import { connect as connectTls, type ConnectionOptions } from 'node:tls';
import { FrameDecoder } from '../../src/server/frame-decoder.js';

export class RawClient {
  private readonly decoder = new FrameDecoder(1 << 30);
  private readonly frames: Buffer[] = [];
  private waiters: (() => void)[] = [];
  closed = false;
  readonly whenClosed: Promise<void>;

  private constructor(readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.decoder.push(chunk);
      for (let f = this.decoder.next(); f !== null; f = this.decoder.next()) this.frames.push(f);
      this.wake();
    });
    socket.on('error', () => {});
    this.whenClosed = new Promise((resolve) =>
      socket.on('close', () => {
        this.closed = true;
        this.wake();
        resolve();
      }),
    );
  }

  /** `localAddress`: the address to connect from (any 127.x address is this machine on Linux). */
  static connect(port: number, host = '127.0.0.1', localAddress?: string): Promise<RawClient> {
    return new Promise((resolve, reject) => {
      const socket = connect({ port, host, ...(localAddress === undefined ? {} : { localAddress }) }, () => resolve(new RawClient(socket)));
      socket.once('error', reject);
    });
  }

  /** Over TLS: resolves once the handshake succeeded, rejects with the TLS error (or alert) otherwise. */
  static connectTls(port: number, options: ConnectionOptions, host = '127.0.0.1'): Promise<RawClient> {
    return new Promise((resolve, reject) => {
      const socket = connectTls({ port, host, ...options }, () => resolve(new RawClient(socket)));
      socket.once('error', reject);
    });
  }

  /** Writes a frame: the 4-byte size, then the body. */
  send(body: Buffer): void {
    this.socket.write(sizePrefixed(body));
  }

  sendRaw(bytes: Buffer): void {
    this.socket.write(bytes);
  }

  /** The next response frame (without its size); rejects if the connection closes first. */
  async read(): Promise<Buffer> {
    for (;;) {
      const frame = this.frames.shift();
      if (frame !== undefined) return frame;
      if (this.closed) throw new Error('connection closed before a response arrived');
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  get received(): number {
    return this.frames.length;
  }

  close(): Promise<void> {
    this.socket.destroy();
    return this.whenClosed;
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}

export function sizePrefixed(body: Buffer): Buffer {
  const size = Buffer.alloc(4);
  size.writeInt32BE(body.length);
  return Buffer.concat([size, body]);
}

/** Resolves after the event loop has turned `n` times (lets I/O callbacks run). */
export async function turns(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

/** Polls (by event-loop turns, bounded in count) until the condition holds. */
export async function until(condition: () => boolean, what: string, maxTurns = 200_000): Promise<void> {
  for (let i = 0; i < maxTurns; i++) {
    if (condition()) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  throw new Error(`gave up waiting for: ${what}`);
}
