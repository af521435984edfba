// StreamsGroupHeartbeat through the GroupShard state machine (records replayed as the runtime does) with the injected
// clock: the topology and its internal topics, the initial rebalance delay, a second member taking half the tasks only
// after the first revoked them, leaving, session and rebalance timeouts, fenced epochs, the request checks with
// Kafka 4.3.1's messages, and the group API's view of streams groups.
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ErrorCode } from '../../../src/protocol/error-codes.js';
import {
  createStreamsGroupHeartbeatRequest,
  type StreamsGroupHeartbeatRequest,
  type StreamsGroupHeartbeatResponse,
  type Topology,
} from '../../../src/protocol/generated/streams-group-heartbeat.js';
import { createOffsetCommitRequest } from '../../../src/protocol/generated/offset-commit.js';
import { StaticTopicsImage, type TopicsImage } from '../../../src/coordinator/group/consumer/topics-image.js';
import { loadXxh3 } from '../../../src/coordinator/group/consumer/xxh3.js';
import type { StreamsGroupSettings, StreamsHeartbeatResult } from '../../../src/coordinator/group/streams/heartbeat.js';
import { StreamsStatus } from '../../../src/coordinator/group/streams/topology.js';
import { GroupHarness } from '../group-harness.js';

before(loadXxh3);

/** The word count's topology as Kafka Streams 4.3.1 sends it. */
const TOPOLOGY: Topology = {
  epoch: 0,
  subtopologies: [
    {
      subtopologyId: '0', sourceTopics: ['in'], sourceTopicRegex: [], stateChangelogTopics: [], repartitionSinkTopics: ['app-words-repartition'],
      repartitionSourceTopics: [], copartitionGroups: [],
    },
    {
      subtopologyId: '1', sourceTopics: [], sourceTopicRegex: [],
      stateChangelogTopics: [{ name: 'app-counts-changelog', partitions: 0, replicationFactor: 1, topicConfigs: [{ key: 'cleanup.policy', value: 'compact' }] }],
      repartitionSinkTopics: [],
      repartitionSourceTopics: [{ name: 'app-words-repartition', partitions: 0, replicationFactor: 1, topicConfigs: [{ key: 'cleanup.policy', value: 'delete' }] }],
      copartitionGroups: [],
    },
  ],
};

const IN = { id: 'AAAAAAAAAAAAAAAAAAAAAQ', name: 'in', numPartitions: 4 };
const INTERNAL = [
  { id: 'AAAAAAAAAAAAAAAAAAAAAg', name: 'app-words-repartition', numPartitions: 4 },
  { id: 'AAAAAAAAAAAAAAAAAAAAAw', name: 'app-counts-changelog', numPartitions: 4 },
];

class StreamsHarness extends GroupHarness {
  topics: TopicsImage = new StaticTopicsImage([IN, ...INTERNAL]);
  settings: StreamsGroupSettings = { sessionTimeoutMs: 45000, heartbeatIntervalMs: 5000, assignmentIntervalMs: 0, initialRebalanceDelayMs: 0, numStandbyReplicas: 0 };

  constructor() {
    super({}, {
      topics: () => this.topics,
      assignors: ['uniform'],
      maxSize: 100,
      settings: () => ({ sessionTimeoutMs: 45000, heartbeatIntervalMs: 5000, assignmentIntervalMs: 0 }),
      streamsMaxSize: 3,
      streamsSettings: () => this.settings,
    });
  }

  result(fields: Partial<StreamsGroupHeartbeatRequest>): StreamsHeartbeatResult {
    const request: StreamsGroupHeartbeatRequest = { ...createStreamsGroupHeartbeatRequest(), groupId: 'app', ...fields };
    return this.apply(this.shard.streamsGroupHeartbeat({ clientId: 'c', clientHost: '/127.0.0.1', apiVersion: 0 }, request));
  }

  hb(fields: Partial<StreamsGroupHeartbeatRequest>): StreamsGroupHeartbeatResponse {
    return this.result(fields).response;
  }

  /** A join as Kafka Streams sends it: epoch 0, the topology, its process, no tasks. */
  joinMember(memberId: string, processId = `p-${memberId}`): StreamsGroupHeartbeatResponse {
    return this.hb({ memberId, memberEpoch: 0, rebalanceTimeoutMs: 300000, topology: TOPOLOGY, processId, activeTasks: [], standbyTasks: [], warmupTasks: [] });
  }

