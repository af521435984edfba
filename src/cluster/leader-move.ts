// The leader-moved fault scenario's move in cluster mode (server/faults/scenarios.ts): leadership of the named
// partitions goes to another in-sync replica, written to etcd as the controller's elections write it (partition
// change computed by partition-change.ts with the current leader not acceptable, leader and partition epochs bumped,
// one txn per batch comparing each partition's mod revision); every broker follows it from its watch, so the old
// leader answers NOT_LEADER_OR_FOLLOWER naming the new one. A partition with no other live in-sync replica is not
// moved.
import type { Etcd3 } from 'etcd3';
import type { BrokerConfig } from '../config/index.js';
import { ErrorCode } from '../protocol/error-codes.js';
import type { ClusterKeys, PartitionRecord } from './layout.js';
import { NO_LEADER, partitionChange } from './partition-change.js';
import { readClusterState, writeChanges } from './leader-elector.js';

/** How often partitions whose txn lost a race are computed again from etcd. */
const ATTEMPTS = 3;

export interface LeaderMove {
  readonly topic: string;
  readonly partition: number;
  readonly errorCode: number;
  /** The leader before and after (the same when not moved), and the new leader epoch. */
  readonly from: number;
  readonly to: number;
  readonly leaderEpoch: number;
}

/** Moves the leadership of `topic`'s partitions (or of `partition` alone); one outcome per partition, in index order. */
export async function moveLeadership(client: Etcd3, keys: ClusterKeys, config: BrokerConfig, topic: string, partition: number | undefined): Promise<LeaderMove[]> {
  const outcomes = new Map<number, LeaderMove>();
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const state = await readClusterState(client, keys);
    const eligible = (id: number): boolean => state.live.has(id) && !state.shuttingDown.has(id);
    const minInsync = Number(state.topics.get(topic)?.configs['min.insync.replicas'] ?? config['min.insync.replicas']);
    const changes: { p: (typeof state.partitions)[number]; next: PartitionRecord }[] = [];
    for (const p of state.partitions) {
      if (p.topic !== topic || (partition !== undefined && p.index !== partition)) continue;
      const done = outcomes.get(p.index);
      if (done !== undefined && done.errorCode !== ErrorCode.NOT_CONTROLLER) continue;
      const from = p.record.leader;
      const next = partitionChange({
        record: p.record, acceptable: (id) => eligible(id) && id !== from, inSync: eligible, minInsyncReplicas: minInsync, uncleanAllowed: false, election: 'ISR',
      });
      // The ISR alone: a replica out of it would lose acknowledged records (the ELR's one member is taken only on failure).
      if (next === undefined || next.leader === NO_LEADER || !p.record.isr.includes(next.leader)) {
        outcomes.set(p.index, { topic, partition: p.index, errorCode: ErrorCode.ELIGIBLE_LEADERS_NOT_AVAILABLE, from, to: from, leaderEpoch: p.record.leaderEpoch });
        continue;
      }
      changes.push({ p, next });
    }
    const written = await writeChanges(client, keys, changes, undefined);
    for (const { p, next } of changes) {
      outcomes.set(p.index, written.has(p)
        ? { topic, partition: p.index, errorCode: ErrorCode.NONE, from: p.record.leader, to: next.leader, leaderEpoch: next.leaderEpoch }
        : { topic, partition: p.index, errorCode: ErrorCode.NOT_CONTROLLER, from: p.record.leader, to: p.record.leader, leaderEpoch: p.record.leaderEpoch });
    }
    if (![...outcomes.values()].some((o) => o.errorCode === ErrorCode.NOT_CONTROLLER)) break;
  }
  return [...outcomes.values()].sort((a, b) => a.partition - b.partition);
}
