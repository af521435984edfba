/**
 * A broker in cluster mode: its etcd session (one lease of broker.session.timeout.ms, kept alive by etcd3), its
 * registration, the controller election, and the cache of the cluster's metadata (one read of the layout, then a
 * watch from the next revision, so no change is missed between the two). Loaded only when
 * gregor.cluster.etcd.endpoints is set (startBroker imports it lazily), with the etcd3 client.
 *
 * Local logs follow the cache: every broker keeps a local topic (same name, same id, all partitions) for each
 * topic in etcd, created or deleted one after another as the watch tells. A local non-internal topic unknown to
 * etcd is left alone with a warning and not served by Metadata.
 */
import type { Etcd3, IKeyValue, Lease, Watcher } from 'etcd3';
import type { BrokerConfig } from '../config/index.js';
import type { Log } from '../log.js';
import type { LogStore } from '../storage/log-store.js';
import { KafkaError } from '../protocol/kafka-error.js';
import { isInternalTopic } from '../protocol/topic-names.js';
import { randomUuid } from '../protocol/uuid.js';
import type { Cluster, ClusterEndpoint, ClusterTopic, LiveBroker, TopicAssignmentSpec } from './cluster.js';
import { ClusterKeys, type BrokerRegistration, type PartitionRecord, type TopicRecord } from './layout.js';
import { placeReplicas } from './replica-placer.js';
import { alterPartitionIsr, type AlterPartitionResult } from './etcd-alter-partition.js';
import { EtcdProducerIdBlocks } from './etcd-producer-ids.js';
import { balanceLeaders, electForFailures, electLeaders, type ElectionOutcome } from './leader-elector.js';
import { moveLeadership, type LeaderMove } from './leader-move.js';
import { ErrorCode } from '../protocol/error-codes.js';

/** How often the controller looks for partitions to elect even when no broker came or went (a lost txn race, a missed event). */
const CONTROLLER_PASS_MS = 1000;
/** How often a broker in controlled shutdown checks whether it still leads anything. */
const SHUTDOWN_POLL_MS = 100;

/** How often a broker whose node.id is still held by an earlier session (a kill -9 inside its lease) tries again. */
const REGISTRATION_RETRY_MS = 500;

export interface AdvertisedListener {
  readonly listener: string;
  readonly host: string;
  readonly port: number;
  readonly securityProtocol: string;
}

/** Connects to etcd and reads the cluster id (the first broker of a cluster writes it) before the log dir opens. */
export async function connectCluster(config: BrokerConfig, log: Log): Promise<EtcdCluster> {
  const endpoints = config['gregor.cluster.etcd.endpoints'] ?? [];
  // Imported here, not at the top: the bundled command would hoist a static import of it into every start.
  const { Etcd3: Client } = await import('etcd3');
  const client = new Client({ hosts: [...endpoints], dialTimeout: 5000 });
  const keys = new ClusterKeys(config['gregor.cluster.name']);
  try {
    await client.if(keys.clusterId, 'Create', '==', 0).then(client.put(keys.clusterId).value(randomUuid())).commit();
    const clusterId = await client.get(keys.clusterId).string();
    if (clusterId === null) throw new Error(`etcd lost ${keys.clusterId}`);
    const cluster = new EtcdCluster(client, keys, clusterId, config, log);
    await cluster.load();
    return cluster;
  } catch (err) {
    client.close();
    throw new Error(`gregor.cluster.etcd.endpoints: cannot use etcd at ${endpoints.join(',')}: ${(err as Error).message}`);
  }
}

function sameConfigs(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k]);
}

interface Waiter {
  readonly done: () => boolean;
  readonly resolve: () => void;
}

