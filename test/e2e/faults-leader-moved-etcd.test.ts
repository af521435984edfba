// The leader-moved fault scenario in cluster mode is a real move: three gregor processes on a real etcd (RF=3,
// min.insync.replicas=2), a kafkajs idempotent producer writing with acks=all while POST
// /v1/faults/scenarios/leader-moved moves the partition's leadership twice. Each move is an election written to etcd
// (leader epoch bumped), the old leader answers a Produce NOT_LEADER_OR_FOLLOWER naming the new leader and its epoch
// (KIP-951), and every acknowledged record is read back once, in order.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import kafkajs from 'kafkajs';
import { Etcd3 } from 'etcd3';
import { ErrorCode } from '../../src/protocol/error-codes.js';
import { produceApi } from '../../src/protocol/generated/produce.js';
import { ZERO_UUID } from '../../src/protocol/uuid.js';
import { batch, values } from '../broker/data-harness.js';
import { roundTrip } from '../server/broker-harness.js';
import { RawClient } from '../server/raw-client.js';
import { startEtcd, type EtcdServer } from './etcd-server.js';
import { startGregor, stopGregor, type GregorProcess } from './gregor-process.js';

const NODES = [1, 2, 3];
const TOPIC = 'leader-moved';

let etcd: EtcdServer;
let dataDir: string;
const brokers = new Map<number, GregorProcess>();

before(async () => {
  etcd = await startEtcd();
  dataDir = mkdtempSync(join(tmpdir(), 'gregor-leader-moved-'));
  const started = await Promise.all(NODES.map((n) => startGregor(join(dataDir, `node-${n}`), ['-o', `node.id=${n}`,
    '-o', `gregor.cluster.etcd.endpoints=${etcd.endpoint}`, '-o', 'broker.session.timeout.ms=3000', '-o', 'auto.leader.rebalance.enable=false'])));
  for (const [i, broker] of started.entries()) brokers.set(NODES[i]!, broker);
});

after(async () => {
  for (const broker of brokers.values()) if (broker.child.exitCode === null) await stopGregor(broker);
  await etcd?.stop();
  if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
});

const bootstrap = (): string[] => NODES.map((n) => `127.0.0.1:${brokers.get(n)!.port}`);

