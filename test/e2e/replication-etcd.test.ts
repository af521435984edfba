// Replication across three gregor processes on a real etcd: followers fetch from their leaders with Fetch, so every
// replica's log holds the leader's exact batches (compared byte for byte, segment file against segment file); acks=all
// from kafkajs and from the Java producer answers once the ISR holds the write; a follower paused with SIGSTOP leaves
// the ISR after replica.lag.time.max.ms (kafka-topics --describe shows it), a producer waiting on it then gets its
// answer, min.insync.replicas=3 refuses acks=all (NOT_ENOUGH_REPLICAS before the append,
// NOT_ENOUGH_REPLICAS_AFTER_APPEND for one appended while the ISR was still whole), and once its session expires
// Metadata no longer names it; after SIGCONT the follower catches up and the ISR grows back. Producer ids are unique
// across brokers; a follower whose offsets the leader deleted starts again at the leader's log start; one killed with
// kill -9 and restarted catches up and rejoins.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import kafkajs from 'kafkajs';
import { createCreatableTopic, createCreateTopicsRequest, createTopicsApi } from '../../src/protocol/generated/create-topics.js';
import { createMetadataRequest, metadataApi, type MetadataResponse } from '../../src/protocol/generated/metadata.js';
import { createDescribeClusterRequest, describeClusterApi } from '../../src/protocol/generated/describe-cluster.js';
import { produceApi, type ProduceResponse } from '../../src/protocol/generated/produce.js';
import { deleteRecordsApi } from '../../src/protocol/generated/delete-records.js';
import { describeProducersApi } from '../../src/protocol/generated/describe-producers.js';
import { createInitProducerIdRequest, initProducerIdApi } from '../../src/protocol/generated/init-producer-id.js';
import { ErrorCode } from '../../src/protocol/error-codes.js';
import { ZERO_UUID } from '../../src/protocol/uuid.js';
import { RawClient } from '../server/raw-client.js';
import { roundTrip } from '../server/broker-harness.js';
import { batch, values } from '../broker/data-harness.js';
import { installJavaTools, runJavaToolOk } from './java-tools.js';
import { startEtcd, type EtcdServer } from './etcd-server.js';
import { killGregor, startGregor, stopGregor, type GregorProcess } from './gregor-process.js';

const NODES = [1, 2, 3];
/** A follower not caught up for this long leaves the ISR; the check runs every half of it. */
const LAG_MS = 2000;
/**
 * A paused broker's session expires after this (as a paused Kafka broker is fenced after broker.session.timeout.ms):
 * Metadata then no longer names it, so the Java admin does not send its controller-bound calls to it.
 */
const SESSION_MS = 4000;

let etcd: EtcdServer;
let dataDir: string;
const brokers = new Map<number, GregorProcess>();
const clients = new Map<number, RawClient>();

const start = (n: number): Promise<GregorProcess> => startGregor(join(dataDir, `node-${n}`), [
  '-o', `node.id=${n}`, '-o', `gregor.cluster.etcd.endpoints=${etcd.endpoint}`, '-o', `broker.session.timeout.ms=${SESSION_MS}`,
  '-o', `replica.lag.time.max.ms=${LAG_MS}`,
]);

before(async () => {
  installJavaTools();
  etcd = await startEtcd();
  dataDir = mkdtempSync(join(tmpdir(), 'gregor-replication-'));
  const started = await Promise.all(NODES.map(start));
  for (const [i, broker] of started.entries()) brokers.set(NODES[i]!, broker);
  for (const n of NODES) clients.set(n, await RawClient.connect(brokers.get(n)!.port));
});

after(async () => {
  for (const client of clients.values()) await client.close();
  for (const broker of brokers.values()) {
    if (broker.child.exitCode === null && broker.child.signalCode === null) {
      broker.child.kill('SIGCONT');
      await stopGregor(broker);
    }
  }
  await etcd?.stop();
  if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
});

const metadata = (n: number, topic: string): Promise<MetadataResponse> =>
  roundTrip(clients.get(n)!, metadataApi, 12, { ...createMetadataRequest(), topics: [{ topicId: ZERO_UUID, name: topic }], allowAutoTopicCreation: false });

