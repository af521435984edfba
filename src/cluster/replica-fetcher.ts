// A follower's fetcher for one leader broker, as Kafka's ReplicaFetcherThread over AbstractFetcherThread: one Fetch
// (v18, Kafka 4.3.1's) at a time for every partition this broker follows from that leader, as replica
// (replica_state: node id and broker epoch), at the follower's log end with the epoch of its last batch
// (last_fetched_epoch) and the leader epoch it knows; replica.fetch.* bound the wait and the bytes. What comes back
// is appended as it is (the leader's offsets and epochs), the high watermark taken from the leader (never past the
// log end) and into the broker's producer state (the aborts indexed as on the leader), the log start moved up to
// the leader's. A diverging epoch truncates the log as
// AbstractFetcherThread.getOffsetTruncationState does before fetching again, OFFSET_OUT_OF_RANGE as
// fetchOffsetAndTruncate does (ListOffsets to the leader, as a replica); another partition error backs that
// partition off (replica.fetch.backoff.ms) until the metadata changes it; a connection error backs the whole
// fetcher off.
import type { BrokerConfig } from '../config/index.js';
import type { Log } from '../log.js';
import { ErrorCode } from '../protocol/error-codes.js';
import { createFetchPartition, createFetchRequest, fetchApi, type FetchResponse, type PartitionData } from '../protocol/generated/fetch.js';
import { listOffsetsApi } from '../protocol/generated/list-offsets.js';
import type { PartitionLog } from '../storage/log.js';
import { BrokerClient } from './broker-client.js';
import type { ClusterEndpoint } from './cluster.js';

/** Kafka 4.3.1's latest Fetch, which its followers send. */
export const REPLICA_FETCH_VERSION = 18;
/** ListOffsets as a follower asks its leader's log end and start after OFFSET_OUT_OF_RANGE. */
const LIST_OFFSETS_VERSION = 10;
const LATEST = -1n;
const EARLIEST = -2n;

export interface FollowedPartition {
  readonly topic: string;
  readonly topicId: string;
  readonly partition: number;
  readonly log: PartitionLog;
  /** The leader epoch this follower knows (current_leader_epoch). */
  readonly leaderEpoch: number;
}

/** The broker's producer state, kept on a follower as its leader's (ProducerStates' follower side). */
export interface FollowerProducerState {
  followerAppended(log: PartitionLog, batches: Buffer): void;
  followerTruncated(log: PartitionLog): Promise<void>;
}

export interface FetcherContext {
  readonly nodeId: number;
  /** This broker's epoch (its registration's revision): replica_state.replica_epoch. */
  brokerEpoch(): number;
  /** The leader's endpoint on the inter-broker listener, undefined while it is not registered. */
  endpointOf(leaderId: number): ClusterEndpoint | undefined;
  config(): BrokerConfig;
  readonly log: Log;
  readonly now: () => number;
  readonly producerStates?: FollowerProducerState | undefined;
}

const keyOf = (topic: string, partition: number): string => `${topic}:${partition}`;

/** The epoch of the log's last batch (Kafka's log.latestEpoch), -1 for an empty cache. */
function latestEpoch(log: PartitionLog): number {
  const epochs = log.leaderEpochs();
  return epochs.length === 0 ? -1 : epochs[epochs.length - 1]!.epoch;
}

/** Kafka's endOffsetForEpoch on the follower's own log: the largest epoch <= `epoch` and where the next one starts. */
function followerEndOffsetFor(log: PartitionLog, epoch: number): { epoch: number; endOffset: number } | undefined {
  const epochs = log.leaderEpochs();
  let floor: { epoch: number; startOffset: number } | undefined;
  let next: { epoch: number; startOffset: number } | undefined;
  for (const e of epochs) {
    if (e.epoch <= epoch) floor = e;
    else if (next === undefined) next = e;
  }
  if (floor === undefined) return undefined;
  return { epoch: floor.epoch, endOffset: next === undefined ? log.logEndOffset : next.startOffset };
}

