// The transaction coordinator as a broker wires it (memory store, ReplicaManager with producer state, group
// coordinator, markers), on a ManualScheduler: timeouts and expiry run when the test moves the clock.
import { resolveBrokerConfig, type BrokerConfig } from '../../../src/config/index.js';
import { ProducerStates } from '../../../src/broker/producer-states.js';
import { ReplicaManager } from '../../../src/broker/replica-manager.js';
import { Features } from '../../../src/broker/features.js';
import { GroupCoordinator } from '../../../src/coordinator/group-coordinator.js';
import { openTransactions } from '../../../src/coordinator/txn/open-transactions.js';
import type { TxnCoordinator } from '../../../src/coordinator/txn/txn-coordinator.js';
import { encodeRecordBatch, isControl, readBatchHeader, readTransactionMarker, type ControlMarker } from '../../../src/protocol/records/index.js';
import type { PartitionLog } from '../../../src/storage/log.js';
import type { LogStore } from '../../../src/storage/log-store.js';
import { replayBatches } from '../../../src/storage/log-replay.js';
import { MemoryLogStore } from '../../../src/storage/memory/memory-store.js';
import { ManualScheduler } from '../../../src/storage/scheduler.js';

export const START_TIME = 1_000_000;

export class TxnHarness {
  producerStates!: ProducerStates;
  replicaManager!: ReplicaManager;
  groups!: GroupCoordinator;
  coordinator!: TxnCoordinator;
  /** Kept across restarts, as a broker's finalized levels are. */
  readonly features = new Features();

  private constructor(
    readonly store: LogStore,
    readonly config: BrokerConfig,
    readonly scheduler: ManualScheduler,
  ) {}

  static async start(settings: Record<string, string> = {}, store: LogStore = new MemoryLogStore({ nodeId: 1 }), scheduler = new ManualScheduler(START_TIME)): Promise<TxnHarness> {
    const config = resolveBrokerConfig({
      'node.id': '1',
      'gregor.log.engine': 'memory',
      'transaction.state.log.num.partitions': '3',
      'offsets.topic.num.partitions': '3',
      ...settings,
    });
    const h = new TxnHarness(store, config, scheduler);
    await h.open();
    return h;
  }

  /** Opens everything over the same store, as a restarted broker does (after close()). */
  async open(): Promise<void> {
    const now = (): number => this.scheduler.now();
    this.producerStates = await ProducerStates.load(this.store, now);
    this.replicaManager = new ReplicaManager(this.store, this.config, { producerState: this.producerStates, now });
    this.groups = await GroupCoordinator.open({ store: this.store, config: this.config, scheduler: this.scheduler });
    this.coordinator = await openTransactions({
      config: this.config,
      replicaManager: this.replicaManager,
      producerStates: this.producerStates,
      groups: this.groups,
      features: this.features,
      scheduler: this.scheduler,
    });
  }

  async close(): Promise<void> {
    await this.coordinator.close();
    await this.groups.close();
  }

  async createTopic(name: string, partitions = 1): Promise<void> {
    await this.store.createTopic(name, partitions);
  }

  log(topic: string, partition = 0): PartitionLog {
    const log = this.store.log(topic, partition);
    if (log === undefined) throw new Error(`no log ${topic}-${partition}`);
    return log;
  }

  /** Appends one batch of `count` records as a producer would; returns the produce outcome. */
  produce(topic: string, partition: number, producer: { id: number; epoch: number; seq: number; transactional?: boolean }, count = 1) {
    const batch = encodeRecordBatch({
      producerId: producer.id,
      producerEpoch: producer.epoch,
      baseSequence: producer.seq,
      isTransactional: producer.transactional ?? false,
      records: Array.from({ length: count }, (_, i) => ({ timestamp: this.scheduler.now(), key: null, value: Buffer.from(`v${producer.seq + i}`) })),
    });
    return this.replicaManager.appendRecords(topic, partition, batch, { apiVersion: 11, internalTopicsAllowed: false });
  }

  /** The transaction markers in a partition, in log order. */
  async markers(topic: string, partition = 0): Promise<(ControlMarker & { producerId: number; producerEpoch: number; offset: number })[]> {
    const log = this.log(topic, partition);
    const found: (ControlMarker & { producerId: number; producerEpoch: number; offset: number })[] = [];
    for await (const batch of replayBatches(log, log.logStartOffset, 1 << 20)) {
      const header = readBatchHeader(batch);
      if (isControl(header.attributes)) {
        found.push({ ...readTransactionMarker(batch), producerId: header.producerId, producerEpoch: header.producerEpoch, offset: header.baseOffset });
      }
    }
    return found;
  }

  /** Lets marker rounds and log writes started by the last call finish. */
  async settle(): Promise<void> {
    await this.scheduler.advance(0);
    await this.scheduler.advance(0);
  }
}
