// Wires the transaction coordinator into a broker: producer ids from a block file beside the log (or memory),
// __transaction_state written through the ReplicaManager, markers through the partitions' producer state,
// partition verification on the produce path (and, for Produce v12+, the implicit add of a partition to the
// transaction: transaction version 2), and producer-id expiry on a timer.
import type { BrokerConfig } from '../../config/index.js';
import type { ProducerStates } from '../../broker/producer-states.js';
import type { ReplicaManager } from '../../broker/replica-manager.js';
import type { Features } from '../../broker/features.js';
import { markerWriter } from '../../broker/txn-marker-writer.js';
import type { Log } from '../../log.js';
import { ErrorCode } from '../../protocol/error-codes.js';
import type { Scheduler } from '../../storage/scheduler.js';
import type { GroupCoordinator } from '../group-coordinator.js';
import { blockStoreFor, ProducerIdManager, type ProducerIdBlockStore } from '../producer-ids.js';
import { TxnCoordinator } from './txn-coordinator.js';
import { TxnLog } from './txn-log.js';

/** Kafka's producer.id.expiration.check.interval.ms default. */
const PRODUCER_ID_EXPIRATION_CHECK_MS = 10 * 60 * 1000;
/** The Produce version the coordinator's own appends are validated as. */
const INTERNAL_APPEND_VERSION = 11;
/** The client transaction version of the adds Produce v12+ makes (Kafka sends them as AddPartitionsToTxn v4+). */
const TRANSACTION_VERSION_2 = 2;

export interface TransactionsOptions {
  readonly config: BrokerConfig;
  /** The live config, read when dynamic keys are used (transaction.partition.verification.enable, producer.id.expiration.ms); default: `config`. */
  readonly liveConfig?: () => BrokerConfig;
  readonly replicaManager: ReplicaManager;
  readonly producerStates: ProducerStates;
  readonly groups: GroupCoordinator;
  /** The broker's feature levels: the coordinator reads transaction.version at each use. */
  readonly features: Pick<Features, 'level'>;
  readonly scheduler?: Scheduler;
  readonly log?: Log;
  /** Where producer id blocks are reserved (cluster mode: etcd's counter, shared by every broker); default: beside the logs. */
  readonly producerIdBlocks?: ProducerIdBlockStore;
}

export async function openTransactions(options: TransactionsOptions): Promise<TxnCoordinator> {
  const { config, replicaManager, producerStates, groups } = options;
  const store = replicaManager.store;
  const now = (): number => (options.scheduler ?? { now: Date.now }).now();
  const txnLog = new TxnLog(
    store,
    config,
    async (topic, partition, batch) =>
      (await replicaManager.appendRecords(topic, partition, batch, { apiVersion: INTERNAL_APPEND_VERSION, internalTopicsAllowed: true })).errorCode,
    now,
  );
  const coordinator = await TxnCoordinator.open({
    config,
    txnLog,
    producerIds: new ProducerIdManager(options.producerIdBlocks ?? blockStoreFor(store)),
    writeMarker: markerWriter(store, producerStates, () => groups, replicaManager.topicStats),
    features: options.features,
    ...(options.scheduler === undefined ? {} : { scheduler: options.scheduler }),
    ...(options.log === undefined ? {} : { log: options.log }),
  });
  const live = options.liveConfig ?? (() => config);
  // Both keys are dynamic in Kafka: read at each use so an AlterConfigs takes effect at once.
  producerStates.setVerifier((topic, partition, producerId, producerEpoch) => {
    if (!live()['transaction.partition.verification.enable']) return ErrorCode.NONE;
    const transactionalId = coordinator.transactionalIdOf(producerId);
    if (transactionalId === undefined) return ErrorCode.INVALID_PRODUCER_ID_MAPPING;
    return coordinator.verifyPartition(transactionalId, producerId, producerEpoch, topic, partition);
  });
  // Produce v12+ adds the partition as AddPartitionsToTxn v4+ would: transaction version 2.
  replicaManager.setTransactionPartitionAdder((transactionalId, producerId, producerEpoch, partitions) =>
    coordinator.addPartitions(transactionalId, producerId, producerEpoch, partitions, TRANSACTION_VERSION_2),
  );
  coordinator.every(PRODUCER_ID_EXPIRATION_CHECK_MS, () => producerStates.expire(live()['producer.id.expiration.ms']));
  return coordinator;
}
