// The controller's change of one partition's leader and ISR, as Kafka 4.3.1's PartitionChangeBuilder makes it, a
// pure function over the partition's record: brokers that are gone (lease expired) or shutting down leave the ISR;
// below min.insync.replicas the replicas that leave it join the ELR (KIP-966's eligible leader replicas, on by
// default for a new 4.x cluster); a leader is elected when the current one is not acceptable (or, for a PREFERRED
// election, is not the first replica): from the ISR in replica order, else from the ELR (which then becomes the
// ISR's one member), else, when unclean election is allowed, the last known ELR member or any acceptable replica.
// With none the partition goes leaderless (leader -1). A change of leader bumps the leader epoch; every change the
// partition epoch. No change: undefined (nothing to write).
import type { PartitionRecord } from './layout.js';

export const NO_LEADER = -1;

/** Kafka's election types: how a leader may be chosen (ElectLeaders' PREFERRED and UNCLEAN, and the controller's own). */
export type Election = 'ISR' | 'PREFERRED' | 'UNCLEAN';

export interface PartitionChangeInput {
  readonly record: PartitionRecord;
  /** A broker that may lead: registered and not in controlled shutdown. */
  readonly acceptable: (nodeId: number) => boolean;
  /** A broker that may stay in the ISR: registered and not in controlled shutdown (Kafka removes both from the ISR). */
  readonly inSync: (nodeId: number) => boolean;
  readonly minInsyncReplicas: number;
  /** unclean.leader.election.enable for the partition's topic. */
  readonly uncleanAllowed: boolean;
  readonly election: Election;
}

const same = (a: readonly number[] | undefined, b: readonly number[] | undefined): boolean =>
  (a ?? []).length === (b ?? []).length && (a ?? []).every((x, i) => x === b![i]);

export function partitionChange(input: PartitionChangeInput): PartitionRecord | undefined {
  const { record, acceptable, inSync, minInsyncReplicas, election } = input;
  const replicas = record.replicas;
  let isr = record.isr.filter(inSync);
  const removed = record.isr.filter((r) => !inSync(r));
  // ELR: only while the ISR is below min.insync.replicas; members back in the ISR leave it.
  let elr = isr.length >= minInsyncReplicas ? [] : [...(record.elr ?? []), ...removed].filter((r, i, all) => !isr.includes(r) && all.indexOf(r) === i);
  let lastKnownElr = record.lastKnownElr ?? [];

  let leader = record.leader;
  const keep = leader !== NO_LEADER && acceptable(leader) && isr.includes(leader)
    && (election !== 'PREFERRED' || leader === replicas[0]);
  if (!keep) {
    const preferred = replicas[0];
    const fromIsr = election === 'PREFERRED'
      ? (preferred !== undefined && isr.includes(preferred) && acceptable(preferred) ? preferred : undefined)
      : replicas.find((r) => isr.includes(r) && acceptable(r));
    if (election === 'PREFERRED') {
      // A preferred election moves nothing unless the preferred replica can take over.
      if (fromIsr === undefined) leader = acceptable(leader) && isr.includes(leader) ? leader : NO_LEADER;
      else leader = fromIsr;
    } else if (fromIsr !== undefined) {
      leader = fromIsr;
    } else {
      const fromElr = replicas.find((r) => elr.includes(r) && acceptable(r));
      if (fromElr !== undefined) {
        leader = fromElr;
        isr = [fromElr];
        elr = elr.filter((r) => r !== fromElr);
      } else if (input.uncleanAllowed || election === 'UNCLEAN') {
        const unclean = lastKnownElr.find((r) => replicas.includes(r) && acceptable(r)) ?? replicas.find(acceptable);
        leader = unclean ?? NO_LEADER;
        if (unclean !== undefined) {
          isr = [unclean];
          elr = [];
          lastKnownElr = [];
        }
      } else {
        leader = NO_LEADER;
      }
    }
  }
  if (leader === NO_LEADER && record.leader !== NO_LEADER && elr.length === 0) {
    // Nothing eligible is left: remember who led last, the first choice of a later unclean election.
    lastKnownElr = [record.leader];
  } else if (leader !== NO_LEADER) {
    lastKnownElr = [];
  }
  if (leader !== NO_LEADER && !isr.includes(leader)) isr = [leader, ...isr];
  const leaderChanged = leader !== record.leader;
  if (!leaderChanged && same(isr, record.isr) && same(elr, record.elr) && same(lastKnownElr, record.lastKnownElr)) return undefined;
  return {
    ...record,
    leader,
    isr,
    elr,
    lastKnownElr,
    leaderEpoch: leaderChanged ? record.leaderEpoch + 1 : record.leaderEpoch,
    partitionEpoch: record.partitionEpoch + 1,
  };
}
