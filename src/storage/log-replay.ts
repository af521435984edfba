// Reading a partition back batch by batch, as the loads at start-up do (__consumer_offsets, __transaction_state,
// producer state). One read can answer with chunks of many batches (the file engine returns one span of a segment):
// every batch of a read is handed out and the next read starts after the last of them, so each byte is read once.
import { lastOffsetAt, splitBatches } from '../protocol/records/index.js';
import type { PartitionLog } from './log.js';

/**
 * Every batch from the one holding `from` to the high watermark (or `maxOffset`: a follower's log replays to its
 * end), in offset order, as views of what each read returned.
 */
export async function* replayBatches(log: PartitionLog, from: number, readBytes: number, maxOffset?: number): AsyncGenerator<Buffer> {
  let offset = from;
  while (offset < log.logEndOffset) {
    const read = await log.read(offset, readBytes, maxOffset === undefined ? {} : { maxOffset });
    let next = offset;
    for (const chunk of read.records) {
      for (const span of splitBatches(chunk).batches) {
        const batch = chunk.subarray(span.pos, span.pos + span.size);
        next = lastOffsetAt(batch, 0) + 1;
        yield batch;
      }
    }
    // An empty read (nothing below the high watermark) ends the replay.
    if (next <= offset) return;
    offset = next;
  }
}