  /** A heartbeat reporting the tasks the member owns. */
  beat(memberId: string, memberEpoch: number, active: Record<string, number[]>): StreamsGroupHeartbeatResponse {
    const tasks = Object.entries(active).map(([subtopologyId, partitions]) => ({ subtopologyId, partitions }));
    return this.hb({ memberId, memberEpoch, activeTasks: tasks, standbyTasks: [], warmupTasks: [] });
  }
}

/** The response's active tasks as "subtopology:partitions" (null: not sent). */
const activeOf = (r: StreamsGroupHeartbeatResponse): string[] | null => r.activeTasks?.map((t) => `${t.subtopologyId}:${t.partitions.join(',')}`) ?? null;
const statusOf = (r: StreamsGroupHeartbeatResponse): number[] => (r.status ?? []).map((s) => s.statusCode);

describe('StreamsGroupHeartbeat', () => {
  test('a first member joins: the topology recorded, every task at once, Kafka\'s record order', () => {
    const h = new StreamsHarness();
    const r = h.joinMember('m1');
    assert.equal(r.errorCode, ErrorCode.NONE);
    assert.deepEqual([r.memberId, r.memberEpoch, r.heartbeatIntervalMs, r.endpointInformationEpoch], ['m1', 2, 5000, 0]);
    assert.deepEqual(activeOf(r), ['0:0,1,2,3', '1:0,1,2,3']);
    assert.deepEqual(r.status, []);
    assert.deepEqual(h.log.map((x) => x.type), ['streams-member', 'streams-topology', 'streams-group', 'streams-target-member', 'streams-target', 'streams-current-member']);
    const group = h.shard.streamsGroup('app')!;
    assert.deepEqual([group.state, group.groupEpoch, group.assignmentEpoch, group.validatedTopologyEpoch], ['Stable', 2, 2, 0]);
    // A heartbeat with nothing new writes nothing and sends no tasks.
    const before = h.log.length;
    const again = h.beat('m1', 2, { 0: [0, 1, 2, 3], 1: [0, 1, 2, 3] });
    assert.deepEqual([again.memberEpoch, again.activeTasks], [2, null]);
    assert.equal(h.log.length, before);
  });

  test('missing internal topics: MISSING_INTERNAL_TOPICS with their names to create, NotReady until they exist', () => {
    const h = new StreamsHarness();
    h.topics = new StaticTopicsImage([IN]);
    const first = h.result({ memberId: 'm1', memberEpoch: 0, rebalanceTimeoutMs: 1000, topology: TOPOLOGY, processId: 'p', activeTasks: [], standbyTasks: [], warmupTasks: [] });
    assert.deepEqual(first.response.status, [{ statusCode: StreamsStatus.MISSING_INTERNAL_TOPICS, statusDetail: 'Internal topics are missing: app-words-repartition, app-counts-changelog' }]);
    assert.deepEqual(first.internalTopicsToCreate.map((t) => [t.name, t.numberOfPartitions, t.replicationFactor, [...t.topicConfigs]]), [
      ['app-words-repartition', 4, 1, [['cleanup.policy', 'delete']]],
      ['app-counts-changelog', 4, 1, [['cleanup.policy', 'compact']]],
    ]);
    assert.deepEqual([first.response.memberEpoch, activeOf(first.response)], [2, []]);
    assert.equal(h.shard.streamsGroup('app')!.state, 'NotReady');
    h.topics = new StaticTopicsImage([IN, ...INTERNAL]);
    const second = h.beat('m1', 2, {});
    assert.deepEqual([second.memberEpoch, activeOf(second), second.status], [3, ['0:0,1,2,3', '1:0,1,2,3'], []]);
    assert.equal(h.shard.streamsGroup('app')!.state, 'Stable');
  });

  test('a missing source topic: MISSING_SOURCE_TOPICS, nothing assigned', () => {
    const h = new StreamsHarness();
    h.topics = new StaticTopicsImage([]);
    const r = h.joinMember('m1');
    assert.deepEqual(r.status, [{ statusCode: StreamsStatus.MISSING_SOURCE_TOPICS, statusDetail: 'Source topics in are missing.' }]);
    assert.deepEqual(activeOf(r), []);
  });

  test('the initial rebalance delay: ASSIGNMENT_DELAYED, then the first assignment when it ends', async () => {
    const h = new StreamsHarness();
    h.settings = { ...h.settings, initialRebalanceDelayMs: 3000 };
    const r = h.joinMember('m1');
    assert.deepEqual([r.memberEpoch, statusOf(r), activeOf(r)], [1, [StreamsStatus.ASSIGNMENT_DELAYED], []]);
    assert.equal(r.status![0]!.statusDetail, 'Assignment delayed due to the configured initial rebalance delay.');
    const joined2 = h.joinMember('m2');
    assert.deepEqual(statusOf(joined2), [StreamsStatus.ASSIGNMENT_DELAYED]);
    await h.advance(3000);
    const group = h.shard.streamsGroup('app')!;
    assert.deepEqual([group.groupEpoch, group.assignmentEpoch], [3, 3]);
    const a = h.beat('m1', 1, {});
    const b = h.beat('m2', 1, {});
    // As Kafka's StickyTaskAssignor hands out new members' tasks (sticky-assignor.test.ts).
    assert.deepEqual([a.memberEpoch, activeOf(a), b.memberEpoch, activeOf(b)], [3, ['0:1,3', '1:1,3'], 3, ['0:0,2', '1:0,2']]);
  });

  test('the initial delay ends before the internal topics exist: an empty target first, as Kafka 4.3.1 wrote it', async () => {
    const h = new StreamsHarness();
    h.settings = { ...h.settings, initialRebalanceDelayMs: 3000 };
    h.topics = new StaticTopicsImage([IN]);
    h.joinMember('m1');
    await h.advance(3000);
    h.topics = new StaticTopicsImage([IN, ...INTERNAL]);
    const r = h.beat('m1', 1, {});
    assert.deepEqual([r.memberEpoch, activeOf(r)], [3, ['0:0,1,2,3', '1:0,1,2,3']]);
    // The record types of the reference's first ten (test/fixtures/streams-groups/kafka-4.3.1-s1b.jsonl, offsets 0-9).
    assert.deepEqual(h.log.map((x) => x.type), [
      'streams-member', 'streams-topology', 'streams-group', 'streams-current-member', 'streams-target-member', 'streams-target',
      'streams-group', 'streams-target-member', 'streams-target', 'streams-current-member',
    ]);
    assert.deepEqual(h.log.filter((x) => x.type === 'streams-group').map((x) => x.value && 'validatedTopologyEpoch' in x.value ? [x.value.epoch, x.value.validatedTopologyEpoch] : null), [[2, -1], [3, 0]]);
  });

  test('a second member: the first revokes half its tasks before the second gets them', () => {
    const h = new StreamsHarness();
    h.joinMember('m1');
    const joined = h.joinMember('m2');
    // The target is half each, but m1 still owns everything: m2 waits (UNRELEASED_TASKS) with nothing.
    assert.deepEqual([joined.memberEpoch, activeOf(joined)], [3, []]);
    assert.equal(h.shard.streamsGroup('app')!.members.get('m2')!.state, 'UNRELEASED_TASKS');
    // m1 is told to keep half (revoking the rest) at its epoch.
    const revoking = h.beat('m1', 2, { 0: [0, 1, 2, 3], 1: [0, 1, 2, 3] });
    assert.deepEqual([revoking.memberEpoch, activeOf(revoking)], [2, ['0:0,1', '1:0,1']]);
    assert.equal(h.shard.streamsGroup('app')!.members.get('m1')!.state, 'UNREVOKED_TASKS');
    assert.equal(h.shard.streamsGroup('app')!.state, 'Reconciling');
    // Still released to nobody while m1 reports them.
    assert.deepEqual(activeOf(h.beat('m2', 3, {})), null);
    const done = h.beat('m1', 2, { 0: [0, 1], 1: [0, 1] });
    assert.deepEqual([done.memberEpoch, activeOf(done)], [3, null]);
    const got = h.beat('m2', 3, {});
    assert.deepEqual([got.memberEpoch, activeOf(got)], [3, ['0:2,3', '1:2,3']]);
    assert.equal(h.shard.streamsGroup('app')!.state, 'Stable');
  });

  test('a member leaving (-1): its records deleted, the group epoch bumped, the other takes every task', () => {
    const h = new StreamsHarness();
    h.joinMember('m1');
    h.joinMember('m2');
    h.beat('m1', 2, { 0: [0, 1, 2, 3], 1: [0, 1, 2, 3] });
    h.beat('m1', 2, { 0: [0, 1], 1: [0, 1] });
    h.beat('m2', 3, {});
    const before = h.log.length;
    const left = h.hb({ memberId: 'm2', memberEpoch: -1 });
    assert.deepEqual([left.errorCode, left.memberEpoch, left.status], [ErrorCode.NONE, -1, []]);
    assert.deepEqual(h.log.slice(before).map((x) => `${x.type}${x.value === null ? ' tombstone' : ''}`), [
      'streams-current-member tombstone', 'streams-target-member tombstone', 'streams-member tombstone', 'streams-group',
    ]);
    const back = h.beat('m1', 3, { 0: [0, 1], 1: [0, 1] });
    assert.deepEqual([back.memberEpoch, activeOf(back)], [4, ['0:0,1,2,3', '1:0,1,2,3']]);
  });

  test('the session timeout fences a silent member; the rebalance timeout one that does not revoke', async () => {
    const h = new StreamsHarness();
    h.joinMember('m1');
    await h.advance(44999);
    assert.equal(h.shard.streamsGroup('app')!.members.size, 1);
    await h.advance(1);
    assert.equal(h.shard.streamsGroup('app')!.members.size, 0);
    assert.equal(h.shard.streamsGroup('app')!.state, 'Empty');

    const r = new StreamsHarness();
    r.joinMember('m1');
    r.hb({ memberId: 'm1', memberEpoch: 2, rebalanceTimeoutMs: 1000 });
    r.joinMember('m2');
    r.beat('m1', 2, { 0: [0, 1, 2, 3], 1: [0, 1, 2, 3] });
    r.beat('m2', 3, {});
    await r.advance(1000);
    assert.deepEqual([...r.shard.streamsGroup('app')!.members.keys()], ['m2']);
  });

  test('after a load, each member\'s session starts again: one that never comes back is fenced when it expires', async () => {
    const h = new StreamsHarness();
    h.joinMember('m1');
    const loaded = new StreamsHarness();
    for (const record of h.log) loaded.shard.replay(record);
    loaded.shard.onLoaded();
    await loaded.advance(44999);
    assert.equal(loaded.shard.streamsGroup('app')!.members.size, 1);
    await loaded.advance(1);
    assert.deepEqual([loaded.shard.streamsGroup('app')!.members.size, loaded.shard.streamsGroup('app')!.groupEpoch], [0, 3]);
  });

  test('epochs: a newer one, an older one with tasks it was not given, an unknown member are refused with Kafka\'s messages', () => {
    const h = new StreamsHarness();
    h.joinMember('m1');
    const newer = h.beat('m1', 7, {});
    assert.deepEqual([newer.errorCode, newer.errorMessage], [ErrorCode.FENCED_MEMBER_EPOCH,
      'The streams group member has a greater member epoch (7) than the one known by the group coordinator (2). The member must abandon all its partitions and rejoin.']);
    const older = h.beat('m1', 1, { 0: [0] });
    assert.deepEqual([older.errorCode, older.errorMessage], [ErrorCode.FENCED_MEMBER_EPOCH,
      'The streams group member has a smaller member epoch (1) than the one known by the group coordinator (2). The member must abandon all its partitions and rejoin.']);
    const unknown = h.beat('m9', 2, {});
    assert.deepEqual([unknown.errorCode, unknown.errorMessage], [ErrorCode.UNKNOWN_MEMBER_ID, 'Member m9 is not a member of group app.']);
    const noGroup = h.hb({ groupId: 'other', memberId: 'm1', memberEpoch: 2 });
    assert.deepEqual([noGroup.errorCode, noGroup.errorMessage], [ErrorCode.GROUP_ID_NOT_FOUND, 'Streams group other not found.']);
    const leaveNoGroup = h.hb({ groupId: 'other', memberId: 'm1', memberEpoch: -1 });
    assert.deepEqual([leaveNoGroup.errorCode, leaveNoGroup.errorMessage], [ErrorCode.GROUP_ID_NOT_FOUND, 'Group other not found.']);
    // An empty classic group (offsets only) is not a streams group for a member already in one; a joining one replaces it.
    h.apply(h.shard.commitOffsets({
      ...createOffsetCommitRequest(), groupId: 'simple', generationIdOrMemberEpoch: -1,
      topics: [{ name: 'in', topicId: 'AAAAAAAAAAAAAAAAAAAAAA', partitions: [{ partitionIndex: 0, committedOffset: 1n, committedLeaderEpoch: -1, committedMetadata: '' }] }],
    }, 9));
    const classic = h.hb({ groupId: 'simple', memberId: 'm1', memberEpoch: 2 });
    assert.deepEqual([classic.errorCode, classic.errorMessage], [ErrorCode.GROUP_ID_NOT_FOUND, 'Group simple is not a streams group.']);
    assert.equal(h.hb({ groupId: 'simple', memberId: 'm1', memberEpoch: 0, rebalanceTimeoutMs: 1000, topology: TOPOLOGY, activeTasks: [], standbyTasks: [], warmupTasks: [] }).errorCode, ErrorCode.NONE);
    assert.equal(h.shard.streamsGroup('simple')!.members.size, 1);
    const invalidTask = h.beat('m1', 2, { 0: [9] });
    assert.deepEqual([invalidTask.errorCode, invalidTask.errorMessage], [ErrorCode.INVALID_REQUEST, 'Task 9 for subtopology 0 is invalid. Number of tasks for this subtopology: 4']);
  });

  test('the request checks of Kafka\'s GroupCoordinatorService, in its order and words', () => {
    const h = new StreamsHarness();
    const join = { memberId: 'm1', memberEpoch: 0, rebalanceTimeoutMs: 1000, topology: TOPOLOGY, activeTasks: [], standbyTasks: [], warmupTasks: [] };
    const cases: [Partial<StreamsGroupHeartbeatRequest>, number, string][] = [
      [{ ...join, instanceId: 'i' }, ErrorCode.INVALID_REQUEST, 'Static membership is not yet supported.'],
      [{ ...join, memberId: '' }, ErrorCode.INVALID_REQUEST, "MemberId can't be empty."],
      [{ ...join, rebalanceTimeoutMs: -1 }, ErrorCode.INVALID_REQUEST, 'RebalanceTimeoutMs must be provided in first request.'],
      [{ ...join, topology: null }, ErrorCode.INVALID_REQUEST, 'Topology must be non-null when (re-)joining.'],
      [{ ...join, activeTasks: [{ subtopologyId: '0', partitions: [0] }] }, ErrorCode.INVALID_REQUEST, 'ActiveTasks must be empty when (re-)joining.'],
      [{ ...join, standbyTasks: null }, ErrorCode.INVALID_REQUEST, 'If one task-type is non-null, all must be non-null.'],
      [{ memberId: 'm1', memberEpoch: 3, topology: TOPOLOGY }, ErrorCode.INVALID_REQUEST, 'Topology can only be provided when (re-)joining.'],
      [{ memberId: 'm1', memberEpoch: -3 }, ErrorCode.INVALID_REQUEST, 'MemberEpoch is -3, but must be greater than or equal to -2.'],
      [{ ...join, topology: { epoch: 0, subtopologies: [{ ...TOPOLOGY.subtopologies[1]!, stateChangelogTopics: [{ name: 'c', partitions: 2, replicationFactor: 1, topicConfigs: [] }] }] } },
        ErrorCode.STREAMS_INVALID_TOPOLOGY, 'Changelog topic c must have an undefined partition count, but it is set to 2.'],
    ];
    for (const [fields, code, message] of cases) {
      const r = h.hb(fields);
      assert.deepEqual([r.errorCode, r.errorMessage], [code, message], message);
    }
    assert.equal(h.log.length, 0);
    h.joinMember('m1');
    const other = h.hb({ ...join, memberId: 'm2', topology: { ...TOPOLOGY, subtopologies: [TOPOLOGY.subtopologies[0]!] } });
    assert.deepEqual([other.errorCode, other.errorMessage], [ErrorCode.INVALID_REQUEST, 'Topology updates are not supported yet.']);
  });

  test('group.streams.max.size: a member past it is GROUP_MAX_SIZE_REACHED', () => {
    const h = new StreamsHarness();
    for (const m of ['m1', 'm2', 'm3']) assert.equal(h.joinMember(m).errorCode, ErrorCode.NONE);
    const r = h.joinMember('m4');
    assert.deepEqual([r.errorCode, r.errorMessage], [ErrorCode.GROUP_MAX_SIZE_REACHED, 'The streams group has reached its maximum capacity of 3 members.']);
  });

  test('num.standby.replicas: every stateful task gets a standby on another process', () => {
    const h = new StreamsHarness();
    h.settings = { ...h.settings, numStandbyReplicas: 1 };
    h.joinMember('m1');
    h.joinMember('m2');
    const target = h.shard.streamsGroup('app')!.targetAssignment;
    const standby = (m: string) => [...(target.get(m)!.standby.get('1') ?? [])].sort();
    const active = (m: string) => [...(target.get(m)!.active.get('1') ?? [])].sort();
    assert.deepEqual(standby('m1'), active('m2'));
    assert.deepEqual(standby('m2'), active('m1'));
    assert.equal(target.get('m1')!.standby.has('0'), false); // subtopology 0 has no state
    assert.deepEqual([...h.shard.streamsGroup('app')!.lastAssignmentConfigs], [['num.standby.replicas', '1']]);
  });

  test('user endpoints: each member with one gets the partitions of every endpoint, once per endpoint information epoch', () => {
    const h = new StreamsHarness();
    const join = (memberId: string, port: number) =>
      h.hb({ memberId, memberEpoch: 0, rebalanceTimeoutMs: 1000, topology: TOPOLOGY, processId: `p-${memberId}`, userEndpoint: { host: 'h', port }, activeTasks: [], standbyTasks: [], warmupTasks: [] });
    const first = join('m1', 1);
    const show = (r: StreamsGroupHeartbeatResponse) =>
      r.partitionsByUserEndpoint?.map((e) => `${e.userEndpoint.port}: ${e.activePartitions.map((tp) => `${tp.topic}[${tp.partitions.join(',')}]`).sort().join(' ')}`) ?? null;
    assert.deepEqual(show(first), ['1: app-words-repartition[0,1,2,3] in[0,1,2,3]']);
    assert.equal(first.endpointInformationEpoch, 0); // a new group's is not told, as Kafka
    const second = join('m2', 2);
    assert.equal(second.endpointInformationEpoch, 2);
    // The one that knows epoch 2 gets no list; m1, at 0, gets both endpoints (its own last).
    assert.equal(h.hb({ memberId: 'm2', memberEpoch: 3, endpointInformationEpoch: 2 }).partitionsByUserEndpoint, null);
    assert.deepEqual(show(h.hb({ memberId: 'm1', memberEpoch: 2, endpointInformationEpoch: 0 })), ['2: ', '1: app-words-repartition[0,1] in[0,1]']);
  });

  test('the group API: ListGroups type streams, DescribeGroups not a classic group, DeleteGroups only when Empty, commits with member epochs', () => {
    const h = new StreamsHarness();
    h.joinMember('m1');
    assert.deepEqual(h.shard.listGroups([], ['streams']), [{ groupId: 'app', protocolType: 'streams', groupState: 'Stable', groupType: 'streams' }]);
    assert.deepEqual(h.shard.listGroups([], ['consumer']), []);
    assert.equal(h.shard.describeGroup('app').errorMessage, 'Group app is not a classic group.');
    assert.equal(h.shard.consumerGroupDescribe(['app'])[0]!.errorMessage, 'Group app is not a consumer group.');
    assert.deepEqual(h.shard.streamsGroupDescribe(['nope']).map((g) => [g.errorCode, g.errorMessage]), [[ErrorCode.GROUP_ID_NOT_FOUND, 'Group nope not found.']]);
    const described = h.shard.streamsGroupDescribe(['app'])[0]!;
    assert.deepEqual([described.groupState, described.groupEpoch, described.assignmentEpoch, described.topology!.epoch], ['Stable', 2, 2, 0]);
    assert.deepEqual(described.topology!.subtopologies!.map((st) => [st.subtopologyId, st.sourceTopics, st.repartitionSourceTopics.map((x) => `${x.name}/${x.partitions}`), st.stateChangelogTopics.map((x) => `${x.name}/${x.partitions}`)]), [
      ['0', ['in'], [], []],
      ['1', [], ['app-words-repartition/4'], ['app-counts-changelog/4']],
    ]);
    assert.deepEqual(described.members.map((m) => [m.memberId, m.memberEpoch, m.processId, m.assignment.activeTasks.map((x) => `${x.subtopologyId}:${x.partitions.join(',')}`)]), [
      ['m1', 2, 'p-m1', ['0:0,1,2,3', '1:0,1,2,3']],
    ]);
    assert.deepEqual(h.apply(h.shard.deleteGroups(['app'])), [{ groupId: 'app', errorCode: ErrorCode.NON_EMPTY_GROUP }]);
    const commit = (memberEpoch: number, apiVersion = 9) => h.apply(h.shard.commitOffsets({
      ...createOffsetCommitRequest(), groupId: 'app', memberId: 'm1', generationIdOrMemberEpoch: memberEpoch,
      topics: [{ name: 'in', topicId: 'AAAAAAAAAAAAAAAAAAAAAA', partitions: [{ partitionIndex: 0, committedOffset: 5n, committedLeaderEpoch: -1, committedMetadata: '' }] }],
    }, apiVersion))[0]!.partitions[0]!.errorCode;
    assert.equal(commit(2), ErrorCode.NONE);
    assert.equal(commit(3), ErrorCode.STALE_MEMBER_EPOCH);
    assert.equal(commit(2, 8), ErrorCode.UNSUPPORTED_VERSION);
    assert.equal(h.shard.fetchOffsets('app', null, { memberId: 'm1', memberEpoch: 1 }).errorCode, ErrorCode.STALE_MEMBER_EPOCH);
    const consumer = h.apply(h.shard.consumerGroupHeartbeat({ clientId: 'c', clientHost: 'h', apiVersion: 1 }, {
      groupId: 'app', memberId: 'x', memberEpoch: 0, instanceId: null, rackId: null, rebalanceTimeoutMs: 1000, subscribedTopicNames: ['in'], subscribedTopicRegex: null, serverAssignor: null, topicPartitions: [],
    }));
    assert.deepEqual([consumer.errorCode, consumer.errorMessage], [ErrorCode.GROUP_ID_NOT_FOUND, 'Group app is not a consumer group.']);
    h.hb({ memberId: 'm1', memberEpoch: -1 });
    assert.deepEqual(h.apply(h.shard.deleteGroups(['app'])), [{ groupId: 'app', errorCode: ErrorCode.NONE }]);
    assert.equal(h.shard.streamsGroup('app'), undefined);
  });

  test('JoinGroup: a streams group with members is INCONSISTENT_GROUP_PROTOCOL; an empty one gives way to a classic group', () => {
    const h = new StreamsHarness();
    h.joinMember('m1');
    assert.equal(h.join({ groupId: 'app' }).get().errorCode, ErrorCode.INCONSISTENT_GROUP_PROTOCOL);
    h.hb({ memberId: 'm1', memberEpoch: -1 });
    const before = h.log.length;
    const joined = h.join({ groupId: 'app' }).get();
    assert.equal(joined.errorCode, ErrorCode.MEMBER_ID_REQUIRED);
    assert.deepEqual(h.log.slice(before).map((r) => r.type), ['streams-target', 'streams-group', 'streams-topology', 'group']);
    assert.equal(h.shard.streamsGroup('app'), undefined);
    assert.equal(h.shard.groupState('app'), 'Empty');
  });

  test('an empty streams group goes once its offsets expire (aged from their commit)', async () => {
    const h = new StreamsHarness();
    h.joinMember('m1');
    h.apply(h.shard.commitOffsets({
      ...createOffsetCommitRequest(), groupId: 'app', memberId: 'm1', generationIdOrMemberEpoch: 2,
      topics: [{ name: 'in', topicId: 'AAAAAAAAAAAAAAAAAAAAAA', partitions: [{ partitionIndex: 0, committedOffset: 5n, committedLeaderEpoch: -1, committedMetadata: '' }] }],
    }, 9));
    h.hb({ memberId: 'm1', memberEpoch: -1 });
    h.apply(h.shard.cleanupExpired());
    assert.notEqual(h.shard.streamsGroup('app'), undefined);
    await h.advance(7 * 24 * 3600 * 1000);
    h.apply(h.shard.cleanupExpired());
    assert.equal(h.shard.streamsGroup('app'), undefined);
  });
});
