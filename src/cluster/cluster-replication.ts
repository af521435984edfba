// Replication in cluster mode (the Replication seam of src/broker/replication.ts), as Kafka's ReplicaManager and
// Partition do it, over the etcd metadata cache:
// - a partition this broker leads gets a LeaderReplicas when first used or seen (its log's high watermark held
//   from then on): followers' fetch offsets move the high watermark (the smallest log end over the ISR) and let a
//   caught-up follower join the ISR; every replica.lag.time.max.ms / 2 the followers not caught up for
//   replica.lag.time.max.ms leave it. Each ISR change is written to etcd by the leader as AlterPartition is applied
//   (etcd-alter-partition.ts: one txn on the partition epoch), one at a time per partition.
// - acks=all produces wait here until the high watermark passes their batch (DelayedProduce).
// - a partition this broker follows is fetched from its leader by that leader's ReplicaFetcher.
// The set of led and followed partitions is brought in line with the cache every RECONCILE_MS.
import type { BrokerConfig } from '../config/index.js';
import type { Log } from '../log.js';
import { ErrorCode } from '../protocol/error-codes.js';
import type { LeaderReplicas as LeaderReplicasType, IsrChange } from '../broker/leader-replicas.js';
import { LeaderReplicas } from '../broker/leader-replicas.js';
import { setLogLeaderEpoch } from '../broker/leader-epoch.js';
import type { Replication } from '../broker/replication.js';
import type { PartitionLog } from '../storage/log.js';
import type { LogStore } from '../storage/log-store.js';
import type { Cancel, Scheduler } from '../storage/scheduler.js';
import type { Cluster, ClusterEndpoint, PartitionRecord } from './cluster.js';
import { ReplicaFetcher, type FollowedPartition, type FollowerProducerState } from './replica-fetcher.js';
import { HighWatermarkCheckpoint } from './high-watermark-checkpoint.js';

/** How often the led and followed partitions are brought in line with the metadata cache. */
const RECONCILE_MS = 200;

interface ProduceWaiter {
  readonly requiredOffset: number;
  readonly minIsr: number;
  readonly resolve: (errorCode: number) => void;
  readonly cancel: Cancel;
}

interface Led {
  readonly topic: string;
  readonly partition: number;
  readonly log: PartitionLog;
  readonly replicas: LeaderReplicasType;
  record: PartitionRecord;
  readonly unsubscribe: () => void;
  waiters: ProduceWaiter[];
}

const keyOf = (topic: string, partition: number): string => `${topic}:${partition}`;

export interface ClusterReplicationOptions {
  readonly cluster: Cluster;
  readonly store: LogStore;
  readonly config: () => BrokerConfig;
  readonly clock: Scheduler;
  readonly log: Log;
  /** Where high watermarks are saved and restored (replication-offset-checkpoint); none: a held log starts at its own. */
  readonly checkpoint?: HighWatermarkCheckpoint;
  /** The broker's producer state, which a follower keeps over what it fetches. */
  readonly producerStates?: FollowerProducerState;
}

export class ClusterReplication implements Replication {
  private readonly led = new Map<string, Led>();
  private readonly fetchers = new Map<number, ReplicaFetcher>();
  /** The replicated logs (led or followed) whose high watermark this holds, by partition. */
  private readonly held = new Map<string, PartitionLog>();
  private readonly timers: Cancel[] = [];
  private reconciler: ReturnType<typeof setInterval> | undefined;
  private closed = false;

  constructor(private readonly options: ClusterReplicationOptions) {}

  /** With the log dir's replication-offset-checkpoint read. */
  static async open(options: Omit<ClusterReplicationOptions, 'checkpoint'>): Promise<ClusterReplication> {
    return new ClusterReplication({ ...options, checkpoint: await HighWatermarkCheckpoint.open(options.store) });
  }

  private get nodeId(): number {
    return this.options.cluster.nodeId;
  }

  private get lagMs(): number {
    return this.options.config()['replica.lag.time.max.ms'];
  }

  start(): void {
    this.reconcile();
    this.reconciler = setInterval(() => this.reconcile(), RECONCILE_MS);
    // Kafka's isr-expiration task runs every replica.lag.time.max.ms / 2.
    this.timers.push(this.options.clock.every(Math.max(1, Math.floor(this.lagMs / 2)), () => this.shrinkAll()));
    const { checkpoint } = this.options;
    if (checkpoint !== undefined) {
      this.timers.push(this.options.clock.every(Math.max(1, this.options.config()['replica.high.watermark.checkpoint.interval.ms']), () => {
        void checkpoint.save(this.held.values()).catch((err: unknown) => this.options.log.error({ err }, 'Saving the high watermark checkpoint failed'));
      }));
    }
  }

