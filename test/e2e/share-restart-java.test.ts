// A broker restart under a Kafka 4.3.1 KafkaShareConsumer (test/e2e/java/ShareDoneWhen.java), file engine: the consumer
// ACCEPTs the first 4 of 10 records and keeps the other 6 acquired; the broker is stopped cleanly, the consumer's JVM
// killed while it is down, and the broker started again on the same log dir. As in Kafka, an acquisition is never
// written to __share_group_state and a clean shutdown releases nothing durably (its socket server stops first, so
// the releases its connections' close makes cannot reach the share coordinator): the 6 come again as never
// delivered (delivery count 1), and the 4 acknowledged ones not at all.
// SHARE_RESTART_REFERENCE=host:port runs it against a Kafka 4.3.1 broker of your own (compat-tests/reference/start.sh
// <port>, restarted with its restart.sh: never the shared one).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startTestBroker } from '../server/broker-harness.js';
import { installJavaTools } from './java-tools.js';
import { setUpShareTopic, ShareConsumerProcess } from './share-consumer-processes.js';

test('after a clean broker restart, acquired but unacknowledged records come again as never delivered, acknowledged ones never', async () => {
  installJavaTools();
  const reference = process.env['SHARE_RESTART_REFERENCE'];
  const dir = mkdtempSync(join(tmpdir(), 'gregor-share-restart-'));
  const settings = { 'node.id': '1', 'gregor.log.engine': 'file', 'log.dirs': dir };
  let broker = reference === undefined ? await startTestBroker(settings) : undefined;
  const bootstrap = () => reference ?? `127.0.0.1:${broker!.port}`;
  const run = Date.now();
  const [topic, group] = [`share-e2e-rs-${run}`, `share-e2e-rsg-${run}`];
  const consumers: ShareConsumerProcess[] = [];
  try {
    await setUpShareTopic(bootstrap(), topic, group, 10);
    const holder = new ShareConsumerProcess(bootstrap(), topic, group, 'holder', ['hold=1', 'ackFirst=4']);
    consumers.push(holder);
    await holder.until(() => holder.holding !== undefined, 'held records');
    assert.deepEqual([holder.got.length, holder.acked.map((d) => d.offset), holder.holding], [10, [0, 1, 2, 3], [4, 9]]);

    if (reference === undefined) await broker!.close();
    else execFileSync(resolve('compat-tests/reference/stop.sh'), [reference.split(':')[1]!], { stdio: 'ignore' });
    await holder.kill();
    if (reference === undefined) broker = await startTestBroker(settings);
    else execFileSync(resolve('compat-tests/reference/start.sh'), [reference.split(':')[1]!], { stdio: 'ignore' });

    const drain = new ShareConsumerProcess(bootstrap(), topic, group, 'drain');
    consumers.push(drain);
    await drain.until(() => drain.acked.length >= 6, 'the held records again');
    // Nothing more comes (the 4 acknowledged stay done): a second's quiet, then the consumer closes.
    await new Promise((r) => setTimeout(r, 1000));
    await drain.stop();
    assert.deepEqual(drain.got.map((d) => [d.offset, d.deliveryCount]), [[4, 1], [5, 1], [6, 1], [7, 1], [8, 1], [9, 1]]);
    assert.deepEqual(drain.refused, []);
  } finally {
    for (const c of consumers) await c.kill();
    await broker?.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
