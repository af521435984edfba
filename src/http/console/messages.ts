/**
 * The message browser: records of a topic read straight from its partition logs, up to the high watermark (what a
 * read_uncommitted consumer sees; control batches are not shown). Work per request is bounded: at most
 * SCAN_BYTES of batches are read and decoded, whatever the filter, and the answer carries a cursor to go on from.
 * The newest page reads backwards from each log's end in windows of offsets (the log's offset index finds the
 * batch holding a window's first offset), never from its start: a million-message topic costs what a small one does.
 */
import { decodeBatchRecords, isControl, readBatchHeader, splitBatches, timestampTypeOf, TimestampType, type KafkaRecord } from '../../protocol/records/index.js';
import type { PartitionLog } from '../../storage/log.js';

/** Bytes of batches one request may read and decode, over all its partitions (each partition may exceed its share by one batch). */
export const SCAN_BYTES = 8 * 1024 * 1024;
/** Records one page may hold. */
export const MAX_LIMIT = 500;
/** Bytes of a key, value or header value sent to the page; the rest is cut (the record's size says how much). */
export const SHOWN_BYTES = 64 * 1024;

export interface MessageFilter {
  /** Substrings (bytes of their UTF-8) a record's key, value, or any header key or value must contain. */
  readonly key?: string;
  readonly value?: string;
  readonly header?: string;
}

export type BrowseFrom =
  | { readonly kind: 'newest'; /** per partition, the offset to read below (exclusive): the cursor of a previous page */ readonly before?: Readonly<Record<number, number>> }
  | { readonly kind: 'offset'; readonly offset: Readonly<Record<number, number>> | number }
  | { readonly kind: 'timestamp'; readonly timestamp: number };

export interface BrowseRequest {
  readonly partitions: readonly number[];
  readonly from: BrowseFrom;
  readonly limit: number;
  readonly filter: MessageFilter;
}

export interface ShownBytes {
  /** base64 of the bytes shown (null for a null key or value). */
  readonly b64: string | null;
  /** The full length; more than the bytes shown when cut at SHOWN_BYTES. */
  readonly size: number;
}

export interface ShownRecord {
  readonly partition: number;
  readonly offset: number;
  readonly timestamp: number;
  readonly timestampType: 'CreateTime' | 'LogAppendTime';
  readonly key: ShownBytes;
  readonly value: ShownBytes;
  readonly headers: readonly { readonly key: string; readonly value: ShownBytes }[];
  readonly producerId: number;
  readonly transactional: boolean;
}

export interface BrowseResult {
  readonly records: ShownRecord[];
  /** Where the next page goes on from, per partition (newest: read below; forward: read from). */
  readonly next: Record<number, number>;
  /** Every selected partition is read to its end (forward) or start (newest) with no more to show. */
  readonly done: boolean;
  /** Bytes of batches read for this page. */
  readonly scannedBytes: number;
}

interface Found {
  readonly partition: number;
  readonly record: KafkaRecord;
  readonly attributes: number;
  readonly producerId: number;
}

/** Reads whole batches from `from` (the batch holding it first) up to `to` (exclusive), at most `budget` bytes. */
async function readForward(log: PartitionLog, from: number, to: number, budget: { bytes: number }, each: (batch: Buffer) => boolean): Promise<number> {
  let offset = Math.max(from, log.logStartOffset);
  while (offset < to && budget.bytes > 0) {
    const read = await log.read(offset, budget.bytes, { maxOffset: to });
    if (read.records.length === 0) break;
    let last = offset - 1;
    for (const span of read.records) {
      for (const { pos, size } of splitBatches(span).batches) {
        const batch = span.subarray(pos, pos + size);
        budget.bytes -= size;
        const header = readBatchHeader(batch);
        last = header.baseOffset + header.lastOffsetDelta;
        if (!each(batch)) return last + 1;
      }
    }
    if (last < offset) break;
    offset = last + 1;
  }
  return offset;
}

