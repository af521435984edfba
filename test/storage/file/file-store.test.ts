import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileLogStore } from '../../../src/storage/file/file-store.js';
import { parseProperties } from '../../../src/storage/file/meta-properties.js';
import { setAsideDirName } from '../../../src/storage/file/segment-files.js';
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
  const created = await store.createTopic('orders', 3, { 'retention.ms': '1000', 'internal.segment.bytes': '400' });
  assert.ok(isUuid(created.topicId));
  await store.createTopic('with-dash-0', 1);
  for (let i = 0; i < 10; i++) await store.log('orders', 1)!.append(await batchOf(2, 1_000, 40), { leaderEpoch: 0 });
  await store.setTopicConfigs('orders', { 'retention.ms': '5000', 'internal.segment.bytes': '400' });
  assert.equal(store.log('orders', 0)!.config.retentionMs, 5000);
  await store.close();
  assert.ok(existsSync(join(logDir, '.kafka_cleanshutdown')));

  const again = await FileLogStore.open({ logDir, nodeId: 1 });
  assert.equal(again.loadStats.cleanShutdown, true);
  assert.equal(again.loadStats.recoveredSegments, 0, 'a clean restart scans no log');
  assert.ok(!existsSync(join(logDir, '.kafka_cleanshutdown')), 'the marker is consumed at startup');
  assert.equal(again.clusterId, store.clusterId);
  assert.deepEqual(again.topic('orders'), { name: 'orders', topicId: created.topicId, partitions: 3, configs: { 'retention.ms': '5000', 'internal.segment.bytes': '400' } });
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

