// A follower's producer state (cluster mode): the leader's batches appended as they are bring the follower's state
// and aborted-transaction index where the leader's are; a truncation reads the state again from what is left.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveBrokerConfig } from '../../src/config/index.js';
import { ProducerStates } from '../../src/broker/producer-states.js';
import { ReplicaManager } from '../../src/broker/replica-manager.js';
import { ErrorCode } from '../../src/protocol/error-codes.js';
import { ControlRecordType, encodeRecordBatch } from '../../src/protocol/records/index.js';
import { MemoryLogStore } from '../../src/storage/memory/memory-store.js';

const config = resolveBrokerConfig({ 'node.id': '1', 'gregor.log.engine': 'memory' });

test('the follower\'s aborted transactions, open transactions and last stable offset follow the leader\'s batches', async () => {
  const leaderStore = new MemoryLogStore({ nodeId: 1 });
  const followerStore = new MemoryLogStore({ nodeId: 2 });
  try {
    await leaderStore.createTopic('t', 1);
    await followerStore.createTopic('t', 1);
    const leaderStates = await ProducerStates.load(leaderStore);
    const followerStates = await ProducerStates.load(followerStore);
    const rm = new ReplicaManager(leaderStore, config, { producerState: leaderStates });
    const leader = leaderStore.log('t', 0)!;
    const follower = followerStore.log('t', 0)!;
    const produce = (id: number, seq: number, transactional: boolean) => rm.appendRecords('t', 0, encodeRecordBatch({
      producerId: id, producerEpoch: 0, baseSequence: seq, isTransactional: transactional,
      records: [{ timestamp: Date.now(), key: null, value: Buffer.from(`p${id}-${seq}`) }],
    }), { apiVersion: 11, internalTopicsAllowed: false });
    assert.equal((await produce(1, 0, true)).errorCode, ErrorCode.NONE); // 0: txn of producer 1, aborted below
    assert.equal((await produce(2, 0, true)).errorCode, ErrorCode.NONE); // 1: txn of producer 2, left open
    assert.equal((await produce(3, 0, false)).errorCode, ErrorCode.NONE); // 2
    const marker = { producerId: 1, producerEpoch: 0, type: ControlRecordType.ABORT, coordinatorEpoch: 0, transactionVersion: 0 };
    assert.equal(await leaderStates.writeMarker(leader, marker), ErrorCode.NONE); // 3: producer 1's ABORT
    // The follower fetches everything the leader holds.
    follower.holdHighWatermark();
    const fetched = Buffer.concat((await leader.read(0, 1 << 20, { maxOffset: leader.logEndOffset })).records);
    await follower.appendAsFollower(fetched);
    followerStates.followerAppended(follower, fetched);
    assert.deepEqual(follower.abortedTransactions(0, 4), leader.abortedTransactions(0, 4));
    assert.deepEqual(follower.abortedTransactions(0, 4).map((t) => [t.producerId, t.firstOffset, t.lastOffset]), [[1, 0, 3]]);
    follower.setHighWatermark(4);
    assert.equal(followerStates.lastStableOffset(follower), leaderStates.lastStableOffset(leader));
    assert.equal(followerStates.lastStableOffset(follower), 1, 'producer 2\'s transaction is still open at 1');
    assert.equal(followerStates.hasOngoingTransaction(follower, 2, 0), true);
    assert.equal(followerStates.hasOngoingTransaction(follower, 1, 0), false);
    // Truncated below the ABORT marker: producer 1's transaction is open again, its index entry gone.
    await follower.truncateTo(3);
    await followerStates.followerTruncated(follower);
    assert.equal(followerStates.hasOngoingTransaction(follower, 1, 0), true);
    assert.deepEqual(follower.abortedTransactions(0, 4), []);
    assert.equal(followerStates.lastStableOffset(follower, 3), 0);
  } finally {
    await leaderStore.close();
    await followerStore.close();
  }
});
