// The controller's passes over a real etcd (no broker processes): the layout is written by hand, a pass elects what the
// partition-change rules say and writes it in guarded batches, a second pass writes nothing (a new controller only
// finishes what is left), a deposed controller writes nothing, and ElectLeaders answers per partition.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Etcd3 } from 'etcd3';
import { resolveBrokerConfig } from '../../src/config/index.js';
import { silentLog } from '../../src/log.js';
import { ErrorCode } from '../../src/protocol/error-codes.js';
import { ClusterKeys, type PartitionRecord } from '../../src/cluster/layout.js';
import { balanceLeaders, electForFailures, electLeaders } from '../../src/cluster/leader-elector.js';
import { alterPartitionIsr } from '../../src/cluster/etcd-alter-partition.js';
import { startEtcd, type EtcdServer } from '../e2e/etcd-server.js';

let etcd: EtcdServer;
let client: Etcd3;
const config = resolveBrokerConfig({ 'node.id': '1' });
const log = silentLog();
let run = 0;
let keys: ClusterKeys;

before(async () => {
  etcd = await startEtcd();
  client = new Etcd3({ hosts: etcd.endpoint });
});

after(async () => {
  client?.close();
  await etcd?.stop();
});

/** A fresh cluster root: brokers `live` registered, `shutdown` in controlled shutdown, the topic's partitions as given. */
async function layout(live: number[], partitions: PartitionRecord[], opts: { shutdown?: number[]; configs?: Record<string, string> } = {}) {
  keys = new ClusterKeys(`elector-${++run}`);
  for (const n of live) await client.put(keys.broker(n)).value(JSON.stringify({ nodeId: n, rack: null, endpoints: [] }));
  for (const n of opts.shutdown ?? []) await client.put(keys.shutdown(n)).value('0');
  await client.put(keys.topic('t')).value(JSON.stringify({ id: 'x', partitions: partitions.length, configs: opts.configs ?? {} }));
  for (const [i, p] of partitions.entries()) await client.put(keys.partition('t', i)).value(JSON.stringify(p));
  await client.put(keys.controller).value(JSON.stringify({ nodeId: live[0] ?? 1 }));
  const kv = (await client.get(keys.controller).exec()).kvs[0]!;
  return { key: keys.controller, createRevision: kv.create_revision };
}

const read = async (i: number): Promise<PartitionRecord> => JSON.parse((await client.get(keys.partition('t', i)).string())!) as PartitionRecord;
const rec = (leader: number, isr: number[], replicas = [1, 2, 3]): PartitionRecord => ({ replicas, leader, leaderEpoch: 0, isr, partitionEpoch: 0 });

test('a pass moves every partition a gone broker led, in batches; a second pass writes nothing', async () => {
  const partitions = Array.from({ length: 130 }, (_, i) => rec(1, [1, 2, 3], i % 2 === 0 ? [1, 2, 3] : [1, 3, 2]));
  const guard = await layout([2, 3], partitions);
  assert.equal(await electForFailures(client, keys, config, log, guard), 130);
  assert.deepEqual(await read(0), { replicas: [1, 2, 3], leader: 2, leaderEpoch: 1, isr: [2, 3], partitionEpoch: 1, elr: [], lastKnownElr: [] });
  assert.deepEqual((await read(1)).leader, 3);
  assert.deepEqual((await read(129)).leader, 3);
  assert.equal(await electForFailures(client, keys, config, log, guard), 0);
});

test('a deposed controller (the controller key created again since) writes nothing', async () => {
  const guard = await layout([2, 3], [rec(1, [1, 2, 3])]);
  await client.delete().key(keys.controller);
  await client.put(keys.controller).value(JSON.stringify({ nodeId: 3 }));
  assert.equal(await electForFailures(client, keys, config, log, guard), 0);
  assert.equal((await read(0)).leader, 1);
});

