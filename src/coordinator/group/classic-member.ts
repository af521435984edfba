/** One member of a classic group (Kafka's ClassicGroupMember): what it joined with and what it waits for. */
import type { JoinGroupResponse } from '../../protocol/generated/join-group.js';
import type { SyncGroupResponse } from '../../protocol/generated/sync-group.js';

export interface Protocol {
  readonly name: string;
  readonly metadata: Buffer;
}

/** Completes a parked JoinGroup/SyncGroup request. */
export type Responder<T> = (response: T) => void;

export class ClassicMember {
  assignment: Buffer = Buffer.alloc(0);
  awaitingJoin: Responder<JoinGroupResponse> | null = null;
  awaitingSync: Responder<SyncGroupResponse> | null = null;
  /** Joined but not yet through a completed join phase: its JoinGroup may time out (KIP-394). */
  isNew = false;

  constructor(
    readonly memberId: string,
    readonly groupInstanceId: string | null,
    readonly clientId: string,
    readonly clientHost: string,
    public rebalanceTimeoutMs: number,
    public sessionTimeoutMs: number,
    readonly protocolType: string,
    public protocols: readonly Protocol[],
  ) {}

  get isStatic(): boolean {
    return this.groupInstanceId !== null;
  }

  metadata(protocolName: string): Buffer | undefined {
    return this.protocols.find((p) => p.name === protocolName)?.metadata;
  }

  /** The same protocols with the same metadata, in the same order. */
  matches(protocols: readonly Protocol[]): boolean {
    return (
      protocols.length === this.protocols.length &&
      protocols.every((p, i) => p.name === this.protocols[i]!.name && p.metadata.equals(this.protocols[i]!.metadata))
    );
  }

  /** The member's most preferred protocol among the candidates. */
  vote(candidates: ReadonlySet<string>): string {
    const choice = this.protocols.find((p) => candidates.has(p.name));
    if (choice === undefined) throw new Error(`member ${this.memberId} supports none of the candidate protocols`);
    return choice.name;
  }

  /** Kafka's hasSatisfiedHeartbeat: a parked request counts as a heartbeat, except for a new member. */
  hasSatisfiedHeartbeat(): boolean {
    if (this.isNew) return false;
    return this.awaitingJoin !== null || this.awaitingSync !== null;
  }
}
