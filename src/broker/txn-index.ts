// Kafka's aborted-transaction index, `<segmentBase>.txnindex` next to each segment (TransactionIndex): one
// 34-byte entry per transaction aborted by a marker in that segment, big-endian: version int16 (0), producerId
// int64, firstOffset int64, lastOffset int64 (the ABORT marker), lastStableOffset int64. A read_committed Fetch
// returns the entries that overlap the data it sends.
import type { AbortedTxn } from './partition-producer-state.js';

export const TXN_INDEX_SUFFIX = '.txnindex';
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
