// How many records Kafka 4.3.1's KafkaShareConsumer gets at once from gregor, ten records in one batch each time.
// test/e2e/java/ShareAcquireMode.java, max.poll.records=3: record_limit acquires exactly 3 a fetch (ShareFetch v2's
// share_acquire_mode), each record delivered once; batch_optimized acquires the whole batch at once.
// test/e2e/java/ShareRedelivery.java: every delivery RELEASEd until the records are archived: the whole batch three
// times, then throttled (half the batch, each record on its last delivery alone). The expected lines are what the
// same runs printed against a Kafka 4.3.1 broker (compat-tests/reference).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runJavaProgramOk, sharedToolsBroker } from './java-tools.js';

const tools = sharedToolsBroker();

test('share.acquire.mode=record_limit polls exactly max.poll.records, batch_optimized the whole batch', async () => {
  const out = await runJavaProgramOk('test/e2e/java/ShareAcquireMode.java', [tools.bootstrap, 'acquire-mode', 'record_limit', 'batch_optimized']);
  assert.deepEqual(out.trim().split('\n'), [
    'record_limit 0:1 1:1 2:1',
    'record_limit 3:1 4:1 5:1',
    'record_limit 6:1 7:1 8:1',
    'record_limit 9:1',
    'batch_optimized 0:1 1:1 2:1 3:1 4:1 5:1 6:1 7:1 8:1 9:1',
  ]);
});

test('throttled redelivery: a batch released again and again comes back in halves, then one record at a time', async () => {
  const out = await runJavaProgramOk('test/e2e/java/ShareRedelivery.java', [tools.bootstrap, 'redelivered']);
  const all = (count: number, offsets: number[]) => offsets.map((o) => `${o}:${count}`).join(' ');
  const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
  assert.deepEqual(out.trim().split('\n'), [
    all(1, range(0, 9)), all(2, range(0, 9)), all(3, range(0, 9)),
    all(4, range(0, 4)), ...range(0, 4).map((o) => `${o}:5`),
    all(4, range(5, 9)), ...range(5, 9).map((o) => `${o}:5`),
  ]);
});
