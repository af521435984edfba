/**
 * The __share_group_state records (Kafka's ShareCoordinatorRecordSerde): the key's int16 record type (0 ShareSnapshot,
 * 1 ShareUpdate) then the key (version 0), the value's int16 version (0) then the value; a tombstone (a share
 * partition's state deleted) is a ShareSnapshot key without a value.
 */
import * as snapshotKey from '../../protocol/generated/internal/share-coordinator/share-snapshot-key.js';
import * as snapshotValue from '../../protocol/generated/internal/share-coordinator/share-snapshot-value.js';
import * as updateKey from '../../protocol/generated/internal/share-coordinator/share-update-key.js';
import * as updateValue from '../../protocol/generated/internal/share-coordinator/share-update-value.js';
import { Reader } from '../../protocol/io/reader.js';
import { Writer } from '../../protocol/io/writer.js';

/** One delivery-state range as the share coordinator keeps it (Kafka's PersisterStateBatch). */
export interface StateBatch {
  readonly firstOffset: number;
  readonly lastOffset: number;
  readonly deliveryState: number;
  readonly deliveryCount: number;
}

/** What a ShareSnapshot or ShareUpdate carries (Kafka's ShareGroupOffset). */
export interface ShareGroupOffset {
  readonly snapshotEpoch: number;
  readonly stateEpoch: number;
  readonly leaderEpoch: number;
  readonly startOffset: number;
  readonly deliveryCompleteCount: number;
  readonly createTimestamp: number;
  readonly writeTimestamp: number;
  readonly stateBatches: readonly StateBatch[];
}

export interface SharePartitionKey {
  readonly groupId: string;
  readonly topicId: string;
  readonly partition: number;
}

export type ShareStateRecord =
  | { readonly type: 'snapshot'; readonly key: SharePartitionKey; readonly value: ShareGroupOffset | null }
  | { readonly type: 'update'; readonly key: SharePartitionKey; readonly value: ShareGroupOffset };

const VALUE_VERSION = 0;

export function encodeShareStateKey(record: ShareStateRecord): Buffer {
  const w = new Writer(64);
  if (record.type === 'snapshot') {
    w.int16(snapshotKey.SHARE_SNAPSHOT_KEY_RECORD_TYPE);
    snapshotKey.encodeShareSnapshotKey(w, record.key, 0);
  } else {
    w.int16(updateKey.SHARE_UPDATE_KEY_RECORD_TYPE);
    updateKey.encodeShareUpdateKey(w, record.key, 0);
  }
  return w.toBuffer();
}

export function encodeShareStateValue(record: ShareStateRecord): Buffer | null {
  if (record.value === null) return null;
  const v = record.value;
  const batches = v.stateBatches.map((b) => ({ ...b, firstOffset: BigInt(b.firstOffset), lastOffset: BigInt(b.lastOffset) }));
  const w = new Writer(64 + 20 * batches.length);
  w.int16(VALUE_VERSION);
  if (record.type === 'snapshot') {
    snapshotValue.encodeShareSnapshotValue(w, {
      snapshotEpoch: v.snapshotEpoch,
      stateEpoch: v.stateEpoch,
      leaderEpoch: v.leaderEpoch,
      startOffset: BigInt(v.startOffset),
      deliveryCompleteCount: v.deliveryCompleteCount,
      createTimestamp: BigInt(v.createTimestamp),
      writeTimestamp: BigInt(v.writeTimestamp),
      stateBatches: batches,
    }, VALUE_VERSION);
  } else {
    updateValue.encodeShareUpdateValue(w, {
      snapshotEpoch: v.snapshotEpoch,
      leaderEpoch: v.leaderEpoch,
      startOffset: BigInt(v.startOffset),
      deliveryCompleteCount: v.deliveryCompleteCount,
      stateBatches: batches,
    }, VALUE_VERSION);
  }
  return w.toBuffer();
}

/** A record read back; null for a record type the share coordinator does not know (skipped, as Kafka's replay does). */
export function decodeShareStateRecord(key: Buffer, value: Buffer | null): ShareStateRecord | null {
  const kr = new Reader(key);
  const type = kr.int16();
  if (type !== snapshotKey.SHARE_SNAPSHOT_KEY_RECORD_TYPE && type !== updateKey.SHARE_UPDATE_KEY_RECORD_TYPE) return null;
  const k = type === snapshotKey.SHARE_SNAPSHOT_KEY_RECORD_TYPE ? snapshotKey.decodeShareSnapshotKey(kr, 0) : updateKey.decodeShareUpdateKey(kr, 0);
  const partitionKey: SharePartitionKey = { groupId: k.groupId, topicId: k.topicId, partition: k.partition };
  if (value === null) {
    if (type === updateKey.SHARE_UPDATE_KEY_RECORD_TYPE) return null;
    return { type: 'snapshot', key: partitionKey, value: null };
  }
  const vr = new Reader(value);
  const version = vr.int16();
  if (type === snapshotKey.SHARE_SNAPSHOT_KEY_RECORD_TYPE) {
    const v = snapshotValue.decodeShareSnapshotValue(vr, version);
    return { type: 'snapshot', key: partitionKey, value: offsetOf(v, v.stateEpoch, v.createTimestamp, v.writeTimestamp) };
  }
  // A ShareUpdate holds no state epoch or timestamps: the state it merges into keeps its own.
  return { type: 'update', key: partitionKey, value: offsetOf(updateValue.decodeShareUpdateValue(vr, version), -1, 0n, 0n) };
}

interface DecodedValue {
  snapshotEpoch: number;
  leaderEpoch: number;
  startOffset: bigint;
  deliveryCompleteCount: number;
  stateBatches: { firstOffset: bigint; lastOffset: bigint; deliveryState: number; deliveryCount: number }[];
}

function offsetOf(v: DecodedValue, stateEpoch: number, createTimestamp: bigint, writeTimestamp: bigint): ShareGroupOffset {
  return {
    snapshotEpoch: v.snapshotEpoch,
    stateEpoch,
    leaderEpoch: v.leaderEpoch,
    startOffset: Number(v.startOffset),
    deliveryCompleteCount: v.deliveryCompleteCount,
    createTimestamp: Number(createTimestamp),
    writeTimestamp: Number(writeTimestamp),
    stateBatches: v.stateBatches.map((b) => ({ firstOffset: Number(b.firstOffset), lastOffset: Number(b.lastOffset), deliveryState: b.deliveryState, deliveryCount: b.deliveryCount })),
  };
}

/** Kafka's SharePartitionKey.asCoordinatorKey: the text FindCoordinator (key type SHARE) and the partitioning hash use. */
export function coordinatorKey(key: SharePartitionKey): string {
  return `${key.groupId}:${key.topicId}:${key.partition}`;
}
