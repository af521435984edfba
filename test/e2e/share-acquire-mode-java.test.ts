// Kafka 4.3.1's KafkaShareConsumer with share.acquire.mode against gregor (test/e2e/java/ShareAcquireMode.java): ten
// records in one batch, max.poll.records=3. record_limit acquires exactly 3 a fetch (ShareFetch v2's
// share_acquire_mode), each record delivered once; batch_optimized acquires the whole batch at once. The expected
// lines are what the same run printed against a Kafka 4.3.1 broker (compat-tests/reference).
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