test('controlled shutdown: the shutting-down broker leaves leadership and ISR; alone in the ISR its partition goes leaderless, in the ELR', async () => {
  const guard = await layout([1, 2, 3], [rec(1, [1, 2, 3]), rec(1, [1], [1, 2])], { shutdown: [1], configs: { 'min.insync.replicas': '2' } });
  assert.equal(await electForFailures(client, keys, config, log, guard), 2);
  assert.deepEqual([(await read(0)).leader, (await read(0)).isr], [2, [2, 3]]);
  assert.deepEqual(await read(1), { replicas: [1, 2], leader: -1, leaderEpoch: 1, isr: [], partitionEpoch: 1, elr: [1], lastKnownElr: [] });
});

test('ElectLeaders: PREFERRED moves leaders back or answers why not; UNCLEAN elects a leaderless partition from a live replica', async () => {
  await layout([1, 2, 3], [rec(2, [1, 2, 3]), rec(1, [1, 2, 3]), rec(2, [2, 3]), { ...rec(-1, []), lastKnownElr: [3] }]);
  const outcomes = await electLeaders(client, keys, config, 'PREFERRED', [0, 1, 2, 9].map((index) => ({ topic: 't', index })));
  assert.deepEqual(outcomes.map((o) => [o.index, o.errorCode]), [
    [0, ErrorCode.NONE], [1, ErrorCode.ELECTION_NOT_NEEDED], [2, ErrorCode.PREFERRED_LEADER_NOT_AVAILABLE], [9, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION]]);
  assert.deepEqual([(await read(0)).leader, (await read(0)).leaderEpoch], [1, 1]);
  const unclean = await electLeaders(client, keys, config, 'UNCLEAN', [{ topic: 't', index: 3 }, { topic: 't', index: 1 }]);
  assert.deepEqual(unclean.map((o) => [o.index, o.errorCode]), [[3, ErrorCode.NONE], [1, ErrorCode.ELECTION_NOT_NEEDED]]);
  assert.deepEqual(await read(3), { replicas: [1, 2, 3], leader: 3, leaderEpoch: 1, isr: [3], partitionEpoch: 1, elr: [], lastKnownElr: [] });
  // All partitions: only those that needed an election are answered.
  assert.deepEqual(await electLeaders(client, keys, config, 'PREFERRED', null), [
    { topic: 't', index: 2, errorCode: ErrorCode.PREFERRED_LEADER_NOT_AVAILABLE, errorMessage: 'Failed to elect leader for partition t-2 under strategy PreferredReplicaPartitionLeaderElectionStrategy' },
    { topic: 't', index: 3, errorCode: ErrorCode.PREFERRED_LEADER_NOT_AVAILABLE, errorMessage: 'Failed to elect leader for partition t-3 under strategy PreferredReplicaPartitionLeaderElectionStrategy' },
  ]);
});

test('auto rebalance: every partition whose preferred replica is live and in sync is led by it again', async () => {
  const guard = await layout([1, 2, 3], [rec(2, [1, 2, 3]), rec(3, [2, 3]), rec(1, [1, 2, 3])]);
  assert.equal(await balanceLeaders(client, keys, config, log, guard), 1);
  assert.deepEqual([(await read(0)).leader, (await read(1)).leader, (await read(2)).leader], [1, 3, 1]);
});

test("a leader's ISR expansion takes the returning replica out of the ELR; the next pass clears the ELR once the ISR reaches min.insync.replicas", async () => {
  const known: PartitionRecord = { ...rec(1, [1], [1, 2, 3]), elr: [2, 3] };
  const guard = await layout([1, 2, 3], [known], { configs: { 'min.insync.replicas': '2' } });
  const grown = await alterPartitionIsr(client, keys, 't', 0, known, [1, 2]);
  assert.deepEqual(grown, { ok: true, record: { ...known, isr: [1, 2], elr: [3], partitionEpoch: 1 } });
  assert.equal(await electForFailures(client, keys, config, log, guard), 1);
  assert.deepEqual(await read(0), { ...known, isr: [1, 2], elr: [], lastKnownElr: [], partitionEpoch: 2 });
});
