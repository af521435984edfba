/**
 * A member of a streams group (Kafka's StreamsGroupMember): immutable, each change a new value; the coordinator
 * compares the old with the new to know which records to write.
 */
import { stateFromValue } from '../consumer/member.js';
import { sameTasksWithEpochs, NO_TASKS_WITH_EPOCHS, type TasksWithEpochs } from './tasks.js';

/** Kafka's streams MemberState, with the byte each is recorded as (not the consumer group's values). */
export type StreamsMemberState = 'STABLE' | 'UNREVOKED_TASKS' | 'UNRELEASED_TASKS' | 'UNKNOWN';

export const STREAMS_MEMBER_STATE_VALUE: Readonly<Record<StreamsMemberState, number>> = {
  STABLE: 1,
  UNREVOKED_TASKS: 2,
  UNRELEASED_TASKS: 3,
  UNKNOWN: 127,
};

export const streamsMemberStateFromValue = (value: number): StreamsMemberState => stateFromValue(STREAMS_MEMBER_STATE_VALUE, value);

export interface Endpoint {
  readonly host: string;
  readonly port: number;
}

export interface StreamsGroupMember {
  readonly memberId: string;
  readonly memberEpoch: number;
  readonly previousMemberEpoch: number;
  readonly state: StreamsMemberState;
  readonly instanceId: string | null;
  readonly rackId: string | null;
  readonly clientId: string;
  readonly clientHost: string;
  readonly rebalanceTimeoutMs: number;
  readonly topologyEpoch: number;
  readonly processId: string;
  readonly userEndpoint: Endpoint | null;
  /** Kept sorted by key (the record's order). */
  readonly clientTags: ReadonlyMap<string, string>;
  readonly assignedTasks: TasksWithEpochs;
  readonly tasksPendingRevocation: TasksWithEpochs;
}

/** Kafka's StreamsGroupMember.Builder.withDefaults: a member joining for the first time. */
export function newStreamsMember(memberId: string): StreamsGroupMember {
  return {
    memberId,
    memberEpoch: 0,
    previousMemberEpoch: 0,
    state: 'STABLE',
    instanceId: null,
    rackId: null,
    clientId: '',
    clientHost: '',
    rebalanceTimeoutMs: -1,
    topologyEpoch: -1,
    processId: '',
    userEndpoint: null,
    clientTags: new Map(),
    assignedTasks: NO_TASKS_WITH_EPOCHS,
    tasksPendingRevocation: NO_TASKS_WITH_EPOCHS,
  };
}

export function isReconciledTo(member: StreamsGroupMember, assignmentEpoch: number): boolean {
  return member.state === 'STABLE' && member.memberEpoch === assignmentEpoch;
}

/** Kafka's record equality of two members (a member record is written when not equal). */
export function sameStreamsMember(a: StreamsGroupMember, b: StreamsGroupMember): boolean {
  if (a === b) return true;
  const scalars = (m: StreamsGroupMember) => [
    m.memberId, m.memberEpoch, m.previousMemberEpoch, m.state, m.instanceId, m.rackId, m.clientId, m.clientHost,
    m.rebalanceTimeoutMs, m.topologyEpoch, m.processId, m.userEndpoint?.host ?? null, m.userEndpoint?.port ?? null,
  ];
  const sa = scalars(a);
  const sb = scalars(b);
  return (
    sa.every((v, i) => v === sb[i]) &&
    a.clientTags.size === b.clientTags.size &&
    [...a.clientTags].every(([k, v]) => b.clientTags.get(k) === v) &&
    sameTasksWithEpochs(a.assignedTasks, b.assignedTasks) &&
    sameTasksWithEpochs(a.tasksPendingRevocation, b.tasksPendingRevocation)
  );
}
