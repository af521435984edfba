/**
 * A classic group (Kafka's ClassicGroup): members, the state machine's current state, generation,
 * chosen protocol and leader. Mutated only by the membership operations and by replaying a
 * GroupMetadata record at load.
 */
import type { JoinGroupResponse, JoinGroupResponseMember } from '../../protocol/generated/join-group.js';
import type { SyncGroupResponse } from '../../protocol/generated/sync-group.js';
import { decodeConsumerProtocolSubscription } from '../../protocol/generated/data/consumer-protocol-subscription.js';
import { Reader } from '../../protocol/io/reader.js';
import { ClassicMember, type Protocol, type Responder } from './classic-member.js';

export type GroupState = 'Empty' | 'PreparingRebalance' | 'CompletingRebalance' | 'Stable' | 'Dead';

export const CONSUMER_PROTOCOL_TYPE = 'consumer';

const VALID_PREVIOUS_STATES: Record<GroupState, readonly GroupState[]> = {
  Empty: ['PreparingRebalance'],
  PreparingRebalance: ['Stable', 'CompletingRebalance', 'Empty'],
  CompletingRebalance: ['PreparingRebalance'],
  Stable: ['CompletingRebalance'],
  Dead: ['Stable', 'PreparingRebalance', 'CompletingRebalance', 'Empty', 'Dead'],
};

export class ClassicGroup {
  previousState: GroupState | null = null;
  readonly members = new Map<string, ClassicMember>();
  /** group.instance.id → member id. */
  readonly staticMembers = new Map<string, string>();
  /** Members told MEMBER_ID_REQUIRED that have not joined yet. */
  readonly pendingJoinMembers = new Set<string>();
  /** Members of the current generation that have not sent SyncGroup yet. */
  readonly pendingSyncMembers = new Set<string>();
  /** Set when a member joins during the initial delayed rebalance (extends the delay). */
  newMemberAdded = false;
  /** Topics the members subscribe to (consumer protocol only); null when unknown. */
  subscribedTopics: ReadonlySet<string> | null = null;
  private numAwaitingJoin = 0;
  private readonly supportedProtocols = new Map<string, number>();

  constructor(
    readonly groupId: string,
    public state: GroupState,
    public currentStateTimestamp: number | null,
    public generationId = 0,
    public protocolType: string | null = null,
    public protocolName: string | null = null,
    public leaderId: string | null = null,
  ) {}

  is(state: GroupState): boolean {
    return this.state === state;
  }

  transitionTo(state: GroupState, now: number): void {
    if (!VALID_PREVIOUS_STATES[state].includes(this.state)) {
      throw new Error(`group ${this.groupId}: illegal transition ${this.state} -> ${state}`);
    }
    this.previousState = this.state;
    this.state = state;
    this.currentStateTimestamp = now;
  }

  /** PreparingRebalance may be entered from here. */
  canRebalance(): boolean {
    return VALID_PREVIOUS_STATES.PreparingRebalance.includes(this.state);
  }

  get size(): number {
    return this.members.size;
  }

  get numAwaitingJoinResponse(): number {
    return this.numAwaitingJoin;
  }

  member(memberId: string): ClassicMember | undefined {
    return this.members.get(memberId);
  }

  isLeader(memberId: string): boolean {
    return this.leaderId === memberId;
  }

  isPendingMember(memberId: string): boolean {
    return this.pendingJoinMembers.has(memberId);
  }

  staticMemberId(groupInstanceId: string): string | undefined {
    return this.staticMembers.get(groupInstanceId);
  }

  hasAllMembersJoined(): boolean {
    return this.members.size === this.numAwaitingJoin && this.pendingJoinMembers.size === 0;
  }

  /** The longest rebalance timeout of any member. */
  rebalanceTimeoutMs(): number {
    let max = 0;
    for (const m of this.members.values()) max = Math.max(max, m.rebalanceTimeoutMs);
    return max;
  }

  add(member: ClassicMember, responder: Responder<JoinGroupResponse> | null): void {
    if (member.groupInstanceId !== null) this.staticMembers.set(member.groupInstanceId, member.memberId);
    if (this.members.size === 0) this.protocolType = member.protocolType;
    if (this.leaderId === null) this.leaderId = member.memberId;
    this.members.set(member.memberId, member);
    this.countProtocols(member.protocols, 1);
    member.awaitingJoin = responder;
    if (responder !== null) this.numAwaitingJoin++;
    this.pendingJoinMembers.delete(member.memberId);
  }

  remove(memberId: string): void {
    const removed = this.members.get(memberId);
    if (removed !== undefined) {
      this.members.delete(memberId);
      this.countProtocols(removed.protocols, -1);
      if (removed.awaitingJoin !== null) this.numAwaitingJoin--;
      if (removed.groupInstanceId !== null) this.staticMembers.delete(removed.groupInstanceId);
    }
    if (this.isLeader(memberId)) this.leaderId = this.members.keys().next().value ?? null;
    this.pendingJoinMembers.delete(memberId);
    this.pendingSyncMembers.delete(memberId);
  }

  updateMember(
    member: ClassicMember,
    protocols: readonly Protocol[],
    rebalanceTimeoutMs: number,
    sessionTimeoutMs: number,
    responder: Responder<JoinGroupResponse> | null,
  ): void {
    this.countProtocols(member.protocols, -1);
    member.protocols = protocols;
    this.countProtocols(protocols, 1);
    member.rebalanceTimeoutMs = rebalanceTimeoutMs;
    member.sessionTimeoutMs = sessionTimeoutMs;
    if (responder !== null && member.awaitingJoin === null) this.numAwaitingJoin++;
    else if (responder === null && member.awaitingJoin !== null) this.numAwaitingJoin--;
    member.awaitingJoin = responder;
  }

