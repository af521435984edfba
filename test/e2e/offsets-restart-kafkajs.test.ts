// Committed offsets survive a restart of the real `gregor` command (issue 24): a kafkajs consumer commits after every
// message (autoCommitThreshold 1: one OffsetCommit, so one __consumer_offsets batch, per message), the broker stops
// and starts again on the same data dir, and OffsetFetch answers every partition's last commit. That each stored
// batch is read once at load is checked in test/coordinator/load-reads.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { kafkaFor, until } from '../coordinator/kafkajs-group-helpers.js';
import { startGregor, stopGregor, type GregorProcess } from './gregor-process.js';

const TOPIC = 'committed';
const PARTITIONS = 20;
const PER_PARTITION = 100;
const GROUP = 'commit-every-message';

test('a kafkajs consumer commits after each of 2,000 messages; a restarted gregor serves every committed offset', { timeout: 120_000 }, async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'gregor-offsets-restart-'));
  let gregor: GregorProcess | undefined;
  try {
    gregor = await startGregor(dataDir);
    const kafka = kafkaFor(gregor.port, 'offsets-restart');
    const admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic: TOPIC, numPartitions: PARTITIONS }] });
    const producer = kafka.producer();
    await producer.connect();
    for (let partition = 0; partition < PARTITIONS; partition++) {
      const messages = Array.from({ length: PER_PARTITION }, (_, i) => ({ partition, value: `${partition}-${i}` }));
      await producer.send({ topic: TOPIC, messages });
    }
    await producer.disconnect();

    const consumer = kafka.consumer({ groupId: GROUP, maxWaitTimeInMs: 100 });
    let consumed = 0;
    let commits = 0;
    consumer.on(consumer.events.COMMIT_OFFSETS, () => commits++);
    await consumer.connect();
    await consumer.subscribe({ topic: TOPIC, fromBeginning: true });
    await consumer.run({ autoCommitThreshold: 1, eachMessage: async () => void consumed++ });
    await until(() => consumed === PARTITIONS * PER_PARTITION && commits >= PARTITIONS * PER_PARTITION, 'every message consumed and committed', 100_000);
    await consumer.disconnect();
    const before = await admin.fetchOffsets({ groupId: GROUP, topics: [TOPIC] });
    await admin.disconnect();
    assert.ok(commits >= PARTITIONS * PER_PARTITION, `${commits} OffsetCommits`);

    assert.deepEqual(await stopGregor(gregor), { code: 0, signal: null });
    gregor = await startGregor(dataDir);
    const again = kafkaFor(gregor.port, 'offsets-restart').admin();
    await again.connect();
    try {
      const written = await again.fetchTopicOffsets('__consumer_offsets');
      const records = written.reduce((sum, p) => sum + Number(p.high), 0);
      assert.ok(records >= commits, `${records} records in __consumer_offsets for ${commits} commits`);
      const after = await again.fetchOffsets({ groupId: GROUP, topics: [TOPIC] });
      const byPartition = (result: typeof after) => result[0]!.partitions.map((p) => [p.partition, p.offset]).sort((a, b) => Number(a[0]) - Number(b[0]));
      assert.deepEqual(
        byPartition(after),
        Array.from({ length: PARTITIONS }, (_, p) => [p, String(PER_PARTITION)]),
      );
      assert.deepEqual(byPartition(after), byPartition(before));
    } finally {
      await again.disconnect();
    }
  } finally {
    if (gregor !== undefined) await stopGregor(gregor);
    await rm(dataDir, { recursive: true, force: true });
  }
});
