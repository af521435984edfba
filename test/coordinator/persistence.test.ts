// The runtime over a real (memory) log store: records in __consumer_offsets with Kafka's layout,
// reload through the same replay path, and tolerance of bad records (compaction: compaction.test.ts).
import { ZERO_UUID } from '../../src/protocol/uuid.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveBrokerConfig } from '../../src/config/index.js';
import { GroupCoordinator } from '../../src/coordinator/group-coordinator.js';
import { decodeRecord, encodeRecordKey, encodeRecordValue } from '../../src/coordinator/group/record-serde.js';
import { javaStringHashCode, partitionForGroup } from '../../src/coordinator/runtime/java-hash.js';
import { ErrorCode } from '../../src/protocol/error-codes.js';
import { createJoinGroupRequest, type JoinGroupResponse } from '../../src/protocol/generated/join-group.js';
import { createOffsetCommitRequest } from '../../src/protocol/generated/offset-commit.js';
import { createSyncGroupRequest } from '../../src/protocol/generated/sync-group.js';
import { createConsumerGroupHeartbeatRequest } from '../../src/protocol/generated/consumer-group-heartbeat.js';
import { decodeBatchRecords, encodeRecordBatch } from '../../src/protocol/records/index.js';
import { replayBatches } from '../../src/storage/log-replay.js';
import { MemoryLogStore } from '../../src/storage/memory/memory-store.js';
import { ManualScheduler } from '../../src/storage/scheduler.js';
import { subscription } from './group-harness.js';

const config = resolveBrokerConfig({ 'offsets.topic.num.partitions': '3' });
const ctx = { clientId: 'c', clientHost: '/127.0.0.1', apiVersion: 3 };

function commit(groupId: string, offsets: Record<string, number>, generation = -1, memberId = '') {
  return {
    ...createOffsetCommitRequest(),
    groupId,
    generationIdOrMemberEpoch: generation,
    memberId,
    topics: Object.entries(offsets).map(([name, offset]) => ({
      name,
      topicId: ZERO_UUID,
      partitions: [{ partitionIndex: 0, committedOffset: BigInt(offset), committedLeaderEpoch: -1, committedMetadata: null }],
    })),
  };
}

async function open(store: MemoryLogStore, scheduler = new ManualScheduler(5_000)): Promise<GroupCoordinator> {
  return GroupCoordinator.open({ store, config, scheduler });
}

/** Every record of one __consumer_offsets partition, from its log start. */
async function partitionRecords(store: MemoryLogStore, partition: number): Promise<{ key: Buffer; value: Buffer | null }[]> {
  const log = store.log('__consumer_offsets', partition)!;
  const out: { key: Buffer; value: Buffer | null }[] = [];
  for await (const batch of replayBatches(log, log.logStartOffset, 1 << 20)) {
    for (const r of decodeBatchRecords(batch)) out.push({ key: r.key!, value: r.value });
  }
  return out;
}

test("Java's String.hashCode and Kafka's partition choice", () => {
  assert.equal(javaStringHashCode('hello'), 99162322);
  assert.equal(javaStringHashCode('polygenelubricants'), -2147483648);
  assert.equal(partitionForGroup('polygenelubricants', 50), 0, 'Utils.abs(Integer.MIN_VALUE) is 0');
  assert.equal(partitionForGroup('hello', 50), 99162322 % 50);
  assert.equal(partitionForGroup('', 50), 0);
});

