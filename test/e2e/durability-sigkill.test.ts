// Issue 3's durability proof through the broker: gregor runs as a child process, kafkajs produces with acks=all, and the
// broker is SIGKILLed at a seeded random moment 20 times in a row, restarting on the same data dir each time. After
// every restart each acknowledged record is read back (our Fetch, raw socket) at its acknowledged offset with its key
// and value, offsets are contiguous, every batch's CRC is valid, and the topic's id and retention.ms survive.
import { seededRandom } from '../../src/seeded-random.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import kafkajs from 'kafkajs';
import { ErrorCode } from '../../src/protocol/error-codes.js';
import { createFetchPartition, createFetchRequest, createFetchTopic, fetchApi } from '../../src/protocol/generated/fetch.js';
import { metadataApi } from '../../src/protocol/generated/metadata.js';
import { decodeBatchRecords, splitBatches, verifyBatchCrc } from '../../src/protocol/records/index.js';
import { ZERO_UUID } from '../../src/protocol/uuid.js';
import { RawClient } from '../server/raw-client.js';
import { roundTrip } from '../server/broker-harness.js';
import { killGregor, startGregor, stopGregor, type GregorProcess } from './gregor-process.js';

const { Kafka, logLevel, ConfigResourceTypes } = kafkajs;

const TOPIC = 'durable';
const PARTITIONS = 2;
const RETENTION_MS = '987654321';
const KILLS = 20;
const WORKERS = 3;
const SEED = Number(process.env['GREGOR_SIGKILL_SEED'] ?? Date.now() % 2 ** 31);


/** One acknowledged record: where the broker said it lives. */
interface Acked {
  partition: number;
  offset: number;
  key: string;
  value: string;
}

interface StoredRecord {
  key: string | null;
  value: string | null;
}

function kafkaFor(port: number): InstanceType<typeof Kafka> {
  return new Kafka({ clientId: 'durability', brokers: [`127.0.0.1:${port}`], logLevel: logLevel.NOTHING, retry: { retries: 0 } });
}

async function topicId(client: RawClient): Promise<string> {
  const response = await roundTrip(client, metadataApi, 12, {
    topics: [{ name: TOPIC, topicId: ZERO_UUID }],
    allowAutoTopicCreation: false,
    includeClusterAuthorizedOperations: false,
    includeTopicAuthorizedOperations: false,
  });
  const topic = response.topics[0]!;
  assert.equal(topic.errorCode, ErrorCode.NONE);
  assert.equal(topic.partitions.length, PARTITIONS);
  return topic.topicId;
}

/**
 * Reads a whole partition with Fetch v12, checking every batch's CRC and that offsets run 0, 1, 2, ... without a gap.
 * Returns the records by offset.
 */
async function readPartition(client: RawClient, partition: number): Promise<StoredRecord[]> {
  const records: StoredRecord[] = [];
  for (;;) {
    const request = createFetchRequest();
    const fetchPartition = { ...createFetchPartition(), partition, fetchOffset: BigInt(records.length), partitionMaxBytes: 1 << 20 };
    request.topics = [{ ...createFetchTopic(), topic: TOPIC, partitions: [fetchPartition] }];
    const response = await roundTrip(client, fetchApi, 12, request);
    assert.equal(response.errorCode, ErrorCode.NONE);
    const data = response.responses[0]!.partitions[0]!;
    assert.equal(data.errorCode, ErrorCode.NONE, `fetch p${partition} at ${records.length}`);
    const highWatermark = Number(data.highWatermark);
    if (records.length >= highWatermark) {
      assert.equal(records.length, highWatermark, `p${partition}: read past the high watermark`);
      return records;
    }
    const bytes = data.records === null ? Buffer.alloc(0) : Buffer.concat(Array.isArray(data.records) ? data.records : [data.records as Buffer]);
    const { batches } = splitBatches(bytes);
    assert.ok(batches.length > 0, `p${partition}: no complete batch at offset ${records.length} below high watermark ${highWatermark}`);
    for (const { pos, size } of batches) {
      assert.ok(verifyBatchCrc(bytes, pos, size), `p${partition}: batch at offset ${records.length} has a bad CRC`);
      for (const record of decodeBatchRecords(bytes.subarray(pos, pos + size))) {
        assert.equal(record.offset, records.length, `p${partition}: offsets must be contiguous`);
        records.push({ key: record.key?.toString() ?? null, value: record.value?.toString() ?? null });
      }
    }
  }
}

