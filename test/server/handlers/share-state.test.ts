// Durable share state over a socket (KIP-932): the share coordinator's __share_group_state (Kafka's topic configs),
// the state a share partition writes on acknowledgement and on a session's release, read back by
// ReadShareGroupState; after a restart (file engine) the SPSO survives and records released unacknowledged are
// delivered again with their delivery count kept; DeleteGroups drops the group's state; the share coordinator's APIs refuse a partition never initialized
// and a stale state epoch as Kafka 4.3.1's ShareCoordinatorShard does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ErrorCode } from '../../../src/protocol/error-codes.js';
import { createCreatableTopic, createCreateTopicsRequest, createTopicsApi } from '../../../src/protocol/generated/create-topics.js';
import { createFetchPartition, createShareFetchRequest, shareFetchApi, type ShareFetchResponse } from '../../../src/protocol/generated/share-fetch.js';
import { createShareAcknowledgeRequest, shareAcknowledgeApi } from '../../../src/protocol/generated/share-acknowledge.js';
import { createShareGroupHeartbeatRequest, shareGroupHeartbeatApi } from '../../../src/protocol/generated/share-group-heartbeat.js';
import { readShareGroupStateApi } from '../../../src/protocol/generated/read-share-group-state.js';
import { initializeShareGroupStateApi } from '../../../src/protocol/generated/initialize-share-group-state.js';
import { writeShareGroupStateApi } from '../../../src/protocol/generated/write-share-group-state.js';
import { readShareGroupStateSummaryApi } from '../../../src/protocol/generated/read-share-group-state-summary.js';
import { deleteShareGroupStateApi } from '../../../src/protocol/generated/delete-share-group-state.js';
import { createDescribeConfigsRequest, describeConfigsApi } from '../../../src/protocol/generated/describe-configs.js';
import { deleteGroupsApi } from '../../../src/protocol/generated/delete-groups.js';
import { createFindCoordinatorRequest, findCoordinatorApi } from '../../../src/protocol/generated/find-coordinator.js';
import { RawClient } from '../raw-client.js';
import { roundTrip, startTestBroker } from '../broker-harness.js';
import { batch, produce, values } from '../../broker/data-harness.js';

type Ack = { first: number; last: number; types: number[] };

async function session(client: RawClient, GROUP: string, topicId: string, member: string) {
  const shareFetch = (epoch: number, acks: Ack[] = [], maxWaitMs = 0) =>
    roundTrip(client, shareFetchApi, 2, {
      ...createShareFetchRequest(), groupId: GROUP, memberId: member, shareSessionEpoch: epoch, maxWaitMs, minBytes: 1, maxBytes: 1 << 20, maxRecords: 500, batchSize: 500,
      topics: [{ topicId, partitions: [{ ...createFetchPartition(), partitionIndex: 0, acknowledgementBatches: acks.map((a) => ({ firstOffset: BigInt(a.first), lastOffset: BigInt(a.last), acknowledgeTypes: a.types })) }] }],
    });
  const acknowledge = (epoch: number, acks: Ack[]) =>
    roundTrip(client, shareAcknowledgeApi, 2, {
      ...createShareAcknowledgeRequest(), groupId: GROUP, memberId: member, shareSessionEpoch: epoch,
      topics: [{ topicId, partitions: [{ partitionIndex: 0, acknowledgementBatches: acks.map((a) => ({ firstOffset: BigInt(a.first), lastOffset: BigInt(a.last), acknowledgeTypes: a.types })) }] }],
    });
  return { shareFetch, acknowledge };
}

