/**
 * A KIP-932 share group's state (Kafka's ShareGroup over ModernGroup): the group epoch and metadata hash, the
 * members, the target assignment and its epoch, the topic names the members subscribe to (counted by member), and
 * which topics' share partitions are initialized (the assignor assigns only those). Empty without members, Stable
 * with any: a share group has no reconciling state. Mutated only by replaying records (share/replay.ts).
 */
import type { TopicPartitions } from '../consumer/assignor.js';
import type { TopicsImage } from '../consumer/topics-image.js';
import {
  shareCurrentAssignmentTombstone,
  shareGroupEpochTombstone,
  shareMemberTombstone,
  shareTargetMemberTombstone,
  shareTargetMetadataTombstone,
  statePartitionMetadataRecord,
  statePartitionMetadataTombstone,
  type ShareGroupRecord,
  type StatePartitionMetadata,
} from './records.js';
import { newShareMember, NO_SHARE_PARTITIONS, type ShareGroupMember } from './member.js';

export const SHARE_GROUP_TYPE = 'share';

export type ShareGroupState = 'Empty' | 'Stable';

export const NO_STATE_PARTITIONS: StatePartitionMetadata = { initializing: new Map(), initialized: new Map(), deleting: new Map() };

export class ShareGroup {
  /** As a consumer group, a new share group starts at epoch 1 with a target at epoch 1: its first member bumps it to 2. */
  groupEpoch = 1;
  metadataHash = 0n;
  assignmentEpoch = 1;
  assignmentTimestamp = 0;
  readonly members = new Map<string, ShareGroupMember>();
  readonly targetAssignment = new Map<string, TopicPartitions>();
  /** topic name → how many members subscribe to it. */
  readonly subscribedTopicNames = new Map<string, number>();
  /** The last ShareGroupStatePartitionMetadata record's content; null when there is none. */
  statePartitions: StatePartitionMetadata | null = null;

  constructor(readonly groupId: string) {}

  get state(): ShareGroupState {
    return this.members.size === 0 ? 'Empty' : 'Stable';
  }

  member(memberId: string): ShareGroupMember | undefined {
    return this.members.get(memberId);
  }

  targetAssignmentOf(memberId: string): TopicPartitions {
    return this.targetAssignment.get(memberId) ?? NO_SHARE_PARTITIONS;
  }

  updateMember(member: ShareGroupMember): void {
    const old = this.members.get(member.memberId);
    this.members.set(member.memberId, member);
    if (old !== undefined) for (const t of old.subscribedTopicNames) this.count(t, -1);
    for (const t of member.subscribedTopicNames) this.count(t, 1);
  }

  removeMember(memberId: string): void {
    const old = this.members.get(memberId);
    if (old === undefined) return;
    this.members.delete(memberId);
    for (const t of old.subscribedTopicNames) this.count(t, -1);
  }

  /** The member of that id, a new one added when absent (Kafka's getOrMaybeCreateMember on the replay path). */
  memberOrNew(memberId: string): ShareGroupMember {
    return this.members.get(memberId) ?? newShareMember(memberId);
  }

  /**
   * Kafka's shareGroupBuildPartitionDeleteRequest, written before a share group's tombstones: every share partition
   * initialized or initializing, and any still marked deleting whose topic exists, is recorded as deleting (their
   * share state is deleted by the share coordinator).
   */
  deletingRecords(image: TopicsImage): ShareGroupRecord[] {
    if (this.statePartitions === null) return [];
    const deleting = new Map<string, string>();
    for (const [id, topic] of [...this.statePartitions.initialized, ...this.statePartitions.initializing]) deleting.set(id, topic.name);
    for (const id of this.statePartitions.deleting.keys()) {
      const topic = image.byId(id);
      if (topic !== undefined) deleting.set(id, topic.name);
    }
    return [statePartitionMetadataRecord(this.groupId, { initializing: new Map(), initialized: new Map(), deleting })];
  }

  /**
   * Kafka's sharePartitionsEligibleForOffsetDeletion: of the topics named, those initialized (their initialized
   * partitions) or already deleting (all their partitions) have their share state deleted and are recorded deleting;
   * another existing topic answers "There is no offset information to delete.", an unknown one
   * UNKNOWN_TOPIC_OR_PARTITION.
   */
  offsetDeletion(topicNames: readonly string[], image: TopicsImage): {
    eligible: { name: string; id: string; partitions: number[] }[];
    refused: { name: string; message: string | null }[];
    record: ShareGroupRecord | undefined;
  } {
    const state = this.statePartitions;
    const initialized = new Map(state?.initialized ?? []);
    const deleting = new Map(state?.deleting ?? []);
    const eligible: { name: string; id: string; partitions: number[] }[] = [];
    const refused: { name: string; message: string | null }[] = [];
    for (const name of topicNames) {
      const topic = image.byName(name);
      if (topic === undefined) {
        refused.push({ name, message: null });
      } else if (initialized.has(topic.id)) {
        eligible.push({ name, id: topic.id, partitions: [...initialized.get(topic.id)!.partitions].sort((a, b) => a - b) });
        initialized.delete(topic.id);
        deleting.set(topic.id, name);
      } else if (deleting.has(topic.id)) {
        eligible.push({ name, id: topic.id, partitions: Array.from({ length: topic.numPartitions }, (_, p) => p) });
      } else {
        refused.push({ name, message: 'There is no offset information to delete.' });
      }
    }
    const record = eligible.length === 0 ? undefined : statePartitionMetadataRecord(this.groupId, { initializing: state?.initializing ?? new Map(), initialized, deleting });
    return { eligible, refused, record };
  }

  /** The share partitions' state without the deleted topics; undefined when it names none of them. */
  withoutTopicsRecord(deleted: ReadonlySet<string>): ShareGroupRecord | undefined {
    const state = this.statePartitions;
    if (state === null || ![...state.initializing.keys(), ...state.initialized.keys(), ...state.deleting.keys()].some((id) => deleted.has(id))) return undefined;
    const keep = <V>(m: ReadonlyMap<string, V>) => new Map([...m].filter(([id]) => !deleted.has(id)));
    return statePartitionMetadataRecord(this.groupId, { initializing: keep(state.initializing), initialized: keep(state.initialized), deleting: keep(state.deleting) });
  }

  /** The records that delete the group, in Kafka's order (ShareGroup.createGroupTombstoneRecords). */
  tombstoneRecords(): ShareGroupRecord[] {
    const ids = [...this.members.keys()];
    return [
      ...ids.map((id) => shareCurrentAssignmentTombstone(this.groupId, id)),
      ...ids.map((id) => shareTargetMemberTombstone(this.groupId, id)),
      shareTargetMetadataTombstone(this.groupId),
      ...ids.map((id) => shareMemberTombstone(this.groupId, id)),
      statePartitionMetadataTombstone(this.groupId),
      shareGroupEpochTombstone(this.groupId),
    ];
  }

  private count(topic: string, delta: number): void {
    const next = (this.subscribedTopicNames.get(topic) ?? 0) + delta;
    if (next <= 0) this.subscribedTopicNames.delete(topic);
    else this.subscribedTopicNames.set(topic, next);
  }
}
