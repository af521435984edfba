// An injected error for one partition of a share group's fetch or acknowledgement: that partition answers the error
// with its leader (a broker that lost its leadership), nothing is acquired or acknowledged on it, the other partition
// is served as usual; once the rule goes, the faulted partition's records come, delivered for the first time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ErrorCode } from '../../src/protocol/error-codes.js';
import { createFetchPartition, shareFetchApi, type ShareFetchResponse } from '../../src/protocol/generated/share-fetch.js';
import { createShareAcknowledgeRequest, shareAcknowledgeApi, type ShareAcknowledgeResponse } from '../../src/protocol/generated/share-acknowledge.js';
import { batch, produce, values } from '../broker/data-harness.js';
import { roundTrip } from './broker-harness.js';
import { MEMBER_A, withShareGroup, type ShareGroupRun } from './handlers/share-group-harness.js';

const NOT_LEADER = ErrorCode.NOT_LEADER_OR_FOLLOWER;
const ACCEPT = 1;
const RELEASE = 2;
const LEADER = { leaderId: 1, leaderEpoch: 0 };
// Kafka's share responses leave the field at its schema default (0, 0) where no error asks for a leader.
const NO_LEADER = { leaderId: 0, leaderEpoch: 0 };

type Ack = { partition: number; first: number; last: number; type?: number };
const batches = (acks: Ack[], partition: number) => acks.filter((a) => a.partition === partition)
  .map((a) => ({ firstOffset: BigInt(a.first), lastOffset: BigInt(a.last), acknowledgeTypes: [a.type ?? ACCEPT] }));

/** Each answered partition: [index, error, acknowledge error, acquired [first, last, delivery count]..., leader]. */
const seen = (r: ShareFetchResponse) => r.responses.flatMap((t) => t.partitions.map((p) => [
  p.partitionIndex, p.errorCode, p.acknowledgeErrorCode, p.acquiredRecords.map((a) => [Number(a.firstOffset), Number(a.lastOffset), a.deliveryCount]), p.currentLeader,
])).sort((a, b) => (a[0] as number) - (b[0] as number));

/** Two partitions, two records in each, a session opened by MEMBER_A. */
async function withTwoPartitionShare(body: (run: ShareGroupRun & { fetch: (epoch: number, listed: number[], acks?: Ack[], maxWaitMs?: number) => Promise<ShareFetchResponse> }) => Promise<void>): Promise<void> {
  await withShareGroup('faults-share', { 'share.auto.offset.reset': 'earliest' }, ['a0', 'a1'], async (run) => {
    await produce(run.admin, run.topic, 1, batch(values('b0', 'b1')));
    const fetch = (epoch: number, listed: number[], acks: Ack[] = [], maxWaitMs = 0) => roundTrip(run.admin, shareFetchApi, 1, {
      ...run.fetchRequest(MEMBER_A, epoch, maxWaitMs),
      topics: listed.length === 0 ? [] : [{ topicId: run.topicId, partitions: listed.map((partitionIndex) => ({ ...createFetchPartition(), partitionIndex, acknowledgementBatches: batches(acks, partitionIndex) })) }],
    });
    await body({ ...run, fetch });
    assert.deepEqual(run.broker!.faults.list(), [], 'every rule fired');
  }, 2);
}

test('ShareFetch: the named partition answers NOT_LEADER_OR_FOLLOWER with its leader and acquires nothing; after the rule, its records come on their first delivery', async () => {
  await withTwoPartitionShare(async ({ broker, topic, fetch }) => {
    broker!.faults.add({ api: 'ShareFetch', topic, partition: 1, action: 'error', error: 'NOT_LEADER_OR_FOLLOWER', count: 1 });
    const opened = await fetch(0, [0, 1]);
    assert.deepEqual([opened.errorCode, seen(opened)], [ErrorCode.NONE, [
      [0, ErrorCode.NONE, ErrorCode.NONE, [[0, 1, 1]], NO_LEADER],
      [1, NOT_LEADER, ErrorCode.NONE, [], LEADER],
    ]]);
    assert.deepEqual(opened.nodeEndpoints.map((n) => n.nodeId), [1]);

    // An incremental fetch names no partition: the rule matches the one its session holds; the error ends the long
    // poll at once, as it ends Fetch's.
    broker!.faults.add({ api: 'ShareFetch', topic, partition: 1, action: 'error', error: 'NOT_LEADER_OR_FOLLOWER', count: 1 });
    const started = Date.now();
    const faulted = await fetch(1, [], [], 20_000);
    assert.ok(Date.now() - started < 15_000, 'answered without waiting for records');
    assert.deepEqual(seen(faulted), [[1, NOT_LEADER, ErrorCode.NONE, [], LEADER]]);

    // The rule gone: the faulted partition's records are acquired for the first time (delivery count 1), none lost.
    const recovered = await fetch(2, [0], [{ partition: 0, first: 0, last: 1 }]);
    assert.deepEqual(seen(recovered), [
      [0, ErrorCode.NONE, ErrorCode.NONE, [], NO_LEADER],
      [1, ErrorCode.NONE, ErrorCode.NONE, [[0, 1, 1]], NO_LEADER],
    ]);
  });
});

