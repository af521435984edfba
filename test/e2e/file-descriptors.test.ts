// More partitions than file descriptors: gregor runs under `ulimit -n 256` with one topic of 400 partitions. It
// creates them, takes a record on each and serves them all back through kafkajs, still accepts new connections,
// logs no error, and after a clean stop starts again under the same limit and serves everything. Before segment
// files were pooled, the topic's creation failed (UNKNOWN_SERVER_ERROR), new connections were closed unanswered, and
// the restart failed with EMFILE.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import kafkajs from 'kafkajs';
import { ErrorCode } from '../../src/protocol/error-codes.js';
import { apiVersionsApi } from '../../src/protocol/generated/api-versions.js';
import { roundTrip } from '../server/broker-harness.js';
import { RawClient } from '../server/raw-client.js';
import { startGregor, stopGregor, type GregorProcess } from './gregor-process.js';

const { Kafka, logLevel } = kafkajs;
const FILE_LIMIT = 256;
const PARTITIONS = 400;
const TOPIC = 'many';
/** New connections opened on top of kafkajs's own, each answered. */
const NEW_CONNECTIONS = 40;

const dir = await mkdtemp(join(tmpdir(), 'gregor-fds-'));
after(() => rm(dir, { recursive: true, force: true }));

function kafkaFor(gregor: GregorProcess) {
  return new Kafka({ clientId: 'fds', brokers: [`127.0.0.1:${gregor.port}`], logLevel: logLevel.NOTHING, retry: { retries: 0 } });
}

async function produceRound(gregor: GregorProcess, round: number): Promise<void> {
  const producer = kafkaFor(gregor).producer();
  await producer.connect();
  const topicMessages = [...Array(PARTITIONS).keys()].map((p) => ({ topic: TOPIC, messages: [{ partition: p, value: `r${round}-p${p}` }] }));
  const results = await producer.sendBatch({ topicMessages });
  assert.equal(results.length, PARTITIONS);
  for (const r of results) assert.equal(r.errorCode, ErrorCode.NONE);
  await producer.disconnect();
}

/** Every record of every partition, `partition:value`, read by a consumer group from the start. */
async function consumeAll(gregor: GregorProcess, expected: number, groupId: string): Promise<string[]> {
  const consumer = kafkaFor(gregor).consumer({ groupId, maxWaitTimeInMs: 100 });
  await consumer.connect();
  await consumer.subscribe({ topic: TOPIC, fromBeginning: true });
  const seen: string[] = [];
  await new Promise<void>((resolve) => {
    void consumer.run({
      partitionsConsumedConcurrently: 8,
      eachMessage: async ({ partition, message }) => {
        seen.push(`${partition}:${message.value!.toString()}`);
        if (seen.length === expected) resolve();
      },
    });
  });
  await consumer.disconnect();
  return seen.sort();
}

function expectedRecords(rounds: number): string[] {
  const out: string[] = [];
  for (let p = 0; p < PARTITIONS; p++) for (let r = 0; r < rounds; r++) out.push(`${p}:r${r}-p${p}`);
  return out.sort();
}

async function newConnectionsAnswer(gregor: GregorProcess): Promise<void> {
  const clients: RawClient[] = [];
  try {
    for (let i = 0; i < NEW_CONNECTIONS; i++) {
      const client = await RawClient.connect(gregor.port);
      clients.push(client);
      const response = await roundTrip(client, apiVersionsApi, 3, { clientSoftwareName: 'fds', clientSoftwareVersion: '1' });
      assert.equal(response.errorCode, ErrorCode.NONE);
    }
  } finally {
    await Promise.all(clients.map((c) => c.close()));
  }
}

function errorLines(gregor: GregorProcess): string[] {
  return gregor.output.filter((line) => line.startsWith('{') && (JSON.parse(line) as { level: number }).level >= 50);
}

test(`${PARTITIONS} partitions under ulimit -n ${FILE_LIMIT}: created, written, read, new connections answered, and again after a restart`, async () => {
  const first = await startGregor(dir, [], { fileLimit: FILE_LIMIT });
  try {
    const admin = kafkaFor(first).admin();
    await admin.connect();
    assert.equal(await admin.createTopics({ topics: [{ topic: TOPIC, numPartitions: PARTITIONS }] }), true);
    await admin.disconnect();
    await produceRound(first, 0);
    assert.deepEqual(await consumeAll(first, PARTITIONS, 'g1'), expectedRecords(1));
    await newConnectionsAnswer(first);
    assert.deepEqual(errorLines(first), []);
  } finally {
    assert.deepEqual(await stopGregor(first), { code: 0, signal: null });
  }

  const second = await startGregor(dir, [], { fileLimit: FILE_LIMIT });
  try {
    await produceRound(second, 1);
    assert.deepEqual(await consumeAll(second, 2 * PARTITIONS, 'g2'), expectedRecords(2));
    await newConnectionsAnswer(second);
    assert.deepEqual(errorLines(second), []);
  } finally {
    assert.deepEqual(await stopGregor(second), { code: 0, signal: null });
  }
});
