// A segment held in memory: the batches as appended (one copy, so the request frame can be released) plus
// their offsets. Rolls and retention behave as on disk; nothing survives the process.

import type { AssignedAppend, BatchInfo } from '../batches.js';
import { firstRecordAtOrAfter } from '../timestamp-search.js';
import type { TimestampAndOffset } from '../log.js';
import type { AbortedTxn } from '../producer-state.js';
import type { RollCandidate } from '../roll-policy.js';
import type { LogSegment } from '../segment.js';

interface StoredBatch {
  bytes: Buffer;
  info: BatchInfo;
}

export class MemorySegment implements LogSegment {
  private batches: StoredBatch[] = [];
  private bytes = 0;
  private maxTs = -1;
  private firstBatchTimestamp = -1;
  private lastModified: number;
  private aborted: AbortedTxn[] = [];

  constructor(readonly baseOffset: number, private readonly created: number, private readonly rollJitterMs: number) {
    this.lastModified = created;
  }

  get size(): number {
    return this.bytes;
  }
  get nextOffset(): number {
    const last = this.batches[this.batches.length - 1];
    return last === undefined ? this.baseOffset : last.info.lastOffset + 1;
  }
  get maxTimestamp(): number {
    return this.maxTs;
  }

  get abortedTxns(): readonly AbortedTxn[] {
    return this.aborted;
  }

  appendAbortedTxn(txn: AbortedTxn): void {
    this.aborted.push(txn);
  }

  rollCandidate(): RollCandidate {
    return {
      baseOffset: this.baseOffset,
      size: this.bytes,
      created: this.created,
      rollingBasedTimestamp: this.firstBatchTimestamp,
      rollJitterMs: this.rollJitterMs,
      indexFull: false,
    };
  }

  largestTimestamp(): number {
    return this.maxTs >= 0 ? this.maxTs : this.lastModified;
  }

  async append(parts: readonly Buffer[], assigned: AssignedAppend, now: number): Promise<void> {
    // One copy, so the request frames the parts view can be released.
    const copy = Buffer.concat(parts);
    if (this.bytes === 0) this.firstBatchTimestamp = assigned.maxTimestamp;
    for (const info of assigned.batches) {
      this.batches.push({ bytes: copy.subarray(info.position, info.position + info.size), info });
    }
    this.bytes += copy.length;
    this.maxTs = Math.max(this.maxTs, assigned.maxTimestamp);
    this.lastModified = now;
  }

  async read(offset: number, maxBytes: number, maxOffset: number, minOneBatch: boolean, partialLastBatch = false): Promise<Buffer[]> {
    const out: Buffer[] = [];
    let total = 0;
    for (let i = this.firstBatchEndingAtOrAfter(offset); i < this.batches.length; i++) {
      const { bytes, info } = this.batches[i]!;
      if (info.baseOffset >= maxOffset) break;
      if (total + bytes.length > maxBytes && !(out.length === 0 && minOneBatch)) {
        // As Kafka: the budget's last bytes hold the start of this batch (never a first batch alone, see PartitionLog.read).
        if (partialLastBatch && out.length > 0 && total < maxBytes) out.push(bytes.subarray(0, maxBytes - total));
        break;
      }
      out.push(bytes);
      total += bytes.length;
    }
    return out;
  }

  async findByTimestamp(timestamp: number, startingOffset: number): Promise<TimestampAndOffset | null> {
    for (let i = this.firstBatchEndingAtOrAfter(startingOffset); i < this.batches.length; i++) {
      const { bytes, info } = this.batches[i]!;
      if (info.maxTimestamp < timestamp) continue;
      const found = firstRecordAtOrAfter(bytes, 0, timestamp, startingOffset);
      if (found !== null) return { ...found, leaderEpoch: info.leaderEpoch };
    }
    return null;
  }

  async truncateTo(offset: number): Promise<void> {
    const keep = this.firstBatchEndingAtOrAfter(offset);
    this.batches = this.batches.slice(0, keep);
    this.bytes = 0;
    this.maxTs = -1;
    for (const b of this.batches) {
      this.bytes += b.bytes.length;
      this.maxTs = Math.max(this.maxTs, b.info.maxTimestamp);
    }
    if (this.batches.length === 0) this.firstBatchTimestamp = -1;
    this.aborted = this.aborted.filter((t) => t.lastOffset < offset);
  }

  async onBecomeInactive(): Promise<void> {}
  async flush(): Promise<void> {}
  async close(): Promise<void> {}
  async remove(): Promise<void> {
    this.batches = [];
    this.bytes = 0;
    this.aborted = [];
  }

  /** Index of the first batch whose last offset is >= offset. */
  private firstBatchEndingAtOrAfter(offset: number): number {
    let lo = 0;
    let hi = this.batches.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.batches[mid]!.info.lastOffset < offset) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
