// Leader failover across three gregor processes on a real etcd (RF=3, min.insync.replicas=2): a kafkajs idempotent
// producer and the Java producer write with acks=all while the partition's leader is killed with SIGKILL; once its session expires the
// controller elects a new leader from the ISR, kafka-topics --describe shows it and the shrunk ISR, and every
// acknowledged record is read back once, in order. The broker restarted rejoins the ISR; kafka-leader-election
// --election-type preferred gives it its leadership back; a SIGTERM (controlled shutdown) moves its leadership away
// before the process exits. A leader paused (SIGSTOP) past its session loses its leadership the same way and, resumed,
// follows the new leader and rejoins the ISR.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import kafkajs from 'kafkajs';
import { Etcd3 } from 'etcd3';
import { installJavaTools, runJavaProgramOk, runJavaToolOk } from './java-tools.js';
import { startEtcd, type EtcdServer } from './etcd-server.js';
import { killGregor, startGregor, stopGregor, type GregorProcess } from './gregor-process.js';

const NODES = [1, 2, 3];
const SESSION_MS = 3000;
const TOPIC = 'failover';

let etcd: EtcdServer;
let dataDir: string;
const brokers = new Map<number, GregorProcess>();

const args = (n: number): string[] => ['-o', `node.id=${n}`, '-o', `gregor.cluster.etcd.endpoints=${etcd.endpoint}`,
  '-o', `broker.session.timeout.ms=${SESSION_MS}`, '-o', 'replica.lag.time.max.ms=2000', '-o', 'auto.leader.rebalance.enable=false'];

before(async () => {
  installJavaTools();
  etcd = await startEtcd();
  dataDir = mkdtempSync(join(tmpdir(), 'gregor-failover-'));
  const started = await Promise.all(NODES.map((n) => startGregor(join(dataDir, `node-${n}`), args(n))));
  for (const [i, broker] of started.entries()) brokers.set(NODES[i]!, broker);
});

after(async () => {
  for (const broker of brokers.values()) {
    if (broker.child.exitCode !== null || broker.child.signalCode !== null) continue;
    broker.child.kill('SIGCONT');
    await stopGregor(broker);
  }
  await etcd?.stop();
  if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
});

/** Brokers paused with SIGSTOP: left out of the tools' bootstrap list. */
const paused = new Set<number>();
const alive = (): number[] => NODES.filter((n) => brokers.get(n)!.child.exitCode === null && brokers.get(n)!.child.signalCode === null && !paused.has(n));
const bootstrap = (): string => alive().map((n) => `127.0.0.1:${brokers.get(n)!.port}`).join(',');

/** "Leader: 2 Replicas: 1,2,3 Isr: 2,3" of partition 0, as kafka-topics --describe prints it. */
async function describe(): Promise<{ leader: number; replicas: string; isr: string }> {
  const shown = await runJavaToolOk('kafka-topics', ['--bootstrap-server', bootstrap(), '--describe', '--topic', TOPIC]);
  const line = shown.split('\n').find((l) => l.startsWith(`\tTopic: ${TOPIC}\tPartition: 0\t`));
  assert.ok(line !== undefined, shown);
  const field = (name: string): string => line.split('\t').find((f) => f.startsWith(`${name}: `))!.slice(name.length + 2);
  return { leader: Number(field('Leader')), replicas: field('Replicas'), isr: field('Isr') };
}

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

/** Whether the broker's registration (its session) is in etcd. */
async function registered(nodeId: number): Promise<boolean> {
  const client = new Etcd3({ hosts: etcd.endpoint });
  try {
    return (await client.get(`/gregor/brokers/${nodeId}`).string()) !== null;
  } finally {
    client.close();
  }
}

/** The partition's leader as etcd holds it. */
async function etcdLeader(): Promise<number> {
  const client = new Etcd3({ hosts: etcd.endpoint });
  try {
    const value = await client.get(`/gregor/partitions/${TOPIC}/0`).string();
    return value === null ? -1 : (JSON.parse(value) as { leader: number }).leader;
  } finally {
    client.close();
  }
}