export class ReplicaFetcher {
  private partitions = new Map<string, FollowedPartition>();
  /** Partitions backed off after an error, until this time. */
  private readonly delayed = new Map<string, number>();
  private client: BrokerClient | undefined;
  private running = true;
  /** Failed since the last fetch answered: later failures are logged at debug only, until one succeeds. */
  private failing = false;
  private wake: (() => void) | undefined;
  readonly done: Promise<void>;

  constructor(readonly leaderId: number, private readonly ctx: FetcherContext) {
    this.done = this.run();
  }

  /** The partitions followed from this leader from now on. */
  setPartitions(partitions: readonly FollowedPartition[]): void {
    const next = new Map(partitions.map((p) => [keyOf(p.topic, p.partition), p]));
    for (const [key, p] of next) {
      const before = this.partitions.get(key);
      if (before !== undefined && (before.leaderEpoch !== p.leaderEpoch || before.log !== p.log)) this.delayed.delete(key);
    }
    this.partitions = next;
    this.wake?.();
  }

  get size(): number {
    return this.partitions.size;
  }

  async stop(): Promise<void> {
    this.running = false;
    this.client?.close();
    this.wake?.();
    await this.done;
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.wake = undefined;
        resolve();
      }, ms);
      this.wake = () => {
        clearTimeout(timer);
        this.wake = undefined;
        resolve();
      };
    });
  }

  private async run(): Promise<void> {
    while (this.running) {
      const config = this.ctx.config();
      const now = this.ctx.now();
      const ready = [...this.partitions.values()].filter((p) => (this.delayed.get(keyOf(p.topic, p.partition)) ?? 0) <= now);
      if (ready.length === 0) {
        await this.sleep(Math.min(100, config['replica.fetch.backoff.ms']));
        continue;
      }
      try {
        const client = await this.connect(config);
        const response = await client.request(fetchApi, REPLICA_FETCH_VERSION, this.request(ready, config),
          config['replica.fetch.wait.max.ms'] + config['replica.socket.timeout.ms']);
        if (response.errorCode !== ErrorCode.NONE) throw new Error(`Fetch error code ${response.errorCode}`);
        if (this.failing) this.ctx.log.info({ leader: this.leaderId }, `Fetching from leader ${this.leaderId} again`);
        this.failing = false;
        await this.handle(ready, response, config);
      } catch (err) {
        if (!this.running) break;
        this.client?.close();
        this.client = undefined;
        // A leader that is down fails every fetch until it is back: said once, not every replica.fetch.backoff.ms.
        const line = `Fetching from leader ${this.leaderId} failed; backing off`;
        if (this.failing) this.ctx.log.debug({ leader: this.leaderId, reason: (err as Error).message }, line);
        else this.ctx.log.warn({ leader: this.leaderId, reason: (err as Error).message }, line);
        this.failing = true;
        await this.sleep(config['replica.fetch.backoff.ms']);
      }
    }
    this.client?.close();
  }

  private async connect(config: BrokerConfig): Promise<BrokerClient> {
    if (this.client !== undefined && !this.client.broken) return this.client;
    const endpoint = this.ctx.endpointOf(this.leaderId);
    if (endpoint === undefined) throw new Error(`leader ${this.leaderId} has no endpoint on the inter-broker listener`);
    this.client = await BrokerClient.connect(endpoint.host, endpoint.port, `broker-${this.ctx.nodeId}-fetcher-${this.leaderId}`, config['replica.socket.timeout.ms']);
    return this.client;
  }

  private request(ready: readonly FollowedPartition[], config: BrokerConfig) {
    const byTopic = new Map<string, FollowedPartition[]>();
    for (const p of ready) byTopic.set(p.topicId, [...(byTopic.get(p.topicId) ?? []), p]);
    return {
      ...createFetchRequest(),
      replicaState: { replicaId: this.ctx.nodeId, replicaEpoch: BigInt(this.ctx.brokerEpoch()) },
      maxWaitMs: config['replica.fetch.wait.max.ms'],
      minBytes: config['replica.fetch.min.bytes'],
      maxBytes: config['replica.fetch.response.max.bytes'],
      topics: [...byTopic].map(([topicId, partitions]) => ({
        topic: '', topicId,
        partitions: partitions.map((p) => ({
          ...createFetchPartition(),
          partition: p.partition,
          currentLeaderEpoch: p.leaderEpoch,
          fetchOffset: BigInt(p.log.logEndOffset),
          lastFetchedEpoch: latestEpoch(p.log),
          logStartOffset: BigInt(p.log.logStartOffset),
          partitionMaxBytes: config['replica.fetch.max.bytes'],
          highWatermark: BigInt(p.log.highWatermark),
        })),
      })),
    };
  }

  private async handle(asked: readonly FollowedPartition[], response: FetchResponse, config: BrokerConfig): Promise<void> {
    const byId = new Map(asked.map((p) => [`${p.topicId}:${p.partition}`, p]));
    for (const topic of response.responses) {
      for (const data of topic.partitions) {
        const p = byId.get(`${topic.topicId}:${data.partitionIndex}`);
        // Dropped or moved while the fetch was out: its answer is not for the partition followed now.
        if (p === undefined || this.partitions.get(keyOf(p.topic, p.partition)) !== p) continue;
        try {
          await this.apply(p, data, config);
        } catch (err) {
          this.ctx.log.warn({ topic: p.topic, partition: p.partition, reason: (err as Error).message }, `Replicating ${p.topic}-${p.partition} from leader ${this.leaderId} failed`);
          this.delayed.set(keyOf(p.topic, p.partition), this.ctx.now() + config['replica.fetch.backoff.ms']);
        }
      }
    }
  }

  private async apply(p: FollowedPartition, data: PartitionData, config: BrokerConfig): Promise<void> {
    const { log } = p;
    if (data.errorCode === ErrorCode.OFFSET_OUT_OF_RANGE) {
      await this.outOfRange(p, config);
      return;
    }
    if (data.errorCode !== ErrorCode.NONE) {
      this.ctx.log.debug({ topic: p.topic, partition: p.partition, errorCode: data.errorCode }, 'follower fetch partition error');
      this.delayed.set(keyOf(p.topic, p.partition), this.ctx.now() + config['replica.fetch.backoff.ms']);
      return;
    }
    if (data.divergingEpoch.epoch >= 0 || data.divergingEpoch.endOffset >= 0n) {
      await log.truncateTo(divergenceTruncationOffset(log, data.divergingEpoch.epoch, Number(data.divergingEpoch.endOffset)));
      await this.truncated(p);
      return;
    }
    const records = data.records;
    const bytes = records === null ? undefined : Buffer.isBuffer(records) ? records : Buffer.concat(records);
    const whole = bytes === undefined ? undefined : wholeBatches(bytes);
    if (whole !== undefined && whole.length > 0) {
      await log.appendAsFollower(whole);
      this.follow(p, () => this.ctx.producerStates?.followerAppended(log, whole));
    }
    log.setHighWatermark(Math.min(Number(data.highWatermark), log.logEndOffset));
    const leaderStart = Number(data.logStartOffset);
    if (leaderStart > log.logStartOffset && leaderStart <= log.highWatermark) await log.deleteRecordsBefore(leaderStart);
  }

  /**
   * AbstractFetcherThread.fetchOffsetAndTruncate: the leader's log end below ours cuts ours there; its log start past our
   * end empties ours to start there (what we held is gone from the leader); else the next fetch tries again.
   */
  private async outOfRange(p: FollowedPartition, config: BrokerConfig): Promise<void> {
    const { log } = p;
    const leaderEnd = await this.leaderOffset(p, LATEST, config);
    if (leaderEnd < log.logEndOffset) {
      this.ctx.log.warn({ topic: p.topic, partition: p.partition }, `Truncating ${p.topic}-${p.partition} to the leader's log end ${leaderEnd} (was ${log.logEndOffset})`);
      await log.truncateTo(leaderEnd);
      await this.truncated(p);
      return;
    }
    const leaderStart = await this.leaderOffset(p, EARLIEST, config);
    if (leaderStart > log.logEndOffset) {
      this.ctx.log.warn({ topic: p.topic, partition: p.partition }, `Emptying ${p.topic}-${p.partition} to start at the leader's log start ${leaderStart} (its end was ${log.logEndOffset})`);
      await log.truncateFullyAndStartAt(leaderStart);
      await this.truncated(p);
    }
  }

  /** The producer state read again after a truncation; a failure there is logged, replication goes on. */
  private async truncated(p: FollowedPartition): Promise<void> {
    try {
      await this.ctx.producerStates?.followerTruncated(p.log);
    } catch (err) {
      this.ctx.log.error({ err, topic: p.topic, partition: p.partition }, `Reloading the producer state of ${p.topic}-${p.partition} failed`);
    }
  }

  /** The producer state follows what was appended; a failure there is logged, replication goes on. */
  private follow(p: FollowedPartition, update: () => void): void {
    try {
      update();
    } catch (err) {
      this.ctx.log.error({ err, topic: p.topic, partition: p.partition }, `Updating the producer state of ${p.topic}-${p.partition} failed`);
    }
  }

  private async leaderOffset(p: FollowedPartition, timestamp: bigint, config: BrokerConfig): Promise<number> {
    const client = await this.connect(config);
    const response = await client.request(listOffsetsApi, LIST_OFFSETS_VERSION, {
      replicaId: this.ctx.nodeId, isolationLevel: 0, timeoutMs: config['replica.socket.timeout.ms'],
      topics: [{ name: p.topic, partitions: [{ partitionIndex: p.partition, currentLeaderEpoch: p.leaderEpoch, timestamp }] }],
    }, config['replica.socket.timeout.ms']);
    const answer = response.topics[0]?.partitions[0];
    if (answer === undefined || answer.errorCode !== ErrorCode.NONE) throw new Error(`ListOffsets from leader ${this.leaderId}: error ${answer?.errorCode ?? 'no answer'}`);
    return Number(answer.offset);
  }
}