export class EtcdCluster implements Cluster {
  readonly nodeId: number;
  private readonly rack: string | null;
  private readonly ttlSeconds: number;
  private readonly brokers = new Map<number, LiveBroker>();
  private readonly topicRecords = new Map<string, ClusterTopic>();
  private readonly partitionRecords = new Map<string, (PartitionRecord | undefined)[]>();
  /** The last revision the watch applied to the cache. */
  private revision = 0;
  private controller = -1;
  private controllerEpoch = -1;
  private watcher: Watcher | undefined;
  private lease: Lease | undefined;
  private store: LogStore | undefined;
  private registration: BrokerRegistration | undefined;
  /** Local log changes, one after another in the order the watch told them. */
  private localChanges: Promise<void> = Promise.resolve();
  private waiters: Waiter[] = [];
  private closed = false;
  /** While this broker is the controller: its periodic passes. */
  private controllerTimers: ReturnType<typeof setInterval>[] = [];
  private passRunning = false;
  private passAgain = false;

  constructor(
    private readonly client: Etcd3,
    private readonly keys: ClusterKeys,
    readonly clusterId: string,
    private readonly config: BrokerConfig,
    private readonly log: Log,
  ) {
    this.nodeId = config['node.id'];
    this.rack = config['broker.rack'];
    // etcd leases count whole seconds; etcd grants at least its minimum TTL.
    this.ttlSeconds = Math.max(1, Math.ceil(config['broker.session.timeout.ms'] / 1000));
  }

  /** The layout as of one revision, then every change after it. */
  async load(): Promise<void> {
    const snapshot = await this.client.getAll().prefix(this.keys.root).exec();
    for (const kv of snapshot.kvs) this.applyPut(kv);
    this.watcher = await this.client.watch().prefix(this.keys.root).startRevision(String(BigInt(snapshot.header.revision) + 1n)).create();
    this.watcher.on('put', (kv) => this.applyPut(kv));
    this.watcher.on('delete', (kv) => this.applyDelete(kv));
    this.watcher.on('error', (err) => this.log.error({ err }, 'etcd watch failed'));
  }

  /** Once the listeners are bound: local logs follow etcd, then this broker registers and stands for controller. */
  async start(store: LogStore, endpoints: readonly AdvertisedListener[]): Promise<void> {
    this.store = store;
    for (const topic of store.topics()) {
      if (!isInternalTopic(topic.name) && !this.topicRecords.has(topic.name)) {
        this.log.warn({ topic: topic.name }, `Local topic ${topic.name} is not in cluster ${this.clusterId}: left on disk, not served`);
      }
    }
    for (const topic of this.topicRecords.values()) this.followTopic(topic.name);
    await this.localChanges;
    this.registration = { nodeId: this.nodeId, rack: this.rack, endpoints: endpoints.map((e) => ({ ...e })) };
    await this.openSession();
  }

  private async openSession(): Promise<void> {
    const lease = this.client.lease(this.ttlSeconds, { autoKeepAlive: true });
    this.lease = lease;
    const leaseId = await lease.grant();
    lease.on('lost', (err) => {
      if (this.closed || this.lease !== lease) return;
      this.log.warn({ reason: err.message }, `Broker ${this.nodeId} lost its etcd session; registering again`);
      void this.openSession().catch((e: unknown) => this.log.error({ err: e }, 'registering again failed'));
    });
    const key = this.keys.broker(this.nodeId);
    for (let attempt = 0; !this.closed; attempt++) {
      const registered = await this.client.if(key, 'Create', '==', 0)
        .then(this.client.put(key).value(JSON.stringify(this.registration)).lease(leaseId)).commit();
      if (registered.succeeded) break;
      // Kafka's DUPLICATE_BROKER_REGISTRATION: an earlier session of this node id still holds it; it expires.
      if (attempt === 0) this.log.warn(`Node id ${this.nodeId} is still registered by an earlier session; waiting for it to expire`);
      await new Promise((resolve) => setTimeout(resolve, REGISTRATION_RETRY_MS));
    }
    this.log.info({ nodeId: this.nodeId, cluster: this.clusterId }, `Broker ${this.nodeId} registered in cluster ${this.clusterId}`);
    await this.campaign();
  }