test('the leader killed during acks=all idempotent runs of kafkajs and the Java producer: a new leader from the ISR, no acknowledged record lost or duplicated', async () => {
  await runJavaToolOk('kafka-topics', ['--bootstrap-server', bootstrap(), '--create', '--topic', TOPIC,
    '--replica-assignment', '1:2:3', '--config', 'min.insync.replicas=2']);
  assert.deepEqual(await describe(), { leader: 1, replicas: '1,2,3', isr: '1,2,3' });
  const kafka = new kafkajs.Kafka({ clientId: 'failover', brokers: bootstrap().split(','), logLevel: kafkajs.logLevel.NOTHING,
    retry: { retries: 30, initialRetryTime: 100, maxRetryTime: 1000 } });
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
  const startedFile = join(dataDir, 'java-started');
  const stopFile = join(dataDir, 'java-stop');
  const java = runJavaProgramOk('test/e2e/java/FailoverProducer.java', [bootstrap(), TOPIC, 'j', startedFile, stopFile]);
  await eventually(async () => existsSync(startedFile), (started) => started, 'the Java producer\'s first acknowledgement', 120_000);
  await eventually(async () => acked.length, (n) => n >= 50, 'records acknowledged before the kill');
  await killGregor(brokers.get(1)!);
  // Metadata may name the dead broker as controllerId until its session expires: the tool asks after that.
  await eventually(() => registered(1), (yes) => !yes, 'the killed broker\'s registration expired', 90_000);
  const moved = await eventually(describe, (d) => d.leader !== 1 && d.leader !== -1, 'a new leader', 90_000);
  assert.deepEqual(moved.replicas, '1,2,3');
  assert.ok(moved.isr === '2,3' || moved.isr === '3,2', `the ISR without the dead broker: ${moved.isr}`);
  const atElection = acked.length;
  await eventually(async () => acked.length, (n) => n >= atElection + 50, 'records acknowledged by the new leader');
  stop = true;
  writeFileSync(stopFile, '');
  await writing;
  await producer.disconnect();
  const javaAcked = (await java).split('\n').filter((line) => line !== '');
  assert.ok(javaAcked.length > 0);

  const consumer = kafka.consumer({ groupId: 'failover-readers' });
  await consumer.connect();
  await consumer.subscribe({ topic: TOPIC, fromBeginning: true });
  const read: string[] = [];
  await consumer.run({ eachMessage: async ({ message }) => { read.push(message.value!.toString()); } });
  await eventually(async () => read.length, (n) => n >= acked.length + javaAcked.length, 'every acknowledged record read');
  await consumer.disconnect();
  const ours = read.filter((v) => v.startsWith('v'));
  assert.deepEqual(ours.slice(0, acked.length), acked, 'each record kafkajs saw acknowledged once, in order');
  const theirs = read.filter((v) => v.startsWith('j'));
  assert.deepEqual(theirs.slice(0, javaAcked.length), javaAcked, 'each record the Java producer saw acknowledged once, in order');
  assert.equal(new Set(read).size, read.length, 'no duplicate');
});

test('the killed broker restarted: it rejoins the ISR; kafka-leader-election --election-type preferred gives it back its leadership', async () => {
  brokers.set(1, await startGregor(join(dataDir, 'node-1'), args(1)));
  await eventually(describe, (d) => d.isr.split(',').sort().join(',') === '1,2,3', 'the ISR grown back');
  assert.notEqual((await describe()).leader, 1);
  const out = await runJavaToolOk('kafka-leader-election', ['--bootstrap-server', bootstrap(), '--election-type', 'preferred', '--topic', TOPIC, '--partition', '0']);
  assert.match(out, new RegExp(`Successfully completed leader election \\(PREFERRED\\) for partitions ${TOPIC}-0`));
  await eventually(describe, (d) => d.leader === 1, 'leadership back on broker 1');
  const again = await runJavaToolOk('kafka-leader-election', ['--bootstrap-server', bootstrap(), '--election-type', 'preferred', '--topic', TOPIC, '--partition', '0']);
  assert.match(again, new RegExp(`Valid replica already elected for partitions ${TOPIC}-0`));
});

test('SIGTERM: a controlled shutdown moves the leadership away before the process exits', async () => {
  assert.equal(await etcdLeader(), 1);
  const exited = brokers.get(1)!.exited;
  let leaderAtExit = -2;
  const watching = exited.then(async () => { leaderAtExit = await etcdLeader(); });
  await stopGregor(brokers.get(1)!);
  await watching;
  assert.ok(leaderAtExit === 2 || leaderAtExit === 3, `the leader when broker 1 exited: ${leaderAtExit}`);
  assert.ok(brokers.get(1)!.output.some((l) => l.includes('Controlled shutdown: no partition led here any more')), 'the broker waited for it');
});

test('a leader paused (SIGSTOP) past its session: a new leader is elected; resumed, the old one follows it and rejoins the ISR', async () => {
  brokers.set(1, await startGregor(join(dataDir, 'node-1'), args(1)));
  await eventually(describe, (d) => d.isr.split(',').sort().join(',') === '1,2,3', 'broker 1 back in the ISR');
  const before = await describe();
  paused.add(before.leader);
  brokers.get(before.leader)!.child.kill('SIGSTOP');
  try {
    // Until its session expires Metadata may name the paused broker as controllerId, where the Java admin's
    // controller-bound calls would wait: etcd says when it is gone and the leadership moved.
    await eventually(() => registered(before.leader), (yes) => !yes, 'the paused broker\'s registration expired', 90_000);
    await eventually(etcdLeader, (leader) => leader !== before.leader && leader !== -1, 'the leadership moved in etcd', 90_000);
    const moved = await eventually(describe, (d) => d.leader !== before.leader && d.leader !== -1, 'a leader other than the paused one', 90_000);
    assert.ok(!moved.isr.split(',').includes(String(before.leader)), `the paused broker out of the ISR: ${moved.isr}`);
    const kafka = new kafkajs.Kafka({ clientId: 'failover-paused', brokers: bootstrap().split(','), logLevel: kafkajs.logLevel.NOTHING });
    const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    await producer.send({ topic: TOPIC, acks: -1, messages: [{ partition: 0, value: 'while-paused' }] });
    await producer.disconnect();
  } finally {
    brokers.get(before.leader)!.child.kill('SIGCONT');
    paused.delete(before.leader);
  }
  const back = await eventually(describe, (d) => d.isr.split(',').sort().join(',') === '1,2,3', 'the resumed broker back in the ISR', 90_000);
  assert.notEqual(back.leader, before.leader);
});
