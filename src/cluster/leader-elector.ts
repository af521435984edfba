// Leader elections written to etcd, as Kafka 4.3.1's ReplicationControlManager drives PartitionChangeBuilder
// (partition-change.ts): every pass reads the whole layout (brokers, controlled shutdowns, topics, partitions) at one
// revision, so a new controller finishes what its predecessor left undone, and a pass that finds nothing to change
// writes nothing. Changes go out in batches, one txn per batch comparing every changed partition's mod revision
// (and, for the controller, that the controller key is still the one it created): a txn that loses a race writes
// nothing and the next pass computes again.
import type { Etcd3, IKeyValue } from 'etcd3';
import type { BrokerConfig } from '../config/index.js';
import type { Log } from '../log.js';
import { ErrorCode } from '../protocol/error-codes.js';
import type { ClusterKeys, PartitionRecord, TopicRecord } from './layout.js';
import { NO_LEADER, partitionChange, type Election } from './partition-change.js';

/** Partitions per txn (etcd's default --max-txn-ops is 128: one compare and one put each, and the controller's compare). */
const BATCH = 60;
/** How often ElectLeaders computes again the partitions whose txn lost a race. */
const ELECTION_ATTEMPTS = 3;

interface PartitionState {
  readonly topic: string;
  readonly index: number;
  readonly record: PartitionRecord;
  readonly modRevision: string;
}

export interface ClusterState {
  readonly live: ReadonlySet<number>;
  readonly shuttingDown: ReadonlySet<number>;
  readonly topics: ReadonlyMap<string, TopicRecord>;
  readonly partitions: readonly PartitionState[];
}

export interface ElectionOutcome {
  readonly topic: string;
  readonly index: number;
  readonly errorCode: number;
  readonly errorMessage: string | null;
}

export async function readClusterState(client: Etcd3, keys: ClusterKeys): Promise<ClusterState> {
  const all = await client.getAll().prefix(keys.root).exec();
  const live = new Set<number>();
  const shuttingDown = new Set<number>();
  const topics = new Map<string, TopicRecord>();
  const partitions: PartitionState[] = [];
  for (const kv of all.kvs as IKeyValue[]) {
    const parsed = keys.parse(kv.key.toString());
    if (parsed === undefined) continue;
    if (parsed.kind === 'broker') live.add(parsed.nodeId);
    else if (parsed.kind === 'shutdown') shuttingDown.add(parsed.nodeId);
    else if (parsed.kind === 'topic') topics.set(parsed.topic, JSON.parse(kv.value.toString()) as TopicRecord);
    else if (parsed.kind === 'partition') {
      partitions.push({ topic: parsed.topic, index: parsed.index, record: JSON.parse(kv.value.toString()) as PartitionRecord, modRevision: kv.mod_revision });
    }
  }
  return { live, shuttingDown, topics, partitions };
}

function topicSetting(topic: TopicRecord | undefined, config: BrokerConfig, key: 'min.insync.replicas' | 'unclean.leader.election.enable'): string {
  return topic?.configs[key] ?? String(config[key]);
}

/** The partition's change for `election` under the cluster's state, undefined when there is none. */
export function changeFor(state: ClusterState, p: PartitionState, config: BrokerConfig, election: Election): PartitionRecord | undefined {
  const topic = state.topics.get(p.topic);
  const eligible = (id: number): boolean => state.live.has(id) && !state.shuttingDown.has(id);
  return partitionChange({
    record: p.record,
    acceptable: eligible,
    inSync: eligible,
    minInsyncReplicas: Number(topicSetting(topic, config, 'min.insync.replicas')),
    uncleanAllowed: topicSetting(topic, config, 'unclean.leader.election.enable') === 'true',
    election,
  });
}

/** Kafka's imbalanced partition: its preferred (first) replica is live, in the ISR and not the leader. */
export function imbalanced(state: ClusterState, p: PartitionState): boolean {
  const preferred = p.record.replicas[0];
  return preferred !== undefined && p.record.leader !== preferred && state.live.has(preferred) && !state.shuttingDown.has(preferred)
    && p.record.isr.includes(preferred);
}

