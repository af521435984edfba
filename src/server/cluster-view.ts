/**
 * What the handlers answer about brokers, the controller and partition replicas: in cluster mode from the cluster's
 * etcd cache (BrokerState.cluster), else this single node leading every partition at epoch 0 as before.
 */
import { ErrorCode } from '../protocol/error-codes.js';
import type { BrokerState } from './handler.js';

export interface BrokerNode {
  readonly nodeId: number;
  readonly host: string;
  readonly port: number;
  readonly rack: string | null;
}

export interface PartitionView {
  readonly errorCode: number;
  readonly leaderId: number;
  readonly leaderEpoch: number;
  readonly replicas: number[];
  readonly isr: number[];
  readonly offline: number[];
  /** KIP-966's eligible leader replicas and last known ELR (cluster mode; empty otherwise). */
  readonly elr?: number[];
  readonly lastKnownElr?: number[];
}

/** The live brokers with an endpoint on `listener` (Kafka's getAliveBrokerNodes), by node id. */
export function brokersOn(broker: BrokerState, listener: string): BrokerNode[] {
  const { cluster } = broker;
  if (cluster === undefined) {
    const endpoint = broker.advertised.get(listener);
    return endpoint === undefined ? [] : [{ nodeId: broker.nodeId, host: endpoint.host, port: endpoint.port, rack: broker.config['broker.rack'] }];
  }
  const nodes: BrokerNode[] = [];
  for (const live of cluster.liveBrokers()) {
    const endpoint = live.endpoints.get(listener);
    if (endpoint !== undefined) nodes.push({ nodeId: live.nodeId, host: endpoint.host, port: endpoint.port, rack: live.rack });
  }
  return nodes;
}

/** The elected controller (etcd's controller key in cluster mode, this node alone): what gregor's own views show. */
export function controllerIdOf(broker: BrokerState): number {
  return broker.cluster === undefined ? broker.nodeId : broker.cluster.controllerId();
}

/**
 * The controllerId Metadata and DescribeCluster answer: Kafka 4.3.1 names a random alive broker there
 * (getRandomAliveBrokerId), not its active controller, and its clients send controller-bound requests to it; so does
 * gregor in cluster mode (a paused elected controller would otherwise draw every admin request). -1 with no live
 * broker.
 */
export function metadataControllerIdOf(broker: BrokerState): number {
  if (broker.cluster === undefined) return broker.nodeId;
  const live = broker.cluster.liveBrokers();
  return live.length === 0 ? -1 : live[Math.floor(Math.random() * live.length)]!.nodeId;
}

/**
 * A partition's replicas as the metadata holds them: its leader (-1 when that broker is not alive, or in cluster mode has
 * no endpoint on `listener` when one is given, as Kafka's getAliveEndpoint), epoch, ISR, offline replicas.
 */
export function replicaView(broker: BrokerState, topic: string, index: number, listener?: string): Omit<PartitionView, 'errorCode'> & { readonly leaderAlive: boolean } {
  const { cluster } = broker;
  if (cluster === undefined) return { leaderId: broker.nodeId, leaderAlive: true, leaderEpoch: 0, replicas: [broker.nodeId], isr: [broker.nodeId], offline: [] };
  const record = cluster.partition(topic, index);
  if (record === undefined) return { leaderId: -1, leaderAlive: false, leaderEpoch: -1, replicas: [], isr: [], offline: [] };
  const live = new Map(cluster.liveBrokers().map((b) => [b.nodeId, b]));
  const leaderAlive = live.has(record.leader);
  const reachable = leaderAlive && (listener === undefined || live.get(record.leader)!.endpoints.has(listener));
  return {
    leaderId: reachable ? record.leader : -1, leaderAlive, leaderEpoch: record.leaderEpoch, replicas: [...record.replicas], isr: [...record.isr],
    offline: record.replicas.filter((r) => !live.has(r)), elr: [...(record.elr ?? [])], lastKnownElr: [...(record.lastKnownElr ?? [])],
  };
}

/**
 * A partition as Metadata describes it: a leader that is not alive is LEADER_NOT_AVAILABLE; one without an endpoint
 * on the client's listener cannot be reached: LISTENER_NOT_FOUND from v6, else LEADER_NOT_AVAILABLE, leader -1.
 */
export function partitionView(broker: BrokerState, listener: string, topic: string, index: number, listenerNotFoundAllowed: boolean): PartitionView {
  const { leaderAlive, ...replicas } = replicaView(broker, topic, index);
  if (!leaderAlive) return { ...replicas, errorCode: ErrorCode.LEADER_NOT_AVAILABLE };
  if (!brokersOn(broker, listener).some((b) => b.nodeId === replicas.leaderId)) {
    return { ...replicas, errorCode: listenerNotFoundAllowed ? ErrorCode.LISTENER_NOT_FOUND : ErrorCode.LEADER_NOT_AVAILABLE, leaderId: -1 };
  }
  return { ...replicas, errorCode: ErrorCode.NONE };
}

/**
 * KIP-951: the current leader of a partition a client asked the wrong broker for (Kafka's getCurrentLeader), and its
 * endpoint on the client's listener if it is alive. A single node leads every partition at epoch 0 (what an injected
 * NOT_LEADER_OR_FOLLOWER names there).
 */
export function currentLeader(broker: BrokerState, listener: string, topic: string, index: number): { leaderId: number; leaderEpoch: number; node: BrokerNode | undefined } {
  if (broker.cluster === undefined) {
    const { leaderId, leaderEpoch } = replicaView(broker, topic, index);
    return { leaderId, leaderEpoch, node: brokersOn(broker, listener).find((b) => b.nodeId === leaderId) };
  }
  const record = broker.cluster.partition(topic, index);
  if (record === undefined) return { leaderId: -1, leaderEpoch: -1, node: undefined };
  return { leaderId: record.leader, leaderEpoch: record.leaderEpoch, node: brokersOn(broker, listener).find((b) => b.nodeId === record.leader) };
}
