/**
 * What the rest of the broker sees of the cluster (cluster mode: gregor.cluster.etcd.endpoints set). Single-broker mode
 * has none (BrokerState.cluster undefined) and loads none of this layer's code.
 */
import type { PartitionRecord, TopicRecord } from './layout.js';
import type { AlterPartitionResult } from './etcd-alter-partition.js';
import type { ProducerIdBlockStore } from '../coordinator/producer-ids.js';
import type { ElectionOutcome } from './leader-elector.js';
import type { LeaderMove } from './leader-move.js';

export type { ElectionOutcome } from './leader-elector.js';
export type { LeaderMove } from './leader-move.js';

export type { PartitionRecord, TopicRecord } from './layout.js';

export interface ClusterEndpoint {
  readonly host: string;
  readonly port: number;
}

export interface LiveBroker {
  readonly nodeId: number;
  readonly rack: string | null;
  /** The create revision of its registration: a broker that registers again gets a higher one. */
  readonly epoch: number;
  /** Advertised endpoint by listener name. */
  readonly endpoints: ReadonlyMap<string, ClusterEndpoint>;
}

export interface ClusterTopic extends TopicRecord {
  readonly name: string;
  /** By partition index; a partition whose record has not arrived yet is undefined. */
  readonly partitionStates: readonly (PartitionRecord | undefined)[];
}

/** How a new topic's replicas are chosen: by count (rack-aware placement) or given per partition. */
export type TopicAssignmentSpec =
  | { readonly partitions: number; readonly replicationFactor: number }
  | { readonly assignments: readonly (readonly number[])[] };

export interface Cluster {
  readonly clusterId: string;
  readonly nodeId: number;
  /** Registered brokers (their session lease alive), by node id. */
  liveBrokers(): readonly LiveBroker[];
  /** The elected controller's node id, -1 while there is none. */
  controllerId(): number;
  topics(): Iterable<ClusterTopic>;
  topic(name: string): ClusterTopic | undefined;
  topicById(id: string): ClusterTopic | undefined;
  partition(topic: string, index: number): PartitionRecord | undefined;
  /**
   * Creates the topic in etcd (one txn: it must not exist yet) and resolves once this broker has its local logs.
   * TOPIC_ALREADY_EXISTS if another creation won; INVALID_REPLICATION_FACTOR (Kafka's messages) if the live brokers
   * cannot hold it.
   */
  createTopic(name: string, spec: TopicAssignmentSpec, configs: Readonly<Record<string, string>>): Promise<{ readonly topicId: string; readonly replicationFactor: number }>;
  /** Deletes the topic from etcd (one txn: it must still be the same topic) and resolves once its local logs are gone. */
  deleteTopic(name: string): Promise<void>;
  /**
   * Grows the topic to `total` partitions (one txn: the topic unchanged since read), the new ones given or placed as
   * CreateTopics places them at the topic's replication factor; resolves once this broker's local topic has them.
   */
  addPartitions(name: string, total: number, assignments: readonly (readonly number[])[] | null): Promise<void>;
  /** Replaces the topic's config overrides (one txn, as addPartitions); resolves once the local topic has them. */
  setTopicConfigs(name: string, configs: Readonly<Record<string, string>>): Promise<void>;
  /** Where producer id blocks are reserved: one counter for the whole cluster. */
  producerIdBlocks(): ProducerIdBlockStore;
  /**
   * A leader's ISR change (AlterPartition's rules, src/cluster/etcd-alter-partition.ts): written only while the
   * partition is still as `known`; the new record is cached at once.
   */
  alterPartitionIsr(topic: string, index: number, known: PartitionRecord, isr: readonly number[]): Promise<AlterPartitionResult>;
  /**
   * ElectLeaders: PREFERRED moves leadership to each partition's first replica, UNCLEAN elects a leaderless one from
   * any live replica (leader-elector.ts); `partitions` null means all of them.
   */
  electLeaders(election: 'PREFERRED' | 'UNCLEAN', partitions: readonly { topic: string; index: number }[] | null): Promise<ElectionOutcome[]>;
  /** Controlled shutdown: leaderships moved away by the controller, waited for at most `timeoutMs`. */
  controlledShutdown(timeoutMs: number): Promise<number>;
  /**
   * The leader-moved fault scenario: leadership of the topic's partitions (or of one) to another in-sync replica,
   * written as an election (leader-move.ts); resolves once this broker follows the moves.
   */
  moveLeadership(topic: string, partition: number | undefined): Promise<LeaderMove[]>;
  /** Leaves the cluster: the session lease is revoked (the registration and, on the controller, the controller key go). */
  close(): Promise<void>;
}
