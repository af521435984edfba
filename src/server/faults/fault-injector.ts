/**
 * The broker's fault rules (broker.faults, and the HTTP API's /v1/faults): added, listed, removed at run time, and
 * asked by the router for each request while any is set. `active` is the router's one branch: with no rule the
 * request path reads one boolean and nothing else.
 *
 * The first rule, in the order added, that matches a request and passes its limits fires: its count goes down (at 0
 * it goes), its probability is drawn from its own generator (seeded: the same seed fires on the same requests), and
 * a rule past its durationMs (on the broker's clock) goes. Each firing is logged (info, one line) and told to the
 * listeners (the HTTP layer's counter).
 */
import { seededRandom } from '../../seeded-random.js';
import type { Log } from '../../log.js';
import { apiByKey } from '../../protocol/generated/index.js';
import { ErrorCode, errorInfo } from '../../protocol/error-codes.js';
import type { Scheduler } from '../../storage/scheduler.js';
import { FaultRuleError, faultRuleJson, parseFaultRule, type FaultAction, type FaultRule } from './fault-rule.js';
import { requestTargets, type RequestTargets } from './request-targets.js';
import { scenarioRules, type CoordinatorMove, type LeaderMoveTarget } from './scenarios.js';
import type { LeaderMove } from '../../cluster/cluster.js';

export interface RequestSeen {
  readonly apiKey: number;
  readonly apiVersion: number;
  readonly clientId: string | null;
  readonly connectionId: number;
  readonly remote: string;
}

export type FaultListener = (rule: FaultRule, api: string) => void;

/** What the coordinator-moved scenario asks of the group coordinator (GroupCoordinator.resign and load). */
export interface MovableCoordinator {
  partitionFor(groupId: string): number;
  readonly partitionCount: number;
  resign(partitions: ReadonlySet<number>): number;
  load(partitions: ReadonlySet<number>): Promise<void>;
}

/** What the leader-moved scenario asks of the cluster (Cluster.moveLeadership); absent on a single broker. */
export type LeaderMover = (topic: string, partition: number | undefined) => Promise<readonly LeaderMove[]>;

interface Entry {
  readonly rule: FaultRule;
  readonly until: number;
  remaining: number;
  fired: number;
  readonly random: () => number;
  readonly needsTargets: boolean;
}

export class FaultInjector {
  private entries: Entry[] = [];
  private nextId = 1;
  private readonly listeners: FaultListener[] = [];
  /** Faults injected since start, per API and action (what /metrics reports). */
  readonly injected = new Map<string, { readonly api: string; readonly action: string; count: number }>();
  /** Any rule set: the router asks check() only then. */
  active = false;

  constructor(
    private readonly clock: Scheduler,
    private readonly log: Log,
    private readonly topicName: (topicId: string) => string | undefined,
    private readonly coordinator?: MovableCoordinator,
    private readonly leaders?: LeaderMover,
  ) {}

  /** Checks and adds a rule (FaultRuleError names what is wrong); returns it as listed. */
  add(body: unknown): Record<string, unknown> {
    const rule = parseFaultRule(body, this.nextId);
    this.nextId++;
    const { topic, partition, groupId, transactionalId } = rule.match;
    this.entries.push({
      rule,
      until: rule.durationMs === undefined ? Infinity : this.clock.now() + rule.durationMs,
      remaining: rule.count ?? Infinity,
      fired: 0,
      random: seededRandom(rule.seed ?? rule.id),
      needsTargets: topic !== undefined || partition !== undefined || groupId !== undefined || transactionalId !== undefined,
    });
    this.active = true;
    this.log.info({ faultRule: rule.id }, `fault rule ${rule.id} added: ${JSON.stringify(faultRuleJson(rule, 0))}`);
    return faultRuleJson(rule, 0);
  }

  /**
   * Adds a named scenario's rules (scenarios.ts), all or none; returns them as listed. A coordinator move resigns the
   * groups' __consumer_offsets partitions now; `ms` later (broker clock) they are loaded again, then its rules go.
   * leader-moved in cluster mode moves leadership for real and adds no rule: `moved` lists each partition's move
   * (error NONE) or why it stayed (ELIGIBLE_LEADERS_NOT_AVAILABLE: no other in-sync replica); FaultRuleError when none moved.
   */
  async addScenario(name: string, params?: unknown): Promise<{ rules: Record<string, unknown>[]; moved?: Record<string, unknown>[] }> {
    const { rules: bodies, move, leaderMove } = scenarioRules(name, params);
    if (leaderMove !== undefined && this.leaders !== undefined) return { rules: [], moved: await this.moveLeaders(leaderMove) };
    return { rules: this.addScenarioRules(bodies, move) };
  }

  private async moveLeaders(target: LeaderMoveTarget): Promise<Record<string, unknown>[]> {
    const moves = await this.leaders!(target.topic, target.partition);
    const named = `${target.topic}${target.partition === undefined ? '' : `-${target.partition}`}`;
    if (moves.length === 0) throw new FaultRuleError(`no partition ${named} in the cluster`);
    const listed = moves.map((m) => ({ topic: m.topic, partition: m.partition, error: errorInfo(m.errorCode).name, from: m.from, to: m.to, leaderEpoch: m.leaderEpoch }));
    if (moves.every((m) => m.errorCode !== ErrorCode.NONE)) throw new FaultRuleError(`leadership of ${named} not moved: ${JSON.stringify(listed)}`);
    for (const m of moves) {
      if (m.errorCode === ErrorCode.NONE) this.log.info({ partition: `${m.topic}-${m.partition}`, from: m.from, to: m.to, leaderEpoch: m.leaderEpoch },
        `leader-moved scenario: leadership of ${m.topic}-${m.partition} moved from ${m.from} to ${m.to} (epoch ${m.leaderEpoch})`);
    }
    return listed;
  }