test('record bytes: OffsetCommitKey v1 / OffsetCommitValue v4 (v1 with an expire timestamp), GroupMetadataKey v2 / value v3', () => {
  const offset = { type: 'offset', group: 'g', topic: 't', partition: 2, value: { offset: 7, leaderEpoch: 1, metadata: 'm', commitTimestamp: 1000, expireTimestamp: null } } as const;
  assert.equal(encodeRecordKey(offset).toString('hex'), '0001' + '00016700017400000002');
  assert.equal(encodeRecordValue(offset)!.toString('hex'), '0004' + '0000000000000007' + '00000001' + '026d' + '00000000000003e8' + '00');
  // A commit by topic id (OffsetCommit v10) keeps the id, as Kafka 4.3.1 wrote it (test/fixtures/consumer-groups, g1 offset 6).
  const byId = { type: 'offset', group: 'g1', topic: 'orders', partition: 1, value: {
    offset: 20, leaderEpoch: -1, metadata: '', commitTimestamp: 0x1a23c3b7d12, expireTimestamp: null,
    topicId: Buffer.from('d02e25ea171f44c791e6efb8746b91d8', 'hex').toString('base64url'),
  } } as const;
  assert.equal(encodeRecordValue(byId)!.toString('hex'), '00040000000000000014ffffffff01000001a23c3b7d12010010d02e25ea171f44c791e6efb8746b91d8');
  const expiring = { ...offset, value: { ...offset.value, expireTimestamp: 2000 } };
  assert.equal(encodeRecordValue(expiring)!.toString('hex'), '0001' + '0000000000000007' + '00016d' + '00000000000003e8' + '00000000000007d0');
  // v1 has no leader epoch field: it reads back as -1.
  assert.deepEqual(decodeRecord(encodeRecordKey(expiring), encodeRecordValue(expiring)), { ...expiring, value: { ...expiring.value, leaderEpoch: -1 } });
  assert.deepEqual(decodeRecord(encodeRecordKey(offset), encodeRecordValue(offset)), offset);
  const group = { type: 'group', group: 'g', value: null } as const;
  assert.equal(encodeRecordKey(group).toString('hex'), '0002' + '000167');
  assert.equal(encodeRecordValue(group), null);
  // Consumer, share and streams group records decode (their own tests are under test/coordinator/consumer/, share/, streams/).
  assert.deepEqual(decodeRecord(Buffer.from('0003000167', 'hex'), null), { type: 'consumer-group', group: 'g', value: null });
  assert.deepEqual(decodeRecord(Buffer.from('000b000167', 'hex'), null), { type: 'share-group', group: 'g', value: null });
  assert.deepEqual(decodeRecord(Buffer.from('0011000167', 'hex'), null), { type: 'streams-group', group: 'g', value: null });
});

test('offsets and a stable group survive a reload from __consumer_offsets', async () => {
  const store = new MemoryLogStore({ nodeId: 1 });
  const scheduler = new ManualScheduler(5_000);
  const first = await open(store, scheduler);
  assert.equal(store.topic('__consumer_offsets'), undefined, 'created on first use, as Kafka does');

  const joining = first.joinGroup(ctx, {
    ...createJoinGroupRequest(),
    groupId: 'group-a',
    sessionTimeoutMs: 10000,
    rebalanceTimeoutMs: 10000,
    protocolType: 'consumer',
    protocols: [{ name: 'range', metadata: subscription(['t']) }],
  });
  await scheduler.advance(0); // the initial rebalance delay (0) elapses
  const join: JoinGroupResponse = await joining;
  assert.equal(store.topic('__consumer_offsets')?.partitions, 3);
  const memberId = join.memberId;
  assert.equal(join.errorCode, ErrorCode.NONE);
  const sync = await first.syncGroup({ ...createSyncGroupRequest(), groupId: 'group-a', generationId: 1, memberId, assignments: [{ memberId, assignment: Buffer.from('as') }] });
  assert.equal(sync.errorCode, ErrorCode.NONE);
  const committed = await first.commitOffsets(commit('group-a', { t: 42 }, 1, memberId), 8);
  assert.equal(committed[0]!.partitions[0]!.errorCode, ErrorCode.NONE);
  await first.commitOffsets(commit('simple', { t: 1, u: 2 }), 8);
  await first.commitOffsets(commit('simple', { t: 3 }), 8); // the last record per key wins
  await first.close();

  // Records sit in the partition Kafka would choose.
  const partition = partitionForGroup('group-a', 3);
  const groupKeys = (await partitionRecords(store, partition)).map((r) => decodeRecord(r.key, r.value)?.group);
  assert.ok(groupKeys.includes('group-a'));

  const second = await open(store, new ManualScheduler(6_000));
  assert.deepEqual(
    (await second.fetchOffsets('simple', null)).topics.map((t) => [t.name, t.partitions[0]!.committedOffset]).sort(),
    [
      ['t', 3n],
      ['u', 2n],
    ],
  );
  assert.equal((await second.fetchOffsets('group-a', [{ name: 't', partitionIndexes: [0] }])).topics[0]!.partitions[0]!.committedOffset, 42n);
  const described = second.describeGroups(['group-a'])[0]!;
  assert.equal(described.groupState, 'Stable');
  assert.deepEqual(described.members.map((m) => [m.memberId, m.memberAssignment.toString()]), [[memberId, 'as']]);
  assert.equal(second.heartbeat({ groupId: 'group-a', memberId, generationId: 1, groupInstanceId: null }).errorCode, ErrorCode.NONE);
  await second.close();
});