  /** Stands for controller: the controller key is created under this broker's lease unless another holds it. */
  private async campaign(): Promise<void> {
    if (this.closed || this.lease === undefined || this.controller >= 0) return;
    const leaseId = await this.lease.grant();
    const won = await this.client.if(this.keys.controller, 'Create', '==', 0)
      .then(this.client.put(this.keys.controller).value(JSON.stringify({ nodeId: this.nodeId })).lease(leaseId)).commit();
    if (won.succeeded) this.log.info({ nodeId: this.nodeId }, `Broker ${this.nodeId} won the controller election`);
  }

  private applyPut(kv: IKeyValue): void {
    this.revision = Math.max(this.revision, Number(kv.mod_revision));
    const parsed = this.keys.parse(kv.key.toString());
    if (parsed === undefined) return;
    const value = kv.value.toString();
    switch (parsed.kind) {
      case 'broker': {
        const registration = JSON.parse(value) as BrokerRegistration;
        const endpoints = new Map<string, ClusterEndpoint>(registration.endpoints.map((e) => [e.listener, { host: e.host, port: e.port }]));
        this.brokers.set(parsed.nodeId, { nodeId: parsed.nodeId, rack: registration.rack, epoch: Number(kv.create_revision), endpoints });
        this.controllerPass();
        break;
      }
      case 'shutdown':
        this.controllerPass();
        break;
      case 'controller':
        this.controller = (JSON.parse(value) as { nodeId: number }).nodeId;
        this.controllerEpoch = Number(kv.create_revision);
        this.log.info({ controller: this.controller, epoch: this.controllerEpoch }, `The controller is node ${this.controller} (epoch ${this.controllerEpoch})`);
        if (this.controller === this.nodeId) this.becomeController();
        break;
      case 'topic': {
        const record = JSON.parse(value) as TopicRecord;
        const states = this.partitionRecords.get(parsed.topic) ?? [];
        this.partitionRecords.set(parsed.topic, states);
        this.topicRecords.set(parsed.topic, { ...record, name: parsed.topic, partitionStates: states });
        this.followTopic(parsed.topic);
        break;
      }
      case 'partition': {
        const states = this.partitionRecords.get(parsed.topic) ?? [];
        this.partitionRecords.set(parsed.topic, states);
        const record = JSON.parse(value) as PartitionRecord;
        // A record this broker wrote itself is cached before the watch brings it; an older one never replaces it.
        const cached = states[parsed.index];
        if (cached === undefined || cached.leaderEpoch !== record.leaderEpoch || cached.partitionEpoch <= record.partitionEpoch) states[parsed.index] = record;
        break;
      }
      case 'cluster-id':
      case 'producer-ids':
        break;
    }
    this.wake();
  }

  private applyDelete(kv: IKeyValue): void {
    this.revision = Math.max(this.revision, Number(kv.mod_revision));
    const parsed = this.keys.parse(kv.key.toString());
    if (parsed === undefined) return;
    switch (parsed.kind) {
      case 'broker':
        this.brokers.delete(parsed.nodeId);
        // broker.session.timeout.ms passed without a keep-alive (killed, paused, cut off): its leaderships move.
        this.controllerPass();
        break;
      case 'shutdown':
        break;
      case 'controller':
        this.stopController();
        this.controller = -1;
        this.controllerEpoch = -1;
        // The controller's session ended: every live broker stands; one txn wins.
        void this.campaign().catch((err: unknown) => this.log.error({ err }, 'controller election failed'));
        break;
      case 'topic':
        this.topicRecords.delete(parsed.topic);
        this.partitionRecords.delete(parsed.topic);
        this.followTopic(parsed.topic);
        break;
      case 'partition':
        this.partitionRecords.get(parsed.topic)?.splice(parsed.index, 1, undefined);
        break;
      case 'cluster-id':
      case 'producer-ids':
        break;
    }
    this.wake();
  }

