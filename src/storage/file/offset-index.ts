// The sparse offset index (.index): 8-byte big-endian entries (offset relative to the segment's base,
// int32; byte position in the .log, int32), one every index.interval.bytes. Node has no mmap, so the
// entries live in memory and the file receives the new ones on flush, roll and close; it is not
// preallocated (Kafka preallocates only because it maps the file).

export const OFFSET_ENTRY_SIZE = 8;

export interface OffsetPosition {
  offset: number;
  position: number;
}

export class OffsetIndex {
  private relOffsets: Int32Array;
  private positions: Int32Array;
  private count = 0;
  /** Entries already in the file. */
  persisted = 0;

  constructor(readonly baseOffset: number, readonly maxEntries: number) {
    this.relOffsets = new Int32Array(16);
    this.positions = new Int32Array(16);
  }

  get entries(): number {
    return this.count;
  }
  isFull(): boolean {
    return this.count >= this.maxEntries;
  }
  lastEntry(): OffsetPosition {
    return this.count === 0 ? { offset: this.baseOffset, position: 0 } : this.entry(this.count - 1);
  }
  entry(i: number): OffsetPosition {
    return { offset: this.baseOffset + this.relOffsets[i]!, position: this.positions[i]! };
  }

  append(offset: number, position: number): void {
    if (this.isFull()) return;
    if (this.count > 0 && offset <= this.baseOffset + this.relOffsets[this.count - 1]!) return;
    if (this.count === this.relOffsets.length) this.grow();
    this.relOffsets[this.count] = offset - this.baseOffset;
    this.positions[this.count] = position;
    this.count++;
  }

  /** The largest entry with offset <= target, or (base offset, 0). */
  lookup(target: number): OffsetPosition {
    const rel = target - this.baseOffset;
    let lo = 0;
    let hi = this.count - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (this.relOffsets[mid]! <= rel) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found < 0 ? { offset: this.baseOffset, position: 0 } : this.entry(found);
  }

  /** Drop entries for offsets >= target. */
  truncateTo(target: number): void {
    while (this.count > 0 && this.baseOffset + this.relOffsets[this.count - 1]! >= target) this.count--;
    this.persisted = Math.min(this.persisted, this.count);
  }

  /** Entries not yet in the file, ready to write at byte persisted * 8. */
  unpersistedBytes(): Buffer {
    const buf = Buffer.alloc((this.count - this.persisted) * OFFSET_ENTRY_SIZE);
    for (let i = this.persisted; i < this.count; i++) {
      const at = (i - this.persisted) * OFFSET_ENTRY_SIZE;
      buf.writeInt32BE(this.relOffsets[i]!, at);
      buf.writeInt32BE(this.positions[i]!, at + 4);
    }
    return buf;
  }

  /**
   * Load entries from file bytes. False when they cannot be trusted (Kafka's sanity check): a partial
   * entry, offsets not increasing, or a position past the end of the log.
   */
  load(bytes: Buffer, logSize: number): boolean {
    if (bytes.length % OFFSET_ENTRY_SIZE !== 0) return false;
    this.count = 0;
    for (let at = 0; at < bytes.length; at += OFFSET_ENTRY_SIZE) {
      const rel = bytes.readInt32BE(at);
      const position = bytes.readInt32BE(at + 4);
      if (position < 0 || position >= logSize || rel < 0) return false;
      if (this.count > 0 && rel <= this.relOffsets[this.count - 1]!) return false;
      if (this.count === this.relOffsets.length) this.grow();
      this.relOffsets[this.count] = rel;
      this.positions[this.count] = position;
      this.count++;
    }
    this.persisted = this.count;
    return true;
  }

  reset(): void {
    this.count = 0;
    this.persisted = 0;
  }

  private grow(): void {
    const size = this.relOffsets.length * 2;
    const r = new Int32Array(size);
    r.set(this.relOffsets);
    const p = new Int32Array(size);
    p.set(this.positions);
    this.relOffsets = r;
    this.positions = p;
  }
}
