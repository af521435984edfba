// Cluster mode on a real etcd: three gregor processes (the real command) join one cluster, elect one controller in etcd
// (Metadata and DescribeCluster name a random alive broker as controllerId, as Kafka 4.3.1 does),
// see a topic created through any of them with its replicas placed across racks, answer a partition they do not lead
// with NOT_LEADER_OR_FOLLOWER and its leader (KIP-951), and elect another controller when the controller is killed
// and its lease expires. Kafka's kafka-topics --describe reads replicas, leader and ISR as from Kafka.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCreatableTopic, createCreateTopicsRequest, createTopicsApi } from '../../src/protocol/generated/create-topics.js';
import { createDescribeClusterRequest, describeClusterApi, type DescribeClusterResponse } from '../../src/protocol/generated/describe-cluster.js';
import { createMetadataRequest, metadataApi, type MetadataResponse } from '../../src/protocol/generated/metadata.js';
import { createDeleteTopicsRequest, deleteTopicsApi } from '../../src/protocol/generated/delete-topics.js';
import { produceApi } from '../../src/protocol/generated/produce.js';
import { createPartitionsApi } from '../../src/protocol/generated/create-partitions.js';
import { incrementalAlterConfigsApi } from '../../src/protocol/generated/incremental-alter-configs.js';
import { describeConfigsApi } from '../../src/protocol/generated/describe-configs.js';
import { ErrorCode } from '../../src/protocol/error-codes.js';
import { ZERO_UUID } from '../../src/protocol/uuid.js';
import { RawClient } from '../server/raw-client.js';
import { roundTrip } from '../server/broker-harness.js';
import { batch, fetch, fetchRequest, values } from '../broker/data-harness.js';
import { installJavaTools, runJavaToolOk } from './java-tools.js';
import { startEtcd, type EtcdServer } from './etcd-server.js';
import { killGregor, startGregor, stopGregor, type GregorProcess } from './gregor-process.js';
import kafkajs from 'kafkajs';
import { Etcd3 } from 'etcd3';

const RACKS: Record<number, string> = { 1: 'rack-a', 2: 'rack-a', 3: 'rack-b' };
const NODES = [1, 2, 3];
/** Kafka's ConfigResource.Type.TOPIC. */
const TOPIC_RESOURCE = 2;

let etcd: EtcdServer;
let dataDir: string;
const brokers = new Map<number, GregorProcess>();
const clients = new Map<number, RawClient>();

before(async () => {
  installJavaTools();
  etcd = await startEtcd();
  dataDir = mkdtempSync(join(tmpdir(), 'gregor-cluster-'));
  const started = await Promise.all(NODES.map((n) => startGregor(join(dataDir, `node-${n}`), [
    '-o', `node.id=${n}`, '-o', `gregor.cluster.etcd.endpoints=${etcd.endpoint}`, '-o', 'broker.session.timeout.ms=2000',
    '-o', `broker.rack=${RACKS[n]}`,
  ])));
  for (const [i, broker] of started.entries()) brokers.set(NODES[i]!, broker);
  for (const n of NODES) clients.set(n, await RawClient.connect(brokers.get(n)!.port));
});

after(async () => {
  for (const client of clients.values()) await client.close();
  for (const broker of brokers.values()) if (broker.child.exitCode === null && broker.child.signalCode === null) await stopGregor(broker);
  await etcd?.stop();
  if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
});

/** The controller elected in etcd (its key under the cluster's root), -1 while there is none. */
async function etcdController(): Promise<number> {
  const client = new Etcd3({ hosts: [etcd.endpoint] });
  try {
    const value = await client.get('/gregor/controller').string();
    return value === null ? -1 : (JSON.parse(value) as { nodeId: number }).nodeId;
  } finally {
    client.close();
  }
}

const describeCluster = (n: number): Promise<DescribeClusterResponse> =>
  roundTrip(clients.get(n)!, describeClusterApi, 1, { ...createDescribeClusterRequest(), endpointType: 1 });

