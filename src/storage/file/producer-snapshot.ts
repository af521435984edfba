// Kafka's producer-state snapshot file, `<offset>.snapshot` in the partition directory (ProducerStateManager,
// storage/src/main/resources/message/ProducerSnapshot.json): the state of every producer id after replaying
// every batch below `offset`. Layout, big-endian: version int16 (1), crc uint32 (CRC-32C of everything after
// it), entry count int32, then per producer 46 bytes: producerId int64, epoch int16, lastSequence int32,
// lastOffset int64, offsetDelta int32 (lastSequence - firstSequence of its last batch), timestamp int64,
// coordinatorEpoch int32, currentTxnFirstOffset int64 (-1 when no transaction is open).
import { crc32c } from '../../protocol/crc32c.js';
import type { SnapshotEntry } from '../producer-state.js';

export const SNAPSHOT_VERSION = 1;
const HEADER_BYTES = 2 + 4 + 4;
const CRC_START = 2;
const ENTRIES_START = 6;
const ENTRY_BYTES = 8 + 2 + 4 + 8 + 4 + 8 + 4 + 8;

export function encodeProducerSnapshot(entries: readonly SnapshotEntry[]): Buffer {
  const buf = Buffer.alloc(HEADER_BYTES + entries.length * ENTRY_BYTES);
  buf.writeInt16BE(SNAPSHOT_VERSION, 0);
  buf.writeInt32BE(entries.length, ENTRIES_START);
  let pos = HEADER_BYTES;
  for (const e of entries) {
    buf.writeBigInt64BE(BigInt(e.producerId), pos);
    buf.writeInt16BE(e.epoch, pos + 8);
    buf.writeInt32BE(e.lastSequence, pos + 10);
    buf.writeBigInt64BE(BigInt(e.lastOffset), pos + 14);
    buf.writeInt32BE(e.offsetDelta, pos + 22);
    buf.writeBigInt64BE(BigInt(e.timestamp), pos + 26);
    buf.writeInt32BE(e.coordinatorEpoch, pos + 34);
    buf.writeBigInt64BE(BigInt(e.currentTxnFirstOffset), pos + 38);
    pos += ENTRY_BYTES;
  }
  buf.writeUInt32BE(crc32c(buf, ENTRIES_START), CRC_START);
  return buf;
}

/** Throws a one-line Error for an unknown version, a bad CRC or a length that does not match the entry count. */
export function decodeProducerSnapshot(buf: Buffer): SnapshotEntry[] {
  if (buf.length < HEADER_BYTES) throw new Error(`snapshot is ${buf.length} bytes, shorter than its header`);
  const version = buf.readInt16BE(0);
  if (version !== SNAPSHOT_VERSION) throw new Error(`snapshot contained an unknown file version ${version}`);
  const stored = buf.readUInt32BE(CRC_START);
  const computed = crc32c(buf, ENTRIES_START);
  if (stored !== computed) throw new Error(`snapshot is corrupt (stored crc ${stored}, computed ${computed})`);
  const count = buf.readInt32BE(ENTRIES_START);
  if (count < 0 || buf.length !== HEADER_BYTES + count * ENTRY_BYTES) throw new Error(`snapshot of ${buf.length} bytes cannot hold ${count} entries`);
  const entries: SnapshotEntry[] = [];
  for (let i = 0, pos = HEADER_BYTES; i < count; i++, pos += ENTRY_BYTES) {
    entries.push({
      producerId: Number(buf.readBigInt64BE(pos)),
      epoch: buf.readInt16BE(pos + 8),
      lastSequence: buf.readInt32BE(pos + 10),
      lastOffset: Number(buf.readBigInt64BE(pos + 14)),
      offsetDelta: buf.readInt32BE(pos + 22),
      timestamp: Number(buf.readBigInt64BE(pos + 26)),
      coordinatorEpoch: buf.readInt32BE(pos + 34),
      currentTxnFirstOffset: Number(buf.readBigInt64BE(pos + 38)),
    });
  }
  return entries;
}