test('ShareFetch: an acknowledgement piggybacked on a faulted partition is answered the error and not applied; the other partition\'s is', async () => {
  await withTwoPartitionShare(async ({ broker, topic, fetch }) => {
    const opened = await fetch(0, [0, 1]);
    assert.deepEqual(seen(opened).map((p) => p.slice(0, 4)), [[0, 0, 0, [[0, 1, 1]]], [1, 0, 0, [[0, 1, 1]]]]);
    broker!.faults.add({ api: 'ShareFetch', topic, partition: 0, action: 'error', error: 'NOT_LEADER_OR_FOLLOWER', count: 1 });
    // Both partitions' records released in the same request: partition 1's go back and are acquired again by the next
    // fetch (a second delivery); partition 0's release is not applied, its records stay the member's.
    const released = await fetch(1, [0, 1], [{ partition: 0, first: 0, last: 1, type: RELEASE }, { partition: 1, first: 0, last: 1, type: RELEASE }]);
    assert.deepEqual(seen(released), [
      [0, NOT_LEADER, NOT_LEADER, [], LEADER],
      [1, ErrorCode.NONE, ErrorCode.NONE, [], NO_LEADER],
    ]);
    const again = await fetch(2, [], [], 0);
    assert.deepEqual(seen(again), [[1, ErrorCode.NONE, ErrorCode.NONE, [[0, 1, 2]], NO_LEADER]]);
    const accepted = await fetch(3, [0, 1], [{ partition: 0, first: 0, last: 1 }, { partition: 1, first: 0, last: 1 }]);
    assert.deepEqual(seen(accepted), [[0, ErrorCode.NONE, ErrorCode.NONE, [], NO_LEADER], [1, ErrorCode.NONE, ErrorCode.NONE, [], NO_LEADER]]);
  });
});

test('ShareAcknowledge: the named partition answers the error with its leader and is not acknowledged; the other is', async () => {
  await withTwoPartitionShare(async ({ broker, admin, group, topic, topicId, fetch }) => {
    await fetch(0, [0, 1]);
    const acknowledge = (epoch: number, partitions: number[]): Promise<ShareAcknowledgeResponse> => roundTrip(admin, shareAcknowledgeApi, 1, {
      ...createShareAcknowledgeRequest(), groupId: group, memberId: MEMBER_A, shareSessionEpoch: epoch,
      topics: [{ topicId, partitions: partitions.map((partitionIndex) => ({ partitionIndex, acknowledgementBatches: batches([{ partition: partitionIndex, first: 0, last: 1, type: RELEASE }], partitionIndex) })) }],
    });
    const answered = (r: ShareAcknowledgeResponse) => r.responses.flatMap((t) => t.partitions.map((p) => [p.partitionIndex, p.errorCode, p.currentLeader]))
      .sort((a, b) => (a[0] as number) - (b[0] as number));
    broker!.faults.add({ api: 'ShareAcknowledge', topic, partition: 1, action: 'error', error: 'NOT_LEADER_OR_FOLLOWER', count: 1 });
    const first = await acknowledge(1, [0, 1]);
    assert.deepEqual(answered(first), [[0, ErrorCode.NONE, NO_LEADER], [1, NOT_LEADER, LEADER]]);
    assert.deepEqual(first.nodeEndpoints.map((n) => n.nodeId), [1]);
    // Partition 0's records were released and come again; partition 1's release was not applied: still the member's.
    const after = await fetch(2, [], [], 0);
    assert.deepEqual(seen(after), [[0, ErrorCode.NONE, ErrorCode.NONE, [[0, 1, 2]], NO_LEADER]]);
  });
});
