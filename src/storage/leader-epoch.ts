// Leader epoch → start offset, as Kafka's leader-epoch cache keeps it: one entry per epoch in which the
// partition received data, used by OffsetForLeaderEpoch and by Fetch's diverging-epoch check.

export interface EpochEntry {
  epoch: number;
  startOffset: number;
}

export const UNDEFINED_EPOCH = -1;
export const UNDEFINED_EPOCH_OFFSET = -1;

export class LeaderEpochCache {
  private list: EpochEntry[];

  /** `onChange` persists the entries (the file engine writes leader-epoch-checkpoint). */
  constructor(entries: readonly EpochEntry[] = [], private readonly onChange: (entries: readonly EpochEntry[]) => void = () => {}) {
    this.list = entries.map((e) => ({ ...e }));
  }

  entries(): readonly EpochEntry[] {
    return this.list;
  }

  latestEpoch(): number {
    return this.list.length === 0 ? UNDEFINED_EPOCH : this.list[this.list.length - 1]!.epoch;
  }

  /** Record that `epoch` starts at `startOffset`; older epochs and re-assignments are ignored. */
  assign(epoch: number, startOffset: number): void {
    if (epoch < 0) return;
    const latest = this.list[this.list.length - 1];
    if (latest !== undefined && epoch <= latest.epoch) return;
    // An entry starting at or after the new one can only be left from a truncated log.
    this.list = this.list.filter((e) => e.startOffset < startOffset);
    this.list.push({ epoch, startOffset });
    this.onChange(this.list);
  }

  /** Epoch in which `offset` was written, or -1. */
  epochForOffset(offset: number): number {
    let epoch = UNDEFINED_EPOCH;
    for (const e of this.list) {
      if (e.startOffset > offset) break;
      epoch = e.epoch;
    }
    return epoch;
  }

  /** Kafka's endOffsetFor: the largest epoch <= requested and the offset where the next epoch starts. */
  endOffsetFor(requestedEpoch: number, logEndOffset: number): EpochEntry {
    const none = { epoch: UNDEFINED_EPOCH, startOffset: UNDEFINED_EPOCH_OFFSET };
    if (requestedEpoch === UNDEFINED_EPOCH) return none;
    if (this.latestEpoch() === requestedEpoch) return { epoch: requestedEpoch, startOffset: logEndOffset };
    const higher = this.list.find((e) => e.epoch > requestedEpoch);
    if (higher === undefined) return none;
    let floor: EpochEntry | undefined;
    for (const e of this.list) if (e.epoch <= requestedEpoch) floor = e;
    return { epoch: floor === undefined ? requestedEpoch : floor.epoch, startOffset: higher.startOffset };
  }

  /** Drop entries starting at or after `endOffset` (log truncated to it). */
  truncateFromEnd(endOffset: number): void {
    const kept = this.list.filter((e) => e.startOffset < endOffset);
    if (kept.length === this.list.length) return;
    this.list = kept;
    this.onChange(this.list);
  }

  /** Log start moved to `startOffset`: the epoch covering it now starts there. */
  truncateFromStart(startOffset: number): void {
    let lastBelow = -1;
    for (let i = 0; i < this.list.length && this.list[i]!.startOffset <= startOffset; i++) lastBelow = i;
    if (lastBelow < 0 || (lastBelow === 0 && this.list[0]!.startOffset === startOffset)) return;
    const covering = { epoch: this.list[lastBelow]!.epoch, startOffset };
    this.list = [covering, ...this.list.slice(lastBelow + 1)];
    this.onChange(this.list);
  }

  clear(): void {
    if (this.list.length === 0) return;
    this.list = [];
    this.onChange(this.list);
  }
}
