// The cleaner's key → latest offset map (Kafka's SkimpyOffsetMap): a fixed-size open-addressing table of
// 16-byte MD5 key hashes and offsets, sized by log.cleaner.dedupe.buffer.size. Two keys whose hashes collide
// are treated as one, as in Kafka (MD5 makes that vanishingly rare). Memory is allocated once and reused.
import { cryptoModule } from '../../lazy-modules.js';

const HASH_SIZE = 16;
/** Bytes per slot: the hash and the offset. */
export const OFFSET_MAP_ENTRY_SIZE = HASH_SIZE + 8;

export class OffsetMap {
  readonly slots: number;
  private readonly hashes: Buffer;
  private readonly offsets: Float64Array;
  private entries = 0;
  private latest = -1;

  constructor(memoryBytes: number) {
    this.slots = Math.max(1, Math.floor(memoryBytes / OFFSET_MAP_ENTRY_SIZE));
    this.hashes = Buffer.alloc(this.slots * HASH_SIZE);
    this.offsets = new Float64Array(this.slots).fill(-1);
  }

  get size(): number {
    return this.entries;
  }
  /** The last offset the map was built up to (-1 when empty). */
  get latestOffset(): number {
    return this.latest;
  }
  /** Share of slots in use. */
  get utilization(): number {
    return this.entries / this.slots;
  }

  clear(): void {
    this.offsets.fill(-1);
    this.entries = 0;
    this.latest = -1;
  }

  /** Record `offset` as the latest for `key` (the dirty section is read in offset order). */
  put(key: Buffer, offset: number): void {
    const h = cryptoModule().hash('md5', key, 'buffer');
    let slot = h.readUInt32BE(0) % this.slots;
    for (;;) {
      if (this.offsets[slot] === -1) {
        if (this.entries >= this.slots) throw new Error('offset map is full');
        h.copy(this.hashes, slot * HASH_SIZE);
        this.offsets[slot] = offset;
        this.entries++;
        break;
      }
      if (h.equals(this.hashes.subarray(slot * HASH_SIZE, slot * HASH_SIZE + HASH_SIZE))) {
        this.offsets[slot] = offset;
        break;
      }
      slot = (slot + 1) % this.slots;
    }
    if (offset > this.latest) this.latest = offset;
  }

  /** The latest offset recorded for `key`, or -1. */
  get(key: Buffer): number {
    const h = cryptoModule().hash('md5', key, 'buffer');
    let slot = h.readUInt32BE(0) % this.slots;
    for (let probes = 0; probes < this.slots; probes++) {
      const offset = this.offsets[slot]!;
      if (offset === -1) return -1;
      if (h.equals(this.hashes.subarray(slot * HASH_SIZE, slot * HASH_SIZE + HASH_SIZE))) return offset;
      slot = (slot + 1) % this.slots;
    }
    return -1;
  }

  /** The map covers offsets up to here even where the log has gaps. */
  updateLatestOffset(offset: number): void {
    if (offset > this.latest) this.latest = offset;
  }
}