/**
 * AbstractFetcherThread.getOffsetTruncationState: where a follower cuts its log when the leader answered that its
 * last fetched epoch diverged, ending at `leaderEndOffset` (no end known: at the high watermark; no epoch: where both
 * logs end). An older epoch of the follower's own: cut where that one ends and ask again; the same: where both agree.
 */
export function divergenceTruncationOffset(log: PartitionLog, leaderEpoch: number, leaderEndOffset: number): number {
  const replicaEnd = log.logEndOffset;
  if (leaderEndOffset < 0) return log.highWatermark;
  if (leaderEpoch < 0) return Math.min(leaderEndOffset, replicaEnd);
  const own = followerEndOffsetFor(log, leaderEpoch);
  if (own === undefined) return Math.min(leaderEndOffset, replicaEnd);
  if (own.epoch !== leaderEpoch) return Math.min(own.endOffset, replicaEnd);
  return Math.min(leaderEndOffset, own.endOffset);
}

/** The whole batches at the start of `bytes` (a leader may end a response inside a batch; Kafka drops that tail too). */
function wholeBatches(bytes: Buffer): Buffer {
  let pos = 0;
  while (bytes.length - pos >= 12) {
    const size = bytes.readInt32BE(pos + 8) + 12;
    if (pos + size > bytes.length) break;
    pos += size;
  }
  return pos === bytes.length ? bytes : bytes.subarray(0, pos);
}
