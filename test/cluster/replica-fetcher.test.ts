// Where a follower cuts its log on a diverging epoch (AbstractFetcherThread.getOffsetTruncationState), over a memory
// log holding the epochs its batches were written in.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { divergenceTruncationOffset } from '../../src/cluster/replica-fetcher.js';
import { setBaseOffset, setPartitionLeaderEpoch } from '../../src/protocol/records/batch.js';
import { defaultLogConfig } from '../../src/storage/log-config.js';
import { createMemoryLog } from '../../src/storage/memory/memory-log.js';
import { ManualScheduler } from '../../src/storage/scheduler.js';
import { batch, values } from '../broker/data-harness.js';

/** A follower's log: offsets 0-3 in epoch 1, 4-7 in epoch 3, high watermark 5. */
async function followerLog() {
  const log = createMemoryLog('t', 0, defaultLogConfig(), new ManualScheduler(Date.now()));
  log.holdHighWatermark();
  for (const [base, epoch] of [[0, 1], [4, 3]] as const) {
    const b = batch(values('a', 'b', 'c', 'd'));
    setBaseOffset(b, 0, base);
    setPartitionLeaderEpoch(b, 0, epoch);
    await log.appendAsFollower(b);
  }
  log.setHighWatermark(5);
  return log;
}

test('the same epoch on both sides: cut where both agree', async () => {
  const log = await followerLog();
  assert.equal(divergenceTruncationOffset(log, 3, 6), 6, 'the leader\'s epoch 3 ends at 6');
  assert.equal(divergenceTruncationOffset(log, 1, 2), 2, 'the leader\'s epoch 1 ends at 2, before ours');
  assert.equal(divergenceTruncationOffset(log, 1, 9), 4, 'ours ends first, at 4');
});

test('an epoch the follower never had: cut where its largest older epoch ends and ask again', async () => {
  const log = await followerLog();
  assert.equal(divergenceTruncationOffset(log, 2, 6), 4, 'the leader answers epoch 2: ours is 1, ending at 4');
  assert.equal(divergenceTruncationOffset(log, 5, 7), 8, 'newer than all of ours: our last epoch ends at the log end');
});

test('no epoch below the leader\'s, no end offset, or no epoch at all', async () => {
  const log = await followerLog();
  assert.equal(divergenceTruncationOffset(log, 0, 3), 3, 'older than every epoch we hold: the smaller end');
  assert.equal(divergenceTruncationOffset(log, 3, -1), 5, 'no end known: the high watermark');
  assert.equal(divergenceTruncationOffset(log, -1, 6), 6, 'no epoch: the smaller end');
});
