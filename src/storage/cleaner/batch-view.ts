// A stored batch as the cleaner handles it: the header read once, records decoded (decompressed) on demand.
import {
  batchSizeAt,
  hasDeleteHorizon,
  isControl,
  isTransactional,
  readBatchHeader,
  type BatchHeader,
} from '../../protocol/records/batch.js';
import { decodeBatchRecords, type KafkaRecord } from '../../protocol/records/record.js';
import type { LogSegment } from '../segment.js';

export class CleanerBatch {
  readonly header: BatchHeader;
  private decoded: KafkaRecord[] | undefined;

  constructor(readonly bytes: Buffer) {
    this.header = readBatchHeader(bytes);
  }

  get lastOffset(): number {
    return this.header.baseOffset + this.header.lastOffsetDelta;
  }
  get isControl(): boolean {
    return isControl(this.header.attributes);
  }
  get isTransactional(): boolean {
    return isTransactional(this.header.attributes);
  }
  /** The delete horizon a previous clean stamped (as baseTimestamp), or undefined. */
  get deleteHorizonMs(): number | undefined {
    return hasDeleteHorizon(this.header.attributes) ? this.header.baseTimestamp : undefined;
  }
  records(): KafkaRecord[] {
    this.decoded ??= decodeBatchRecords(this.bytes);
    return this.decoded;
  }
}

/** The whole batches in `buf`, in order. */
export function* batchesIn(buf: Buffer): Generator<CleanerBatch> {
  for (let pos = 0; pos + 12 <= buf.length; ) {
    const size = batchSizeAt(buf, pos);
    if (size < 61 || pos + size > buf.length) return;
    yield new CleanerBatch(buf.subarray(pos, pos + size));
    pos += size;
  }
}

export interface SegmentReadOptions {
  /** Bytes asked for per read (a slice of work). */
  chunkBytes: number;
  /** Called with the bytes of every chunk read, before it is used (throttling, yielding, abort checks). */
  onChunk: (bytes: number) => Promise<void>;
}

/** Every batch of `segment` holding an offset >= `from`, read a chunk at a time. */
export async function* segmentBatches(segment: LogSegment, from: number, options: SegmentReadOptions): AsyncGenerator<CleanerBatch> {
  let next = Math.max(from, segment.baseOffset);
  while (next < segment.nextOffset) {
    const chunks = await segment.read(next, options.chunkBytes, Number.MAX_SAFE_INTEGER, true);
    if (chunks.length === 0) return;
    let bytes = 0;
    for (const c of chunks) bytes += c.length;
    await options.onChunk(bytes);
    let advanced = false;
    for (const chunk of chunks) {
      for (const batch of batchesIn(chunk)) {
        if (batch.lastOffset < next) continue;
        advanced = true;
        yield batch;
        next = batch.lastOffset + 1;
      }
    }
    if (!advanced) return;
  }
}