/** Everything the data dir must still hold after a restart. */
async function verify(port: number, expectedId: string, acked: readonly Acked[], sent: ReadonlyMap<string, string>, context: string): Promise<number> {
  const client = await RawClient.connect(port);
  try {
    assert.equal(await topicId(client), expectedId, `${context}: topic id survives`);
    let stored = 0;
    const partitions: StoredRecord[][] = [];
    for (let p = 0; p < PARTITIONS; p++) {
      partitions.push(await readPartition(client, p));
      stored += partitions[p]!.length;
    }
    for (const record of acked) {
      const found = partitions[record.partition]![record.offset];
      assert.deepEqual(found, { key: record.key, value: record.value }, `${context}: acknowledged ${record.key} at p${record.partition}@${record.offset}`);
    }
    // Unacknowledged sends may or may not have landed, but anything stored must be exactly something a producer sent.
    for (const partition of partitions) {
      for (const record of partition) {
        assert.ok(record.key !== null && sent.get(record.key) === record.value, `${context}: stored record ${record.key} was never sent`);
      }
    }
  } finally {
    await client.close();
  }
  const admin = kafkaFor(port).admin();
  await admin.connect();
  try {
    const described = await admin.describeConfigs({ resources: [{ type: ConfigResourceTypes.TOPIC, name: TOPIC }], includeSynonyms: false });
    const entry = described.resources[0]!.configEntries.find((e) => e.configName === 'retention.ms');
    assert.equal(entry?.configValue, RETENTION_MS, `${context}: retention.ms survives`);
  } finally {
    await admin.disconnect();
  }
  return acked.length;
}

/** Producer workers sending small acks=all batches until one fails (the kill); returns what was acknowledged. */
async function produceUntilKilled(port: number, round: number, random: () => number, sent: Map<string, string>, kill: (ready: Promise<void>) => Promise<void>): Promise<{ acked: Acked[]; failed: number }> {
  const producer = kafkaFor(port).producer({ idempotent: false, allowAutoTopicCreation: false, retry: { retries: 0 } });
  await producer.connect();
  const acked: Acked[] = [];
  let failed = 0;
  let sequence = 0;
  let firstAck!: () => void;
  const ready = new Promise<void>((resolve) => (firstAck = resolve));
  const worker = async (w: number): Promise<void> => {
    for (;;) {
      const partition = Math.floor(random() * PARTITIONS);
      const count = 1 + Math.floor(random() * 20);
      const messages = Array.from({ length: count }, () => {
        const key = `r${round}-w${w}-${sequence++}`;
        const value = `${key}:${'v'.repeat(Math.floor(random() * 300))}`;
        sent.set(key, value);
        return { key, value, partition };
      });
      try {
        const [meta] = await producer.send({ topic: TOPIC, acks: -1, messages });
        assert.equal(meta!.errorCode, 0);
        const base = Number(meta!.baseOffset);
        messages.forEach((m, i) => acked.push({ partition, offset: base + i, key: m.key, value: m.value }));
        firstAck();
      } catch {
        failed++;
        return;
      }
    }
  };
  const workers = Array.from({ length: WORKERS }, (_, w) => worker(w));
  // Kill after the first ack, or at once if every worker already failed (so a broken broker fails, never hangs).
  await kill(Promise.race([ready, Promise.all(workers).then(() => undefined)]));
  await Promise.all(workers);
  await producer.disconnect().catch(() => {});
  return { acked, failed };
}

test(`SIGKILL ${KILLS} times during an acks=all kafkajs producer run loses no acknowledged record (seed ${SEED})`, { timeout: 300_000 }, async (t) => {
  t.diagnostic(`seed ${SEED} (replay with GREGOR_SIGKILL_SEED=${SEED})`);
  const random = seededRandom(SEED); // replayed with GREGOR_SIGKILL_SEED
  const dataDir = await mkdtemp(join(tmpdir(), 'gregor-sigkill-'));
  let gregor: GregorProcess | undefined;
  try {
    gregor = await startGregor(dataDir);
    const admin = kafkaFor(gregor.port).admin();
    await admin.connect();
    await admin.createTopics({
      waitForLeaders: true,
      topics: [{ topic: TOPIC, numPartitions: PARTITIONS, replicationFactor: 1, configEntries: [{ name: 'retention.ms', value: RETENTION_MS }] }],
    });
    await admin.disconnect();
    const client = await RawClient.connect(gregor.port);
    const expectedId = await topicId(client);
    await client.close();

    const acked: Acked[] = [];
    const sent = new Map<string, string>();
    let failedSends = 0;
    for (let round = 0; round < KILLS; round++) {
      const running = gregor;
      // After the first acknowledgement, wait a random 0–250 ms so kills land before, during and after appends.
      const delayMs = Math.floor(random() * 250);
      const result = await produceUntilKilled(running.port, round, random, sent, async (ready) => {
        await ready;
        await new Promise((resolve) => setTimeout(resolve, delayMs));
        await killGregor(running);
      });
      acked.push(...result.acked);
      failedSends += result.failed;
      t.diagnostic(`round ${round}: killed ${delayMs} ms after the first ack; ${result.acked.length} records acknowledged, ${result.failed} sends cut off`);
      gregor = await startGregor(dataDir);
      await verify(gregor.port, expectedId, acked, sent, `after kill ${round + 1} (seed ${SEED})`);
    }
    assert.ok(acked.length > 0, 'the run acknowledged records');
    t.diagnostic(`${acked.length} acknowledged records verified after each of ${KILLS} kills; ${failedSends} sends cut off by kills`);

    // A clean stop and restart keeps everything as well.
    assert.deepEqual(await stopGregor(gregor), { code: 0, signal: null });
    gregor = await startGregor(dataDir);
    await verify(gregor.port, expectedId, acked, sent, 'after a clean restart');
  } finally {
    if (gregor !== undefined && gregor.child.exitCode === null && gregor.child.signalCode === null) await killGregor(gregor);
    await rm(dataDir, { recursive: true, force: true });
  }
});
