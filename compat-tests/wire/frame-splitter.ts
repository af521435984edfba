// Splits a TCP byte stream into Kafka frames: a 4-byte big-endian size, then that many bytes.
// Yields each frame without its size prefix.

/** Larger than any frame a client or broker sends in these captures; a bigger size means the stream is not Kafka. */
const MAX_FRAME_BYTES = 256 * 1024 * 1024;

export class FrameSplitter {
  private pending: Buffer = Buffer.alloc(0);

  /** Adds received bytes and returns every frame they complete. Throws on a negative or absurd size. */
  push(chunk: Buffer): Buffer[] {
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    const frames: Buffer[] = [];
    while (this.pending.length >= 4) {
      const size = this.pending.readInt32BE(0);
      if (size < 0 || size > MAX_FRAME_BYTES) throw new Error(`frame size ${size} is not a Kafka frame`);
      if (this.pending.length < 4 + size) break;
      frames.push(this.pending.subarray(4, 4 + size));
      this.pending = this.pending.subarray(4 + size);
    }
    return frames;
  }
}
