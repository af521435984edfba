// __share_group_state is pruned on the broker's clock (gregor.clock=manual), as Kafka 4.3.1's share coordinator does
// every share.coordinator.state.topic.prune.interval.ms: the records older than a share partition's latest snapshot
// are deleted (the partition's log start offset, as ListOffsets' earliest reports it, moves up to that snapshot), and
// a broker restarted on the same log dir (file engine) loads the same state from what is left.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ErrorCode } from '../../../src/protocol/error-codes.js';
import { createCreatableTopic, createCreateTopicsRequest, createTopicsApi } from '../../../src/protocol/generated/create-topics.js';
import { createFindCoordinatorRequest, findCoordinatorApi } from '../../../src/protocol/generated/find-coordinator.js';
import { initializeShareGroupStateApi } from '../../../src/protocol/generated/initialize-share-group-state.js';
import { createListOffsetsRequest, listOffsetsApi } from '../../../src/protocol/generated/list-offsets.js';
import { readShareGroupStateApi } from '../../../src/protocol/generated/read-share-group-state.js';
import { writeShareGroupStateApi } from '../../../src/protocol/generated/write-share-group-state.js';
import { RawClient } from '../raw-client.js';
import { roundTrip, startTestBroker } from '../broker-harness.js';

test('the share coordinator prunes __share_group_state on its timer, and a restart loads the same state', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gregor-share-prune-'));
  const settings = {
    'node.id': '1', 'gregor.log.engine': 'file', 'log.dirs': dir, 'gregor.clock': 'manual',
    'share.coordinator.state.topic.num.partitions': '1', 'share.coordinator.snapshot.update.records.per.snapshot': '1',
    'share.coordinator.state.topic.prune.interval.ms': '1000',
  };
  let broker = await startTestBroker(settings);
  let client = await RawClient.connect(broker.port);
  const g = 'g-prune';
  try {
    const created = await roundTrip(client, createTopicsApi, 7, { ...createCreateTopicsRequest(), timeoutMs: 30_000, topics: [{ ...createCreatableTopic(), name: 'pruned', numPartitions: 1, replicationFactor: 1 }] });
    const topicId = created.topics[0]!.topicId;
    // FindCoordinator with key type SHARE creates __share_group_state.
    const found = await roundTrip(client, findCoordinatorApi, 6, { ...createFindCoordinatorRequest(), keyType: 2, coordinatorKeys: [`${g}:${topicId}:0`] });
    assert.equal(found.coordinators[0]!.errorCode, ErrorCode.NONE);
    const offsets = async () => {
      const at = async (timestamp: bigint) => {
        const r = await roundTrip(client, listOffsetsApi, 7, { ...createListOffsetsRequest(), replicaId: -1, topics: [{ name: '__share_group_state', partitions: [{ partitionIndex: 0, currentLeaderEpoch: -1, timestamp }] }] });
        return Number(r.topics[0]!.partitions[0]!.offset);
      };
      return [await at(-2n), await at(-1n)];
    };
    // The prune runs on the advance; its DeleteRecords writes files, which may take a few turns under load.
    const offsetsReach = async (expected: number[]) => {
      let seen = await offsets();
      for (let i = 0; i < 100 && seen[0] !== expected[0]; i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        seen = await offsets();
      }
      assert.deepEqual(seen, expected);
    };
    const write = async (startOffset: number, batches: number[][]) => {
      const r = await roundTrip(client, writeShareGroupStateApi, 1, {
        groupId: g, topics: [{ topicId, partitions: [{ partition: 0, stateEpoch: 1, leaderEpoch: 0, startOffset: BigInt(startOffset), deliveryCompleteCount: 0,
          stateBatches: batches.map(([f, l, st, c]) => ({ firstOffset: BigInt(f!), lastOffset: BigInt(l!), deliveryState: st!, deliveryCount: c! })) }] }],
      });
      return r.results[0]!.partitions[0]!.errorCode;
    };
    const readState = async () => {
      const r = await roundTrip(client, readShareGroupStateApi, 0, { groupId: g, topics: [{ topicId, partitions: [{ partition: 0, leaderEpoch: -1 }] }] });
      const p = r.results[0]!.partitions[0]!;
      return [p.errorCode, p.stateEpoch, Number(p.startOffset), p.stateBatches.map((b) => [Number(b.firstOffset), Number(b.lastOffset), b.deliveryState, b.deliveryCount])];
    };
    const init = await roundTrip(client, initializeShareGroupStateApi, 0, { groupId: g, topics: [{ topicId, partitions: [{ partition: 0, stateEpoch: 1, startOffset: 0n }] }] });
    assert.equal(init.results[0]!.partitions[0]!.errorCode, ErrorCode.NONE); // offset 0: a snapshot
    // One update per snapshot: updates at 1, 2, a snapshot at 3, an update at 4, a snapshot at 5.
    assert.equal(await write(0, [[0, 4, 0, 1]]), ErrorCode.NONE);
    assert.equal(await write(-1, [[0, 0, 2, 1]]), ErrorCode.NONE);
    assert.equal(await write(1, [[1, 1, 4, 2]]), ErrorCode.NONE);
    assert.equal(await write(-1, [[2, 2, 2, 1]]), ErrorCode.NONE);
    assert.equal(await write(3, [[3, 3, 2, 1]]), ErrorCode.NONE);
    const state = [ErrorCode.NONE, 1, 3, [[3, 3, 2, 1], [4, 4, 0, 1]]];
    assert.deepEqual(await readState(), state);
    assert.deepEqual(await offsets(), [0, 6]);

    await broker.clock.advance(999);
    assert.deepEqual(await offsets(), [0, 6]);
    await broker.clock.advance(1);
    await offsetsReach([5, 6]); // everything before the latest snapshot is gone
    assert.deepEqual(await readState(), state);

    await client.close();
    await broker.close();
    broker = await startTestBroker(settings);
    client = await RawClient.connect(broker.port);
    assert.deepEqual(await offsets(), [5, 6]);
    assert.deepEqual(await readState(), state);
    // Writes go on over the loaded state: its update count starts afresh (as Kafka's replay of a snapshot leaves it),
    // so updates at 6 and 7, then a snapshot at 8, which the next prune moves the log start to.
    assert.equal(await write(-1, [[4, 4, 2, 1]]), ErrorCode.NONE);
    assert.equal(await write(5, []), ErrorCode.NONE);
    await broker.clock.advance(1000);
    assert.deepEqual(await offsets(), [5, 8]);
    assert.equal(await write(-1, [[5, 5, 0, 1]]), ErrorCode.NONE);
    await broker.clock.advance(1000);
    await offsetsReach([8, 9]);
    assert.deepEqual(await readState(), [ErrorCode.NONE, 1, 5, [[5, 5, 0, 1]]]);
  } finally {
    await client.close();
    await broker.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