function matches(record: KafkaRecord, filter: MessageFilter): boolean {
  if (filter.key !== undefined && (record.key === null || record.key.indexOf(filter.key) < 0)) return false;
  if (filter.value !== undefined && (record.value === null || record.value.indexOf(filter.value) < 0)) return false;
  if (filter.header !== undefined && !record.headers.some((h) => h.key.includes(filter.header!) || (h.value !== null && h.value.indexOf(filter.header!) >= 0))) {
    return false;
  }
  return true;
}

/** The records of one batch in [from, to) that pass the filter (control batches hold none to show). */
function recordsOf(batch: Buffer, partition: number, from: number, to: number, filter: MessageFilter): Found[] {
  const header = readBatchHeader(batch);
  if (isControl(header.attributes)) return [];
  const found: Found[] = [];
  for (const record of decodeBatchRecords(batch)) {
    if (record.offset < from || record.offset >= to || !matches(record, filter)) continue;
    found.push({ partition, record, attributes: header.attributes, producerId: header.producerId });
  }
  return found;
}

/**
 * Up to `limit` newest matching records of one partition below `end`, read backwards in windows; returns them
 * newest first and the offset below which nothing was read.
 */
async function newestOf(log: PartitionLog, partition: number, end: number, limit: number, filter: MessageFilter, budget: { bytes: number }):
  Promise<{ found: Found[]; readBelow: number }> {
  const found: Found[] = [];
  const filtered = filter.key !== undefined || filter.value !== undefined || filter.header !== undefined;
  // Windows are sized by the log's mean bytes per offset to fit a quarter of what the budget has left, so a read is
  // rarely cut short (one that is shows nothing of its window: its newest records would be missing).
  const bytesPerOffset = Math.max(1, log.sizeInBytes() / Math.max(1, log.logEndOffset - log.logStartOffset));
  let wanted = Math.max(limit, filtered ? 4096 : 0);
  let to = Math.min(end, log.highWatermark);
  while (found.length < limit && to > log.logStartOffset && budget.bytes > 0) {
    const window = Math.max(1, Math.min(wanted, Math.floor(budget.bytes / 4 / bytesPerOffset)));
    const from = Math.max(log.logStartOffset, to - window);
    const chunk: Found[] = [];
    let firstBase = from;
    let first = true;
    const reached = await readForward(log, from, to, budget, (batch) => {
      if (first) {
        firstBase = Math.min(from, readBatchHeader(batch).baseOffset);
        first = false;
      }
      chunk.push(...recordsOf(batch, partition, firstBase, to, filter));
      return true;
    });
    if (reached < to) break;
    for (let i = chunk.length - 1; i >= 0 && found.length < limit; i--) found.push(chunk[i]!);
    if (found.length >= limit) return { found, readBelow: found[found.length - 1]!.record.offset };
    to = Math.max(log.logStartOffset, firstBase);
    wanted *= 2;
  }
  return { found, readBelow: to };
}

function shown(bytes: Buffer | null): ShownBytes {
  if (bytes === null) return { b64: null, size: -1 };
  return { b64: bytes.subarray(0, SHOWN_BYTES).toString('base64'), size: bytes.length };
}

function toShown({ partition, record, attributes, producerId }: Found): ShownRecord {
  return {
    partition,
    offset: record.offset,
    timestamp: record.timestamp,
    timestampType: timestampTypeOf(attributes) === TimestampType.LOG_APPEND_TIME ? 'LogAppendTime' : 'CreateTime',
    key: shown(record.key),
    value: shown(record.value),
    headers: record.headers.map((h) => ({ key: h.key, value: shown(h.value) })),
    producerId,
    transactional: (attributes & 0x10) !== 0,
  };
}

/**
 * Merges the partitions' lists (each in its read order) into one page of `limit`, taking at each step the head that
 * comes first by timestamp (newest or oldest). Each partition's records stay in offset order, so what a page shows
 * of a partition is a prefix of what was read of it, and its cursor can move past exactly that.
 */