  /** A log becomes replicated here: its high watermark is held (and restored from the checkpoint) once. */
  private hold(key: string, log: PartitionLog, leaderEpoch: number): void {
    // Appends (led) are stamped with, and clients' current epochs checked against, the epoch etcd holds.
    setLogLeaderEpoch(log, leaderEpoch);
    if (this.held.get(key) === log) return;
    log.holdHighWatermark();
    this.options.checkpoint?.restore(log);
    this.held.set(key, log);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.reconciler !== undefined) clearInterval(this.reconciler);
    for (const cancel of this.timers) cancel();
    for (const key of [...this.led.keys()]) this.resign(key);
    await Promise.all([...this.fetchers.values()].map((f) => f.stop()));
    this.fetchers.clear();
    await this.options.checkpoint?.save(this.held.values()).catch((err: unknown) => this.options.log.error({ err }, 'Saving the high watermark checkpoint failed'));
  }

  checkBeforeAppend(topic: string, partition: number, log: PartitionLog, requiredAcks: number, minInsyncReplicas: number): number {
    const led = this.leading(topic, partition, log);
    if (led === undefined || requiredAcks !== -1) return ErrorCode.NONE;
    return led.replicas.isr.length < minInsyncReplicas ? ErrorCode.NOT_ENOUGH_REPLICAS : ErrorCode.NONE;
  }

  awaitReplicated(topic: string, partition: number, log: PartitionLog, requiredOffset: number, minInsyncReplicas: number, timeoutMs: number): Promise<number> {
    const led = this.leading(topic, partition, log);
    if (led === undefined) return Promise.resolve(this.options.cluster.partition(topic, partition) === undefined ? ErrorCode.NONE : ErrorCode.NOT_LEADER_OR_FOLLOWER);
    const settled = this.settled(led, requiredOffset, minInsyncReplicas);
    if (settled !== undefined) return Promise.resolve(settled);
    return new Promise((resolve) => {
      const waiter: ProduceWaiter = {
        requiredOffset, minIsr: minInsyncReplicas, resolve,
        cancel: this.options.clock.after(timeoutMs, () => {
          led.waiters = led.waiters.filter((w) => w !== waiter);
          resolve(ErrorCode.REQUEST_TIMED_OUT);
        }),
      };
      led.waiters.push(waiter);
    });
  }

  followerFetched(topic: string, partition: number, log: PartitionLog, replicaId: number, fetchOffset: number, leaderEndOffset: number): number {
    const led = this.leading(topic, partition, log);
    if (led === undefined || !led.replicas.isReplica(replicaId)) return ErrorCode.NOT_LEADER_OR_FOLLOWER;
    led.replicas.updateFollower(replicaId, fetchOffset, leaderEndOffset, this.options.clock.now());
    const change = led.replicas.expansion(replicaId, log.highWatermark);
    if (change !== undefined) this.alter(led, change);
    this.advance(led);
    return ErrorCode.NONE;
  }

  /** DelayedProduce's checkEnoughReplicasReachOffset: undefined while the high watermark is short of the offset. */
  private settled(led: Led, requiredOffset: number, minIsr: number): number | undefined {
    if (led.log.highWatermark < requiredOffset) return undefined;
    return led.replicas.maximalIsr.length < minIsr ? ErrorCode.NOT_ENOUGH_REPLICAS_AFTER_APPEND : ErrorCode.NONE;
  }

  /** maybeIncrementLeaderHW, then the producers it satisfies. */
  private advance(led: Led): void {
    const hw = led.replicas.highWatermark(led.log.logEndOffset, this.options.clock.now(), this.lagMs);
    if (hw > led.log.highWatermark) led.log.setHighWatermark(hw);
    if (led.waiters.length === 0) return;
    led.waiters = led.waiters.filter((w) => {
      const settled = this.settled(led, w.requiredOffset, w.minIsr);
      if (settled === undefined) return true;
      w.cancel();
      w.resolve(settled);
      return false;
    });
  }

  private shrinkAll(): void {
    const now = this.options.clock.now();
    for (const led of this.led.values()) {
      const change = led.replicas.shrink(led.log.logEndOffset, now, this.lagMs);
      if (change !== undefined) this.alter(led, change);
    }
  }

  /** The ISR change written to etcd; on success the leader takes it at once, else it is proposed again later. */
  private alter(led: Led, change: IsrChange): void {
    const before = led.record.isr;
    const name = `${led.topic}-${led.partition}`;
    void this.options.cluster.alterPartitionIsr(led.topic, led.partition, led.record, change.isr).then((result) => {
      if (this.led.get(keyOf(led.topic, led.partition)) !== led) return;
      if (!result.ok) {
        led.replicas.abandon(change);
        this.options.log.warn({ partition: name, error: result.error }, `[Partition ${name} broker=${this.nodeId}] Failed to ${change.kind} the ISR to ${change.isr.join(',')}: ${result.error}`);
        return;
      }
      led.record = result.record;
      led.replicas.setIsr(result.record.isr);
      this.options.log.info({ partition: name, isr: result.record.isr, partitionEpoch: result.record.partitionEpoch },
        `[Partition ${name} broker=${this.nodeId}] ISR updated to ${result.record.isr.join(',')} (was ${before.join(',')}) and partition epoch updated to ${result.record.partitionEpoch}`);
      this.advance(led);
    }, (err: unknown) => {
      led.replicas.abandon(change);
      this.options.log.warn({ partition: name, reason: (err as Error).message }, `[Partition ${name} broker=${this.nodeId}] Writing the ISR change to etcd failed`);
    });
  }

  /** The partition's leader state if this broker leads it by the cache, set up (or renewed for a new leader epoch) on the way. */
  private leading(topic: string, partition: number, log: PartitionLog): Led | undefined {
    if (this.closed) return undefined;
    const record = this.options.cluster.partition(topic, partition);
    const key = keyOf(topic, partition);
    let led = this.led.get(key);
    if (record === undefined || record.leader !== this.nodeId) {
      if (led !== undefined) this.resign(key);
      return undefined;
    }
    if (led !== undefined && (led.log !== log || led.record.leaderEpoch !== record.leaderEpoch)) {
      this.resign(key);
      led = undefined;
    }
    if (led === undefined) {
      this.hold(key, log, record.leaderEpoch);
      log.setFollowing(false);
      const epochStart = log.leaderEpochs().find((e) => e.epoch === record.leaderEpoch)?.startOffset ?? log.logEndOffset;
      const replicas = new LeaderReplicas(this.nodeId, record.leaderEpoch, record.replicas, record.isr, epochStart, this.options.clock.now());
      const created: Led = {
        topic, partition, log, replicas, record, waiters: [],
        // The leader's own appends move the high watermark when it is alone in the ISR.
        unsubscribe: log.onAppend(() => this.advance(created)),
      };
      this.led.set(key, created);
      // Alone in the ISR, the leader's log end is the high watermark at once.
      this.advance(created);
      return created;
    }
    if (record.partitionEpoch > led.record.partitionEpoch) {
      led.record = record;
      led.replicas.setIsr(record.isr);
      this.advance(led);
    }
    return led;
  }

  private resign(key: string): void {
    const led = this.led.get(key);
    if (led === undefined) return;
    this.led.delete(key);
    led.unsubscribe();
    for (const w of led.waiters) {
      w.cancel();
      w.resolve(ErrorCode.NOT_LEADER_OR_FOLLOWER);
    }
    led.waiters = [];
  }

  /** Led partitions set up, followed ones handed to their leader's fetcher, what is gone dropped. */
  private reconcile(): void {
    if (this.closed) return;
    const { cluster, store } = this.options;
    const seen = new Set<string>();
    const following = new Map<number, FollowedPartition[]>();
    for (const topic of cluster.topics()) {
      for (let index = 0; index < topic.partitions; index++) {
        const record = topic.partitionStates[index];
        const log = store.log(topic.name, index);
        if (record === undefined || log === undefined || !record.replicas.includes(this.nodeId)) continue;
        if (record.leader === this.nodeId) {
          if (this.leading(topic.name, index, log) !== undefined) seen.add(keyOf(topic.name, index));
        } else if (record.leader >= 0) {
          this.hold(keyOf(topic.name, index), log, record.leaderEpoch);
          log.setFollowing(true);
          seen.add(keyOf(topic.name, index));
          const list = following.get(record.leader) ?? [];
          list.push({ topic: topic.name, topicId: topic.id, partition: index, log, leaderEpoch: record.leaderEpoch });
          following.set(record.leader, list);
        }
      }
    }
    for (const key of [...this.led.keys()]) if (!seen.has(key)) this.resign(key);
    for (const key of [...this.held.keys()]) if (!seen.has(key)) this.held.delete(key);
    for (const [leaderId, partitions] of following) {
      let fetcher = this.fetchers.get(leaderId);
      if (fetcher === undefined) {
        fetcher = new ReplicaFetcher(leaderId, {
          nodeId: this.nodeId,
          brokerEpoch: () => cluster.liveBrokers().find((b) => b.nodeId === this.nodeId)?.epoch ?? -1,
          endpointOf: (id) => this.interBrokerEndpoint(id),
          config: this.options.config,
          log: this.options.log,
          now: () => Date.now(),
          producerStates: this.options.producerStates,
        });
        this.fetchers.set(leaderId, fetcher);
      }
      fetcher.setPartitions(partitions);
    }
    for (const [leaderId, fetcher] of this.fetchers) {
      if (following.has(leaderId)) continue;
      this.fetchers.delete(leaderId);
      void fetcher.stop();
    }
  }

  /** The leader's endpoint on inter.broker.listener.name (else the listener named as this broker's first), else its first. */
  private interBrokerEndpoint(id: number): ClusterEndpoint | undefined {
    const broker = this.options.cluster.liveBrokers().find((b) => b.nodeId === id);
    if (broker === undefined) return undefined;
    const wanted = this.options.config()['inter.broker.listener.name'] ?? 'PLAINTEXT';
    return broker.endpoints.get(wanted) ?? broker.endpoints.values().next().value;
  }
}
