// The lines a user follows a broker by, captured from a real broker: topics created and deleted, group
// rebalances (generation, members) at info; connections accepted and closed, with the peer, at debug; each
// log dir's load, and what recovery did after an unclean shutdown, at info. No value of a config is logged.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readdirSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import kafkajs from 'kafkajs';
import { pino } from 'pino';
import { openLogStore } from '../../src/broker/open-store.js';
import { resolveBrokerConfig } from '../../src/config/index.js';
import { batchOf } from '../storage/batch-fixtures.js';
import { startTestBroker } from './broker-harness.js';

const { Kafka, logLevel } = kafkajs;

interface Line {
  level: number;
  msg: string;
  [key: string]: unknown;
}

function capture(level: 'debug' | 'info') {
  const lines: Line[] = [];
  const logger = pino({ level }, { write: (line: string) => void lines.push(JSON.parse(line) as Line) });
  return { logger, lines };
}

const INFO = 30;
const WARN = 40;
const DEBUG = 20;

test('topic creation and deletion, group rebalances and connections are logged with their facts', { timeout: 120_000 }, async () => {
  const { logger, lines } = capture('debug');
  const broker = await startTestBroker({ 'group.initial.rebalance.delay.ms': '0' }, { logger });
  const kafka = new Kafka({ clientId: 'log-test', brokers: [`127.0.0.1:${broker.port}`], logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  const consumer = kafka.consumer({ groupId: 'log-group' });
  try {
    await admin.connect();
    await admin.createTopics({ topics: [{ topic: 'log-orders', numPartitions: 2, configEntries: [{ name: 'retention.ms', value: '60000' }] }] });
    const created = lines.find((l) => l.msg.startsWith('Created topic log-orders'));
    assert.ok(created, 'a line for the created topic');
    assert.equal(created.level, INFO);
    assert.equal(created['partitions'], 2);
    assert.equal(typeof created['topicId'], 'string');
    assert.deepEqual(created['configs'], { 'retention.ms': '60000' });
    assert.equal(created.msg, `Created topic log-orders with topic ID ${created['topicId']} and 2 partition(s)`);

    await consumer.connect();
    await consumer.subscribe({ topic: 'log-orders' });
    await consumer.run({ eachMessage: async () => {} });
    await until(() => lines.some((l) => l.msg.startsWith('Stabilized group log-group')));
    const preparing = lines.find((l) => l.msg.startsWith('Preparing to rebalance group log-group'))!;
    assert.equal(preparing.level, INFO);
    assert.deepEqual([preparing['group'], preparing['state'], preparing['generation']], ['log-group', 'Empty', 0]);
    assert.equal(preparing.msg, 'Preparing to rebalance group log-group in state Empty with old generation 0');
    const stabilized = lines.find((l) => l.msg.startsWith('Stabilized group log-group'))!;
    assert.equal(stabilized.level, INFO);
    assert.deepEqual([stabilized['generation'], stabilized['members'], stabilized['protocol']], [1, 1, 'RoundRobinAssigner']);
    assert.equal(stabilized.msg, 'Stabilized group log-group generation 1 with 1 members');
    await consumer.disconnect();
    await until(() => lines.some((l) => l.msg === 'Group log-group with generation 2 is now empty'));

    await admin.deleteTopics({ topics: ['log-orders'] });
    const deleted = lines.find((l) => l.msg.startsWith('Deleted topic log-orders'))!;
    assert.equal(deleted.level, INFO);
    assert.deepEqual([deleted['topicId'], deleted['partitions']], [created['topicId'], 2]);

    const accepted = lines.filter((l) => l.msg.startsWith('Accepted connection from 127.0.0.1:'));
    assert.ok(accepted.length >= 2, 'the admin and the consumer connected');
    for (const line of accepted) {
      assert.equal(line.level, DEBUG);
      assert.match(line['client'] as string, /^127\.0\.0\.1:\d+$/);
      assert.equal(line['listener'], 'PLAINTEXT');
      assert.equal(line.msg, `Accepted connection from ${line['client']} on PLAINTEXT`);
    }
    // The consumer's connections are closed by its disconnect.
    await until(() => lines.some((l) => l.msg.startsWith('Connection from 127.0.0.1:') && l.msg.endsWith(' closed')));
    const closed = lines.find((l) => l.msg.endsWith(' closed'))!;
    assert.equal(closed.level, DEBUG);
    assert.ok(accepted.some((l) => l['client'] === closed['client']), 'a closed connection names the peer it accepted');
  } finally {
    await consumer.disconnect().catch(() => undefined);
    await admin.disconnect().catch(() => undefined);
    await broker.close();
  }
});

test("each log dir's load, and what recovery did after an unclean shutdown, are logged at info", async () => {
  const logDir = mkdtempSync(join(tmpdir(), 'gregor-logs-'));
  try {
    const config = resolveBrokerConfig({ 'log.dirs': logDir, 'gregor.log.engine': 'file' });
    const first = capture('info');
    const store = await openLogStore(config, first.logger);
    assert.deepEqual(first.lines.map((l) => [l.level, l.msg]), [
      [INFO, `Loaded 0 partition log(s) of 0 topic(s), 0 segment(s), from ${logDir} in ${first.lines[0]!['ms']} ms`],
    ]);
    await store.createTopic('t', 1);
    for (let i = 0; i < 3; i++) await store.log('t', 0)!.append(await batchOf(2), { leaderEpoch: 0 });
    await store.close();

    // As after a crash: no clean-shutdown marker, and a torn write at the end of the segment.
    unlinkSync(join(logDir, '.kafka_cleanshutdown'));
    const partitionDir = join(logDir, readdirSync(logDir).find((name) => name.startsWith('t-'))!);
    const segment = readdirSync(partitionDir).find((name) => name.endsWith('.log'))!;
    appendFileSync(join(partitionDir, segment), Buffer.alloc(37, 0xab));

    const second = capture('info');
    const reopened = await openLogStore(config, second.logger);
    try {
      // Between them, Kafka's WARN for the torn tail the recovery cut ("Corruption found in segment ...").
      const [torn, loaded, recovered] = second.lines;
      assert.equal(second.lines.length, 3);
      assert.equal(torn!.level, WARN);
      assert.match(torn!.msg, /^t-0: corruption found in segment 0, 37 bytes of a torn or corrupt tail cut; it now ends at offset 6$/);
      assert.equal(loaded!.level, INFO);
      assert.deepEqual([loaded!['topics'], loaded!['partitions'], loaded!['segments'], loaded!['cleanShutdown']], [1, 1, 1, false]);
      assert.equal(recovered!.level, INFO);
      assert.deepEqual([recovered!['segmentsChecked'], recovered!['bytesTruncated']], [1, 37]);
      assert.match(recovered!.msg, new RegExp(`^Recovered ${logDir} after an unclean shutdown: 1 segment\\(s\\) checked from their recovery point \\(\\d+ bytes\\), 37 invalid bytes truncated$`));
      assert.equal(reopened.log('t', 0)!.logEndOffset, 6);
    } finally {
      await reopened.close();
    }
  } finally {
    rmSync(logDir, { recursive: true, force: true });
  }
});

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 20));
}