/** Writes the changes in batches; `guard` is a compare every txn also makes (the controller's epoch). Returns the written ones. */
export async function writeChanges(client: Etcd3, keys: ClusterKeys, changes: readonly { p: PartitionState; next: PartitionRecord }[],
  guard: { key: string; createRevision: string } | undefined): Promise<Set<PartitionState>> {
  const written = new Set<PartitionState>();
  for (let i = 0; i < changes.length; i += BATCH) {
    const batch = changes.slice(i, i + BATCH);
    const [first, ...rest] = batch;
    if (first === undefined) break;
    let txn = guard !== undefined
      ? client.if(guard.key, 'Create', '==', guard.createRevision).and(keys.partition(first.p.topic, first.p.index), 'Mod', '==', first.p.modRevision)
      : client.if(keys.partition(first.p.topic, first.p.index), 'Mod', '==', first.p.modRevision);
    for (const c of rest) txn = txn.and(keys.partition(c.p.topic, c.p.index), 'Mod', '==', c.p.modRevision);
    const result = await txn.then(...batch.map((c) => client.put(keys.partition(c.p.topic, c.p.index)).value(JSON.stringify(c.next)))).commit();
    if (result.succeeded) for (const c of batch) written.add(c.p);
  }
  return written;
}

/** One pass of the controller: every partition whose leader or ISR names a gone or shutting-down broker, or that has no leader. */
export async function electForFailures(client: Etcd3, keys: ClusterKeys, config: BrokerConfig, log: Log,
  guard: { key: string; createRevision: string }): Promise<number> {
  const state = await readClusterState(client, keys);
  const changes: { p: PartitionState; next: PartitionRecord }[] = [];
  for (const p of state.partitions) {
    const next = changeFor(state, p, config, 'ISR');
    if (next !== undefined) changes.push({ p, next });
  }
  if (changes.length === 0) return 0;
  const written = await writeChanges(client, keys, changes, guard);
  for (const { p, next } of changes) {
    if (!written.has(p)) continue;
    log.info({ partition: `${p.topic}-${p.index}`, leader: next.leader, leaderEpoch: next.leaderEpoch, isr: next.isr, elr: next.elr },
      `Partition ${p.topic}-${p.index}: leader ${p.record.leader} -> ${next.leader} (epoch ${next.leaderEpoch}), ISR ${p.record.isr.join(',')} -> ${next.isr.join(',')}`
      + (next.leader === NO_LEADER ? ' (no eligible leader)' : ''));
  }
  return written.size;
}

/** auto.leader.rebalance.enable: preferred elections for every imbalanced partition (KRaft's maybeBalancePartitionLeaders). */
export async function balanceLeaders(client: Etcd3, keys: ClusterKeys, config: BrokerConfig, log: Log,
  guard: { key: string; createRevision: string }): Promise<number> {
  const state = await readClusterState(client, keys);
  const changes = state.partitions.filter((p) => imbalanced(state, p))
    .map((p) => ({ p, next: changeFor(state, p, config, 'PREFERRED') }))
    .filter((c): c is { p: PartitionState; next: PartitionRecord } => c.next !== undefined);
  const written = await writeChanges(client, keys, changes, guard);
  if (written.size > 0) log.info({ partitions: written.size }, `Moved leadership of ${written.size} partition(s) back to their preferred replica`);
  return written.size;
}

/**
 * ElectLeaders as the controller answers it (ReplicationControlManager.electLeaders): per partition, NONE once
 * written, ELECTION_NOT_NEEDED when the leader already is the right one, PREFERRED_LEADER_NOT_AVAILABLE /
 * ELIGIBLE_LEADERS_NOT_AVAILABLE when no replica can take over, UNKNOWN_TOPIC_OR_PARTITION for an unknown one.
 * `wanted` null: every partition (those needing no election are left out of the answer).
 */
