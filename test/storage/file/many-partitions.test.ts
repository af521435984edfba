import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileLogStore } from '../../../src/storage/file/file-store.js';
import { batchOf } from '../batch-fixtures.js';

const root = mkdtempSync(join(tmpdir(), 'gregor-many-'));
after(() => rmSync(root, { recursive: true, force: true }));

const segmentFile = (logDir: string, dir: string, suffix: string) => join(logDir, dir, `${'0'.repeat(20)}${suffix}`);

test('many partitions open in parallel, keep their order, close and reopen clean with every byte', async () => {
  const logDir = join(root, 'a');
  const store = await FileLogStore.open({ logDir, nodeId: 1 });
  await store.createTopic('a', 40);
  await store.createTopic('b', 25);
  await store.addPartitions('b', 60);
  const log = store.log('b', 37)!;
  await log.append(await batchOf(3, 1_000), { leaderEpoch: 0 });
  await log.flush();
  // Written after the flush: close must still make it durable.
  await log.append(await batchOf(2, 2_000), { leaderEpoch: 0 });
  await store.close();

  const lines = readFileSync(join(logDir, 'recovery-point-offset-checkpoint'), 'utf8').trim().split('\n').slice(2);
  const expected = [...Array(40).keys()].map((p) => `a ${p} 0`).concat([...Array(60).keys()].map((p) => `b ${p} ${p === 37 ? 5 : 0}`));
  assert.deepEqual(lines, expected);
  // Index files are created at the first index write, as Kafka's LazyIndex: a partition never written has none.
  assert.deepEqual(readdirSync(join(logDir, 'a-3')).sort(), [`${'0'.repeat(20)}.log`, 'partition.metadata']);
  assert.equal(statSync(segmentFile(logDir, 'b-37', '.timeindex')).size, 12);

  const again = await FileLogStore.open({ logDir, nodeId: 1 });
  assert.equal(again.loadStats.cleanShutdown, true);
  assert.equal(again.loadStats.partitions, 100);
  assert.equal(again.loadStats.recoveredSegments, 0);
  assert.equal(again.log('b', 37)!.logEndOffset, 5);
  assert.equal(again.log('b', 59)!.logEndOffset, 0);
  // Closing an unchanged store leaves its segment files as they were.
  const before = readFileSync(segmentFile(logDir, 'b-37', '.timeindex'));
  await again.close();
  assert.deepEqual(readFileSync(segmentFile(logDir, 'b-37', '.timeindex')), before);
  const third = await FileLogStore.open({ logDir, nodeId: 1 });
  assert.equal(third.loadStats.cleanShutdown, true);
  assert.deepEqual((await third.log('b', 37)!.read(3, 10_000)).records.length > 0, true);
  await third.close();
});

test('a topic deleted right after its creation still lets the store close cleanly', async () => {
  const logDir = join(root, 'b');
  const store = await FileLogStore.open({ logDir, nodeId: 1 });
  await store.createTopic('gone', 30);
  await store.deleteTopic('gone');
  await store.createTopic('kept', 3);
  assert.equal(store.topic('kept')?.partitions, 3);
  assert.equal(store.topicById(store.topic('kept')!.topicId)?.name, 'kept');
  await store.close();
  assert.equal(readFileSync(join(logDir, 'kept-2', 'partition.metadata'), 'utf8'), `version: 0\ntopic_id: ${store.topic('kept')!.topicId}\n`);
  const again = await FileLogStore.open({ logDir, nodeId: 1 });
  assert.equal(again.loadStats.cleanShutdown, true);
  assert.deepEqual(again.topics().map((t) => t.name), ['kept']);
  assert.ok(Object.isFrozen(again.topic('kept')), 'topics are shared, not copied: they cannot be changed by a caller');
  await again.close();
});

test('a topic deleted and created again before its partition.metadata flush gets the new topic id', async () => {
  const logDir = join(root, 'c');
  const store = await FileLogStore.open({ logDir, nodeId: 1 });
  const first = await store.createTopic('again', 4);
  await store.deleteTopic('again');
  const second = await store.createTopic('again', 4);
  assert.notEqual(first.topicId, second.topicId);
  await store.close();
  for (let p = 0; p < 4; p++) {
    assert.equal(readFileSync(join(logDir, `again-${p}`, 'partition.metadata'), 'utf8'), `version: 0\ntopic_id: ${second.topicId}\n`);
  }
});

test('a partition.metadata lost in a crash is written again from the topic file', async () => {
  const logDir = join(root, 'd');
  const store = await FileLogStore.open({ logDir, nodeId: 1 });
  const created = await store.createTopic('lost', 2);
  await store.close();
  // A crash right after CreateTopics answered: no marker, and the background flush never ran.
  unlinkSync(join(logDir, '.kafka_cleanshutdown'));
  unlinkSync(join(logDir, 'lost-1', 'partition.metadata'));
  const again = await FileLogStore.open({ logDir, nodeId: 1 });
  assert.equal(again.loadStats.cleanShutdown, false);
  assert.equal(again.topic('lost')?.topicId, created.topicId);
  await again.close();
  assert.equal(readFileSync(join(logDir, 'lost-1', 'partition.metadata'), 'utf8'), `version: 0\ntopic_id: ${created.topicId}\n`);
});
