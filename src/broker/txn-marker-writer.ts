// The partition leader's side of a transaction marker (what WriteTxnMarkers does on each partition): a marker
// for __consumer_offsets goes through the group coordinator, which applies or drops the transactional offset
// commits it holds; any other partition gets the control batch through its producer state.
import { ErrorCode } from '../protocol/error-codes.js';
import { ControlRecordType } from '../protocol/records/index.js';
import { CONTROL_BATCH_BYTES } from '../protocol/records/control.js';
import type { LogStore } from '../storage/log-store.js';
import { CONSUMER_OFFSETS_TOPIC } from './auto-create.js';
import type { ProducerStates } from './producer-states.js';
import type { BrokerTopicStats } from './broker-topic-stats.js';

export interface MarkerToWrite {
  readonly topic: string;
  readonly partition: number;
  readonly producerId: number;
  readonly producerEpoch: number;
  readonly commit: boolean;
  readonly coordinatorEpoch: number;
  /** WriteTxnMarkers v2's TransactionVersion (KIP-1228); 0 before. */
  readonly transactionVersion: number;
}

/**
 * What a __consumer_offsets marker needs of the group coordinator (a layer above): it waits for the partition's
 * pending offset writes, runs `writeMarker`, then applies or drops the transactional offsets it holds.
 */
export interface TxnOffsetCompletion {
  completeTransaction(partition: number, producerId: number, commit: boolean, writeMarker: () => Promise<number>): Promise<number>;
}

/** `stats`: where a marker written is counted, one record of its batch's bytes (Kafka's WriteTxnMarkers appends through ReplicaManager). */
export function markerWriter(store: LogStore, producerStates: ProducerStates, groups: () => TxnOffsetCompletion, stats?: BrokerTopicStats):
  (m: MarkerToWrite) => Promise<number> {
  return async (m) => {
    const log = store.log(m.topic, m.partition);
    if (log === undefined) return ErrorCode.UNKNOWN_TOPIC_OR_PARTITION;
    const marker = {
      producerId: m.producerId,
      producerEpoch: m.producerEpoch,
      type: m.commit ? ControlRecordType.COMMIT : ControlRecordType.ABORT,
      coordinatorEpoch: m.coordinatorEpoch,
      transactionVersion: m.transactionVersion,
    };
    const write = async (): Promise<number> => {
      const errorCode = await producerStates.writeMarker(log, marker);
      if (errorCode === ErrorCode.NONE) stats?.countAppend(m.topic, 1, CONTROL_BATCH_BYTES);
      return errorCode;
    };
    if (m.topic === CONSUMER_OFFSETS_TOPIC) return groups().completeTransaction(m.partition, m.producerId, m.commit, write);
    return write();
  };
}