async function eventually<T>(ask: () => Promise<T>, check: (answer: T) => boolean, what: string, attempts = 400): Promise<T> {
  let answer = await ask();
  for (let attempt = 0; !check(answer); attempt++) {
    if (attempt > attempts) assert.fail(`${what}: still ${JSON.stringify(answer, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v))}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    answer = await ask();
  }
  return answer;
}

function produce(n: number, topic: string, partition: number, text: string, timeoutMs = 30_000): Promise<ProduceResponse> {
  return roundTrip(clients.get(n)!, produceApi, 9, {
    transactionalId: null, acks: -1, timeoutMs,
    topicData: [{ topicId: ZERO_UUID, name: topic, partitionData: [{ index: partition, records: batch(values(text)) }] }],
  });
}

const errorOf = (response: ProduceResponse): number => response.responses[0]!.partitionResponses[0]!.errorCode;

/** The partition's segment files on broker `n`: name → bytes. */
function segments(n: number, topic: string, partition: number): Map<string, Buffer> {
  const dir = join(dataDir, `node-${n}`, `${topic}-${partition}`);
  return new Map(readdirSync(dir).filter((f) => f.endsWith('.log')).sort().map((f) => [f, readFileSync(join(dir, f))]));
}

/** Every replica's segment files equal the leader's, byte for byte (waiting for the followers' last fetches). */
async function sameOnEveryReplica(topic: string, partition: number, replicas: readonly number[]): Promise<Map<string, Buffer>> {
  const [leader] = replicas;
  const expected = segments(leader!, topic, partition);
  for (const n of replicas.slice(1)) {
    await eventually(async () => segments(n, topic, partition), (got) =>
      got.size === expected.size && [...expected].every(([name, bytes]) => got.get(name)?.equals(bytes) === true), `broker ${n}'s ${topic}-${partition} segments`);
  }
  return expected;
}

async function describeLines(topic: string | undefined, ...options: string[]): Promise<string[]> {
  const shown = await runJavaToolOk('kafka-topics', ['--bootstrap-server', `127.0.0.1:${brokers.get(1)!.port}`, '--describe',
    ...(topic === undefined ? [] : ['--topic', topic]), ...options]);
  return shown.split('\n').filter((line) => line.startsWith('\tTopic: ')).map((line) => line.split('\t').slice(1, 6).join(' '));
}

const isrLine = (topic: string, partition: number, leader: number, replicas: string, isr: string): string =>
  `Topic: ${topic} Partition: ${partition} Leader: ${leader} Replicas: ${replicas} Isr: ${isr}`;

test('RF=3: kafkajs and the Java producer write with acks=all, every replica holds the same batches, a consumer reads them all', async () => {
  const created = await roundTrip(clients.get(1)!, createTopicsApi, 7, {
    ...createCreateTopicsRequest(), timeoutMs: 30_000,
    topics: [
      { ...createCreatableTopic(), name: 'replicated', numPartitions: -1, replicationFactor: -1,
        assignments: [{ partitionIndex: 0, brokerIds: [1, 2, 3] }, { partitionIndex: 1, brokerIds: [2, 3, 1] }] },
      { ...createCreatableTopic(), name: 'strict', numPartitions: -1, replicationFactor: -1,
        assignments: [{ partitionIndex: 0, brokerIds: [1, 2, 3] }], configs: [{ name: 'min.insync.replicas', value: '3' }] },
    ],
  });
  for (const topic of created.topics) assert.equal(topic.errorCode, ErrorCode.NONE, topic.errorMessage ?? '');
  for (const n of NODES) await eventually(() => metadata(n, 'strict'), (r) => r.topics[0]!.errorCode === ErrorCode.NONE, `broker ${n}'s metadata`);

  const kafka = new kafkajs.Kafka({ clientId: 'replication-test', brokers: [`127.0.0.1:${brokers.get(2)!.port}`], logLevel: kafkajs.logLevel.NOTHING });
  const producer = kafka.producer({ idempotent: true });
  await producer.connect();
  const sent: string[] = [];
  for (let round = 0; round < 5; round++) {
    const messages = [0, 1].flatMap((partition) => [0, 1, 2].map((i) => ({ partition, value: `kjs-${round}-${partition}-${i}` })));
    await producer.send({ topic: 'replicated', acks: -1, messages });
    sent.push(...messages.map((m) => m.value));
  }
  await producer.disconnect();
  const lines = Array.from({ length: 20 }, (_, i) => `java-${i}`);
  await runJavaToolOk('kafka-console-producer', ['--bootstrap-server', `127.0.0.1:${brokers.get(3)!.port}`, '--topic', 'replicated',
    '--producer-property', 'acks=all', '--producer-property', 'linger.ms=0'], `${lines.join('\n')}\n`);
  sent.push(...lines);
  assert.equal(errorOf(await produce(1, 'strict', 0, 'strict-0')), ErrorCode.NONE);

  const p0 = await sameOnEveryReplica('replicated', 0, [1, 2, 3]);
  const p1 = await sameOnEveryReplica('replicated', 1, [2, 3, 1]);
  await sameOnEveryReplica('strict', 0, [1, 2, 3]);
  assert.ok([...p0.values(), ...p1.values()].reduce((sum, b) => sum + b.length, 0) > 0);

  const consumer = kafka.consumer({ groupId: 'replication-readers' });
  await consumer.connect();
  await consumer.subscribe({ topic: 'replicated', fromBeginning: true });
  const read: string[] = [];
  await new Promise<void>((resolve) => void consumer.run({
    eachMessage: async ({ message }) => {
      read.push(message.value!.toString());
      if (read.length === sent.length) resolve();
    },
  }));
  await consumer.disconnect();
  assert.deepEqual(read.sort(), [...sent].sort());
  assert.deepEqual(await describeLines('replicated'), [isrLine('replicated', 0, 1, '1,2,3', '1,2,3'), isrLine('replicated', 1, 2, '2,3,1', '2,3,1')]);
});

test('a follower paused (SIGSTOP) leaves the ISR after replica.lag.time.max.ms; acks=all then answers, min.insync.replicas=3 refuses', async () => {
  const paused = brokers.get(3)!;
  paused.child.kill('SIGSTOP');
  const started = Date.now();
  // Appended while the ISR still holds broker 3: both wait for it, then for the ISR to shrink.
  const [waited, strictAfter] = await Promise.all([produce(1, 'replicated', 0, 'while-paused'), produce(1, 'strict', 0, 'strict-while-paused')]);
  assert.equal(errorOf(waited), ErrorCode.NONE);
  assert.equal(errorOf(strictAfter), ErrorCode.NOT_ENOUGH_REPLICAS_AFTER_APPEND);
  // Answered once broker 3 left the ISR (the leader writes the change before its high watermark moves on): not before
  // it had been silent for most of replica.lag.time.max.ms (its last fetch may have come up to a long poll before the pause).
  assert.deepEqual((await metadata(1, 'replicated')).topics[0]!.partitions[0]!.isrNodes, [1, 2]);
  assert.ok(Date.now() - started >= LAG_MS / 2, `answered after ${Date.now() - started} ms, before the follower could leave the ISR`);
  // The ISR has shrunk now: min.insync.replicas=3 refuses before appending.
  const refused = await produce(1, 'strict', 0, 'strict-refused');
  assert.equal(errorOf(refused), ErrorCode.NOT_ENOUGH_REPLICAS);
  assert.equal(refused.responses[0]!.partitionResponses[0]!.baseOffset, -1n);
  // acks=all with min.insync.replicas=1 on the other leader goes through with the ISR shrunk.
  assert.equal(errorOf(await produce(2, 'replicated', 1, 'p1-while-paused')), ErrorCode.NONE);
  // Once the paused broker's session expired it is not alive: Metadata names only brokers 1 and 2.
  await eventually(() => roundTrip(clients.get(1)!, describeClusterApi, 1, { ...createDescribeClusterRequest(), endpointType: 1 }),
    (r) => r.brokers.length === 2, 'the paused broker\'s session to expire', 400);
  // Kafka's order: the ISR less the replica that left.
  const expected = [isrLine('replicated', 0, 1, '1,2,3', '1,2'), isrLine('replicated', 1, 2, '2,3,1', '2,1')];
  const shrunk = await eventually(() => describeLines('replicated'), (l) => JSON.stringify(l) === JSON.stringify(expected), 'the shrunk ISR', 20);
  assert.deepEqual(shrunk, expected);
  const { topics: [strict] } = await metadata(1, 'strict');
  assert.deepEqual(strict!.partitions[0]!.isrNodes, [1, 2]);
  // What kafka-topics finds from the ISR: every partition under-replicated, 'strict' under its min.insync.replicas.
  assert.deepEqual((await describeLines(undefined, '--under-replicated-partitions')).sort(),
    [...expected, isrLine('strict', 0, 1, '1,2,3', '1,2')].sort());
  assert.deepEqual(await describeLines(undefined, '--under-min-isr-partitions'), [isrLine('strict', 0, 1, '1,2,3', '1,2')]);
});

test('the follower resumed (SIGCONT) catches up and the ISR grows back; its logs equal the leaders\' again', async () => {
  brokers.get(3)!.child.kill('SIGCONT');
  // Kafka's order: the replica that joins goes last.
  const expected = [isrLine('replicated', 0, 1, '1,2,3', '1,2,3'), isrLine('replicated', 1, 2, '2,3,1', '2,1,3')];
  const grown = await eventually(() => describeLines('replicated'), (l) => JSON.stringify(l) === JSON.stringify(expected), 'the ISR grown back', 40);
  assert.deepEqual(grown, expected);
  await eventually(() => metadata(1, 'strict'), (r) => r.topics[0]!.partitions[0]!.isrNodes.length === 3, 'strict\'s ISR grown back');
  assert.equal(errorOf(await produce(1, 'strict', 0, 'strict-again')), ErrorCode.NONE);
  await sameOnEveryReplica('replicated', 0, [1, 2, 3]);
  await sameOnEveryReplica('replicated', 1, [2, 3, 1]);
  await sameOnEveryReplica('strict', 0, [1, 2, 3]);
});

test('producer ids are unique across the brokers: each reserves its blocks of 1000 from one counter in etcd', async () => {
  const ids: bigint[] = [];
  for (let round = 0; round < 2; round++) {
    for (const n of NODES) {
      const answer = await roundTrip(clients.get(n)!, initProducerIdApi, 4, { ...createInitProducerIdRequest(), transactionalId: null, transactionTimeoutMs: 60_000 });
      assert.equal(answer.errorCode, ErrorCode.NONE);
      ids.push(answer.producerId);
    }
  }
  assert.equal(new Set(ids).size, ids.length, `ids handed out: ${ids.join(',')}`);
  // One block per broker: the second round's ids follow the first's on each broker, and no two brokers share a block.
  const blocks = ids.slice(0, 3).map((id) => id / 1000n);
  assert.equal(new Set(blocks).size, 3);
  for (let i = 0; i < 3; i++) assert.equal(ids[i + 3], ids[i]! + 1n);
  // The idempotent producers of the first test are known to the leader; another broker answers NOT_LEADER_OR_FOLLOWER.
  const describe = (n: number) => roundTrip(clients.get(n)!, describeProducersApi, 0, { topics: [{ name: 'replicated', partitionIndexes: [0] }] });
  const onLeader = (await describe(1)).topics[0]!.partitions[0]!;
  assert.equal(onLeader.errorCode, ErrorCode.NONE);
  assert.ok(onLeader.activeProducers.length >= 1);
  assert.equal((await describe(2)).topics[0]!.partitions[0]!.errorCode, ErrorCode.NOT_LEADER_OR_FOLLOWER);
});

test('a follower whose fetch offset the leader deleted meanwhile (DeleteRecords) starts its log again at the leader\'s start and rejoins', async () => {
  const created = await roundTrip(clients.get(1)!, createTopicsApi, 7, {
    ...createCreateTopicsRequest(), timeoutMs: 30_000,
    topics: [{ ...createCreatableTopic(), name: 'trimmed', numPartitions: -1, replicationFactor: -1, assignments: [{ partitionIndex: 0, brokerIds: [1, 2, 3] }] }],
  });
  assert.equal(created.topics[0]!.errorCode, ErrorCode.NONE);
  for (const n of NODES) await eventually(() => metadata(n, 'trimmed'), (r) => r.topics[0]!.errorCode === ErrorCode.NONE, `broker ${n}'s metadata`);
  for (const text of ['t0', 't1']) assert.equal(errorOf(await produce(1, 'trimmed', 0, text)), ErrorCode.NONE);
  const paused = brokers.get(3)!;
  paused.child.kill('SIGSTOP');
  try {
    // Waits for broker 3 until it leaves the ISR, then goes on without it.
    for (const text of ['t2', 't3', 't4']) assert.equal(errorOf(await produce(1, 'trimmed', 0, text)), ErrorCode.NONE);
    assert.deepEqual((await metadata(1, 'trimmed')).topics[0]!.partitions[0]!.isrNodes, [1, 2]);
    const deleteOn = (n: number) => roundTrip(clients.get(n)!, deleteRecordsApi, 2, { timeoutMs: 30_000, topics: [{ name: 'trimmed', partitions: [{ partitionIndex: 0, offset: 4n }] }] });
    const notLeader = await deleteOn(2);
    assert.deepEqual([notLeader.topics[0]!.partitions[0]!.errorCode, notLeader.topics[0]!.partitions[0]!.lowWatermark], [ErrorCode.NOT_LEADER_OR_FOLLOWER, -1n]);
    const deleted = await deleteOn(1);
    assert.deepEqual([deleted.topics[0]!.partitions[0]!.errorCode, deleted.topics[0]!.partitions[0]!.lowWatermark], [ErrorCode.NONE, 4n]);
  } finally {
    paused.child.kill('SIGCONT');
  }
  await eventually(() => metadata(1, 'trimmed'), (r) => r.topics[0]!.partitions[0]!.isrNodes.length === 3, 'the ISR grown back', 400);
  const [[leaderName, leaderBytes]] = [...segments(1, 'trimmed', 0)];
  assert.equal(leaderName, '00000000000000000000.log');
  const follower = segments(3, 'trimmed', 0);
  // Broker 3 held offsets 0-1: the leader's log now starts at 4, so broker 3's starts there too, with the leader's last batch.
  assert.deepEqual([...follower.keys()], ['00000000000000000004.log']);
  const bytes = follower.get('00000000000000000004.log')!;
  assert.equal(bytes.readBigInt64BE(0), 4n);
  assert.ok(bytes.length > 0 && leaderBytes!.subarray(leaderBytes!.length - bytes.length).equals(bytes), 'the leader\'s batch, byte for byte');
});

test('a follower killed (kill -9) and restarted on its data catches up from where its log ends and rejoins the ISR', async () => {
  await killGregor(brokers.get(3)!);
  await clients.get(3)!.close();
  // acks=all goes on once broker 3 has left the ISRs.
  for (let i = 0; i < 3; i++) {
    assert.equal(errorOf(await produce(1, 'replicated', 0, `after-kill-${i}`)), ErrorCode.NONE);
    assert.equal(errorOf(await produce(2, 'replicated', 1, `after-kill-${i}`)), ErrorCode.NONE);
  }
  // Partition 1's change was written by broker 2: broker 1 learns it from etcd's watch a moment later.
  await eventually(() => metadata(1, 'replicated'), (r) => JSON.stringify(r.topics[0]!.partitions.map((p) => p.isrNodes)) === '[[1,2],[2,1]]', 'both ISRs shrunk');
  const restarted = await start(3);
  brokers.set(3, restarted);
  clients.set(3, await RawClient.connect(restarted.port));
  await eventually(() => metadata(1, 'replicated'), (r) => r.topics[0]!.partitions.every((p) => p.isrNodes.length === 3), 'the ISR grown back', 400);
  assert.deepEqual((await metadata(1, 'replicated')).topics[0]!.partitions.map((p) => p.isrNodes), [[1, 2, 3], [2, 1, 3]]);
  await sameOnEveryReplica('replicated', 0, [1, 2, 3]);
  await sameOnEveryReplica('replicated', 1, [2, 3, 1]);
});
