/**
 * Splits a TCP byte stream into Kafka frames: a big-endian int32 size, then that many bytes.
 *
 * Pull-based, so a connection that is over its in-flight cap can leave complete frames buffered
 * here and take them later. A frame that lies inside one received chunk is returned as a view
 * (no copy); only a frame spanning chunks is copied, once, into a buffer of exactly its size.
 * The size is checked against the limit as soon as the 4 prefix bytes are in, before anything is
 * allocated for the body.
 */
export class FrameError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FrameError';
  }
}

const SIZE_PREFIX = 4;
const EMPTY = Buffer.alloc(0);

export class FrameDecoder {
  private chunks: Buffer[] = [];
  /** Index of the first chunk with unread bytes, and the read position inside it. */
  private head = 0;
  private headOffset = 0;
  /** Unread bytes across all chunks. */
  private buffered = 0;
  /** Size of the frame whose prefix has been read, or -1 while waiting for a prefix. */
  private frameSize = -1;

  constructor(private maxFrameBytes: number, private limitKey = 'socket.request.max.bytes') {}

  /** Bounds the frames read from now on (a SASL connection reads sasl.server.max.receive.size until authenticated). */
  limit(maxFrameBytes: number, key: string): void {
    this.maxFrameBytes = maxFrameBytes;
    this.limitKey = key;
  }

  push(chunk: Buffer): void {
    if (chunk.length === 0) return;
    this.chunks.push(chunk);
    this.buffered += chunk.length;
  }

  /** Drops everything buffered (the connection is gone). */
  clear(): void {
    this.chunks = [];
    this.head = 0;
    this.headOffset = 0;
    this.buffered = 0;
    this.frameSize = -1;
  }

  /** Bytes received but not yet returned as frames. */
  get bufferedBytes(): number {
    return this.buffered;
  }

  /** The next complete frame (without its size prefix), or null until more bytes arrive. Throws FrameError on a bad size. */
  next(): Buffer | null {
    if (this.frameSize < 0) {
      if (this.buffered < SIZE_PREFIX) return null;
      const size = this.readSize();
      if (size < 0) throw new FrameError(`invalid frame size ${size}`);
      if (size > this.maxFrameBytes) {
        throw new FrameError(`frame size ${size} is larger than ${this.limitKey} (${this.maxFrameBytes})`);
      }
      this.frameSize = size;
    }
    if (this.buffered < this.frameSize) return null;
    const frame = this.take(this.frameSize);
    this.frameSize = -1;
    return frame;
  }

  private readSize(): number {
    const chunk = this.chunks[this.head]!;
    if (chunk.length - this.headOffset >= SIZE_PREFIX) {
      const size = chunk.readInt32BE(this.headOffset);
      this.consume(SIZE_PREFIX);
      return size;
    }
    return this.take(SIZE_PREFIX).readInt32BE(0);
  }

  /** Returns the next n buffered bytes: a view when they lie in one chunk, else one copy. */
  private take(n: number): Buffer {
    if (n === 0) return EMPTY;
    const chunk = this.chunks[this.head]!;
    if (chunk.length - this.headOffset >= n) {
      const view = chunk.subarray(this.headOffset, this.headOffset + n);
      this.consume(n);
      return view;
    }
    const out = Buffer.allocUnsafe(n);
    let filled = 0;
    while (filled < n) {
      const current = this.chunks[this.head]!;
      const copied = current.copy(out, filled, this.headOffset, Math.min(current.length, this.headOffset + n - filled));
      filled += copied;
      this.consume(copied);
    }
    return out;
  }

  private consume(n: number): void {
    this.buffered -= n;
    this.headOffset += n;
    if (this.headOffset === this.chunks[this.head]!.length) {
      this.headOffset = 0;
      this.head += 1;
      if (this.head === this.chunks.length) {
        this.chunks = [];
        this.head = 0;
      } else if (this.head >= 64) {
        // Drop consumed chunk references now and then instead of shifting on every frame.
        this.chunks = this.chunks.slice(this.head);
        this.head = 0;
      }
    }
  }
}