  /** Gives the static member's place (and assignment) to a new member id; the old one's parked requests get FENCED_INSTANCE_ID. */
  replaceStaticMember(groupInstanceId: string, oldMemberId: string, newMemberId: string, fencedJoin: JoinGroupResponse, fencedSync: SyncGroupResponse): ClassicMember {
    const old = this.members.get(oldMemberId);
    if (old === undefined) throw new Error(`cannot replace unknown member ${oldMemberId}`);
    this.members.delete(oldMemberId);
    this.completeJoin(old, fencedJoin);
    this.completeSync(old, fencedSync);
    const replacement = new ClassicMember(
      newMemberId,
      old.groupInstanceId,
      old.clientId,
      old.clientHost,
      old.rebalanceTimeoutMs,
      old.sessionTimeoutMs,
      old.protocolType,
      old.protocols,
    );
    replacement.assignment = old.assignment;
    this.members.set(newMemberId, replacement);
    if (this.isLeader(oldMemberId)) this.leaderId = newMemberId;
    this.staticMembers.set(groupInstanceId, newMemberId);
    return replacement;
  }

  completeJoin(member: ClassicMember, response: JoinGroupResponse): boolean {
    const responder = member.awaitingJoin;
    if (responder === null) return false;
    member.awaitingJoin = null;
    this.numAwaitingJoin--;
    responder(response);
    return true;
  }

  completeSync(member: ClassicMember, response: SyncGroupResponse): boolean {
    const responder = member.awaitingSync;
    if (responder === null) return false;
    member.awaitingSync = null;
    responder(response);
    return true;
  }

  /** If the leader has not rejoined, any member that has becomes leader; false when none has. */
  maybeElectNewJoinedLeader(): boolean {
    if (this.leaderId === null) return false;
    const leader = this.members.get(this.leaderId);
    if (leader !== undefined && leader.awaitingJoin !== null) return true;
    for (const m of this.members.values()) {
      if (m.awaitingJoin !== null) {
        this.leaderId = m.memberId;
        return true;
      }
    }
    return false;
  }

  /** Kafka's supportsProtocols: an empty group takes any non-empty type and list; otherwise same type and one protocol all members support. */
  supportsProtocols(protocolType: string, protocols: readonly Protocol[]): boolean {
    if (this.is('Empty')) return protocolType !== '' && protocols.length > 0;
    return this.protocolType === protocolType && protocols.some((p) => (this.supportedProtocols.get(p.name) ?? 0) === this.members.size);
  }

  /** The protocol every member supports that most members prefer (ties: the first member's preference). */
  selectProtocol(): string {
    const candidates = new Set<string>();
    for (const [name, count] of this.supportedProtocols) if (count === this.members.size) candidates.add(name);
    const votes = new Map<string, number>();
    for (const m of this.members.values()) {
      const choice = m.vote(candidates);
      votes.set(choice, (votes.get(choice) ?? 0) + 1);
    }
    let best: string | null = null;
    let bestVotes = 0;
    for (const [name, count] of votes) {
      if (count > bestVotes) {
        best = name;
        bestVotes = count;
      }
    }
    if (best === null) throw new Error(`group ${this.groupId}: cannot select a protocol without members`);
    return best;
  }

  initNextGeneration(now: number): void {
    this.generationId++;
    if (this.members.size > 0) {
      this.protocolName = this.selectProtocol();
      this.subscribedTopics = this.computeSubscribedTopics();
      this.transitionTo('CompletingRebalance', now);
    } else {
      this.protocolName = null;
      this.subscribedTopics = this.computeSubscribedTopics();
      this.transitionTo('Empty', now);
    }
    this.pendingSyncMembers.clear();
  }

  /** The member list the leader receives: each member's metadata for the chosen protocol. */
  currentMembers(): JoinGroupResponseMember[] {
    const out: JoinGroupResponseMember[] = [];
    for (const m of this.members.values()) {
      out.push({ memberId: m.memberId, groupInstanceId: m.groupInstanceId, metadata: m.metadata(this.protocolName ?? '') ?? Buffer.alloc(0) });
    }
    return out;
  }

  usesConsumerProtocol(): boolean {
    return this.protocolType === CONSUMER_PROTOCOL_TYPE;
  }

  /** Kafka's isSubscribedToTopic: unknown subscriptions count as subscribed for consumer-protocol groups. */
  isSubscribedToTopic(topic: string): boolean {
    return this.subscribedTopics === null ? this.usesConsumerProtocol() : this.subscribedTopics.has(topic);
  }

  /** Union of the members' subscriptions, parsed as ConsumerProtocolSubscription v0 (the prefix of every version). */
  computeSubscribedTopics(): ReadonlySet<string> | null {
    if (this.protocolType !== CONSUMER_PROTOCOL_TYPE) return null;
    if (this.members.size === 0) return new Set();
    if (this.protocolName === null) return null;
    const topics = new Set<string>();
    try {
      for (const m of this.members.values()) {
        const r = new Reader(m.metadata(this.protocolName) ?? Buffer.alloc(0));
        r.int16();
        for (const topic of decodeConsumerProtocolSubscription(r, 0).topics) topics.add(topic);
      }
    } catch {
      return null;
    }
    return topics;
  }

  private countProtocols(protocols: readonly Protocol[], delta: number): void {
    for (const p of protocols) {
      const next = (this.supportedProtocols.get(p.name) ?? 0) + delta;
      if (next === 0) this.supportedProtocols.delete(p.name);
      else this.supportedProtocols.set(p.name, next);
    }
  }
}