const metadata = (n: number, topic: string): Promise<MetadataResponse> =>
  roundTrip(clients.get(n)!, metadataApi, 12, { ...createMetadataRequest(), topics: [{ topicId: ZERO_UUID, name: topic }], allowAutoTopicCreation: false });

/** Asks again until `check` holds: what etcd's watch tells each broker arrives a moment after the write. */
async function eventually<T>(ask: () => Promise<T>, check: (answer: T) => boolean, what: string): Promise<T> {
  let answer = await ask();
  for (let attempt = 0; !check(answer); attempt++) {
    if (attempt > 300) assert.fail(`${what}: still ${JSON.stringify(answer, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v))}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    answer = await ask();
  }
  return answer;
}

test('three brokers form one cluster: every broker lists all three (endpoints, racks); the controllerId is a random alive broker, as Kafka answers it', async () => {
  const answers = await Promise.all(NODES.map((n) => eventually(() => describeCluster(n), (r) => r.brokers.length === 3, `broker ${n}'s DescribeCluster`)));
  for (const answer of answers) {
    assert.equal(answer.errorCode, ErrorCode.NONE);
    assert.deepEqual(answer.brokers.map((b) => ({ id: b.brokerId, host: b.host, port: b.port, rack: b.rack })),
      NODES.map((n) => ({ id: n, host: '127.0.0.1', port: brokers.get(n)!.port, rack: RACKS[n] })));
    assert.equal(answer.clusterId, answers[0]!.clusterId);
  }
  // Kafka 4.3.1's getRandomAliveBrokerId: drawn again for each answer, so 30 answers name more than one broker.
  const named = new Set<number>();
  for (let i = 0; i < 30; i++) named.add((await describeCluster(1 + (i % 3))).controllerId);
  assert.ok(named.size > 1 && [...named].every((id) => NODES.includes(id)), `controller ids answered: ${[...named].join(',')}`);
  // The etcd-elected controller is one of them.
  assert.ok(NODES.includes(await etcdController()));
});

test('a topic created through one broker is visible on all, each partition on both racks, led by its first replica', async () => {
  const created = await roundTrip(clients.get(2)!, createTopicsApi, 7, {
    ...createCreateTopicsRequest(), timeoutMs: 30_000,
    topics: [{ ...createCreatableTopic(), name: 'spread', numPartitions: 6, replicationFactor: 2 }],
  });
  assert.equal(created.topics[0]!.errorCode, ErrorCode.NONE, created.topics[0]!.errorMessage ?? '');
  assert.equal(created.topics[0]!.replicationFactor, 2);
  const views = await Promise.all(NODES.map((n) => eventually(() => metadata(n, 'spread'), (r) => r.topics[0]!.errorCode === ErrorCode.NONE, `broker ${n}'s Metadata`)));
  const [first] = views;
  const partitions = first!.topics[0]!.partitions;
  assert.equal(partitions.length, 6);
  for (const p of partitions) {
    assert.equal(p.errorCode, ErrorCode.NONE);
    assert.equal(p.replicaNodes.length, 2);
    // StripedReplicaPlacer: the two replicas are on different racks, so one is node 3 (rack-b's only broker).
    assert.deepEqual(new Set(p.replicaNodes.map((r) => RACKS[r])), new Set(['rack-a', 'rack-b']));
    assert.equal(p.leaderId, p.replicaNodes[0]);
    assert.deepEqual(p.isrNodes, p.replicaNodes);
    assert.equal(p.leaderEpoch, 0);
  }
  for (const view of views) {
    assert.ok(NODES.includes(view.controllerId));
    assert.equal(view.topics[0]!.topicId, created.topics[0]!.topicId);
    assert.deepEqual(view.topics[0]!.partitions, partitions);
  }
});

test('kafka-topics --describe shows replicas, leader and ISR as Kafka prints them', async () => {
  const shown = await runJavaToolOk('kafka-topics', ['--bootstrap-server', `127.0.0.1:${brokers.get(3)!.port}`, '--describe', '--topic', 'spread']);
  const { topics: [topic] } = await metadata(3, 'spread');
  const lines = shown.split('\n').filter((line) => line !== '');
  assert.match(lines[0]!, new RegExp(`^Topic: spread\\tTopicId: ${topic!.topicId}\\tPartitionCount: 6\\tReplicationFactor: 2\\tConfigs: `));
  assert.deepEqual(lines.slice(1), topic!.partitions.map((p) =>
    `\tTopic: spread\tPartition: ${p.partitionIndex}\tLeader: ${p.leaderId}\tReplicas: ${p.replicaNodes.join(',')}\tIsr: ${p.isrNodes.join(',')}\tElr: \tLastKnownElr: `));
});

test('Produce and Fetch to a broker that does not lead the partition: NOT_LEADER_OR_FOLLOWER with the leader from v10/v16 (KIP-951)', async () => {
  const { topics: [topic] } = await metadata(1, 'spread');
  const partition = topic!.partitions[0]!;
  const leader = partition.leaderId;
  const other = NODES.find((n) => n !== leader)!;
  const produce = (n: number, version: number) => roundTrip(clients.get(n)!, produceApi, version, {
    transactionalId: null, acks: -1, timeoutMs: 30_000,
    topicData: [{ topicId: ZERO_UUID, name: 'spread', partitionData: [{ index: 0, records: batch(values('one')) }] }],
  });
  const hinted = await produce(other, 12);
  const answer = hinted.responses[0]!.partitionResponses[0]!;
  assert.equal(answer.errorCode, ErrorCode.NOT_LEADER_OR_FOLLOWER);
  assert.deepEqual(answer.currentLeader, { leaderId: leader, leaderEpoch: 0 });
  assert.deepEqual(hinted.nodeEndpoints, [{ nodeId: leader, host: '127.0.0.1', port: brokers.get(leader)!.port, rack: RACKS[leader] }]);
  const plain = await produce(other, 9);
  assert.equal(plain.responses[0]!.partitionResponses[0]!.errorCode, ErrorCode.NOT_LEADER_OR_FOLLOWER);
  const written = await produce(leader, 12);
  assert.equal(written.responses[0]!.partitionResponses[0]!.errorCode, ErrorCode.NONE);
  assert.deepEqual(written.nodeEndpoints, []);

  const refused = await fetch(clients.get(other)!, fetchRequest([{ topic: 'spread', topicId: topic!.topicId }]), 16);
  assert.equal(refused.responses[0]!.partitions[0]!.errorCode, ErrorCode.NOT_LEADER_OR_FOLLOWER);
  assert.deepEqual(refused.responses[0]!.partitions[0]!.currentLeader, { leaderId: leader, leaderEpoch: 0 });
  assert.deepEqual(refused.nodeEndpoints, [{ nodeId: leader, host: '127.0.0.1', port: brokers.get(leader)!.port, rack: RACKS[leader] }]);
  const read = await fetch(clients.get(leader)!, fetchRequest([{ topic: 'spread', topicId: topic!.topicId }]), 16);
  assert.equal(read.responses[0]!.partitions[0]!.errorCode, ErrorCode.NONE);
  assert.equal(read.responses[0]!.partitions[0]!.highWatermark, 1n);
});

test('partitions added and topic configs altered through one broker reach every broker', async () => {
  const grown = await roundTrip(clients.get(1)!, createPartitionsApi, 3, {
    topics: [{ name: 'spread', count: 8, assignments: null }], timeoutMs: 30_000, validateOnly: false,
  });
  assert.equal(grown.results[0]!.errorCode, ErrorCode.NONE, grown.results[0]!.errorMessage ?? '');
  const altered = await roundTrip(clients.get(3)!, incrementalAlterConfigsApi, 1, {
    resources: [{ resourceType: TOPIC_RESOURCE, resourceName: 'spread', configs: [{ name: 'retention.ms', configOperation: 0, value: '3600000' }] }],
    validateOnly: false,
  });
  assert.equal(altered.responses[0]!.errorCode, ErrorCode.NONE, altered.responses[0]!.errorMessage ?? '');
  for (const n of NODES) {
    const { topics: [topic] } = await eventually(() => metadata(n, 'spread'), (r) => r.topics[0]!.partitions.length === 8, `broker ${n}'s partitions`);
    for (const p of topic!.partitions.slice(6)) {
      assert.equal(p.errorCode, ErrorCode.NONE);
      assert.deepEqual(new Set(p.replicaNodes.map((r) => RACKS[r])), new Set(['rack-a', 'rack-b']));
    }
    const describe = () => roundTrip(clients.get(n)!, describeConfigsApi, 4, {
      resources: [{ resourceType: TOPIC_RESOURCE, resourceName: 'spread', configurationKeys: ['retention.ms'] }], includeSynonyms: false, includeDocumentation: false,
    });
    const described = await eventually(describe, (r) => r.results[0]!.configs[0]?.value === '3600000', `broker ${n}'s retention.ms`);
    assert.deepEqual(described.results[0]!.configs.map((c) => [c.name, c.value, c.configSource]), [['retention.ms', '3600000', 1]]);
  }
});

test('kafkajs produces to every leader and a consumer group reads it all back through the cluster', async () => {
  const kafka = new kafkajs.Kafka({ clientId: 'cluster-test', brokers: [`127.0.0.1:${brokers.get(1)!.port}`], logLevel: kafkajs.logLevel.NOTHING });
  const admin = kafka.admin();
  await admin.connect();
  assert.equal(await admin.createTopics({ topics: [{ topic: 'orders', numPartitions: 3, replicationFactor: 3 }], waitForLeaders: true }), true);
  await admin.disconnect();
  const producer = kafka.producer();
  await producer.connect();
  const sent = [0, 1, 2].flatMap((partition) => [`a${partition}`, `b${partition}`].map((value) => ({ partition, value })));
  await producer.send({ topic: 'orders', acks: -1, messages: sent });
  await producer.disconnect();
  const consumer = kafka.consumer({ groupId: 'orders-readers' });
  await consumer.connect();
  await consumer.subscribe({ topic: 'orders', fromBeginning: true });
  const read: { partition: number; value: string }[] = [];
  await new Promise<void>((resolve) => void consumer.run({
    eachMessage: async ({ partition, message }) => {
      read.push({ partition, value: message.value!.toString() });
      if (read.length === sent.length) resolve();
    },
  }));
  await consumer.disconnect();
  const order = (a: { partition: number; value: string }, b: { partition: number; value: string }) => a.partition - b.partition || a.value.localeCompare(b.value);
  assert.deepEqual(read.sort(order), sent.sort(order));
  // The group's offsets live on its coordinator's own __consumer_offsets: asking for it does not put it in etcd.
  const internal = await roundTrip(clients.get(2)!, metadataApi, 12, {
    ...createMetadataRequest(), topics: [{ topicId: ZERO_UUID, name: '__consumer_offsets' }], allowAutoTopicCreation: true,
  });
  assert.equal(internal.topics[0]!.errorCode, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
});

test('a topic deleted through one broker is gone from all', async () => {
  const deleted = await roundTrip(clients.get(3)!, deleteTopicsApi, 6, {
    ...createDeleteTopicsRequest(), timeoutMs: 30_000, topics: [{ name: 'spread', topicId: ZERO_UUID }],
  });
  assert.equal(deleted.responses[0]!.errorCode, ErrorCode.NONE);
  for (const n of NODES) {
    await eventually(() => metadata(n, 'spread'), (r) => r.topics[0]!.errorCode === ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, `broker ${n}'s Metadata`);
  }
});

test("the controller killed (kill -9), its lease expires and another broker becomes the controller", async () => {
  const before = await etcdController();
  await killGregor(brokers.get(before)!);
  await clients.get(before)!.close();
  const survivor = NODES.find((n) => n !== before)!;
  const after = await eventually(() => describeCluster(survivor), (r) => r.brokers.length === 2, 'the survivors\' brokers');
  assert.deepEqual(after.brokers.map((b) => b.brokerId), NODES.filter((n) => n !== before));
  const elected = await eventually(etcdController, (id) => id !== before && id !== -1, 'the controller elected in etcd');
  assert.ok(after.brokers.some((b) => b.brokerId === elected));
  // Metadata names only live brokers as controllerId now.
  for (let i = 0; i < 10; i++) assert.notEqual((await describeCluster(survivor)).controllerId, before);
});

test('a survivor\'s console page and /metrics show what its Metadata answers: the killed broker gone, its partitions offline or led elsewhere', async () => {
  const gone = NODES.find((n) => brokers.get(n)!.child.signalCode === 'SIGKILL')!;
  const survivors = NODES.filter((n) => n !== gone);
  // The console and the controller gauges name the etcd-elected controller (Metadata's controllerId is random).
  const controllerId = await etcdController();
  for (const n of survivors) {
    const base = brokers.get(n)!.http!;
    const page = await eventually(async () => (await globalThis.fetch(`${base}console/api/cluster`)).json() as Promise<any>,
      (c) => c.brokers.length === survivors.length && c.controllerId === controllerId, `broker ${n}'s cluster page`);
    assert.equal(page.mode, 'cluster');
    assert.deepEqual(page.brokers.map((b: any) => [b.nodeId, b.rack, b.controller, b.self, b.endpoints.map((e: any) => e.port)]),
      survivors.map((id) => [id, RACKS[id], id === controllerId, id === n, [brokers.get(id)!.port]]));
    // Every partition as Metadata answers it on the same broker: a leader gone is -1 (LEADER_NOT_AVAILABLE), offline.
    const answered = await roundTrip(clients.get(n)!, metadataApi, 12, { ...createMetadataRequest(), topics: null, allowAutoTopicCreation: false });
    const expected = answered.topics.flatMap((t) => t.partitions.map((p) => ({
      topic: t.name, partition: p.partitionIndex, leader: p.leaderId, leaderEpoch: p.leaderEpoch, replicas: p.replicaNodes, isr: p.isrNodes,
      offline: p.offlineReplicas, underReplicated: p.isrNodes.length < p.replicaNodes.length, leaderless: p.errorCode === ErrorCode.LEADER_NOT_AVAILABLE,
    }))).sort((a, b) => a.topic!.localeCompare(b.topic!) || a.partition - b.partition);
    assert.deepEqual(page.partitions, expected);
    assert.ok(expected.some((p) => p.offline.includes(gone)), 'some partition had a replica on the killed broker');
    assert.equal(page.offline, expected.filter((p) => p.leaderless).length);
    // The overview lists the live brokers and the controller; a topic's partitions tab each partition's leader.
    const overview = await (await globalThis.fetch(`${base}console/api/overview`)).json() as { controllerId: number; brokers: { nodeId: number; port: number }[] };
    assert.deepEqual([overview.controllerId, overview.brokers.map((b) => [b.nodeId, b.port])], [controllerId, survivors.map((id) => [id, brokers.get(id)!.port])]);
    const orders = await (await globalThis.fetch(`${base}console/api/topics/orders`)).json() as { partitionDetails: { partition: number; leader: number }[] };
    assert.deepEqual(orders.partitionDetails.map((p) => [p.partition, p.leader]),
      expected.filter((p) => p.topic === 'orders').filter((p) => orders.partitionDetails.some((d) => d.partition === p.partition)).map((p) => [p.partition, p.leader]));
    assert.equal(page.underReplicated, expected.filter((p) => p.underReplicated).length);

    // /metrics: the partitions this broker leads that are under-replicated; the offline count on the controller alone.
    const metrics = await (await globalThis.fetch(`${base}metrics`)).text();
    const gauge = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(metrics)?.[1]);
    const led = expected.filter((p) => p.leader === n);
    assert.equal(gauge('kafka_server_replicamanager_leadercount'), led.length);
    assert.equal(gauge('kafka_server_replicamanager_underreplicatedpartitions'), led.filter((p) => p.underReplicated).length);
    assert.equal(gauge('kafka_controller_kafkacontroller_offlinepartitionscount'), n === controllerId ? page.offline : 0);
    assert.equal(gauge('kafka_controller_kafkacontroller_activecontrollercount'), n === controllerId ? 1 : 0);
    assert.equal(gauge('kafka_brokers'), survivors.length);
  }
});

test('the killed broker restarted on its data: it registers again once its old session expired, follows what changed meanwhile, rejoins every ISR, and every partition is led', async () => {
  const { controllerId } = await describeCluster(NODES.find((n) => brokers.get(n)!.child.exitCode === null && brokers.get(n)!.child.signalCode === null)!);
  const gone = NODES.find((n) => brokers.get(n)!.child.signalCode === 'SIGKILL')!;
  const created = await roundTrip(clients.get(controllerId)!, createTopicsApi, 7, {
    ...createCreateTopicsRequest(), timeoutMs: 30_000, topics: [{ ...createCreatableTopic(), name: 'late', numPartitions: 2, replicationFactor: 2 }],
  });
  assert.equal(created.topics[0]!.errorCode, ErrorCode.NONE, created.topics[0]!.errorMessage ?? '');
  const restarted = await startGregor(join(dataDir, `node-${gone}`), [
    '-o', `node.id=${gone}`, '-o', `gregor.cluster.etcd.endpoints=${etcd.endpoint}`, '-o', 'broker.session.timeout.ms=2000', '-o', `broker.rack=${RACKS[gone]}`,
  ]);
  brokers.set(gone, restarted);
  clients.set(gone, await RawClient.connect(restarted.port));
  const cluster = await eventually(() => describeCluster(gone), (r) => r.brokers.length === 3, 'the restarted broker\'s DescribeCluster');
  assert.ok(NODES.includes(cluster.controllerId));
  assert.equal((await metadata(gone, 'late')).topics[0]!.topicId, created.topics[0]!.topicId);
  // Every broker answers the same partitions of 'orders' again, all led; each leader's log still holds kafkajs' two
  // records per partition, so the next record goes at offset 2.
  // The partitions it led moved to a survivor when its session expired (the controller's election); once it has caught
  // up it is in every ISR again, and every broker answers the same.
  const { topics: [orders] } = await eventually(() => metadata(gone, 'orders'),
    (r) => r.topics[0]!.partitions.every((p) => p.isrNodes.length === p.replicaNodes.length), 'the restarted broker back in every ISR');
  for (const n of NODES) await eventually(() => metadata(n, 'orders'), (r) => JSON.stringify(r.topics[0]!.partitions) === JSON.stringify(orders!.partitions), `broker ${n}'s view`);
  for (const p of orders!.partitions) {
    assert.equal(p.errorCode, ErrorCode.NONE);
    const written = await roundTrip(clients.get(p.leaderId)!, produceApi, 9, {
      transactionalId: null, acks: -1, timeoutMs: 30_000,
      topicData: [{ topicId: ZERO_UUID, name: 'orders', partitionData: [{ index: p.partitionIndex, records: batch(values('after')) }] }],
    });
    assert.deepEqual([written.responses[0]!.partitionResponses[0]!.errorCode, written.responses[0]!.partitionResponses[0]!.baseOffset], [ErrorCode.NONE, 2n]);
  }
});