function mergePage(lists: readonly Found[][], limit: number, newest: boolean): Found[] {
  const heads = lists.map(() => 0);
  const page: Found[] = [];
  while (page.length < limit) {
    let best = -1;
    for (let i = 0; i < lists.length; i++) {
      const candidate = lists[i]![heads[i]!];
      if (candidate === undefined) continue;
      const current = best < 0 ? undefined : lists[best]![heads[best]!]!;
      if (current === undefined || (newest ? candidate.record.timestamp > current.record.timestamp : candidate.record.timestamp < current.record.timestamp)) best = i;
    }
    if (best < 0) break;
    page.push(lists[best]![heads[best]!++]!);
  }
  return page;
}

/** One page of the browser over the given partition logs (undefined entries: partitions not found). */
export async function browse(logs: ReadonlyMap<number, PartitionLog>, request: BrowseRequest): Promise<BrowseResult> {
  const limit = Math.max(1, Math.min(MAX_LIMIT, Math.floor(request.limit)));
  let left = SCAN_BYTES;
  // Each partition may read its share of what the ones before it left, so a search moves on every partition at once.
  const shareOf = (index: number): { bytes: number } => ({ bytes: Math.floor(left / (request.partitions.length - index)) });
  const perPartition = new Map<number, { found: Found[]; position: number; exhausted: boolean }>();
  const { from, filter } = request;
  if (from.kind === 'newest') {
    for (const [index, partition] of request.partitions.entries()) {
      const log = logs.get(partition)!;
      const end = from.before?.[partition] ?? log.highWatermark;
      const budget = shareOf(index);
      const share = budget.bytes;
      const { found, readBelow } = await newestOf(log, partition, end, limit, filter, budget);
      left -= share - budget.bytes;
      perPartition.set(partition, { found, position: readBelow, exhausted: readBelow <= log.logStartOffset && found.length < limit });
    }
  } else {
    for (const [index, partition] of request.partitions.entries()) {
      const log = logs.get(partition)!;
      const budget = shareOf(index);
      const share = budget.bytes;
      let start: number;
      if (from.kind === 'offset') start = typeof from.offset === 'number' ? from.offset : (from.offset[partition] ?? log.logStartOffset);
      else start = (await log.offsetForTimestamp(from.timestamp))?.offset ?? log.highWatermark;
      start = Math.max(log.logStartOffset, Math.min(start, log.highWatermark));
      const found: Found[] = [];
      const reached = await readForward(log, start, log.highWatermark, budget, (batch) => {
        for (const f of recordsOf(batch, partition, start, log.highWatermark, filter)) if (found.length < limit) found.push(f);
        return found.length < limit;
      });
      left -= share - budget.bytes;
      const position = found.length >= limit ? found[found.length - 1]!.record.offset + 1 : reached;
      perPartition.set(partition, { found, position, exhausted: position >= log.highWatermark });
    }
  }
  // The page: the `limit` first over all partitions in the page's order; a partition's cursor moves only past
  // the records of it the page shows (or past what it read, when all it found is shown).
  const page = mergePage([...perPartition.values()].map((p) => p.found), limit, from.kind === 'newest');
  const next: Record<number, number> = {};
  let done = true;
  for (const [partition, p] of perPartition) {
    const shownHere = page.filter((f) => f.partition === partition);
    const allShown = shownHere.length === p.found.length;
    const lastShown = shownHere.at(-1)?.record.offset;
    if (allShown) next[partition] = p.position;
    else if (from.kind === 'newest') next[partition] = lastShown ?? from.before?.[partition] ?? logs.get(partition)!.highWatermark;
    else next[partition] = lastShown === undefined ? p.found[0]!.record.offset : lastShown + 1;
    if (!(allShown && p.exhausted)) done = false;
  }
  return { records: page.map(toShown), next, done, scannedBytes: SCAN_BYTES - left };
}
