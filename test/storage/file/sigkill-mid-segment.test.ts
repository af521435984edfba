// End to end: the `gregor` process, a kafkajs producer (acks=all), a clean stop (the recovery point is then the log
// end, inside the active 1 GiB segment), a restart, more acknowledged records, SIGKILL. The restarted broker must
// have every acknowledged record, in order, with its key and value.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import kafkajs from 'kafkajs';
import { decodeBatchRecords } from '../../../src/protocol/records/record.js';
import { FileLogStore } from '../../../src/storage/file/file-store.js';
import { killGregor, startGregor, stopGregor, type GregorProcess } from '../../e2e/gregor-process.js';
import { batchesOf } from '../log-contract.js';

const { Kafka, logLevel } = kafkajs;
const TOPIC = 'mid-segment';
const root = mkdtempSync(join(tmpdir(), 'gregor-sigkill-mid-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** Produces `count` records (keys from `first`) in sends of 10, each acknowledged by all replicas. */
async function produce(gregor: GregorProcess, first: number, count: number): Promise<void> {
  const kafka = new Kafka({ clientId: 'mid-segment', brokers: [`127.0.0.1:${gregor.port}`], logLevel: logLevel.NOTHING });
  const producer = kafka.producer({ allowAutoTopicCreation: false });
  await producer.connect();
  try {
    for (let i = first; i < first + count; i += 10) {
      const messages = Array.from({ length: 10 }, (_, j) => ({ key: `k${i + j}`, value: `value ${i + j} `.repeat(20) }));
      await producer.send({ topic: TOPIC, acks: -1, messages });
    }
  } finally {
    await producer.disconnect();
  }
}

async function endOffset(gregor: GregorProcess): Promise<number> {
  const admin = new Kafka({ clientId: 'mid-segment', brokers: [`127.0.0.1:${gregor.port}`], logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  try {
    return Number((await admin.fetchTopicOffsets(TOPIC))[0]!.high);
  } finally {
    await admin.disconnect();
  }
}

test('a SIGKILLed broker whose recovery point is mid-segment restarts with every acknowledged record', { timeout: 120_000 }, async () => {
  const dataDir = join(root, 'data');
  const first = await startGregor(dataDir);
  try {
    const admin = new Kafka({ clientId: 'mid-segment', brokers: [`127.0.0.1:${first.port}`], logLevel: logLevel.NOTHING }).admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic: TOPIC, numPartitions: 1 }] });
    await admin.disconnect();
    await produce(first, 0, 200);
  } finally {
    assert.equal((await stopGregor(first)).code, 0);
  }
  assert.match(readFileSync(join(dataDir, 'recovery-point-offset-checkpoint'), 'utf8'), new RegExp(`^${TOPIC} 0 200$`, 'm'));

  const second = await startGregor(dataDir);
  try {
    await produce(second, 200, 150);
  } finally {
    await killGregor(second);
  }

  const third = await startGregor(dataDir);
  try {
    assert.equal(await endOffset(third), 350, third.output.join('\n'));
  } finally {
    assert.equal((await stopGregor(third)).code, 0);
  }
  // What the recovered broker held, read back from its files.
  const store = await FileLogStore.open({ logDir: dataDir, nodeId: 1 });
  try {
    const log = store.log(TOPIC, 0)!;
    assert.equal(log.segments.length, 1, 'one segment: the recovery point was inside it');
    let expected = 0;
    while (expected < log.logEndOffset) {
      const batches = batchesOf((await log.read(expected, 1 << 20)).records);
      for (const record of batches.flatMap((b) => decodeBatchRecords(b))) {
        assert.equal(record.offset, expected);
        assert.equal(record.key?.toString(), `k${expected}`);
        assert.equal(record.value?.toString(), `value ${expected} `.repeat(20));
        expected++;
      }
    }
    assert.equal(expected, 350);
  } finally {
    await store.close();
  }
});
