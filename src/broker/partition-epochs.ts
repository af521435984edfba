// The leader-epoch view of a partition as Kafka's leader-epoch cache shows it: a partition's leader records
// its epoch at the log end when it becomes leader, so even an empty log answers epoch 0 from its start offset.
import type { EpochEntry } from '../storage/leader-epoch.js';
import type { PartitionLog } from '../storage/log.js';
import { PARTITION_LEADER_EPOCH } from './leader-epoch.js';

const UNDEFINED: EpochEntry = { epoch: -1, startOffset: -1 };

function entries(log: PartitionLog): readonly EpochEntry[] {
  const stored = log.leaderEpochs();
  return stored.length > 0 ? stored : [{ epoch: PARTITION_LEADER_EPOCH, startOffset: log.logStartOffset }];
}

/** Epoch in which `offset` was written, or -1. */
export function epochForOffset(log: PartitionLog, offset: number): number {
  let epoch = -1;
  for (const e of entries(log)) {
    if (e.startOffset > offset) break;
    epoch = e.epoch;
  }
  return epoch;
}

/** Kafka's endOffsetFor: the largest epoch <= requested and where the next epoch starts (the log end for the latest). */
export function endOffsetForEpoch(log: PartitionLog, requested: number): EpochEntry {
  const list = entries(log);
  if (requested < 0) return UNDEFINED;
  const latest = list[list.length - 1]!;
  if (latest.epoch === requested) return { epoch: requested, startOffset: log.logEndOffset };
  const higher = list.find((e) => e.epoch > requested);
  if (higher === undefined) return UNDEFINED;
  let floor: EpochEntry | undefined;
  for (const e of list) if (e.epoch <= requested) floor = e;
  // Older than every known epoch: Kafka answers the requested epoch, ending where the first known one starts.
  return { epoch: floor === undefined ? requested : floor.epoch, startOffset: higher.startOffset };
}
