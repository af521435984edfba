/**
 * Named scenarios: the fault rules that make a common failure happen (broker.faults.addScenario, POST
 * /v1/faults/scenarios/<name>). A transaction timing out and a consumer's session expiring need no rule: with
 * gregor.clock=manual, advance the clock past transaction.timeout.ms (plus the abort check interval) or the
 * session timeout.
 */
import { FaultRuleError } from './fault-rule.js';

type Params = Record<string, unknown>;

/** The group coordinator's APIs a member calls (classic and KIP-848), and the transaction coordinator's. */
const GROUP_APIS = ['JoinGroup', 'SyncGroup', 'Heartbeat', 'LeaveGroup', 'OffsetCommit', 'OffsetFetch', 'ConsumerGroupHeartbeat'];
const TRANSACTION_APIS = ['AddPartitionsToTxn', 'AddOffsetsToTxn', 'EndTxn', 'TxnOffsetCommit', 'Produce'];

export const SCENARIOS: Readonly<Record<string, { readonly doc: string; rules(params: Params): Record<string, unknown>[] }>> = {
  'broker-unavailable': {
    doc: 'every connection is closed on its next request for `seconds` (on the broker clock)',
    rules: (p) => [{ action: 'drop', when: 'before', durationMs: whole(p, 'seconds') * 1000 }],
  },
  'coordinator-moved': {
    doc: 'NOT_COORDINATOR to the group\'s next `count` (default 1) coordinator requests per API: members find the coordinator again',
    rules: (p) => GROUP_APIS.map((api) => ({ api, groupId: text(p, 'groupId'), action: 'error', error: 'NOT_COORDINATOR', count: whole(p, 'count', 1) })),
  },
  'leader-moved': {
    doc: 'NOT_LEADER_OR_FOLLOWER to the next `count` (default 1) Produce and Fetch requests naming `topic` (and `partition`)',
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

export function scenarioRules(name: string, params: unknown): Record<string, unknown>[] {
  const scenario = Object.hasOwn(SCENARIOS, name) ? SCENARIOS[name] : undefined;
  if (scenario === undefined) throw new FaultRuleError(`no scenario "${name}" (scenarios: ${Object.keys(SCENARIOS).join(', ')})`);
  if (params !== undefined && (typeof params !== 'object' || params === null || Array.isArray(params))) {
    throw new FaultRuleError('scenario parameters are a JSON object');
  }
  return scenario.rules((params ?? {}) as Params);
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
