/**
 * Named scenarios: the fault rules that make a common failure happen (broker.faults.addScenario, POST
 * /v1/faults/scenarios/<name>); coordinator-moved also makes the group coordinator resign the groups and load them again;
 * leader-moved, in cluster mode, moves leadership for real (cluster/leader-move.ts) and adds no rule. A transaction timing out and a consumer's session expiring need no rule: with
 * gregor.clock=manual, advance the clock past transaction.timeout.ms (plus the abort check interval) or the
 * session timeout.
 */
import { FaultRuleError } from './fault-rule.js';

type Params = Record<string, unknown>;

/** The group coordinator's APIs (classic, consumer, share and streams groups), and the transaction coordinator's. */
const GROUP_APIS = ['JoinGroup', 'SyncGroup', 'Heartbeat', 'LeaveGroup', 'OffsetCommit', 'OffsetFetch', 'TxnOffsetCommit', 'OffsetDelete', 'DescribeGroups',
  'DeleteGroups', 'ConsumerGroupHeartbeat', 'ConsumerGroupDescribe', 'ShareGroupHeartbeat', 'ShareGroupDescribe', 'StreamsGroupHeartbeat', 'StreamsGroupDescribe'];
const TRANSACTION_APIS = ['AddPartitionsToTxn', 'AddOffsetsToTxn', 'EndTxn', 'TxnOffsetCommit', 'Produce'];

/** A coordinator move: the group's (or every group's) coordinator resigns now and loads the groups again after `ms`. */
export interface CoordinatorMove {
  readonly groupId: string | null;
  readonly ms: number;
}

/** A leader move (cluster mode): leadership of the topic's partitions (or one) goes to another in-sync replica. */
export interface LeaderMoveTarget {
  readonly topic: string;
  readonly partition: number | undefined;
}

export interface Scenario {
  readonly doc: string;
  rules(params: Params): Record<string, unknown>[];
  /** In cluster mode, a real move instead of the rules. */
  leaderMove?(params: Params): LeaderMoveTarget;
  /** The scenario's rules stay until the move's reload is done, then go. */
  move?(params: Params): CoordinatorMove;
}

export const SCENARIOS: Readonly<Record<string, Scenario>> = {
  'broker-unavailable': {
    doc: 'every connection is closed on its next request for `seconds` (on the broker clock)',
    rules: (p) => [{ action: 'drop', when: 'before', durationMs: whole(p, 'seconds') * 1000 }],
  },
  'coordinator-moved': {
    doc: 'the coordinator of `groupId` (or, with `"all": true`, of every group) resigns: the groups leave memory, their requests '
      + 'get NOT_COORDINATOR, and after `ms` (default 0, on the broker clock) they are loaded again from __consumer_offsets; '
      + 'members find the coordinator again and keep their committed offsets',
    rules: (p) => GROUP_APIS.map((api) => ({ api, ...(movesAll(p) ? {} : { groupId: text(p, 'groupId') }), action: 'error', error: 'NOT_COORDINATOR' })),
    move: (p) => ({ groupId: movesAll(p) ? null : text(p, 'groupId'), ms: whole(p, 'ms', 0) }),
  },
  'leader-moved': {
    doc: 'NOT_LEADER_OR_FOLLOWER, naming the current leader (KIP-951), to `topic`\'s partitions (or `partition`) in the next `count` '
      + '(default 1) Produce and Fetch requests; the rest of each request is handled. In cluster mode a real move instead: leadership '
      + 'of those partitions goes to another in-sync replica (leader epoch bumped in etcd), and the old leader answers '
      + 'NOT_LEADER_OR_FOLLOWER naming the new one',
    leaderMove: (p) => ({ topic: text(p, 'topic'), partition: p['partition'] === undefined ? undefined : whole(p, 'partition') }),
    rules: (p) => ['Produce', 'Fetch'].map((api) => ({ api, topic: text(p, 'topic'), ...(p['partition'] === undefined ? {} : { partition: whole(p, 'partition') }),
      action: 'error', error: 'NOT_LEADER_OR_FOLLOWER', count: whole(p, 'count', 1) })),
  },
  'producer-fenced': {
    doc: 'PRODUCER_FENCED to the transactional producer `transactionalId` on its next transactional request',
    rules: (p) => TRANSACTION_APIS.map((api) => ({ api, transactionalId: text(p, 'transactionalId'), action: 'error', error: 'PRODUCER_FENCED', count: 1 })),
  },
  'disk-full': {
    doc: 'KAFKA_STORAGE_ERROR to every Produce (naming `topic` when given) for `seconds` (default: until removed)',
    rules: (p) => [{ api: 'Produce', ...(p['topic'] === undefined ? {} : { topic: text(p, 'topic') }), action: 'error', error: 'KAFKA_STORAGE_ERROR',
      ...(p['seconds'] === undefined ? {} : { durationMs: whole(p, 'seconds') * 1000 }) }],
  },
};

export function scenarioRules(name: string, params: unknown): { rules: Record<string, unknown>[]; move: CoordinatorMove | undefined; leaderMove: LeaderMoveTarget | undefined } {
  const scenario = Object.hasOwn(SCENARIOS, name) ? SCENARIOS[name] : undefined;
  if (scenario === undefined) throw new FaultRuleError(`no scenario "${name}" (scenarios: ${Object.keys(SCENARIOS).join(', ')})`);
  if (params !== undefined && (typeof params !== 'object' || params === null || Array.isArray(params))) {
    throw new FaultRuleError('scenario parameters are a JSON object');
  }
  const p = (params ?? {}) as Params;
  return { rules: scenario.rules(p), move: scenario.move?.(p), leaderMove: scenario.leaderMove?.(p) };
}

function movesAll(p: Params): boolean {
  if (p['all'] !== undefined && typeof p['all'] !== 'boolean') throw new FaultRuleError(`"all" must be true or false, not ${JSON.stringify(p['all'])}`);
  if (p['all'] === true && p['groupId'] !== undefined) throw new FaultRuleError('give "groupId" or "all": true, not both');
  return p['all'] === true;
}

function whole(p: Params, key: string, fallback?: number): number {
  const value = p[key] ?? fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) throw new FaultRuleError(`"${key}" must be a whole number >= 0, not ${JSON.stringify(value)}`);
  return value;
}

function text(p: Params, key: string): string {
  const value = p[key];
  if (typeof value !== 'string' || value === '') throw new FaultRuleError(`"${key}" must be a non-empty string, not ${JSON.stringify(value)}`);
  return value;
}
