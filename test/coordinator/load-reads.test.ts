// Loading the coordinators' logs reads each stored byte once (issue 24: a read holding many batches was taken for
// one batch, so every read advanced one batch and re-read the rest: restart time grew with the square of the
// commits). Over the file engine, where one read answers with many batches; counted through the store the loaders
// are given, a wrapper over the real store that adds up what their reads returned.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveBrokerConfig } from '../../src/config/index.js';
import { GroupCoordinator } from '../../src/coordinator/group-coordinator.js';
import { TxnLog, TRANSACTION_STATE_TOPIC } from '../../src/coordinator/txn/txn-log.js';
import type { TxnRecord } from '../../src/coordinator/txn/txn-records.js';
import { createOffsetCommitRequest, createOffsetCommitRequestTopic } from '../../src/protocol/generated/offset-commit.js';
import { ErrorCode } from '../../src/protocol/error-codes.js';
import { FileLogStore } from '../../src/storage/file/file-store.js';
import type { LogStore } from '../../src/storage/log-store.js';
import type { PartitionLog } from '../../src/storage/log.js';
import { ManualScheduler } from '../../src/storage/scheduler.js';

const root = mkdtempSync(join(tmpdir(), 'gregor-load-reads-'));
after(() => rmSync(root, { recursive: true, force: true }));

const READ_BYTES = 16 * 1024;
const config = resolveBrokerConfig({
  'offsets.topic.num.partitions': '1',
  'offsets.load.buffer.size': String(READ_BYTES),
  'transaction.state.log.num.partitions': '1',
  'transaction.state.log.load.buffer.size': String(READ_BYTES),
});

interface ReadCount {
  reads: number;
  bytes: number;
}

/** The store, with every read of `topic`'s logs counted (calls and bytes returned). */
function countingReads(store: LogStore, topic: string): { store: LogStore; count: ReadCount } {
  const count: ReadCount = { reads: 0, bytes: 0 };
  const countLog = (log: PartitionLog): PartitionLog =>
    new Proxy(log, {
      get(target, prop) {
        if (prop === 'read') {
          return async (...args: Parameters<PartitionLog['read']>) => {
            const result = await target.read(...args);
            count.reads++;
            count.bytes += result.bytes;
            return result;
          };
        }
        const value: unknown = Reflect.get(target, prop, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  const wrapped = new Proxy(store, {
    get(target, prop) {
      if (prop === 'log') {
        return (name: string, partition: number) => {
          const log = target.log(name, partition);
          return log !== undefined && name === topic ? countLog(log) : log;
        };
      }
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { store: wrapped, count };
}

test('__consumer_offsets: thousands of commits, each its own batch, load with each byte read once and every offset restored', async () => {
  const logDir = join(root, 'offsets');
  const commits = 3000;
  const partitions = 1000;
  const first = await FileLogStore.open({ logDir, nodeId: 1 });
  const writer = await GroupCoordinator.open({ store: first, config, scheduler: new ManualScheduler(1_000) });
  for (let i = 0; i < commits; i++) {
    // One OffsetCommit per call, as a consumer sends them: one batch each in __consumer_offsets.
    const [topic] = await writer.commitOffsets(
      {
        ...createOffsetCommitRequest(),
        groupId: 'many-commits',
        generationIdOrMemberEpoch: -1,
        memberId: '',
        topics: [{ ...createOffsetCommitRequestTopic(), name: 'orders', partitions: [{ partitionIndex: i % partitions, committedOffset: BigInt(i), committedLeaderEpoch: -1, committedMetadata: null }] }],
      },
      8,
    );
    assert.equal(topic!.partitions[0]!.errorCode, ErrorCode.NONE);
  }
  await writer.close();
  const log = first.log('__consumer_offsets', 0)!;
  assert.equal(log.logEndOffset, commits, 'one record per commit');
  const size = log.sizeInBytes();
  assert.ok(size > 10 * READ_BYTES, `the log (${size} bytes) takes many reads`);
  await first.close();

  const reopened = await FileLogStore.open({ logDir, nodeId: 1 });
  const { store, count } = countingReads(reopened, '__consumer_offsets');
  const reader = await GroupCoordinator.open({ store, config, scheduler: new ManualScheduler(2_000) });
  assert.equal(count.bytes, size, 'every batch is read once');
  assert.ok(count.reads <= Math.ceil(size / (READ_BYTES / 2)), `${count.reads} reads of ${READ_BYTES} bytes for ${size} bytes`);

  const fetched = await reader.fetchOffsets('many-commits', null);
  assert.equal(fetched.errorCode, ErrorCode.NONE);
  const restored = new Map(fetched.topics[0]!.partitions.map((p) => [p.partitionIndex, p.committedOffset]));
  assert.equal(restored.size, partitions);
  for (let p = 0; p < partitions; p++) assert.equal(restored.get(p), BigInt(commits - partitions + p), `partition ${p}: its last commit`);
  await reader.close();
  await reopened.close();
});

test('__transaction_state: thousands of state records, each its own batch, load with each byte read once', async () => {
  const logDir = join(root, 'txn');
  const records = 3000;
  const first = await FileLogStore.open({ logDir, nodeId: 1 });
  const append = async (topic: string, partition: number, batch: Buffer) => {
    await first.log(topic, partition)!.append(batch, { leaderEpoch: 0 });
    return ErrorCode.NONE;
  };
  const writer = new TxnLog(first, config, append, () => 1_000);
  for (let i = 0; i < records; i++) await writer.append({ transactionalId: `txn-${i}`, value: null }, 0);
  const log = first.log(TRANSACTION_STATE_TOPIC, 0)!;
  assert.equal(log.logEndOffset, records);
  const size = log.sizeInBytes();
  await first.close();

  const reopened = await FileLogStore.open({ logDir, nodeId: 1 });
  const { store, count } = countingReads(reopened, TRANSACTION_STATE_TOPIC);
  const replayed: TxnRecord[] = [];
  const stats = await new TxnLog(store, config, append, () => 2_000).load((r) => replayed.push(r), (message) => assert.fail(message));
  assert.deepEqual(stats, { records, skipped: 0 });
  assert.deepEqual(replayed.map((r) => r.transactionalId), Array.from({ length: records }, (_, i) => `txn-${i}`));
  assert.equal(count.bytes, size, 'every batch is read once');
  await reopened.close();
});
