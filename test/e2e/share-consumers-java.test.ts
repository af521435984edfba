// Kafka 4.3.1's KafkaShareConsumer and kafka-console-share-consumer against gregor (test/e2e/java/ShareConsumers.java,
// one scenario per run). Each expected output is what the same run printed against a Kafka 4.3.1 broker
// (compat-tests/reference), line for line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { runJavaProgramOk, runJavaToolOk, sharedToolsBroker } from './java-tools.js';

const tools = sharedToolsBroker();
const PROGRAM = 'test/e2e/java/ShareConsumers.java';
const scenario = (name: string, topic: string, ...configs: string[]) => runJavaProgramOk(PROGRAM, [name, tools.bootstrap, topic, `g-${topic}`, ...configs]);
const lines = (text: string) => text.trim().split('\n');

test('implicit acknowledgement: every record delivered once, in order', async () => {
  assert.deepEqual(lines(await scenario('implicit', 'implicit')), Array.from({ length: 10 }, (_, i) => `${i} r${i} 1`));
});

test('explicit acknowledgement: ACCEPT ends a record, RELEASE redelivers it with its delivery count, REJECT ends it', async () => {
  assert.deepEqual(lines(await scenario('explicit', 'explicit')), ['0 a 1 accept', '1 b 1 release', '2 c 1 reject', '1 b 2 accept']);
});

test('three share consumers on one partition process each of 300 records exactly once', async () => {
  assert.deepEqual(lines(await scenario('three', 'three')), ['distinct 300', 'deliveries 300']);
});

test('a poison record is archived after share.delivery.count.limit deliveries', async () => {
  assert.deepEqual(lines(await scenario('poison', 'poison', 'share.delivery.count.limit=2')), ['0 poison 1 release', '1 ok 1 accept', '0 poison 2 release']);
});

test("a killed consumer's acquired records go to another consumer, delivered a second time", async () => {
  // As Kafka 4.3.1 does, the broker releases a share session's records when its connection closes, after a fetch
  // the killed consumer may have left waiting (test/server/handlers/share-fetch-disconnect.test.ts); the lock
  // (15 s here) would release them otherwise.
  const libs = `${resolve('compat-tests/.cache/kafka-4.3.1/libs')}/*`;
  const holder = spawn('java', ['-cp', libs, resolve(PROGRAM), 'hold', tools.bootstrap, 'killed', 'g-killed', 'share.record.lock.duration.ms=15000'], { stdio: ['ignore', 'pipe', 'ignore'] });
  const held = await new Promise<string>((resolveHeld, reject) => {
    let out = '';
    holder.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) resolveHeld(out.trim());
    });
    holder.on('close', (code) => reject(new Error(`hold exited ${code}`)));
  });
  assert.equal(held, 'held 5');
  holder.kill('SIGKILL');
  assert.deepEqual(lines(await runJavaProgramOk(PROGRAM, ['drain', tools.bootstrap, 'killed', 'g-killed', 'expect=5'])), Array.from({ length: 5 }, (_, i) => `${i} h${i} 2`));
});

test("share.isolation.level=read_committed: an aborted transaction's records are not delivered", async () => {
  // c1 c2 committed (offsets 0-1, marker 2), a1 a2 aborted (3-4, marker 5), c3 committed (6, marker 7).
  assert.deepEqual(lines(await scenario('txn', 'txn', 'share.isolation.level=read_committed')), ['0 c1 1', '1 c2 1', '6 c3 1']);
});

test('kafka-console-share-consumer reads what was produced', async () => {
  await scenario('produce', 'console');
  const out = await runJavaToolOk('kafka-console-share-consumer', [
    '--bootstrap-server', tools.bootstrap, '--topic', 'console', '--group', 'g-console', '--max-messages', '5',
    '--formatter-property', 'print.offset=true', '--formatter-property', 'print.delivery=true',
  ]);
  assert.deepEqual(lines(out), Array.from({ length: 5 }, (_, i) => `Offset:${i}\tDelivery:1\tc${i}`));
});
