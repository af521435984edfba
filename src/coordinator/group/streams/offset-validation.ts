/**
 * Kafka's StreamsGroup.validateOffsetCommit and validateOffsetFetch: a member commits with its epoch; an older epoch
 * is accepted per partition only when the task reading it was assigned at that epoch or before (a commit of a task
 * it no longer owns is STALE_MEMBER_EPOCH).
 */
import { GroupError } from '../group-error.js';
import type { StreamsGroup } from './streams-group.js';
import { subtopologyOfTopic } from './topology.js';

/** Checks one partition of a commit; throws the partition's error. */
export type PartitionValidator = (topic: string, partition: number) => void;

const NO_CHECK: PartitionValidator = () => undefined;

function memberOf(group: StreamsGroup, memberId: string) {
  const member = group.members.get(memberId);
  if (member === undefined) throw new GroupError('UNKNOWN_MEMBER_ID', `Member ${memberId} is not a member of group ${group.groupId}.`);
  return member;
}

export function validateStreamsOffsetCommit(group: StreamsGroup, memberId: string, groupInstanceId: string | null, memberEpoch: number, transactional: boolean, apiVersion: number): PartitionValidator {
  if (memberEpoch < 0 && group.members.size === 0) return NO_CHECK;
  if (transactional && memberEpoch === -1 && memberId === '' && groupInstanceId === null) return NO_CHECK;
  const member = memberOf(group, memberId);
  if (!transactional && apiVersion < 9) throw new GroupError('UNSUPPORTED_VERSION', 'OffsetCommit version 9 or above must be used by members using the streams group protocol');
  if (memberEpoch === member.memberEpoch) return NO_CHECK;
  if (memberEpoch > member.memberEpoch) throw new GroupError('STALE_MEMBER_EPOCH', `Received member epoch ${memberEpoch} is newer than current member epoch ${member.memberEpoch}.`);
  const topology = group.topology;
  if (topology === undefined) throw new GroupError('STALE_MEMBER_EPOCH', 'Topology is not available for offset commit validation.');
  return (topic, partition) => {
    const subtopology = subtopologyOfTopic(topology, topic);
    if (subtopology === undefined) throw new GroupError('STALE_MEMBER_EPOCH', `Topic ${topic} is not in the topology.`);
    const id = subtopology.subtopologyId;
    const epoch = member.assignedTasks.active.get(id)?.get(partition) ?? member.tasksPendingRevocation.active.get(id)?.get(partition);
    if (epoch === undefined) throw new GroupError('STALE_MEMBER_EPOCH', `Task ${id}-${partition} is not assigned or pending revocation for member.`);
    if (memberEpoch < epoch) throw new GroupError('STALE_MEMBER_EPOCH', `Received member epoch ${memberEpoch} is older than assignment epoch ${epoch} for task ${id}-${partition}.`);
  };
}

export function validateStreamsOffsetFetch(group: StreamsGroup, memberId: string | null, memberEpoch: number): void {
  if (memberId === null && memberEpoch < 0) return;
  const member = memberOf(group, memberId ?? '');
  if (memberEpoch !== member.memberEpoch) {
    throw new GroupError('STALE_MEMBER_EPOCH', `The received member epoch ${memberEpoch} does not match the expected member epoch ${member.memberEpoch}.`);
  }
}