export async function electLeaders(client: Etcd3, keys: ClusterKeys, config: BrokerConfig, election: 'PREFERRED' | 'UNCLEAN',
  wanted: readonly { topic: string; index: number }[] | null): Promise<ElectionOutcome[]> {
  // A batch that lost a race with another write (an ISR change, the controller) is computed again from etcd's new state.
  let outcomes = await electOnce(client, keys, config, election, wanted);
  for (let attempt = 0; attempt < ELECTION_ATTEMPTS && outcomes.some((o) => o.errorCode === ErrorCode.NOT_CONTROLLER); attempt++) {
    const again = outcomes.filter((o) => o.errorCode === ErrorCode.NOT_CONTROLLER).map((o) => ({ topic: o.topic, index: o.index }));
    const retried = new Map((await electOnce(client, keys, config, election, again)).map((o) => [`${o.topic}:${o.index}`, o]));
    outcomes = outcomes.map((o) => retried.get(`${o.topic}:${o.index}`) ?? o);
  }
  return outcomes;
}

async function electOnce(client: Etcd3, keys: ClusterKeys, config: BrokerConfig, election: 'PREFERRED' | 'UNCLEAN',
  wanted: readonly { topic: string; index: number }[] | null): Promise<ElectionOutcome[]> {
  const state = await readClusterState(client, keys);
  const byKey = new Map(state.partitions.map((p) => [`${p.topic}:${p.index}`, p]));
  const targets = wanted ?? state.partitions.map((p) => ({ topic: p.topic, index: p.index }));
  const outcomes = new Map<string, ElectionOutcome>();
  const changes: { p: PartitionState; next: PartitionRecord }[] = [];
  for (const t of targets) {
    const p = byKey.get(`${t.topic}:${t.index}`);
    const id = `${t.topic}:${t.index}`;
    if (p === undefined) {
      outcomes.set(id, { ...t, errorCode: ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, errorMessage: state.topics.has(t.topic) ? `No such partition as ${t.topic}-${t.index}` : `No such topic as ${t.topic}` });
      continue;
    }
    // UNCLEAN elects only a leaderless partition; PREFERRED only one not led by its first replica.
    const needed = election === 'PREFERRED' ? p.record.leader !== p.record.replicas[0] : p.record.leader === NO_LEADER;
    if (!needed) {
      if (wanted !== null) outcomes.set(id, { ...t, errorCode: ErrorCode.ELECTION_NOT_NEEDED, errorMessage: 'Leader election not needed for topic partition.' });
      continue;
    }
    const next = changeFor(state, p, config, election);
    if (next === undefined || next.leader === NO_LEADER || (election === 'PREFERRED' && next.leader !== p.record.replicas[0])) {
      outcomes.set(id, election === 'PREFERRED'
        ? { ...t, errorCode: ErrorCode.PREFERRED_LEADER_NOT_AVAILABLE, errorMessage: `Failed to elect leader for partition ${t.topic}-${t.index} under strategy PreferredReplicaPartitionLeaderElectionStrategy` }
        : { ...t, errorCode: ErrorCode.ELIGIBLE_LEADERS_NOT_AVAILABLE, errorMessage: `Failed to elect leader for partition ${t.topic}-${t.index} under strategy UncleanLeaderElectionStrategy` });
      continue;
    }
    changes.push({ p, next });
  }
  const written = await writeChanges(client, keys, changes, undefined);
  for (const { p } of changes) {
    outcomes.set(`${p.topic}:${p.index}`, written.has(p)
      ? { topic: p.topic, index: p.index, errorCode: ErrorCode.NONE, errorMessage: null }
      : { topic: p.topic, index: p.index, errorCode: ErrorCode.NOT_CONTROLLER, errorMessage: 'The partition changed during the election; try again.' });
  }
  // In the request's order (the partitions that needed no election left out when none were named).
  return targets.map((t) => outcomes.get(`${t.topic}:${t.index}`)).filter((o): o is ElectionOutcome => o !== undefined);
}