test('deletions survive a reload (tombstones win over earlier records)', async () => {
  const store = new MemoryLogStore({ nodeId: 1 });
  const first = await open(store);
  await first.commitOffsets(commit('doomed', { t: 1 }), 8);
  await first.commitOffsets(commit('kept', { t: 1, u: 1 }), 8);
  assert.deepEqual(await first.deleteGroups(['doomed']), [{ groupId: 'doomed', errorCode: ErrorCode.NONE }]);
  const deleted = await first.deleteOffsets({ groupId: 'kept', topics: [{ name: 'u', partitions: [{ partitionIndex: 0 }] }] });
  assert.equal(deleted.errorCode, ErrorCode.NONE);
  await first.close();
  const second = await open(store);
  assert.deepEqual(second.listGroups([], []).groups.map((g) => g.groupId), ['kept']);
  assert.deepEqual((await second.fetchOffsets('kept', null)).topics.map((t) => t.name), ['t']);
  await second.close();
});

test('loading skips records it cannot read and keeps the rest', async () => {
  const store = new MemoryLogStore({ nodeId: 1 });
  const first = await open(store);
  await first.commitOffsets(commit('g', { t: 5 }), 8);
  await first.close();
  const partition = partitionForGroup('g', 3);
  const junk = encodeRecordBatch({
    records: [
      { timestamp: 0, key: Buffer.from('0001ffff', 'hex'), value: Buffer.from('00') },
      { timestamp: 0, key: null, value: null },
      { timestamp: 0, key: Buffer.from('0009', 'hex'), value: null },
    ],
  });
  await store.log('__consumer_offsets', partition)!.append(junk, { leaderEpoch: 0 });
  const second = await open(store);
  assert.equal((await second.fetchOffsets('g', null)).topics[0]!.partitions[0]!.committedOffset, 5n);
  await second.close();
});

test('a closed coordinator answers COORDINATOR_NOT_AVAILABLE', async () => {
  const store = new MemoryLogStore({ nodeId: 1 });
  const coordinator = await open(store);
  await coordinator.close();
  assert.equal(coordinator.heartbeat({ groupId: 'g', memberId: 'm', generationId: 1, groupInstanceId: null }).errorCode, ErrorCode.COORDINATOR_NOT_AVAILABLE);
  assert.equal((await coordinator.commitOffsets(commit('g', { t: 1 }), 8))[0]!.partitions[0]!.errorCode, ErrorCode.COORDINATOR_NOT_AVAILABLE);
});

test('a mixed group through the runtime: a classic member of a consumer group gets a Kafka Uuid id, and the group reloads', async () => {
  const store = new MemoryLogStore({ nodeId: 1 });
  await store.createTopic('t', 2);
  const scheduler = new ManualScheduler(5_000);
  const coordinator = await GroupCoordinator.open({ store, config, scheduler });
  await coordinator.ensureTopic();
  const heartbeat = await coordinator.consumerGroupHeartbeat(
    { ...ctx, apiVersion: 1 },
    { ...createConsumerGroupHeartbeatRequest(), groupId: 'mx', memberId: 'c1', memberEpoch: 0, rebalanceTimeoutMs: 30000, subscribedTopicNames: ['t'], topicPartitions: [] },
  );
  assert.equal(heartbeat.errorCode, ErrorCode.NONE);
  const join = (memberId: string): Promise<JoinGroupResponse> =>
    coordinator.joinGroup(
      { ...ctx, apiVersion: 9 },
      { ...createJoinGroupRequest(), groupId: 'mx', memberId, sessionTimeoutMs: 10000, rebalanceTimeoutMs: 30000, protocolType: 'consumer', protocols: [{ name: 'range', metadata: subscription(['t']) }] },
    );
  const told = await join('');
  assert.equal(told.errorCode, ErrorCode.MEMBER_ID_REQUIRED);
  assert.match(told.memberId, /^[A-Za-z0-9_][A-Za-z0-9_-]{21}$/, "Kafka's Uuid text, not clientId-UUID");
  const joined = await join(told.memberId);
  assert.equal(joined.errorCode, ErrorCode.NONE);
  await coordinator.close();

  const reloaded = await GroupCoordinator.open({ store, config, scheduler });
  const group = reloaded.shard.consumerGroup('mx')!;
  assert.deepEqual([...group.members.keys()].sort(), ['c1', told.memberId].sort());
  assert.equal(group.members.get(told.memberId)!.classicMemberMetadata!.sessionTimeoutMs, 10000);
  await reloaded.close();
});
