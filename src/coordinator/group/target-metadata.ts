// The target assignment's metadata record (Consumer/Share/StreamsGroupTargetAssignmentMetadata), replayed alike by the
// three KIP-848-style group types: its value sets the assignment epoch and time; its tombstone clears them, once no
// member's target is left (Kafka's replay refuses it otherwise).

/** What the replay touches of a consumer, share or streams group. */
export interface TargetAssignmentHolder {
  readonly groupId: string;
  assignmentEpoch: number;
  assignmentTimestamp: number;
  readonly targetAssignment: { readonly size: number };
}

export function replayTargetMetadata(group: TargetAssignmentHolder, value: { readonly assignmentEpoch: number; readonly assignmentTimestamp: bigint } | null): void {
  if (value !== null) {
    group.assignmentEpoch = value.assignmentEpoch;
    group.assignmentTimestamp = Number(value.assignmentTimestamp);
    return;
  }
  if (group.targetAssignment.size > 0) {
    throw new Error(`Received a tombstone record to delete target assignment of ${group.groupId} but the assignment still has ${group.targetAssignment.size} members.`);
  }
  group.assignmentEpoch = -1;
  group.assignmentTimestamp = 0;
}
