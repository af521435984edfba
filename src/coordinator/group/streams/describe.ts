/**
 * StreamsGroupDescribe's view of a streams group (Kafka's StreamsGroup.asDescribedGroup): epochs, state, the
 * configured topology once ready (else the recorded one), and each member with its current and target tasks. A
 * group of another type, or none, is GROUP_ID_NOT_FOUND with Kafka's message.
 */
import { ErrorCode } from '../../../protocol/error-codes.js';
import { createDescribedGroup, type Assignment, type DescribedGroup, type TopicInfo } from '../../../protocol/generated/streams-group-describe.js';
import type { StreamsGroup } from './streams-group.js';
import { activeTaskSets, type TaskSets } from './tasks.js';
import { isReady, type ConfiguredInternalTopic } from './topology.js';

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

const taskIds = (tasks: TaskSets): Assignment['activeTasks'] =>
  [...tasks.keys()].sort(cmp).map((subtopologyId) => ({ subtopologyId, partitions: [...tasks.get(subtopologyId)!].sort((a, b) => a - b) }));

const configuredInfo = (t: ConfiguredInternalTopic): TopicInfo => ({
  name: t.name,
  partitions: t.numberOfPartitions,
  replicationFactor: t.replicationFactor,
  topicConfigs: [...t.topicConfigs].map(([key, value]) => ({ key, value })),
});

export function describeStreamsGroup(groupId: string, group: StreamsGroup | undefined, otherType: boolean): DescribedGroup {
  if (group === undefined) {
    const errorMessage = otherType ? `Group ${groupId} is not a streams group.` : `Group ${groupId} not found.`;
    return { ...createDescribedGroup(), groupId, errorCode: ErrorCode.GROUP_ID_NOT_FOUND, errorMessage };
  }
  const configured = group.configuredTopology;
  let topology: DescribedGroup['topology'];
  if (configured !== undefined && isReady(configured)) {
    topology = {
      epoch: configured.topologyEpoch,
      subtopologies: [...configured.subtopologies!].map(([subtopologyId, s]) => ({
        subtopologyId,
        sourceTopics: [...s.sourceTopics].sort(cmp),
        repartitionSinkTopics: [...s.repartitionSinkTopics].sort(cmp),
        repartitionSourceTopics: [...s.repartitionSourceTopics.values()].map(configuredInfo).sort((a, b) => cmp(a.name, b.name)),
        stateChangelogTopics: [...s.stateChangelogTopics.values()].map(configuredInfo).sort((a, b) => cmp(a.name, b.name)),
      })),
    };
  } else {
    if (group.topology === undefined) throw new Error('There should always be a topology for a streams group.');
    const info = (t: { name: string; partitions: number; replicationFactor: number; topicConfigs: { key: string; value: string }[] }): TopicInfo => ({
      name: t.name,
      partitions: t.partitions,
      replicationFactor: t.replicationFactor,
      topicConfigs: t.topicConfigs.map((c) => ({ key: c.key, value: c.value })),
    });
    topology = {
      epoch: group.topology.epoch,
      subtopologies: [...group.topology.subtopologies].sort((a, b) => cmp(a.subtopologyId, b.subtopologyId)).map((s) => ({
        subtopologyId: s.subtopologyId,
        sourceTopics: [...s.sourceTopics].sort(cmp),
        repartitionSinkTopics: [...s.repartitionSinkTopics].sort(cmp),
        repartitionSourceTopics: s.repartitionSourceTopics.map(info).sort((a, b) => cmp(a.name, b.name)),
        stateChangelogTopics: s.stateChangelogTopics.map(info).sort((a, b) => cmp(a.name, b.name)),
      })),
    };
  }
  return {
    ...createDescribedGroup(),
    groupId,
    groupState: group.state,
    groupEpoch: group.groupEpoch,
    assignmentEpoch: group.assignmentEpoch,
    topology,
    members: [...group.members.values()].map((m) => {
      const target = group.targetAssignment.get(m.memberId);
      return {
        memberId: m.memberId,
        memberEpoch: m.memberEpoch,
        instanceId: m.instanceId,
        rackId: m.rackId,
        clientId: m.clientId,
        clientHost: m.clientHost,
        topologyEpoch: m.topologyEpoch,
        processId: m.processId,
        userEndpoint: m.userEndpoint === null ? null : { host: m.userEndpoint.host, port: m.userEndpoint.port },
        clientTags: [...m.clientTags].map(([key, value]) => ({ key, value })),
        taskOffsets: [],
        taskEndOffsets: [],
        assignment: { activeTasks: taskIds(activeTaskSets(m.assignedTasks)), standbyTasks: taskIds(m.assignedTasks.standby), warmupTasks: taskIds(m.assignedTasks.warmup) },
        targetAssignment:
          target === undefined
            ? { activeTasks: [], standbyTasks: [], warmupTasks: [] }
            : { activeTasks: taskIds(target.active), standbyTasks: taskIds(target.standby), warmupTasks: taskIds(target.warmup) },
        isClassic: false,
      };
    }),
  };
}
