// A partition leader's view of its replicas, as Kafka's Partition and Replica keep it: each follower's log end
// offset (its last fetch offset), when it last fetched and when it was last caught up; the high watermark as the
// smallest log end over the maximal ISR (the ISR with a pending expansion; a replica about to join counts too);
// which followers fell out of sync (not caught up for replica.lag.time.max.ms) and which may join (caught up to
// the high watermark and to the start of the leader's epoch). One ISR change at a time is in flight, as
// AlterPartition allows. Time comes from the caller (the broker's clock), so tests drive it.

interface FollowerState {
  logEndOffset: number;
  lastCaughtUpTimeMs: number;
  lastFetchTimeMs: number;
  /** The leader's log end at this follower's previous fetch. */
  lastFetchLeaderLogEndOffset: number;
}

export interface IsrChange {
  readonly isr: readonly number[];
  readonly kind: 'expand' | 'shrink';
}

export class LeaderReplicas {
  private readonly followers = new Map<number, FollowerState>();
  private committedIsr: number[];
  private pending: IsrChange | undefined;

  constructor(
    readonly leaderId: number,
    readonly leaderEpoch: number,
    readonly replicas: readonly number[],
    isr: readonly number[],
    /** Where the leader's epoch starts: a follower joins the ISR only once it holds everything before. */
    private readonly leaderEpochStartOffset: number,
    now: number,
  ) {
    this.committedIsr = [...isr];
    // Becoming leader: the ISR's followers count as caught up now (Kafka resets their state so).
    for (const id of replicas) {
      if (id === leaderId) continue;
      this.followers.set(id, { logEndOffset: -1, lastCaughtUpTimeMs: isr.includes(id) ? now : 0, lastFetchTimeMs: 0, lastFetchLeaderLogEndOffset: -1 });
    }
  }

  get isr(): readonly number[] {
    return this.committedIsr;
  }

  /** The committed ISR with a pending expansion's replica: what the high watermark waits for. */
  get maximalIsr(): readonly number[] {
    return this.pending?.kind === 'expand' ? this.pending.isr : this.committedIsr;
  }

  get changePending(): boolean {
    return this.pending !== undefined;
  }

  isReplica(id: number): boolean {
    return this.followers.has(id);
  }

  /** The metadata's ISR (after a change this leader wrote, or one the controller made). */
  setIsr(isr: readonly number[]): void {
    this.committedIsr = [...isr];
    this.pending = undefined;
  }

  /** Replica.updateFetchStateOrThrow. */
  updateFollower(id: number, fetchOffset: number, leaderEndOffset: number, now: number): void {
    const f = this.followers.get(id);
    if (f === undefined) return;
    if (fetchOffset >= leaderEndOffset) f.lastCaughtUpTimeMs = Math.max(f.lastCaughtUpTimeMs, now);
    else if (fetchOffset >= f.lastFetchLeaderLogEndOffset) f.lastCaughtUpTimeMs = Math.max(f.lastCaughtUpTimeMs, f.lastFetchTimeMs);
    f.logEndOffset = fetchOffset;
    f.lastFetchLeaderLogEndOffset = leaderEndOffset;
    f.lastFetchTimeMs = now;
  }

  private caughtUp(f: FollowerState, leaderEndOffset: number, now: number, lagMs: number): boolean {
    return f.logEndOffset === leaderEndOffset || now - f.lastCaughtUpTimeMs <= lagMs;
  }

  /** maybeIncrementLeaderHW's candidate: the leader's log end lowered to each maximal-ISR (or about to join) follower's. */
  highWatermark(leaderEndOffset: number, now: number, lagMs: number): number {
    let hw = leaderEndOffset;
    for (const [id, f] of this.followers) {
      const counts = this.maximalIsr.includes(id) || (this.caughtUp(f, leaderEndOffset, now, lagMs) && f.logEndOffset >= 0);
      if (counts && f.logEndOffset < hw) hw = Math.max(f.logEndOffset, 0);
    }
    return hw;
  }

  /** maybeExpandIsr: a follower outside the ISR that reached the high watermark and its leader's epoch joins. */
  expansion(id: number, highWatermark: number): IsrChange | undefined {
    const f = this.followers.get(id);
    if (this.pending !== undefined || f === undefined || this.committedIsr.includes(id)) return undefined;
    if (f.logEndOffset < highWatermark || f.logEndOffset < this.leaderEpochStartOffset) return undefined;
    return this.propose({ isr: [...this.committedIsr, id], kind: 'expand' });
  }

  /** maybeShrinkIsr: the ISR's followers not caught up for lagMs leave it. */
  shrink(leaderEndOffset: number, now: number, lagMs: number): IsrChange | undefined {
    if (this.pending !== undefined) return undefined;
    const out = this.committedIsr.filter((id) => {
      const f = this.followers.get(id);
      return f !== undefined && !this.caughtUp(f, leaderEndOffset, now, lagMs);
    });
    if (out.length === 0) return undefined;
    return this.propose({ isr: this.committedIsr.filter((id) => !out.includes(id)), kind: 'shrink' });
  }

  /** The change proposed was refused or failed: the next check proposes again. */
  abandon(change: IsrChange): void {
    if (this.pending === change) this.pending = undefined;
  }

  private propose(change: IsrChange): IsrChange {
    this.pending = change;
    return change;
  }
}
