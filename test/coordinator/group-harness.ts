// Drives the GroupShard state machine the way the runtime does (replay, "write", onWritten), with a
// ManualScheduler as clock and timers: deterministic, no sleeping.
import { createJoinGroupRequest, type JoinGroupRequest, type JoinGroupResponse } from '../../src/protocol/generated/join-group.js';
import { createSyncGroupRequest, type SyncGroupRequest, type SyncGroupResponse } from '../../src/protocol/generated/sync-group.js';
import type { HeartbeatResponse } from '../../src/protocol/generated/heartbeat.js';
import { encodeConsumerProtocolSubscription } from '../../src/protocol/generated/data/consumer-protocol-subscription.js';
import { Writer } from '../../src/protocol/io/writer.js';
import type { GroupConfig } from '../../src/coordinator/group/group-config.js';
import { GroupShard, type ConsumerGroupOptions, type ShareGroupOptions } from '../../src/coordinator/group/group-shard.js';
import type { MemberContext } from '../../src/coordinator/group/membership.js';
import type { GroupRecord } from '../../src/coordinator/group/records.js';
import { KeyedTimer } from '../../src/coordinator/runtime/keyed-timer.js';
import type { Outcome } from '../../src/coordinator/runtime/outcome.js';
import { ManualScheduler } from '../../src/storage/scheduler.js';

export const TEST_CONFIG: GroupConfig = {
  minSessionTimeoutMs: 6000,
  maxSessionTimeoutMs: 1800000,
  initialRebalanceDelayMs: 0,
  maxGroupSize: 1000,
  newMemberJoinTimeoutMs: 300000,
  offsetMetadataMaxBytes: 4096,
  offsetsRetentionMs: 7 * 24 * 3600 * 1000,
  offsetsRetentionCheckIntervalMs: 600000,
};

/** A parked request's response, filled in when the coordinator answers. */
export class Pending<T> {
  value: T | undefined;
  readonly respond = (response: T): void => {
    if (this.value !== undefined) throw new Error('answered twice');
    this.value = response;
  };
  get done(): boolean {
    return this.value !== undefined;
  }
  get(): T {
    if (this.value === undefined) throw new Error('not answered yet');
    return this.value;
  }
}

/** ConsumerProtocolSubscription v0 bytes (what a Java/kafkajs consumer sends as protocol metadata). */
export function subscription(topics: string[]): Buffer {
  const w = new Writer();
  w.int16(0);
  encodeConsumerProtocolSubscription(w, { topics, userData: null, ownedPartitions: [], generationId: -1, rackId: null }, 0);
  return w.toBuffer();
}

export class GroupHarness {
  readonly scheduler = new ManualScheduler(1_000_000);
  /** Every record "written", in order. */
  readonly log: GroupRecord[] = [];
  /** Set to make the next writes fail. */
  failWrites = false;
  private nextUuid = 0;
  readonly timer = new KeyedTimer<Outcome<void>>(this.scheduler, (o) => void this.apply(o));
  readonly shard: GroupShard;

  constructor(config: Partial<GroupConfig> = {}, consumer?: ConsumerGroupOptions, share?: ShareGroupOptions) {
    this.shard = new GroupShard({ ...TEST_CONFIG, ...config }, this.timer, this.scheduler, () => `uuid${this.nextUuid++}`, undefined, consumer, share);
  }

  apply<R>(outcome: Outcome<R>): R {
    if (outcome.replay) for (const record of outcome.records) this.shard.replay(record);
    let error: Error | null = null;
    if (outcome.records.length > 0) {
      if (this.failWrites) error = new Error('write failed');
      else {
        this.log.push(...outcome.records);
      }
    }
    const next = outcome.onWritten?.(error);
    if (next !== undefined) this.apply(next);
    return outcome.response;
  }

  join(fields: Partial<JoinGroupRequest>, ctx: Partial<MemberContext> = {}): Pending<JoinGroupResponse> {
    const pending = new Pending<JoinGroupResponse>();
    const request: JoinGroupRequest = {
      ...createJoinGroupRequest(),
      groupId: 'g',
      sessionTimeoutMs: 10000,
      rebalanceTimeoutMs: 30000,
      protocolType: 'consumer',
      protocols: [{ name: 'range', metadata: subscription(['t']) }],
      ...fields,
    };
    this.apply(this.shard.joinGroup({ clientId: 'client', clientHost: '/127.0.0.1', apiVersion: 9, ...ctx }, request, pending.respond));
    return pending;
  }

  sync(fields: Partial<SyncGroupRequest>): Pending<SyncGroupResponse> {
    const pending = new Pending<SyncGroupResponse>();
    this.apply(this.shard.syncGroup({ ...createSyncGroupRequest(), groupId: 'g', ...fields }, pending.respond));
    return pending;
  }

  heartbeat(memberId: string, generationId: number, groupInstanceId: string | null = null, groupId = 'g'): number {
    const response: HeartbeatResponse = this.apply(this.shard.heartbeat({ groupId, memberId, generationId, groupInstanceId }));
    return response.errorCode;
  }

  /** A dynamic member joining with v4+: MEMBER_ID_REQUIRED, then the rejoin (parked). */
  joinNew(fields: Partial<JoinGroupRequest> = {}): { memberId: string; pending: Pending<JoinGroupResponse> } {
    const first = this.join(fields).get();
    return { memberId: first.memberId, pending: this.join({ ...fields, memberId: first.memberId }) };
  }

  advance(ms: number): Promise<void> {
    return this.scheduler.advance(ms);
  }
}
