// Kafka Streams 4.3.1 on the streams rebalance protocol (KIP-1071, group.protocol=streams) with exactly_once_v2
// against gregor (file engine): the word count (compat-tests/clients/streams/WordCount.java) starts alone, a second
// instance joins and the tasks are split between them, the second leaves, the broker restarts, the first is killed
// and started again on its state dir. A read_committed reader must see per-word counts that only increase and end
// exactly right, and kafka-streams-groups must show the group at each step as Kafka 4.3.1 shows it.
// STREAMS_AGAINST_REFERENCE=1 runs the same scenario against the reference Apache Kafka broker (port 19422).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { until } from '../coordinator/kafkajs-group-helpers.js';
import { runJavaTool } from './java-tools.js';
import {
  expectedCounts, gregorCluster, installStreams, kafkaFor, INPUT, OUTPUT, outputEnd, produceLines, readCommitted, referenceCluster, StreamsApp, watchCounts,
} from './streams-word-count.js';

const REFERENCE_PORT = 19422;
const APP = 'wordcount';
/** A killed member's tasks move once its session expires: 10 s instead of Kafka's 45 s default (on both brokers). */
const SETTINGS = { 'group.streams.min.session.timeout.ms': '6000', 'group.streams.session.timeout.ms': '10000' };

/** `kafka-streams-groups --describe --members` rows: member id and its active tasks, by member. */
async function members(bootstrap: string): Promise<string[]> {
  const out = await runJavaTool('kafka-streams-groups', ['--bootstrap-server', bootstrap, '--describe', '--group', APP, '--members']);
  return out.stdout.trim().split('\n').slice(1).map((row) => row.trim().replace(/\s+/g, ' ').split(' ').filter((_, i) => i === 0 || i >= 4).join(' '));
}

async function state(bootstrap: string): Promise<string> {
  const out = await runJavaTool('kafka-streams-groups', ['--bootstrap-server', bootstrap, '--describe', '--group', APP, '--state']);
  // The row under the header (an empty group's is preceded by Kafka's "has no active members" line).
  return out.stdout.trim().split('\n').at(-1)!.trim().replace(/\s+/g, ' ').replace(/127\.0\.0\.1:\d+/, 'HOST');
}

test('Kafka Streams on the streams protocol: two instances share the tasks, one leaves, the broker restarts, the app restarts; exact counts', { timeout: 600_000 }, async (t) => {
  const began = performance.now();
  const step = (what: string) => t.diagnostic(`${Math.round(performance.now() - began)} ms: ${what}`);
  assert.ok(installStreams(), 'Kafka Streams installs');
  const reference = process.env['STREAMS_AGAINST_REFERENCE'] === '1';
  const dir = await mkdtemp(join(tmpdir(), 'gregor-streams-group-'));
  const cluster = reference ? referenceCluster(REFERENCE_PORT, SETTINGS) : await gregorCluster(join(dir, 'log'), SETTINGS);
  const apps: StreamsApp[] = [];
  const start = (name: string): StreamsApp => {
    const app = new StreamsApp(cluster.bootstrap, APP, join(dir, name), 'streams');
    apps.push(app);
    return app;
  };
  try {
    const admin = kafkaFor(cluster.bootstrap).admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic: INPUT, numPartitions: 4 }, { topic: OUTPUT, numPartitions: 2 }] });
    await admin.disconnect();

    const a = start('a');
    await until(() => a.running(), 'instance a runs', 90_000);
    await produceLines(cluster.bootstrap, 0, 100);
    await until(async () => (await outputEnd(cluster.bootstrap)) > 0, 'the first counts are committed', 60_000);
    step('a runs alone and commits');
    // One member with every task of both subtopologies (the source and the repartition topic have 4 partitions).
    assert.deepEqual((await members(cluster.bootstrap)).map((m) => m.split(' ').slice(1).join(' ')), ['ACTIVE: 0:[0,1,2,3]; 1:[0,1,2,3];']);

    const b = start('b');
    await until(async () => {
      const rows = await members(cluster.bootstrap);
      return rows.length === 2 && rows.every((m) => /ACTIVE: 0:\[\d,\d\]; 1:\[\d,\d\];$/.test(m));
    }, 'the two instances own two tasks of each subtopology', 120_000);
    step('a and b share the tasks');
    assert.equal(await state(cluster.bootstrap), `${APP} HOST (1) Stable 2`);
    await produceLines(cluster.bootstrap, 100, 200);

    assert.equal(await b.stop(), 0, 'b closes cleanly');
    await until(async () => (await members(cluster.bootstrap)).length === 1, 'b left the group', 60_000);
    step('b left');
    await produceLines(cluster.bootstrap, 200, 300);

    await cluster.restart();
    step('broker restarted');
    await produceLines(cluster.bootstrap, 300, 350);
    // a dies without leaving; its successor (same state dir and process id, a new member) takes over once the dead
    // member's session expires.
    await a.kill();
    const a2 = start('a');
    await produceLines(cluster.bootstrap, 350, 400);
    await until(() => a2.running(), 'the restarted instance runs', 120_000);
    step('a restarted');

    const expected = expectedCounts(400);
    const watcher = await watchCounts(cluster.bootstrap);
    try {
      await until(() => [...expected].every(([word, count]) => (watcher.last.get(word) ?? 0) >= count), 'every count is committed', 120_000);
    } finally {
      await watcher.consumer.disconnect();
    }
    assert.equal(await a2.stop(), 0, 'the app closes cleanly');
    step('every count committed');
    const rows = [...(await readCommitted(cluster.bootstrap, 0)), ...(await readCommitted(cluster.bootstrap, 1))];
    const last = new Map<string, number>();
    for (const [word, count] of rows) {
      const previous = last.get(word) ?? 0;
      assert.ok(count > previous, `${word}: count ${count} after ${previous} (an increment replayed or reordered)`);
      last.set(word, count);
    }
    assert.deepEqual(new Map([...last].sort()), new Map([...expected].sort()), 'final counts');
    for (const app of apps) assert.ok(app.states.every((s) => !s.startsWith('ERROR')), `no app hit an error: ${app.states.join(', ')}`);
    const listed = await runJavaTool('kafka-streams-groups', ['--bootstrap-server', cluster.bootstrap, '--list']);
    assert.equal(listed.stdout, `${APP}\n`);
    await until(async () => (await state(cluster.bootstrap)) === `${APP} HOST (1) Empty 0`, 'the group is empty', 60_000);
  } finally {
    for (const app of apps) await app.kill();
    await cluster.close();
    await rm(dir, { recursive: true, force: true });
  }
});