  /**
   * Brings the local topic in line with etcd's (created with etcd's id, deleted, or replaced by a new id). Internal
   * topics are each broker's own (its coordinators write them) and never touched.
   */
  private followTopic(name: string): void {
    const store = this.store;
    if (store === undefined || isInternalTopic(name)) return;
    this.localChanges = this.localChanges.then(async () => {
      const wanted = this.topicRecords.get(name);
      const local = store.topic(name);
      if (local !== undefined && (wanted === undefined || local.topicId !== wanted.id)) await store.deleteTopic(name);
      if (wanted === undefined) return;
      const followed = store.topic(name) ?? await store.createTopic(name, wanted.partitions, { ...wanted.configs }, wanted.id);
      if (followed.partitions < wanted.partitions) await store.addPartitions(name, wanted.partitions);
      if (!sameConfigs(followed.configs, wanted.configs)) await store.setTopicConfigs(name, { ...wanted.configs });
    }).catch((err: unknown) => this.log.error({ err, topic: name }, `Could not follow topic ${name} from etcd in the local logs`))
      .finally(() => this.wake());
  }

  /**
   * This broker won the controller election: everything its predecessor left undone is found by the first pass
   * (each pass derives its work from etcd alone), then passes run on every broker change and every
   * CONTROLLER_PASS_MS; with auto.leader.rebalance.enable, preferred elections every
   * leader.imbalance.check.interval.seconds.
   */
  private becomeController(): void {
    this.stopController();
    this.controllerTimers.push(setInterval(() => this.controllerPass(), CONTROLLER_PASS_MS));
    if (this.config['auto.leader.rebalance.enable']) {
      const guard = { key: this.keys.controller, createRevision: String(this.controllerEpoch) };
      this.controllerTimers.push(setInterval(() => {
        if (this.controller !== this.nodeId || this.closed) return;
        void balanceLeaders(this.client, this.keys, this.config, this.log, guard)
          .catch((err: unknown) => this.log.warn({ reason: (err as Error).message }, 'Leader rebalance failed; next interval tries again'));
      }, Number(this.config['leader.imbalance.check.interval.seconds']) * 1000));
    }
    this.controllerPass();
  }

  private stopController(): void {
    for (const timer of this.controllerTimers) clearInterval(timer);
    this.controllerTimers = [];
  }

  /** One controller pass at a time; a pass asked for meanwhile runs once after it. */
  private controllerPass(): void {
    if (this.controller !== this.nodeId || this.closed) return;
    if (this.passRunning) {
      this.passAgain = true;
      return;
    }
    this.passRunning = true;
    const guard = { key: this.keys.controller, createRevision: String(this.controllerEpoch) };
    void electForFailures(this.client, this.keys, this.config, this.log, guard)
      .catch((err: unknown) => this.log.warn({ reason: (err as Error).message }, 'Leader election pass failed; the next one tries again'))
      .finally(() => {
        this.passRunning = false;
        if (this.passAgain) {
          this.passAgain = false;
          this.controllerPass();
        }
      });
  }

  /** ElectLeaders (PREFERRED or UNCLEAN) for the named partitions, null for all. */
  electLeaders(election: 'PREFERRED' | 'UNCLEAN', partitions: readonly { topic: string; index: number }[] | null): Promise<ElectionOutcome[]> {
    return electLeaders(this.client, this.keys, this.config, election, partitions);
  }

  async moveLeadership(topic: string, partition: number | undefined): Promise<LeaderMove[]> {
    const moves = await moveLeadership(this.client, this.keys, this.config, topic, partition);
    await this.until(() => moves.every((m) => m.errorCode !== ErrorCode.NONE || (this.partition(m.topic, m.partition)?.leaderEpoch ?? -1) >= m.leaderEpoch));
    return moves;
  }

