// Kafka's aborted-transaction index, `<segmentBase>.txnindex` next to each segment (TransactionIndex): one
// 34-byte entry per transaction aborted by a marker in that segment, big-endian: version int16 (0), producerId
// int64, firstOffset int64, lastOffset int64 (the ABORT marker), lastStableOffset int64. The file is created with
// its first entry; the entries stay in memory too (a read_committed Fetch reads them there).
import { open, rename, rm, writeFile } from 'node:fs/promises';
import type { AbortedTxn } from '../producer-state.js';

export const TXN_INDEX_ENTRY_BYTES = 34;
const VERSION = 0;

export function encodeAbortedTxn(txn: AbortedTxn): Buffer {
  const buf = Buffer.alloc(TXN_INDEX_ENTRY_BYTES);
  buf.writeInt16BE(VERSION, 0);
  buf.writeBigInt64BE(BigInt(txn.producerId), 2);
  buf.writeBigInt64BE(BigInt(txn.firstOffset), 10);
  buf.writeBigInt64BE(BigInt(txn.lastOffset), 18);
  buf.writeBigInt64BE(BigInt(txn.lastStableOffset), 26);
  return buf;
}

/**
 * The entries of a .txnindex file. A torn last entry (a crash mid-write) is dropped; an entry of another version
 * ends the index there (Kafka refuses it), so `valid` is how many leading bytes can be kept.
 */
export function decodeTxnIndex(buf: Buffer): { entries: AbortedTxn[]; valid: number } {
  const entries: AbortedTxn[] = [];
  let pos = 0;
  for (; pos + TXN_INDEX_ENTRY_BYTES <= buf.length; pos += TXN_INDEX_ENTRY_BYTES) {
    if (buf.readInt16BE(pos) !== VERSION) break;
    entries.push({
      producerId: Number(buf.readBigInt64BE(pos + 2)),
      firstOffset: Number(buf.readBigInt64BE(pos + 10)),
      lastOffset: Number(buf.readBigInt64BE(pos + 18)),
      lastStableOffset: Number(buf.readBigInt64BE(pos + 26)),
    });
  }
  return { entries, valid: pos };
}

/** One segment's transaction index: its entries in marker order, and the file they are written to, one job at a time. */
export class TransactionIndex {
  private list: AbortedTxn[] = [];
  /** Whether the file exists (it is created by the first entry). */
  private exists = false;
  private queue: Promise<void> = Promise.resolve();
  private failure: Error | undefined;

  constructor(private filePath: string) {}

  get path(): string {
    return this.filePath;
  }
  get entries(): readonly AbortedTxn[] {
    return this.list;
  }

  /** Entries read back from an existing file at open; `rewrite` when the file held more (or torn) bytes than these. */
  restore(entries: readonly AbortedTxn[], rewrite: boolean): void {
    this.list = [...entries];
    this.exists = true;
    if (rewrite) this.enqueue(() => this.rewrite());
  }

  append(txn: AbortedTxn): void {
    this.list.push(txn);
    this.exists = true;
    this.enqueue(async () => {
      const handle = await open(this.filePath, 'a');
      try {
        await handle.write(encodeAbortedTxn(txn));
      } finally {
        await handle.close();
      }
    });
  }

  /** Kafka's TransactionIndex.truncateTo: entries whose marker is at or after `offset` go. */
  truncateTo(offset: number): void {
    const kept = this.list.filter((t) => t.lastOffset < offset);
    if (kept.length === this.list.length) return;
    this.list = kept;
    this.enqueue(() => this.rewrite());
  }

  /** Moves the file (the cleaner's suffixes, `.deleted`); nothing to move before the first entry. */
  async renameTo(target: string): Promise<string | undefined> {
    await this.idle();
    const from = this.filePath;
    this.filePath = target;
    if (!this.exists) return undefined;
    await rename(from, target);
    return target;
  }

  async remove(): Promise<void> {
    await this.idle();
    if (this.exists) await rm(this.filePath, { force: true });
    this.exists = false;
  }

  /** Resolves once every write is in the file; rejects (once) with a write that failed since the last call. */
  async idle(): Promise<void> {
    await this.queue;
    const failure = this.failure;
    this.failure = undefined;
    if (failure !== undefined) throw failure;
  }

  private async rewrite(): Promise<void> {
    await writeFile(this.filePath, Buffer.concat(this.list.map(encodeAbortedTxn)));
  }

  private enqueue(job: () => Promise<void>): void {
    this.queue = this.queue.then(job).catch((error: unknown) => {
      this.failure ??= error as Error;
    });
  }
}
