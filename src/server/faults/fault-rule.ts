/**
 * A fault rule: what requests it matches, what it does to them, and how long it lasts. Rules come as JSON (the
 * HTTP API's body, broker.faults.add's argument) and are checked here, once, into a FaultRule; a bad one is refused
 * with one line naming the field (FaultRuleError).
 *
 *   match   api (name or key), minVersion, maxVersion, clientId, connectionId, topic, partition, groupId, transactionalId
 *   action  error (a Kafka error name or code: Kafka's error response), delay (ms, wall time), throttle (ms, into
 *           throttle_time_ms), drop (before or after handling), swallow (handled, no response), corrupt-crc (Fetch)
 *   limits  count (times it fires), probability (0-1, drawn from a seeded generator), durationMs (on the broker's clock)
 */
import { ErrorCode, errorInfo, isKnownErrorCode, type ErrorName } from '../../protocol/error-codes.js';
import { apiByKey, apis } from '../../protocol/generated/index.js';

export type FaultAction =
  | { readonly type: 'error'; readonly code: number; readonly message: string | null }
  | { readonly type: 'delay'; readonly ms: number }
  | { readonly type: 'throttle'; readonly ms: number }
  | { readonly type: 'drop'; readonly when: 'before' | 'after' }
  | { readonly type: 'swallow' }
  | { readonly type: 'corrupt-crc' };

export interface FaultMatch {
  readonly apiKey?: number;
  readonly minVersion?: number;
  readonly maxVersion?: number;
  readonly clientId?: string;
  readonly connectionId?: number;
  readonly topic?: string;
  readonly partition?: number;
  readonly groupId?: string;
  readonly transactionalId?: string;
}

export interface FaultRule {
  readonly id: number;
  readonly match: FaultMatch;
  readonly action: FaultAction;
  /** Times it may still fire; undefined: no bound. */
  readonly count?: number;
  readonly probability?: number;
  readonly seed?: number;
  /** It stops firing this long after it was added, on the broker's clock. */
  readonly durationMs?: number;
}

export class FaultRuleError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FaultRuleError';
  }
}

const ACTIONS = ['error', 'delay', 'throttle', 'drop', 'swallow', 'corrupt-crc'] as const;
const FIELDS = new Set(['api', 'minVersion', 'maxVersion', 'clientId', 'connectionId', 'topic', 'partition', 'groupId', 'transactionalId',
  'action', 'error', 'message', 'ms', 'when', 'count', 'probability', 'seed', 'durationMs']);
const FETCH_KEY = 1;

/** Checks a JSON rule body; the rule's id is the caller's. */
export function parseFaultRule(body: unknown, id: number): FaultRule {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new FaultRuleError('a fault rule is a JSON object');
  const input = body as Record<string, unknown>;
  for (const key of Object.keys(input)) {
    if (!FIELDS.has(key)) throw new FaultRuleError(`unknown field "${key}" (fields: ${[...FIELDS].join(', ')})`);
  }
  const match: Record<string, string | number> = {};
  if (input['api'] !== undefined) match['apiKey'] = apiKeyOf(input['api']);
  for (const key of ['minVersion', 'maxVersion', 'connectionId', 'partition'] as const) {
    if (input[key] !== undefined) match[key] = wholeNumber(input[key], key, 0, 2 ** 31 - 1);
  }
  for (const key of ['clientId', 'topic', 'groupId', 'transactionalId'] as const) {
    if (input[key] !== undefined) match[key] = text(input[key], key);
  }
  if (match['minVersion'] !== undefined && match['maxVersion'] !== undefined && match['minVersion'] > match['maxVersion']) {
    throw new FaultRuleError(`minVersion ${match['minVersion']} is above maxVersion ${match['maxVersion']}`);
  }
  const action = actionOf(input);
  if (action.type === 'corrupt-crc' && match['apiKey'] !== FETCH_KEY) throw new FaultRuleError('action "corrupt-crc" needs "api": "Fetch"');
  const rule: { -readonly [K in keyof FaultRule]: FaultRule[K] } = { id, match: match as FaultMatch, action };
  if (input['count'] !== undefined) rule.count = wholeNumber(input['count'], 'count', 1, Number.MAX_SAFE_INTEGER);
  if (input['probability'] !== undefined) {
    const p = input['probability'];
    if (typeof p !== 'number' || !(p >= 0 && p <= 1)) throw new FaultRuleError(`"probability" must be a number from 0 to 1, not ${JSON.stringify(p)}`);
    rule.probability = p;
  }
  if (input['seed'] !== undefined) rule.seed = wholeNumber(input['seed'], 'seed', 0, 2 ** 32 - 1);
  if (input['durationMs'] !== undefined) rule.durationMs = wholeNumber(input['durationMs'], 'durationMs', 1, Number.MAX_SAFE_INTEGER);
  return rule;
}