async function joinGroup(client: RawClient, GROUP: string, topic: string, member: string): Promise<void> {
  const beat = (memberEpoch: number, subscribedTopicNames: string[] | null) =>
    roundTrip(client, shareGroupHeartbeatApi, 1, { ...createShareGroupHeartbeatRequest(), groupId: GROUP, memberId: member, memberEpoch, subscribedTopicNames });
  const isAssigned = (r: { assignment: { topicPartitions: unknown[] } | null }) => r.assignment !== null && r.assignment.topicPartitions.length > 0;
  // FindCoordinator first, as a client does: a fresh Kafka creates __consumer_offsets and answers NOT_COORDINATOR until then.
  let joined = await beat(0, [topic]);
  for (let i = 0; i < 100 && (([ErrorCode.NOT_COORDINATOR, ErrorCode.COORDINATOR_NOT_AVAILABLE, ErrorCode.COORDINATOR_LOAD_IN_PROGRESS] as number[]).includes(joined.errorCode)); i++) {
    await roundTrip(client, findCoordinatorApi, 6, { ...createFindCoordinatorRequest(), keyType: 0, coordinatorKeys: [GROUP] });
    await new Promise((resolve) => setTimeout(resolve, 200));
    joined = await beat(0, [topic]);
  }
  let [memberEpoch, assigned] = [joined.memberEpoch, isAssigned(joined)];
  for (let i = 0; !assigned; i++) {
    assert.ok(i < 200, `no assignment: ${JSON.stringify(joined)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const r = await beat(memberEpoch, null);
    [memberEpoch, assigned] = [r.memberEpoch, isAssigned(r)];
  }
}

const acquiredOf = (r: ShareFetchResponse) => r.responses.flatMap((t) => t.partitions.flatMap((p) => p.acquiredRecords.map((a) => [Number(a.firstOffset), Number(a.lastOffset), a.deliveryCount])));

// SHARE_STATE_REFERENCE=host:port runs the first test against a Kafka 4.3.1 broker (compat-tests/reference, started
// with group.share.assignment.interval.ms=0), which it restarts with compat-tests/reference/restart.sh.
test('share state is written on acknowledgement and release, and survives a restart', async () => {
  const reference = process.env['SHARE_STATE_REFERENCE'];
  const dir = mkdtempSync(join(tmpdir(), 'gregor-share-state-'));
  const settings = { 'node.id': '1', 'gregor.log.engine': 'file', 'log.dirs': dir, 'group.share.assignment.interval.ms': '0', 'share.coordinator.state.topic.num.partitions': '3' };
  const [host, port] = reference === undefined ? ['127.0.0.1', 0] : [reference.split(':')[0]!, Number(reference.split(':')[1])];
  let broker = reference === undefined ? await startTestBroker(settings) : undefined;
  let client = await RawClient.connect(broker?.port ?? port, host);
  const restart = async () => {
    await client.close();
    if (broker === undefined) {
      execFileSync(fileURLToPath(new URL('../../../../compat-tests/reference/restart.sh', import.meta.url)), [String(port)], { stdio: 'ignore' });
    } else {
      await broker.close();
      broker = await startTestBroker(settings);
    }
    client = await RawClient.connect(broker?.port ?? port, host);
  };
  // A new topic and group each run, so that the test runs again against the same reference broker.
  const run = Date.now();
  const GROUP = `ssg-${run}`;
  try {
    const topic = `durable-${run}`;
    const created = await roundTrip(client, createTopicsApi, 7, { ...createCreateTopicsRequest(), timeoutMs: 30_000, topics: [{ ...createCreatableTopic(), name: topic, numPartitions: 1, replicationFactor: 1 }] });
    const topicId = created.topics[0]!.topicId;
    const first = 'AAAAAAAAAAAAAAAAAAAAAQ';
    await joinGroup(client, GROUP, topic, first);
    // Kafka's __share_group_state: created on the group's first initialization, not compacted, kept forever.
    const keys = ['cleanup.policy', 'compression.type', 'min.insync.replicas', 'retention.ms', 'segment.bytes'];
    const described = await roundTrip(client, describeConfigsApi, 4, { ...createDescribeConfigsRequest(), resources: [{ resourceType: 2, resourceName: '__share_group_state', configurationKeys: keys }] });
    const configs = described.results[0]!.configs.filter((c) => c.configSource === 1).map((c) => [c.name, c.value]).sort();
    assert.deepEqual(configs, [['cleanup.policy', 'delete'], ['compression.type', 'producer'], ['min.insync.replicas', '1'], ['retention.ms', '-1'], ['segment.bytes', '104857600']]);
    const read = async () => {
      const r = await roundTrip(client, readShareGroupStateApi, 0, { groupId: GROUP, topics: [{ topicId, partitions: [{ partition: 0, leaderEpoch: 0 }] }] });
      const p = r.results[0]!.partitions[0]!;
      return [p.errorCode, p.stateEpoch, Number(p.startOffset), p.stateBatches.map((b) => [Number(b.firstOffset), Number(b.lastOffset), b.deliveryState, b.deliveryCount])];
    };
    // Initialized at the group epoch that subscribed it (gregor 2; Kafka's is later when its metadata image has not
    // caught up with the new topic yet), start offset -1 (share.auto.offset.reset decides).
    const stateEpoch = (await read())[1] as number;
    if (reference === undefined) assert.equal(stateEpoch, 2);
    assert.deepEqual(await read(), [ErrorCode.NONE, stateEpoch, -1, []]);

    let s = await session(client, GROUP, topicId, first);
    await s.shareFetch(0, [], 500);
    await produce(client, topic, 0, batch(values('a', 'b', 'c', 'd')));
    let epoch = 1;
    let fetched = await s.shareFetch(epoch++, [], 1000);
    while (fetched.responses.length === 0) {
      assert.ok(epoch < 30, JSON.stringify(fetched, (_k, v) => (typeof v === 'bigint' ? Number(v) : v)));
      fetched = await s.shareFetch(epoch++, [], 1000);
    }
    assert.deepEqual(acquiredOf(fetched), [[0, 3, 1]]);
    // An acquisition writes nothing; an acknowledgement writes what it changed, with the SPSO.
    assert.deepEqual(await read(), [ErrorCode.NONE, stateEpoch, -1, []]);
    // ReadShareGroupStateSummary v1: the start offset and how many records past it are complete.
    const summary = async () => {
      const r = await roundTrip(client, readShareGroupStateSummaryApi, 1, { groupId: GROUP, topics: [{ topicId, partitions: [{ partition: 0, leaderEpoch: 0 }] }] });
      const p = r.results[0]!.partitions[0]!;
      return [p.errorCode, Number(p.startOffset), p.deliveryCompleteCount];
    };
    const acked = await s.acknowledge(epoch++, [{ first: 0, last: 0, types: [1] }, { first: 2, last: 2, types: [3] }]);
    assert.equal(acked.responses[0]!.partitions[0]!.errorCode, ErrorCode.NONE);
    // Written before the SPSO moves over 0 (as Kafka does): start offset 0, two records complete.
    assert.deepEqual(await read(), [ErrorCode.NONE, stateEpoch, 0, [[0, 0, 2, 1], [2, 2, 4, 1]]]);
    assert.deepEqual(await summary(), [ErrorCode.NONE, 0, 2]);
    // The session closes: 1 and 3, acquired, are released (AVAILABLE, delivered once) and written.
    assert.equal((await s.acknowledge(-1, [])).errorCode, ErrorCode.NONE);
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.deepEqual(await read(), [ErrorCode.NONE, stateEpoch, 1, [[1, 1, 0, 1], [2, 2, 4, 1], [3, 3, 0, 1]]]);
    assert.deepEqual(await summary(), [ErrorCode.NONE, 1, 1]);

    await restart();
    // Kafka loads the share coordinator's partitions a moment after it starts (NOT_COORDINATOR until then); gregor before it listens.
    for (let i = 0; i < 100 && ([ErrorCode.NOT_COORDINATOR, ErrorCode.COORDINATOR_LOAD_IN_PROGRESS] as number[]).includes((await read())[0] as number); i++) {
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    assert.deepEqual(await read(), [ErrorCode.NONE, stateEpoch, 1, [[1, 1, 0, 1], [2, 2, 4, 1], [3, 3, 0, 1]]]);
    const second = 'AAAAAAAAAAAAAAAAAAAAAg';
    await joinGroup(client, GROUP, topic, second);
    s = await session(client, GROUP, topicId, second);
    // The SPSO survived (0 is not delivered again), 2 stays archived, 1 and 3 come a second time.
    fetched = await s.shareFetch(0, [], 1000);
    for (let e = 1; acquiredOf(fetched).length === 0 && e < 20; e++) fetched = await s.shareFetch(e, [], 1000);
    assert.deepEqual(acquiredOf(fetched), [[1, 1, 2], [3, 3, 2]]);
    // Deleting the (empty) group drops its share state, as Kafka's DeleteGroups does.
    for (const memberId of [first, second]) {
      await roundTrip(client, shareGroupHeartbeatApi, 1, { ...createShareGroupHeartbeatRequest(), groupId: GROUP, memberId, memberEpoch: -1, subscribedTopicNames: null });
    }
    const deleted = await roundTrip(client, deleteGroupsApi, 2, { groupsNames: [GROUP] });
    assert.deepEqual(deleted.results.map((r) => [r.groupId, r.errorCode]), [[GROUP, ErrorCode.NONE]]);
    assert.deepEqual((await read()).slice(0, 1), [ErrorCode.INVALID_REQUEST]);
  } finally {
    await client.close();
    await broker?.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

// SHARE_STATE_REFERENCE=host:port runs this test against a Kafka 4.3.1 broker (compat-tests/reference).
test('the share coordinator APIs answer as Kafka 4.3.1 ShareCoordinatorShard', async () => {
  const reference = process.env['SHARE_STATE_REFERENCE'];
  const broker = reference === undefined ? await startTestBroker({ 'node.id': '1', 'share.coordinator.snapshot.update.records.per.snapshot': '2' }) : undefined;
  const [host, port] = reference === undefined ? ['127.0.0.1', broker!.port] : [reference.split(':')[0]!, Number(reference.split(':')[1])];
  const client = await RawClient.connect(port, host);
  // A new topic and group each run, so that the test runs again against the same reference broker.
  const run = Date.now();
  const g = `g-${run}`;
  try {
    const created = await roundTrip(client, createTopicsApi, 7, { ...createCreateTopicsRequest(), timeoutMs: 30_000, topics: [{ ...createCreatableTopic(), name: `t-${run}`, numPartitions: 2, replicationFactor: 1 }] });
    const topicId = created.topics[0]!.topicId;
    const write = async (partition: number, stateEpoch: number, startOffset: number, batches: number[][]) => {
      const r = await roundTrip(client, writeShareGroupStateApi, 1, {
        groupId: g, topics: [{ topicId, partitions: [{ partition, stateEpoch, leaderEpoch: 0, startOffset: BigInt(startOffset), deliveryCompleteCount: 0,
          stateBatches: batches.map(([f, l, st, c]) => ({ firstOffset: BigInt(f!), lastOffset: BigInt(l!), deliveryState: st!, deliveryCount: c! })) }] }],
      });
      return [r.results[0]!.partitions[0]!.errorCode, r.results[0]!.partitions[0]!.errorMessage];
    };
    const readState = async (partition: number) => {
      const r = await roundTrip(client, readShareGroupStateApi, 0, { groupId: g, topics: [{ topicId, partitions: [{ partition, leaderEpoch: -1 }] }] });
      const p = r.results[0]!.partitions[0]!;
      return [p.errorCode, p.errorMessage, p.stateEpoch, Number(p.startOffset), p.stateBatches.map((b) => [Number(b.firstOffset), Number(b.lastOffset), b.deliveryState, b.deliveryCount])];
    };
    const init = async (partition: number, stateEpoch: number, startOffset: number) => {
      const r = await roundTrip(client, initializeShareGroupStateApi, 0, { groupId: g, topics: [{ topicId, partitions: [{ partition, stateEpoch, startOffset: BigInt(startOffset) }] }] });
      return r.results[0]!.partitions[0]!.errorCode;
    };
    // Until __share_group_state exists its partitions are not loaded (a fresh reference broker answers the same).
    if (reference === undefined) assert.deepEqual(await write(0, 0, 0, []), [ErrorCode.NOT_COORDINATOR, 'Unable to write share group state: This is not the correct coordinator.']);
    // FindCoordinator with key type SHARE (v6) creates it, as the persister's lookup does; a malformed key is refused.
    const find = (key: string) => roundTrip(client, findCoordinatorApi, 6, { ...createFindCoordinatorRequest(), keyType: 2, coordinatorKeys: [key] });
    // (Kafka answers COORDINATOR_NOT_AVAILABLE while it creates the topic, gregor NONE at once.)
    let found = await find(`${g}:${topicId}:0`);
    for (let i = 0; i < 50 && found.coordinators[0]!.errorCode === ErrorCode.COORDINATOR_NOT_AVAILABLE; i++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      found = await find(`${g}:${topicId}:0`);
    }
    assert.equal(found.coordinators[0]!.errorCode, ErrorCode.NONE);
    assert.equal((await find(`${g}:${topicId}`)).coordinators[0]!.errorCode, ErrorCode.INVALID_REQUEST);
    assert.deepEqual(await write(0, 0, 0, []), [ErrorCode.INVALID_REQUEST, 'Write operation on uninitialized share partition not allowed.']);
    assert.deepEqual((await readState(0)).slice(0, 2), [ErrorCode.INVALID_REQUEST, 'Read operation on uninitialized share partition not allowed.']);
    // (Kafka's share coordinator sees a new topic a moment after CreateTopics, gregor's at once.)
    let initialized = await init(0, 3, 10);
    for (let i = 0; i < 50 && initialized === ErrorCode.UNKNOWN_TOPIC_OR_PARTITION; i++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      initialized = await init(0, 3, 10);
    }
    assert.equal(initialized, ErrorCode.NONE);
    assert.equal(await init(0, 2, 10), ErrorCode.FENCED_STATE_EPOCH);
    assert.equal(await init(5, 3, 10), ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
    assert.deepEqual(await write(0, 2, 10, []), [ErrorCode.FENCED_STATE_EPOCH, 'The share coordinator rejected the request because the share-group state epoch did not match.']);
    // Updates merge over the state: a later batch overrides, what is below the start offset goes.
    assert.deepEqual(await write(0, 3, 10, [[10, 14, 0, 1]]), [ErrorCode.NONE, null]);
    assert.deepEqual(await write(0, 3, 12, [[13, 13, 2, 1], [15, 15, 4, 3]]), [ErrorCode.NONE, null]);
    assert.deepEqual(await write(0, 3, -1, [[14, 14, 2, 1]]), [ErrorCode.NONE, null]);
    assert.deepEqual(await readState(0), [ErrorCode.NONE, null, 3, 12, [[12, 12, 0, 1], [13, 13, 2, 1], [14, 14, 2, 1], [15, 15, 4, 3]]]);
    const summary = await roundTrip(client, readShareGroupStateSummaryApi, 1, { groupId: g, topics: [{ topicId, partitions: [{ partition: 0, leaderEpoch: 0 }, { partition: 1, leaderEpoch: 0 }] }] });
    assert.deepEqual(summary.results[0]!.partitions.map((p) => [p.partition, p.errorCode, Number(p.startOffset), p.stateEpoch]), [[0, ErrorCode.NONE, 12, 3], [1, ErrorCode.NONE, -1, 0]]);
    const deleted = await roundTrip(client, deleteShareGroupStateApi, 0, { groupId: g, topics: [{ topicId, partitions: [{ partition: 0 }, { partition: 1 }] }] });
    assert.deepEqual(deleted.results[0]!.partitions.map((p) => p.errorCode), [ErrorCode.NONE, ErrorCode.NONE]);
    assert.deepEqual((await readState(0)).slice(0, 1), [ErrorCode.INVALID_REQUEST]);
    // Empty lists and an empty group id answer no results.
    assert.deepEqual((await roundTrip(client, readShareGroupStateApi, 0, { groupId: '', topics: [{ topicId, partitions: [{ partition: 0, leaderEpoch: 0 }] }] })).results, []);
  } finally {
    await client.close();
    await broker?.close();
  }
});