  private addScenarioRules(bodies: Record<string, unknown>[], move: CoordinatorMove | undefined): Record<string, unknown>[] {
    for (const body of bodies) parseFaultRule(body, 0);
    if (move !== undefined && this.coordinator === undefined) throw new FaultRuleError('this broker has no group coordinator to move');
    const added = bodies.map((body) => this.add(body));
    if (move !== undefined) this.moveCoordinator(move, added.map((rule) => rule['id'] as number));
    return added;
  }

  private moveCoordinator(move: CoordinatorMove, ruleIds: readonly number[]): void {
    const coordinator = this.coordinator!;
    const partitions = new Set(move.groupId === null
      ? Array.from({ length: coordinator.partitionCount }, (_, i) => i) : [coordinator.partitionFor(move.groupId)]);
    coordinator.resign(partitions);
    const reload = () => coordinator.load(partitions)
      .catch((err: unknown) => this.log.error({ err }, 'loading the moved groups again failed'))
      .finally(() => this.set(this.entries.filter((e) => !ruleIds.includes(e.rule.id))));
    this.clock.after(move.ms, () => void reload());
  }

  list(): Record<string, unknown>[] {
    this.expire();
    return this.entries.map((e) => faultRuleJson(e.rule, e.fired));
  }

  /** False when no rule has that id. */
  remove(id: number): boolean {
    const before = this.entries.length;
    this.set(this.entries.filter((e) => e.rule.id !== id));
    return this.entries.length < before;
  }

  /** Removes every rule; returns how many there were. */
  clear(): number {
    const count = this.entries.length;
    this.set([]);
    return count;
  }

  /** Hears of every fault injected; returns the unsubscribe. */
  onInjected(listener: FaultListener): () => void {
    this.listeners.push(listener);
    return () => void this.listeners.splice(this.listeners.indexOf(listener) >>> 0, 1);
  }

  /** The action to take on this request, or null. */
  check(seen: RequestSeen, request: unknown): FaultAction | null {
    return this.match(seen, request)?.action ?? null;
  }

  /**
   * The rule that fires on this request (it is counted and logged), or null. Called by the router after the request is
   * decoded; `held` lists the partitions (topic name, index) the request is served beyond those it names (ShareFetch's
   * share session), which a rule naming a topic or partition matches too.
   */
  match(seen: RequestSeen, request: unknown, held?: () => Iterable<readonly [string, number]>): FaultRule | null {
    this.expire();
    let targets: RequestTargets | undefined;
    const targetsOf = (): RequestTargets => {
      const found = requestTargets(request, this.topicName);
      for (const [topic, partition] of held?.() ?? []) {
        const partitions = found.topics.get(topic);
        if (partitions === undefined) found.topics.set(topic, new Set([partition]));
        else partitions.add(partition);
      }
      return found;
    };
    for (const entry of this.entries) {
      const { match } = entry.rule;
      if (match.apiKey !== undefined && match.apiKey !== seen.apiKey) continue;
      if (match.minVersion !== undefined && seen.apiVersion < match.minVersion) continue;
      if (match.maxVersion !== undefined && seen.apiVersion > match.maxVersion) continue;
      if (match.clientId !== undefined && match.clientId !== seen.clientId) continue;
      if (match.connectionId !== undefined && match.connectionId !== seen.connectionId) continue;
      if (entry.needsTargets && !matchesTargets(entry.rule, (targets ??= targetsOf()))) continue;
      if (entry.rule.probability !== undefined && entry.random() >= entry.rule.probability) continue;
      this.fire(entry, seen);
      return entry.rule;
    }
    return null;
  }

  private fire(entry: Entry, seen: RequestSeen): void {
    entry.fired++;
    entry.remaining--;
    if (entry.remaining <= 0) this.set(this.entries.filter((e) => e !== entry));
    const api = apiByKey(seen.apiKey)?.name ?? String(seen.apiKey);
    const { action } = entry.rule;
    const what = action.type === 'error' ? `error ${errorInfo(action.code).name}` : 'ms' in action ? `${action.type} ${action.ms} ms`
      : action.type === 'drop' ? `drop ${action.when}` : action.type;
    this.log.info({ faultRule: entry.rule.id, api, version: seen.apiVersion, clientId: seen.clientId, connection: seen.connectionId, client: seen.remote },
      `injected fault (rule ${entry.rule.id}): ${what} on ${api} v${seen.apiVersion} from ${seen.remote}`);
    const key = `${api} ${action.type}`;
    const counted = this.injected.get(key);
    if (counted === undefined) this.injected.set(key, { api, action: action.type, count: 1 });
    else counted.count++;
    for (const listener of this.listeners) listener(entry.rule, api);
  }

  private expire(): void {
    if (!this.active) return;
    const now = this.clock.now();
    if (this.entries.some((e) => e.until <= now)) this.set(this.entries.filter((e) => e.until > now));
  }

  private set(entries: Entry[]): void {
    this.entries = entries;
    this.active = entries.length > 0;
  }
}

function matchesTargets(rule: FaultRule, targets: RequestTargets): boolean {
  const { topic, partition, groupId, transactionalId } = rule.match;
  if (groupId !== undefined && !targets.groups.has(groupId)) return false;
  if (transactionalId !== undefined && !targets.transactionalIds.has(transactionalId)) return false;
  if (topic === undefined && partition === undefined) return true;
  for (const [name, partitions] of targets.topics) {
    if (topic !== undefined && name !== topic) continue;
    if (partition === undefined || partitions.has(partition)) return true;
  }
  return false;
}