function actionOf(input: Record<string, unknown>): FaultAction {
  const type = input['action'];
  if (typeof type !== 'string' || !(ACTIONS as readonly string[]).includes(type)) {
    throw new FaultRuleError(`"action" must be one of ${ACTIONS.join(', ')}, not ${JSON.stringify(type)}`);
  }
  const only = (allowed: readonly string[]): void => {
    for (const key of ['error', 'message', 'ms', 'when']) {
      if (input[key] !== undefined && !allowed.includes(key)) throw new FaultRuleError(`"${key}" does not go with action "${type}"`);
    }
  };
  switch (type) {
    case 'error': {
      only(['error', 'message']);
      const code = errorCodeOf(input['error']);
      const message = input['message'] === undefined ? errorInfo(code).message : text(input['message'], 'message');
      return { type, code, message };
    }
    case 'delay':
    case 'throttle':
      only(['ms']);
      if (input['ms'] === undefined) throw new FaultRuleError(`action "${type}" needs "ms"`);
      return { type, ms: wholeNumber(input['ms'], 'ms', 0, 2 ** 31 - 1) };
    case 'drop': {
      only(['when']);
      const when = input['when'] ?? 'before';
      if (when !== 'before' && when !== 'after') throw new FaultRuleError(`"when" must be "before" or "after", not ${JSON.stringify(when)}`);
      return { type, when };
    }
    default:
      only([]);
      return { type: type as 'swallow' | 'corrupt-crc' };
  }
}

function apiKeyOf(value: unknown): number {
  if (typeof value === 'number' && apiByKey(value) !== undefined) return value;
  if (typeof value === 'string') {
    const found = apis.find((api) => api.name.toLowerCase() === value.toLowerCase());
    if (found !== undefined) return found.apiKey;
  }
  throw new FaultRuleError(`"api" must be a Kafka API name (Produce, Fetch, JoinGroup...) or key, not ${JSON.stringify(value)}`);
}

function errorCodeOf(value: unknown): number {
  if (typeof value === 'number' && isKnownErrorCode(value) && value !== ErrorCode.NONE) return value;
  if (typeof value === 'string' && value !== 'NONE' && value in ErrorCode) return ErrorCode[value as ErrorName];
  throw new FaultRuleError(`"error" must be a Kafka error name (NOT_LEADER_OR_FOLLOWER...) or code other than NONE, not ${JSON.stringify(value)}`);
}

function wholeNumber(value: unknown, key: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new FaultRuleError(`"${key}" must be a whole number from ${min} to ${max}, not ${JSON.stringify(value)}`);
  }
  return value;
}

function text(value: unknown, key: string): string {
  if (typeof value !== 'string') throw new FaultRuleError(`"${key}" must be a string, not ${JSON.stringify(value)}`);
  return value;
}

/** The rule as JSON again (GET /v1/faults, broker.faults.list): the fields it was given, the api by name. */
export function faultRuleJson(rule: FaultRule, fired: number): Record<string, unknown> {
  const { apiKey, ...match } = rule.match;
  const { type, ...action } = rule.action;
  const error = rule.action.type === 'error' ? { error: errorInfo(rule.action.code).name } : {};
  const { code: _code, ...rest } = action as { code?: number };
  return {
    id: rule.id,
    ...(apiKey === undefined ? {} : { api: apiByKey(apiKey)!.name }),
    ...match,
    action: type,
    ...rest,
    ...error,
    ...(rule.count === undefined ? {} : { count: rule.count }),
    ...(rule.probability === undefined ? {} : { probability: rule.probability }),
    ...(rule.seed === undefined ? {} : { seed: rule.seed }),
    ...(rule.durationMs === undefined ? {} : { durationMs: rule.durationMs }),
    fired,
  };
}
