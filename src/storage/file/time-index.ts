// The sparse time index (.timeindex): 12-byte big-endian entries (timestamp int64, offset relative to the
// segment's base int32). An entry is added only when the segment's max timestamp grows, so timestamps
// and offsets both increase. Kept in memory like OffsetIndex; the file receives new entries on flush,
// roll and close.

import { readInt64, writeInt64 } from '../../protocol/records/batch.js';

export const TIME_ENTRY_SIZE = 12;

export interface TimestampOffsetEntry {
  timestamp: number;
  offset: number;
}

export class TimeIndex {
  private timestamps: Float64Array;
  private relOffsets: Int32Array;
  private count = 0;
  persisted = 0;

  constructor(readonly baseOffset: number, readonly maxEntries: number) {
    this.timestamps = new Float64Array(16);
    this.relOffsets = new Int32Array(16);
  }

  get entries(): number {
    return this.count;
  }
  isFull(): boolean {
    return this.count >= this.maxEntries;
  }
  /** The newest entry, or (-1, base offset) when empty. */
  lastEntry(): TimestampOffsetEntry {
    return this.count === 0 ? { timestamp: -1, offset: this.baseOffset } : this.entry(this.count - 1);
  }
  entry(i: number): TimestampOffsetEntry {
    return { timestamp: this.timestamps[i]!, offset: this.baseOffset + this.relOffsets[i]! };
  }

  /** Append when the timestamp is newer than the last entry's (`force` ignores fullness, as on roll). */
  maybeAppend(timestamp: number, offset: number, force = false): void {
    if (!force && this.isFull()) return;
    // An empty index's last entry is (no timestamp, base offset): a segment without timestamps gets none.
    if (timestamp < 0) return;
    if (this.count > 0) {
      const last = this.lastEntry();
      if (timestamp <= last.timestamp || offset < last.offset) return;
    }
    if (this.count === this.timestamps.length) this.grow();
    this.timestamps[this.count] = timestamp;
    this.relOffsets[this.count] = offset - this.baseOffset;
    this.count++;
  }

  /** The entry with the largest timestamp <= target, or (-1, base offset). */
  lookup(target: number): TimestampOffsetEntry {
    let lo = 0;
    let hi = this.count - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (this.timestamps[mid]! <= target) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found < 0 ? { timestamp: -1, offset: this.baseOffset } : this.entry(found);
  }

  truncateTo(target: number): void {
    while (this.count > 0 && this.baseOffset + this.relOffsets[this.count - 1]! >= target) this.count--;
    this.persisted = Math.min(this.persisted, this.count);
  }

  unpersistedBytes(): Buffer {
    const buf = Buffer.alloc((this.count - this.persisted) * TIME_ENTRY_SIZE);
    for (let i = this.persisted; i < this.count; i++) {
      const at = (i - this.persisted) * TIME_ENTRY_SIZE;
      writeInt64(buf, at, this.timestamps[i]!);
      buf.writeInt32BE(this.relOffsets[i]!, at + 8);
    }
    return buf;
  }

  /** False when the bytes cannot be trusted (partial entry, not increasing, offset beyond `maxOffset`). */
  load(bytes: Buffer, maxOffset: number): boolean {
    if (bytes.length % TIME_ENTRY_SIZE !== 0) return false;
    this.count = 0;
    for (let at = 0; at < bytes.length; at += TIME_ENTRY_SIZE) {
      const timestamp = readInt64(bytes, at);
      const rel = bytes.readInt32BE(at + 8);
      // Kafka's preallocated files end in zero entries; a trailing (0, 0) after real ones is padding.
      if (timestamp === 0 && rel === 0 && this.count > 0) break;
      if (rel < 0 || this.baseOffset + rel > maxOffset) return false;
      if (this.count > 0 && (timestamp <= this.timestamps[this.count - 1]! || rel < this.relOffsets[this.count - 1]!)) return false;
      if (this.count === this.timestamps.length) this.grow();
      this.timestamps[this.count] = timestamp;
      this.relOffsets[this.count] = rel;
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
    const size = this.timestamps.length * 2;
    const t = new Float64Array(size);
    t.set(this.timestamps);
    const r = new Int32Array(size);
    r.set(this.relOffsets);
    this.timestamps = t;
    this.relOffsets = r;
  }
}