  /**
   * Controlled shutdown (Kafka's wantShutDown): this broker asks, under its lease, to be taken out of leadership and
   * ISRs, and waits until the controller moved every leadership it held (as etcd says), at most `timeoutMs`.
   * Returns how many partitions it still led when it stopped waiting.
   */
  async controlledShutdown(timeoutMs: number): Promise<number> {
    if (this.closed || this.lease === undefined) return 0;
    const leaseId = await this.lease.grant();
    await this.client.put(this.keys.shutdown(this.nodeId)).value(String(Date.now())).lease(leaseId);
    const leading = (): number => {
      let count = 0;
      for (const states of this.partitionRecords.values()) for (const r of states) if (r?.leader === this.nodeId) count++;
      return count;
    };
    const deadline = Date.now() + timeoutMs;
    while (leading() > 0 && Date.now() < deadline && !this.closed) await new Promise((resolve) => setTimeout(resolve, SHUTDOWN_POLL_MS));
    const left = leading();
    if (left > 0) this.log.warn({ partitions: left }, `Controlled shutdown: still leading ${left} partition(s) after ${timeoutMs} ms; stopping anyway`);
    else this.log.info('Controlled shutdown: no partition led here any more');
    return left;
  }

  private wake(): void {
    this.waiters = this.waiters.filter((w) => {
      if (!w.done()) return true;
      w.resolve();
      return false;
    });
  }

  /** Resolves once `done` holds, checked after each change of the cache or of the local logs. */
  private until(done: () => boolean): Promise<void> {
    if (done()) return this.localChanges;
    return new Promise<void>((resolve) => this.waiters.push({ done, resolve })).then(() => this.localChanges);
  }

  /** Producer id blocks from etcd's one counter: ids unique across the cluster's brokers. */
  producerIdBlocks(): EtcdProducerIdBlocks {
    return new EtcdProducerIdBlocks(this.client, this.keys);
  }

  async alterPartitionIsr(topic: string, index: number, known: PartitionRecord, isr: readonly number[]): Promise<AlterPartitionResult> {
    const result = await alterPartitionIsr(this.client, this.keys, topic, index, known, isr);
    // The cache takes the written record at once (the watch brings the same one a moment later).
    if (result.ok) {
      const states = this.partitionRecords.get(topic);
      if (states !== undefined && (states[index]?.partitionEpoch ?? -1) < result.record.partitionEpoch) states[index] = result.record;
    }
    return result;
  }

  liveBrokers(): readonly LiveBroker[] {
    return [...this.brokers.values()].sort((a, b) => a.nodeId - b.nodeId);
  }

  controllerId(): number {
    return this.controller;
  }

  topics(): Iterable<ClusterTopic> {
    return this.topicRecords.values();
  }

  topic(name: string): ClusterTopic | undefined {
    return this.topicRecords.get(name);
  }

  topicById(id: string): ClusterTopic | undefined {
    for (const topic of this.topicRecords.values()) if (topic.id === id) return topic;
    return undefined;
  }

  partition(topic: string, index: number): PartitionRecord | undefined {
    return this.partitionRecords.get(topic)?.[index];
  }

  async createTopic(name: string, spec: TopicAssignmentSpec, configs: Readonly<Record<string, string>>): Promise<{ topicId: string; replicationFactor: number }> {
    if (isInternalTopic(name)) throw new KafkaError('INVALID_REQUEST', `${name} is each broker's own in cluster mode: its coordinator does not move with partitions yet`);
    const assignments = 'assignments' in spec ? spec.assignments
      : placeReplicas(spec.partitions, spec.replicationFactor, this.liveBrokers().map((b) => ({ id: b.nodeId, rack: b.rack, fenced: false })));
    const id = randomUuid();
    const topic: TopicRecord = { id, partitions: assignments.length, configs };
    const key = this.keys.topic(name);
    const created = await this.client.if(key, 'Create', '==', 0)
      .then(this.client.put(key).value(JSON.stringify(topic)), ...this.initialPartitions(name, 0, assignments)).commit();
    if (!created.succeeded) throw new KafkaError('TOPIC_ALREADY_EXISTS', `Topic '${name}' already exists.`);
    await this.until(() => this.store?.topic(name)?.topicId === id);
    return { topicId: id, replicationFactor: assignments[0]?.length ?? 0 };
  }

