/**
 * THE layout of a gregor cluster's metadata in etcd (ARCHITECTURE.md, "Cluster mode"), under /<gregor.cluster.name>/:
 *   cluster-id                  the cluster id (text), written once by the first broker (create-if-absent txn)
 *   brokers/<node.id>           a live broker: {nodeId, rack, endpoints}, put under its session lease
 *                               (broker.session.timeout.ms); its epoch is the key's create revision
 *   controller                  {nodeId}, put under the controller's session lease by a create-if-absent txn;
 *                               the controller epoch is the key's create revision, and every controller write
 *                               compares it (a deposed controller's txn fails)
 *   topics/<name>               {id, partitions, configs}: written once when the topic is created
 *   partitions/<name>/<index>   {replicas, leader, leaderEpoch, isr, partitionEpoch, elr?, lastKnownElr?}: Kafka's PartitionRecord;
 *                               after creation its ISR is changed by its leader (AlterPartition's rules: one txn
 *                               comparing the key's mod revision, the partition epoch bumped), the rest only by
 *                               the controller (partition-change.ts, leader-elector.ts), comparing the key's mod revision
 *   shutdown/<node.id>          a broker in controlled shutdown (put under its lease on SIGTERM): the controller moves
 *                               its leaderships away and takes it out of every ISR, as Kafka's wantShutDown
 *   broker-configs/default/<key>      a dynamic broker config's cluster default (cluster-state-stores.ts, one key per
 *   broker-configs/<node.id>/<key>    entry of each state's StateEntries form; any broker writes, every broker watches)
 *   resource-configs/groups/<id>      a group's configs; resource-configs/client-metrics/<name> a subscription's
 *   acls/<acl>                        one ACL (its fields, JSON, URI-encoded as the name)
 *   scram-credentials/<user>/<mech>   salt, StoredKey, ServerKey and iterations, never a password
 *   client-quotas/<entity>            one entity's quotas
 *   delegation-tokens/<token id>      one token (its owner, renewers, timestamps; never its HMAC)
 *   formed/<area>                     written with an area's initial entries by the first broker (the min.insync.replicas
 *                                     cluster default, as Kafka's controller writes it when the cluster is formed)
 *   producer-ids                the next producer id block's start (text): every broker reserves blocks of 1000
 *                               by a txn comparing its mod revision
 * Values are JSON. Record data never passes through etcd.
 */

export interface BrokerRegistration {
  readonly nodeId: number;
  readonly rack: string | null;
  /** Advertised listeners by name, as Metadata answers a client on that listener. */
  readonly endpoints: readonly { readonly listener: string; readonly host: string; readonly port: number; readonly securityProtocol: string }[];
}

export interface TopicRecord {
  readonly id: string;
  readonly partitions: number;
  readonly configs: Readonly<Record<string, string>>;
}

export interface PartitionRecord {
  readonly replicas: readonly number[];
  /** -1: no leader (every replica of the ISR gone). */
  readonly leader: number;
  readonly leaderEpoch: number;
  readonly isr: readonly number[];
  readonly partitionEpoch: number;
  /** KIP-966's eligible leader replicas: out of the ISR while it was below min.insync.replicas, still electable. */
  readonly elr?: readonly number[];
  /** The last leader of a partition left with no eligible replica: an unclean election's first choice. */
  readonly lastKnownElr?: readonly number[];
}

export class ClusterKeys {
  readonly root: string;
  constructor(clusterName: string) {
    this.root = `/${clusterName}/`;
  }
  get clusterId(): string { return `${this.root}cluster-id`; }
  get controller(): string { return `${this.root}controller`; }
  get producerIds(): string { return `${this.root}producer-ids`; }
  get shutdowns(): string { return `${this.root}shutdown/`; }
  shutdown(nodeId: number): string { return `${this.shutdowns}${nodeId}`; }
  get brokers(): string { return `${this.root}brokers/`; }
  broker(nodeId: number): string { return `${this.brokers}${nodeId}`; }
  get topics(): string { return `${this.root}topics/`; }
  topic(name: string): string { return `${this.topics}${name}`; }
  partitionsOf(topic: string): string { return `${this.root}partitions/${topic}/`; }
  partition(topic: string, index: number): string { return `${this.partitionsOf(topic)}${index}`; }
  get partitions(): string { return `${this.root}partitions/`; }

  /** What a key under the root names, or undefined for a key gregor does not know. */
  parse(key: string): ParsedKey | undefined {
    if (!key.startsWith(this.root)) return undefined;
    const rest = key.slice(this.root.length);
    if (rest === 'controller') return { kind: 'controller' };
    if (rest === 'cluster-id') return { kind: 'cluster-id' };
    if (rest === 'producer-ids') return { kind: 'producer-ids' };
    const slash = rest.indexOf('/');
    if (slash < 0) return undefined;
    const area = rest.slice(0, slash);
    const tail = rest.slice(slash + 1);
    if (area === 'brokers' && /^\d+$/.test(tail)) return { kind: 'broker', nodeId: Number(tail) };
    if (area === 'shutdown' && /^\d+$/.test(tail)) return { kind: 'shutdown', nodeId: Number(tail) };
    if (area === 'topics' && tail !== '') return { kind: 'topic', topic: tail };
    if (area === 'partitions') {
      // Topic names hold no '/' (Kafka's legal characters), so the last one separates the index.
      const at = tail.lastIndexOf('/');
      const index = tail.slice(at + 1);
      if (at > 0 && /^\d+$/.test(index)) return { kind: 'partition', topic: tail.slice(0, at), index: Number(index) };
    }
    return undefined;
  }
}

export type ParsedKey =
  | { readonly kind: 'controller' }
  | { readonly kind: 'cluster-id' }
  | { readonly kind: 'producer-ids' }
  | { readonly kind: 'broker'; readonly nodeId: number }
  | { readonly kind: 'shutdown'; readonly nodeId: number }
  | { readonly kind: 'topic'; readonly topic: string }
  | { readonly kind: 'partition'; readonly topic: string; readonly index: number };