test('a log dir holding data without meta.properties is refused, as Kafka refuses it, rather than given a new cluster id', async () => {
  const logDir = freshDir();
  const store = await FileLogStore.open({ logDir, nodeId: 1 });
  await store.createTopic('kept', 1);
  await store.close();
  rmSync(join(logDir, 'meta.properties'));
  await assert.rejects(FileLogStore.open({ logDir, nodeId: 1 }), {
    code: 'KAFKA_STORAGE_ERROR',
    message: `log dir ${logDir} holds data (kept-0) but no meta.properties: its cluster id is lost. Restore ${join(logDir, 'meta.properties')}, or empty the dir to start a new cluster`,
  });
  assert.equal(existsSync(join(logDir, 'meta.properties')), false, 'nothing was written');
  // Only the topic file left: still a previous run's.
  rmSync(join(logDir, 'kept-0'), { recursive: true });
  for (const name of readdirSync(logDir)) if (name !== 'topics') rmSync(join(logDir, name), { recursive: true });
  await assert.rejects(FileLogStore.open({ logDir, nodeId: 1 }), /holds data \(topics\/kept\.json\) but no meta\.properties/);
  // An empty dir (an empty topics/ is what a start creates first) is formatted.
  rmSync(join(logDir, 'topics', 'kept.json'));
  const fresh = await FileLogStore.open({ logDir, nodeId: 1 });
  assert.ok(existsSync(join(logDir, 'meta.properties')));
  await fresh.close();
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

test('a deleted partition is renamed as Kafka names it: the topic cut so the name fits 255 bytes', () => {
  for (const length of [1, 100, 209, 210, 213, 214, 247, 249]) {
    for (const partition of [0, 7, 12345]) {
      const topic = 'x'.repeat(length);
      for (const suffix of ['-delete', '-stray']) {
        const name = setAsideDirName(topic, partition, suffix);
        const tail = `-${partition}.`;
        const kept = Math.min(length, 255 - (tail.length + 32 + suffix.length));
        assert.equal(name.length, kept + tail.length + 32 + suffix.length);
        assert.ok(name.length <= 255);
        assert.equal(name.slice(0, kept + tail.length), topic.slice(0, kept) + tail);
        assert.match(name.slice(kept + tail.length), new RegExp(`^[0-9a-f]{32}${suffix}$`));
      }
    }
  }
  // 249 characters: 249 - (3 + 32 + 7) = 42 characters of the topic go.
  assert.equal(setAsideDirName('y'.repeat(249), 0, '-delete').length, 255);
  assert.ok(setAsideDirName('y'.repeat(249), 0, '-delete').startsWith(`${'y'.repeat(213)}-0.`));
});

test('a name of 249 characters creates, deletes, is created again empty, and survives restarts', async () => {
  const logDir = freshDir();
  const name = 'n'.repeat(249);
  const store = await FileLogStore.open({ logDir, nodeId: 1 });
  await store.createTopic(name, 2, { 'file.delete.delay.ms': '3600000' });
  await store.log(name, 1)!.append(await batchOf(3), { leaderEpoch: 0 });
  await store.setTopicConfigs(name, { 'file.delete.delay.ms': '3600000', 'retention.ms': '1000' });
  await store.close();
  const again = await FileLogStore.open({ logDir, nodeId: 1 });
  assert.equal(again.log(name, 1)!.logEndOffset, 3);
  await again.deleteTopic(name);
  const pending = readdirSync(logDir).filter((f) => f.endsWith('-delete')).sort();
  assert.deepEqual(pending.map((f) => [f.length, f.slice(0, 216)]).sort(), [[255, `${'n'.repeat(213)}-0.`], [255, `${'n'.repeat(213)}-1.`]]);
  await again.createTopic(name, 2);
  assert.equal(again.log(name, 1)!.logEndOffset, 0);
  await again.close();
  const warnings: string[] = [];
  const third = await FileLogStore.open({ logDir, nodeId: 1, warn: (m) => warnings.push(m) });
  assert.deepEqual(readdirSync(logDir).filter((f) => f.endsWith('-delete')), [], 'a restart removes the renamed dirs');
  assert.equal(warnings.filter((w) => w.includes('-delete')).length, 2);
  assert.equal(third.log(name, 1)!.logEndOffset, 0);
  assert.deepEqual(readdirSync(join(logDir, 'topics')), [`${name}.json`]);
  await third.close();
});

test('a partition dir left behind by a deleted topic is set aside, never served, when the name is created again', async () => {
  const logDir = freshDir();
  const store = await FileLogStore.open({ logDir, nodeId: 1 });
  const old = await store.createTopic('gone', 1);
  await store.log('gone', 0)!.append(await batchOf(4), { leaderEpoch: 0 });
  await store.close();
  // What a crash between the topic file's removal and the dir's rename leaves (or a rename and removal that failed).
  rmSync(join(logDir, 'topics', 'gone.json'));
  const warnings: string[] = [];
  const again = await FileLogStore.open({ logDir, nodeId: 1, warn: (m) => warnings.push(m) });
  assert.equal(again.topic('gone'), undefined);
  const created = await again.createTopic('gone', 2);
  for (const p of [0, 1]) assert.equal(again.log('gone', p)!.logEndOffset, 0);
  assert.deepEqual((await again.log('gone', 0)!.read(0, 1 << 20)).records, []);
  const strays = readdirSync(logDir).filter((f) => f.endsWith('-stray'));
  assert.equal(strays.length, 1);
  assert.match(strays[0]!, /^gone-0\.[0-9a-f]{32}-stray$/);
  assert.ok(readdirSync(join(logDir, strays[0]!)).includes('00000000000000000000.log'), 'the old data is kept aside');
  assert.equal(warnings.length, 1);
  assert.match(warnings[0]!, new RegExp(`partition gone-0: its partition.metadata names topic id ${old.topicId}; it is not served and was renamed to .*-stray`));
  await again.close();
  const third = await FileLogStore.open({ logDir, nodeId: 1 });
  assert.equal(third.topic('gone')!.topicId, created.topicId);
  assert.equal(third.log('gone', 0)!.logEndOffset, 0);
  assert.equal(readFileSync(join(logDir, 'gone-0', 'partition.metadata'), 'utf8'), `version: 0\ntopic_id: ${created.topicId}\n`);
  await third.close();
});

test('at start-up a partition dir holding another topic id is set aside, not loaded', async () => {
  const logDir = freshDir();
  const store = await FileLogStore.open({ logDir, nodeId: 1 });
  const topic = await store.createTopic('t', 1);
  await store.log('t', 0)!.append(await batchOf(2), { leaderEpoch: 0 });
  await store.close();
  writeFileSync(join(logDir, 't-0', 'partition.metadata'), 'version: 0\ntopic_id: AAAAAAAAAAAAAAAAAAAAAQ\n');
  const warnings: string[] = [];
  const again = await FileLogStore.open({ logDir, nodeId: 1, warn: (m) => warnings.push(m) });
  assert.equal(again.log('t', 0)!.logEndOffset, 0);
  assert.equal(readdirSync(logDir).filter((f) => /^t-0\.[0-9a-f]{32}-stray$/.test(f)).length, 1);
  assert.match(warnings.join('\n'), /names topic id AAAAAAAAAAAAAAAAAAAAAQ/);
  await again.close();
  assert.equal(readFileSync(join(logDir, 't-0', 'partition.metadata'), 'utf8'), `version: 0\ntopic_id: ${topic.topicId}\n`);
});

test('a clean close, then a middle segment cut short: the store serves every later segment, only the torn batches are gone', async () => {
  const logDir = freshDir();
  const store = await FileLogStore.open({ logDir, nodeId: 1 });
  await store.createTopic('torn', 1, { 'internal.segment.bytes': '1000' });
  // 40 batches of 5 records: about 4 batches a segment.
  for (let i = 0; i < 40; i++) await store.log('torn', 0)!.append(await batchOf(5, 1_000 + i, 40), { leaderEpoch: 0 });
  const bases = store.log('torn', 0)!.segments.map((s) => s.baseOffset);
  assert.ok(bases.length >= 8);
  await store.close();
  // The third segment keeps one whole batch and half of the next.
  const file = join(logDir, 'torn-0', `${String(bases[2]).padStart(20, '0')}.log`);
  const bytes = readFileSync(file);
  writeFileSync(file, bytes.subarray(0, 12 + bytes.readInt32BE(8) + 20));
  const warnings: string[] = [];
  const again = await FileLogStore.open({ logDir, nodeId: 1, warn: (m) => warnings.push(m) });
  assert.equal(again.loadStats.cleanShutdown, true);
  const log = again.log('torn', 0)!;
  assert.deepEqual(log.segments.map((s) => s.baseOffset), bases);
  assert.equal(log.logEndOffset, 200);
  const offsets: number[] = [];
  for (let offset = 0; offset < log.logEndOffset; ) {
    const read = offsetsOf((await log.read(offset, 1 << 20)).records);
    assert.ok(read.length > 0, `a fetch at ${offset} gets records`);
    for (const [first, last] of read) for (let o = first; o <= last; o++) offsets.push(o);
    offset = read.at(-1)![1] + 1;
  }
  const lost = new Set(Array.from({ length: bases[3]! - bases[2]! - 5 }, (_, i) => bases[2]! + 5 + i));
  assert.deepEqual(offsets, Array.from({ length: 200 }, (_, i) => i).filter((o) => !lost.has(o)));
  assert.equal(warnings.length, 1);
  assert.match(warnings[0]!, new RegExp(`^torn-0: corruption found in segment ${bases[2]}, .* the segments after it are kept`));
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
  await store.createTopic('r', 1, { 'retention.ms': '1000', 'internal.segment.bytes': '300' });
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
