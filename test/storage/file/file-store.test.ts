import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileLogStore } from '../../../src/storage/file/file-store.js';
import { parseProperties } from '../../../src/storage/file/meta-properties.js';
import { ManualScheduler } from '../../../src/storage/scheduler.js';
import { isUuid } from '../../../src/storage/topic-id.js';
import { batchOf } from '../batch-fixtures.js';
import { offsetsOf } from '../log-contract.js';

const root = mkdtempSync(join(tmpdir(), 'gregor-store-'));
after(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const freshDir = () => join(root, `d-${n++}`);

test('topics, ids, configs and data survive a clean restart without recovery', async () => {
  const logDir = freshDir();
  const store = await FileLogStore.open({ logDir, nodeId: 1 });
  assert.equal(store.loadStats.cleanShutdown, false);
  const created = await store.createTopic('orders', 3, { 'retention.ms': '1000', 'segment.bytes': '400' });
  assert.ok(isUuid(created.topicId));
  await store.createTopic('with-dash-0', 1);
  for (let i = 0; i < 10; i++) await store.log('orders', 1)!.append(await batchOf(2, 1_000, 40), { leaderEpoch: 0 });
  await store.setTopicConfigs('orders', { 'retention.ms': '5000', 'segment.bytes': '400' });
  assert.equal(store.log('orders', 0)!.config.retentionMs, 5000);
  await store.close();
  assert.ok(existsSync(join(logDir, '.kafka_cleanshutdown')));

  const again = await FileLogStore.open({ logDir, nodeId: 1 });
  assert.equal(again.loadStats.cleanShutdown, true);
  assert.equal(again.loadStats.recoveredSegments, 0, 'a clean restart scans no log');
  assert.ok(!existsSync(join(logDir, '.kafka_cleanshutdown')), 'the marker is consumed at startup');
  assert.equal(again.clusterId, store.clusterId);
  assert.deepEqual(again.topic('orders'), { name: 'orders', topicId: created.topicId, partitions: 3, configs: { 'retention.ms': '5000', 'segment.bytes': '400' } });
  assert.ok(again.topic('with-dash-0'));
  assert.equal(again.topicById(created.topicId)?.name, 'orders');
  const log = again.log('orders', 1)!;
  assert.equal(log.config.segmentBytes, 400);
  assert.equal(log.logEndOffset, 20);
  assert.deepEqual(offsetsOf((await log.read(0, 60)).records), [[0, 1]]);
  assert.equal(readFileSync(join(logDir, 'orders-1', 'partition.metadata'), 'utf8'), `version: 0\ntopic_id: ${created.topicId}\n`);
  await again.close();
});

test('after a crash (no clean shutdown) the unflushed segments are recovered', async () => {
  const logDir = freshDir();
  const store = await FileLogStore.open({ logDir, nodeId: 1 });
  await store.createTopic('t', 1);
  for (let i = 0; i < 5; i++) await store.log('t', 0)!.append(await batchOf(2), { leaderEpoch: 0 });
  // No close(): the process "dies" here (its lock goes with it); a second store opens the same dir.
  await store.abandon();
  const after = await FileLogStore.open({ logDir, nodeId: 1 });
  assert.equal(after.loadStats.cleanShutdown, false);
  assert.equal(after.loadStats.recoveredSegments, 1);
  assert.equal(after.log('t', 0)!.logEndOffset, 10);
  await after.close();
});

test('meta.properties is written as KRaft writes it and checked on restart', async () => {
  const logDir = freshDir();
  const store = await FileLogStore.open({ logDir, nodeId: 7, clusterId: 'MkU3OEVBNTcwNTJENDM2Qg' });
  await store.close();
  const props = parseProperties(readFileSync(join(logDir, 'meta.properties'), 'utf8'));
  assert.equal(props.get('version'), '1');
  assert.equal(props.get('node.id'), '7');
  assert.equal(props.get('cluster.id'), 'MkU3OEVBNTcwNTJENDM2Qg');
  assert.ok(isUuid(props.get('directory.id')!));
  await assert.rejects(FileLogStore.open({ logDir, nodeId: 8 }), /node\.id 7/);
  await assert.rejects(FileLogStore.open({ logDir, nodeId: 7, clusterId: 'AAAAAAAAAAAAAAAAAAAAAQ' }), { code: 'INCONSISTENT_CLUSTER_ID' });
});

test('checkpoints use Kafka text formats', async () => {
  const logDir = freshDir();
  const store = await FileLogStore.open({ logDir, nodeId: 1 });
  await store.createTopic('t', 2);
  for (let i = 0; i < 3; i++) await store.log('t', 1)!.append(await batchOf(2), { leaderEpoch: 4 });
  await store.log('t', 1)!.deleteRecordsBefore(2);
  await store.settle();
  const starts = readFileSync(join(logDir, 'log-start-offset-checkpoint'), 'utf8').split('\n');
  assert.deepEqual(starts.slice(0, 2), ['0', '2']);
  assert.ok(starts.includes('t 1 2'));
  await store.close();
  const points = readFileSync(join(logDir, 'recovery-point-offset-checkpoint'), 'utf8').trim().split('\n');
  assert.deepEqual(points.slice(0, 2), ['0', '2']);
  assert.deepEqual(points.slice(2).sort(), ['t 0 0', 't 1 6']);
  assert.equal(readFileSync(join(logDir, 't-1', 'leader-epoch-checkpoint'), 'utf8'), '0\n1\n4 2\n');
  const again = await FileLogStore.open({ logDir, nodeId: 1 });
  assert.equal(again.log('t', 1)!.logStartOffset, 2, 'DeleteRecords survives a restart');
  await again.close();
});

test('deleting a topic renames its dirs and removes them after file.delete.delay.ms', async () => {
  const logDir = freshDir();
  const scheduler = new ManualScheduler(1_000);
  const store = await FileLogStore.open({ logDir, nodeId: 1, scheduler });
  await store.createTopic('gone', 2, { 'file.delete.delay.ms': '5000' });
  await store.log('gone', 0)!.append(await batchOf(1), { leaderEpoch: 0 });
  await store.deleteTopic('gone');
  assert.equal(store.topic('gone'), undefined);
  assert.equal(store.log('gone', 0), undefined);
  const pending = readdirSync(logDir).filter((f) => f.endsWith('-delete'));
  assert.equal(pending.length, 2);
  assert.ok(pending.every((f) => /^gone-\d\.[0-9a-f]{32}-delete$/.test(f)));
  await scheduler.advance(5_000);
  for (let i = 0; i < 20 && readdirSync(logDir).some((f) => f.endsWith('-delete')); i++) await new Promise((r) => setTimeout(r, 5));
  assert.deepEqual(readdirSync(logDir).filter((f) => f.startsWith('gone')), []);
  await assert.rejects(store.deleteTopic('gone'), { code: 'UNKNOWN_TOPIC_OR_PARTITION' });
  // The name is free again, with a new id and empty logs.
  await store.createTopic('gone', 1);
  assert.equal(store.log('gone', 0)!.logEndOffset, 0);
  await store.close();
  const again = await FileLogStore.open({ logDir, nodeId: 1 });
  assert.equal(again.topic('gone')!.partitions, 1);
  await again.close();
});

test('bad topic requests get Kafka error codes', async () => {
  const store = await FileLogStore.open({ logDir: freshDir(), nodeId: 1 });
  await store.createTopic('a', 1);
  await assert.rejects(store.createTopic('a', 1), { code: 'TOPIC_ALREADY_EXISTS' });
  await assert.rejects(store.createTopic('../escape', 1), { code: 'INVALID_TOPIC_EXCEPTION' });
  await assert.rejects(store.createTopic('b', 0), { code: 'INVALID_PARTITIONS' });
  await assert.rejects(store.addPartitions('a', 1), { code: 'INVALID_PARTITIONS' });
  const grown = await store.addPartitions('a', 3);
  assert.equal(grown.partitions, 3);
  assert.ok(store.log('a', 2));
  await store.close();
});

test('background retention runs on the injected scheduler', async () => {
  const scheduler = new ManualScheduler(1_000_000);
  const store = await FileLogStore.open({ logDir: freshDir(), nodeId: 1, scheduler });
  await store.createTopic('r', 1, { 'retention.ms': '1000', 'segment.bytes': '300' });
  const log = store.log('r', 0)!;
  for (let i = 0; i < 6; i++) await log.append(await batchOf(2, 1_000, 40), { leaderEpoch: 0 });
  await log.append(await batchOf(2, 2_000_000, 40), { leaderEpoch: 0 });
  store.startBackground({ retentionCheckMs: 10_000 });
  assert.equal(log.logStartOffset, 0);
  await scheduler.advance(10_000);
  await log.flush(); // queued behind the retention job
  assert.equal(log.logStartOffset, 12);
  await store.close();
});
