/**
 * The cluster page: the brokers (rack, every listener's endpoint), the controller, and each partition's leader,
 * replicas and ISR with the under-replicated and offline counts. Read from what the broker holds of the metadata
 * (server/cluster-view.ts): in cluster mode the etcd cache every broker answers Metadata from, on a single broker
 * the one node, leading every partition with its one replica in sync.
 */
import { replicaView } from '../../server/cluster-view.js';
import type { BrokerState } from '../../server/handler.js';

export interface ShownBroker {
  readonly nodeId: number;
  readonly rack: string | null;
  readonly endpoints: readonly { readonly listener: string; readonly host: string; readonly port: number }[];
  readonly controller: boolean;
  /** The broker serving this console. */
  readonly self: boolean;
}

export interface ShownPartition {
  readonly topic: string;
  readonly partition: number;
  /** -1: no leader. */
  readonly leader: number;
  readonly leaderEpoch: number;
  readonly replicas: readonly number[];
  readonly isr: readonly number[];
  /** Replicas on brokers that are not alive. */
  readonly offline: readonly number[];
  readonly underReplicated: boolean;
  /** No live leader. */
  readonly leaderless: boolean;
}

export interface ClusterPage {
  readonly mode: 'single' | 'cluster';
  readonly clusterId: string;
  readonly controllerId: number;
  readonly brokers: readonly ShownBroker[];
  readonly partitions: readonly ShownPartition[];
  readonly underReplicated: number;
  readonly offline: number;
}

/** `visible`: whether the console may describe the topic (its partitions are left out otherwise, as Metadata leaves them). */
export function clusterPage(broker: BrokerState, visible: (topic: string) => boolean): ClusterPage {
  const { cluster } = broker;
  const controllerId = cluster === undefined ? broker.nodeId : cluster.controllerId();
  const brokers: ShownBroker[] = cluster === undefined
    ? [{
      nodeId: broker.nodeId, rack: broker.config['broker.rack'], controller: true, self: true,
      endpoints: [...broker.advertised].map(([listener, e]) => ({ listener, host: e.host, port: e.port })),
    }]
    : cluster.liveBrokers().map((b) => ({
      nodeId: b.nodeId, rack: b.rack, controller: b.nodeId === controllerId, self: b.nodeId === broker.nodeId,
      endpoints: [...b.endpoints].map(([listener, e]) => ({ listener, host: e.host, port: e.port })),
    }));
  brokers.sort((a, b) => a.nodeId - b.nodeId);
  const topics = cluster === undefined
    ? broker.store.topics().map((t) => ({ name: t.name, partitions: t.partitions }))
    : [...cluster.topics()].map((t) => ({ name: t.name, partitions: t.partitions }));
  const partitions: ShownPartition[] = [];
  for (const topic of topics.filter((t) => visible(t.name)).sort((a, b) => a.name.localeCompare(b.name))) {
    for (let partition = 0; partition < topic.partitions; partition++) {
      const view = replicaView(broker, topic.name, partition);
      partitions.push({
        topic: topic.name, partition, leader: view.leaderAlive ? view.leaderId : -1, leaderEpoch: view.leaderEpoch, replicas: view.replicas, isr: view.isr,
        offline: view.offline, underReplicated: view.isr.length < view.replicas.length, leaderless: !view.leaderAlive,
      });
    }
  }
  return {
    mode: cluster === undefined ? 'single' : 'cluster', clusterId: broker.clusterId, controllerId, brokers, partitions,
    underReplicated: partitions.filter((p) => p.underReplicated).length, offline: partitions.filter((p) => p.leaderless).length,
  };
}
