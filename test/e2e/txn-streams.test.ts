// Kafka Streams with processing.guarantee=exactly_once_v2 (compat-tests/clients/streams/WordCount.java: lines →
// words → groupBy/count → output) against gregor on the file engine. Input arrives in three phases; between them
// the broker restarts under the running app, then the app itself is killed (SIGKILL, mid-transaction at worst)
// and started again on the same state dir. A read_committed reader of the output must then see, per word, counts
// that only ever increase and end at exactly the number of times the word was produced: an increment applied
// twice (a transaction replayed without being aborted) or lost would show.
// STREAMS_AGAINST_REFERENCE=1 runs the same scenario against the reference Apache Kafka broker instead
// (compat-tests/reference/start.sh on port 19192), to check the scenario itself.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { until } from '../coordinator/kafkajs-group-helpers.js';
import {
  expectedCounts, gregorCluster, installStreams, kafkaFor, INPUT, OUTPUT, outputEnd, produceLines, readCommitted, referenceCluster, StreamsApp, watchCounts,
} from './streams-word-count.js';

const REFERENCE_PORT = 19192;

test('Kafka Streams exactly_once_v2 word count survives a broker restart and an app crash with exact counts', { timeout: 300_000 }, async (t) => {
  const began = performance.now();
  assert.ok(installStreams(), 'Kafka Streams installs');
  const reference = process.env['STREAMS_AGAINST_REFERENCE'] === '1';
  const dir = await mkdtemp(join(tmpdir(), 'gregor-streams-'));
  const stateDir = join(dir, 'streams-state');
  const cluster = reference ? referenceCluster(REFERENCE_PORT) : await gregorCluster(join(dir, 'log'));
  const apps: StreamsApp[] = [];
  try {
    const admin = kafkaFor(cluster.bootstrap).admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic: INPUT, numPartitions: 2 }, { topic: OUTPUT, numPartitions: 2 }] });
    await admin.disconnect();

    const first = new StreamsApp(cluster.bootstrap, 'wordcount', stateDir);
    apps.push(first);
    await until(() => first.running(), 'the Streams app runs', 60_000);
    t.diagnostic(`${Math.round(performance.now() - began)} ms: the app runs`);
    await produceLines(cluster.bootstrap, 0, 150);
    await until(async () => (await outputEnd(cluster.bootstrap)) > 0, 'the app commits its first counts', 60_000);
    t.diagnostic(`${Math.round(performance.now() - began)} ms: first counts committed`);

    // The broker goes away under the running app (open transactions included) and comes back with its data.
    await cluster.restart();
    t.diagnostic(`${Math.round(performance.now() - began)} ms: broker restarted`);
    await produceLines(cluster.bootstrap, 150, 300);

    // The app dies without closing; its successor (same state dir, so the same transactional id) fences it.
    await first.kill();
    const second = new StreamsApp(cluster.bootstrap, 'wordcount', stateDir);
    apps.push(second);
    await produceLines(cluster.bootstrap, 300, 400);
    await until(() => second.running(), 'the restarted Streams app runs', 60_000);
    t.diagnostic(`${Math.round(performance.now() - began)} ms: the restarted app runs`);
    const expected = expectedCounts(400);
    const total = [...expected.values()].reduce((a, b) => a + b, 0);
    const watcher = await watchCounts(cluster.bootstrap);
    try {
      await until(() => [...expected].every(([word, count]) => (watcher.last.get(word) ?? 0) >= count), 'every count is committed', 90_000);
    } finally {
      await watcher.consumer.disconnect();
    }
    assert.equal(await second.stop(), 0, 'the app closes cleanly');
    t.diagnostic(`${Math.round(performance.now() - began)} ms: every count committed; app stopped`);

    const rows = [...(await readCommitted(cluster.bootstrap, 0)), ...(await readCommitted(cluster.bootstrap, 1))];
    const last = new Map<string, number>();
    for (const [word, count] of rows) {
      const previous = last.get(word) ?? 0;
      assert.ok(count > previous, `${word}: count ${count} after ${previous} (an increment replayed or reordered)`);
      last.set(word, count);
    }
    assert.deepEqual(new Map([...last].sort()), new Map([...expected].sort()), `final counts of ${total} words`);
    assert.ok(second.states.every((s) => !s.startsWith('ERROR')), `the app hit no errors: ${second.states.join(', ')}`);
  } finally {
    for (const app of apps) await app.kill();
    await cluster.close();
    await rm(dir, { recursive: true, force: true });
  }
});