  /** The topic's record as etcd holds it now, and its mod revision, which a change of it compares. */
  private async readTopic(name: string): Promise<{ record: TopicRecord; modRevision: string }> {
    const kv = (await this.client.get(this.keys.topic(name)).exec()).kvs[0];
    if (kv === undefined) throw new KafkaError('UNKNOWN_TOPIC_OR_PARTITION');
    return { record: JSON.parse(kv.value.toString()) as TopicRecord, modRevision: kv.mod_revision };
  }

  async deleteTopic(name: string): Promise<void> {
    const topic = this.topicRecords.get(name);
    if (topic === undefined) throw new KafkaError('UNKNOWN_TOPIC_OR_PARTITION');
    const key = this.keys.topic(name);
    // The same topic, not one recreated under its name since this broker read it.
    const current = await this.readTopic(name);
    if (current.record.id !== topic.id) throw new KafkaError('UNKNOWN_TOPIC_OR_PARTITION');
    const deleted = await this.client.if(key, 'Mod', '==', current.modRevision)
      .then(this.client.delete().key(key), this.client.delete().prefix(this.keys.partitionsOf(name))).commit();
    if (!deleted.succeeded) throw new KafkaError('UNKNOWN_TOPIC_OR_PARTITION');
    await this.until(() => this.store?.topic(name)?.topicId !== topic.id);
  }

  /**
   * Rewrites the topic's record with `change` in one txn comparing its mod revision; a write that landed in between
   * (another broker's change of the same topic) makes it read and try again.
   */
  private async changeTopic(name: string, change: (record: TopicRecord) => { record: TopicRecord; partitions?: ReturnType<EtcdCluster['initialPartitions']> }): Promise<number> {
    const key = this.keys.topic(name);
    for (;;) {
      const current = await this.readTopic(name);
      const next = change(current.record);
      const changed = await this.client.if(key, 'Mod', '==', current.modRevision)
        .then(this.client.put(key).value(JSON.stringify(next.record)), ...(next.partitions ?? [])).commit();
      if (changed.succeeded) return Number(changed.header.revision);
    }
  }

  async addPartitions(name: string, total: number, assignments: readonly (readonly number[])[] | null): Promise<void> {
    await this.changeTopic(name, (record) => {
      if (total <= record.partitions) throw new KafkaError('INVALID_PARTITIONS', `Topic already has ${record.partitions} partition(s).`);
      // Kafka's createPartitions places the new ones at the replication factor of the topic's first partition.
      const added = assignments ?? placeReplicas(total - record.partitions, this.partition(name, 0)?.replicas.length ?? 1,
        this.liveBrokers().map((b) => ({ id: b.nodeId, rack: b.rack, fenced: false })));
      return { record: { ...record, partitions: total }, partitions: this.initialPartitions(name, record.partitions, added) };
    });
    await this.until(() => (this.store?.topic(name)?.partitions ?? 0) >= total);
  }

  async setTopicConfigs(name: string, configs: Readonly<Record<string, string>>): Promise<void> {
    const revision = await this.changeTopic(name, (record) => ({ record: { ...record, configs } }));
    await this.until(() => this.revision >= revision);
  }

  /** Kafka's initial PartitionRecord for each new partition from `first` on: the ISR is the live replicas, the leader the first of them. */
  private initialPartitions(name: string, first: number, assignments: readonly (readonly number[])[]) {
    const live = new Set(this.brokers.keys());
    return assignments.map((replicas, i) => {
      const isr = replicas.filter((r) => live.has(r));
      const record: PartitionRecord = { replicas: [...replicas], leader: isr[0] ?? -1, leaderEpoch: 0, isr, partitionEpoch: 0 };
      return this.client.put(this.keys.partition(name, first + i)).value(JSON.stringify(record));
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stopController();
    for (const w of this.waiters) w.resolve();
    this.waiters = [];
    await this.watcher?.cancel().catch(() => undefined);
    // Leaving: the registration (and the controller key, if held) go at once rather than at the lease's expiry.
    await this.lease?.revoke().catch(() => undefined);
    await this.localChanges;
    this.client.close();
  }
}