async function eventually<T>(ask: () => Promise<T>, check: (answer: T) => boolean, what: string, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  let answer = await ask();
  while (!check(answer)) {
    if (Date.now() > deadline) assert.fail(`${what}: still ${JSON.stringify(answer)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
    answer = await ask();
  }
  return answer;
}

/** The partition's record as etcd holds it. */
async function etcdPartition(): Promise<{ leader: number; leaderEpoch: number; isr: number[] }> {
  const client = new Etcd3({ hosts: etcd.endpoint });
  try {
    return JSON.parse((await client.get(`/gregor/partitions/${TOPIC}/0`).string()) ?? '{"leader":-1,"leaderEpoch":-1,"isr":[]}');
  } finally {
    client.close();
  }
}

async function moveLeader(through: number): Promise<{ status: number; body: any }> {
  const response = await fetch(`${brokers.get(through)!.http}v1/faults/scenarios/leader-moved`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ topic: TOPIC, partition: 0 }),
  });
  return { status: response.status, body: await response.json() };
}

test('leader-moved in cluster mode moves leadership to another in-sync replica under an idempotent acks=all producer: NOT_LEADER_OR_FOLLOWER with the new leader from the old one, no record lost or duplicated', async () => {
  const kafka = new kafkajs.Kafka({ clientId: 'leader-moved', brokers: bootstrap(), logLevel: kafkajs.logLevel.NOTHING,
    retry: { retries: 30, initialRetryTime: 100, maxRetryTime: 1000 } });
  const admin = kafka.admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic: TOPIC, replicaAssignment: [{ partition: 0, replicas: [1, 2, 3] }], configEntries: [{ name: 'min.insync.replicas', value: '2' }] }] });
  await admin.disconnect();
  await eventually(etcdPartition, (p) => p.leader === 1 && p.isr.length === 3, 'leader 1 and the full ISR');

  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  const acked: string[] = [];
  let stop = false;
  const writing = (async () => {
    for (let i = 0; !stop; i++) {
      const value = `v${i}`;
      await producer.send({ topic: TOPIC, acks: -1, messages: [{ partition: 0, value }] });
      acked.push(value);
    }
  })();
  const old = await RawClient.connect(brokers.get(1)!.port);
  try {
    await eventually(async () => acked.length, (n) => n >= 30, 'records acknowledged before the move');
    // Asked of the leader: it answers once its own view follows the move, so its next Produce is refused.
    const first = await moveLeader(1);
    assert.equal(first.status, 201, JSON.stringify(first.body));
    assert.deepEqual(first.body, { rules: [], moved: [{ topic: TOPIC, partition: 0, error: 'NONE', from: 1, to: 2, leaderEpoch: 1 }] });
    assert.deepEqual(await etcdPartition().then((p) => [p.leader, p.leaderEpoch]), [2, 1]);

    const produced = await roundTrip(old, produceApi, 11, {
      transactionalId: null, acks: -1, timeoutMs: 30_000,
      topicData: [{ topicId: ZERO_UUID, name: TOPIC, partitionData: [{ index: 0, records: batch(values('raw')) }] }],
    });
    const answer = produced.responses[0]!.partitionResponses[0]!;
    assert.deepEqual([answer.errorCode, answer.baseOffset, answer.currentLeader], [ErrorCode.NOT_LEADER_OR_FOLLOWER, -1n, { leaderId: 2, leaderEpoch: 1 }]);
    assert.deepEqual(produced.nodeEndpoints.map((n) => [n.nodeId, n.port]), [[2, brokers.get(2)!.port]]);

    const atMove = acked.length;
    await eventually(async () => acked.length, (n) => n >= atMove + 30, 'records acknowledged by the new leader', 90_000);
    // Asked of a broker that does not lead it: the move is written to etcd, whoever asks.
    const second = await moveLeader(3);
    assert.equal(second.status, 201, JSON.stringify(second.body));
    assert.deepEqual(second.body.moved.map((m: any) => [m.error, m.from, m.leaderEpoch]), [['NONE', 2, 2]]);
    assert.ok([1, 3].includes(second.body.moved[0].to));
    const atSecond = acked.length;
    await eventually(async () => acked.length, (n) => n >= atSecond + 30, 'records acknowledged after the second move', 90_000);
  } finally {
    stop = true;
    await writing.catch(() => undefined);
    await producer.disconnect();
    await old.close();
  }

  const consumer = kafka.consumer({ groupId: 'leader-moved-readers' });
  await consumer.connect();
  await consumer.subscribe({ topic: TOPIC, fromBeginning: true });
  const read: string[] = [];
  await consumer.run({ eachMessage: async ({ message }) => { read.push(message.value!.toString()); } });
  await eventually(async () => read.length, (n) => n >= acked.length, 'every acknowledged record read', 90_000);
  await new Promise((resolve) => setTimeout(resolve, 500));
  await consumer.disconnect();
  assert.deepEqual(read.slice(0, acked.length), acked, 'each acknowledged record once, in order');
  assert.equal(new Set(read).size, read.length, 'no duplicate');
  assert.equal(read.length, acked.length, 'nothing beyond what was acknowledged (the raw Produce to the old leader was refused)');
});

test('leader-moved in cluster mode: a partition with no other in-sync replica is not moved (400, why), an unknown one named', async () => {
  const kafka = new kafkajs.Kafka({ clientId: 'leader-moved-lone', brokers: bootstrap(), logLevel: kafkajs.logLevel.NOTHING });
  const admin = kafka.admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic: 'lone', replicaAssignment: [{ partition: 0, replicas: [2] }] }] });
  await admin.disconnect();
  const post = async (body: unknown) => {
    const response = await fetch(`${brokers.get(2)!.http}v1/faults/scenarios/leader-moved`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: response.status, body: await response.json() };
  };
  assert.deepEqual(await post({ topic: 'lone' }), { status: 400, body: {
    error: 'leadership of lone not moved: [{"topic":"lone","partition":0,"error":"ELIGIBLE_LEADERS_NOT_AVAILABLE","from":2,"to":2,"leaderEpoch":0}]' } });
  assert.deepEqual(await post({ topic: 'nowhere' }), { status: 400, body: { error: 'no partition nowhere in the cluster' } });
});
