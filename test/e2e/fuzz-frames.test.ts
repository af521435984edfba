// 100,000 random and mutated frames against one broker, while a kafkajs admin on another connection
// keeps getting correct answers. A frame the broker cannot serve closes its connection (as Kafka's
// does); the fuzzer then reconnects and goes on. Seeded (GREGOR_FUZZ_SEED); the order frames are
// drawn in is fixed, which connection carries each one is not.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Kafka, logLevel } from 'kafkajs';
import { apiVersionsApi } from '../../src/protocol/generated/api-versions.js';
import { metadataApi } from '../../src/protocol/generated/metadata.js';
import { ZERO_UUID } from '../../src/protocol/io/reader.js';
import { MemoryTopicCatalog } from '../../src/broker/topic-catalog.js';
import { encodeRequest, startTestBroker } from '../server/broker-harness.js';
import { seededRng } from '../protocol/codec-random.js';
import { RawClient, sizePrefixed } from '../server/raw-client.js';

const FRAMES = Number(process.env["GREGOR_FUZZ_FRAMES"] ?? 100_000);
const WORKERS = 4;
const CHECK_EVERY = 2_000;
const SEED = Number(process.env['GREGOR_FUZZ_SEED'] ?? 0x5eed);

function validRequests(): Buffer[] {
  const out: Buffer[] = [];
  for (let v = 0; v <= 4; v++) out.push(encodeRequest(apiVersionsApi, v, { clientSoftwareName: 'fuzz', clientSoftwareVersion: '1.0' }, 1));
  for (let v = 0; v <= 12; v++) {
    const topics = v === 0 ? [] : [{ name: 'orders', topicId: ZERO_UUID }, { name: 'x', topicId: ZERO_UUID }];
    out.push(encodeRequest(metadataApi, v, { topics, allowAutoTopicCreation: true, includeClusterAuthorizedOperations: v >= 8 && v <= 10, includeTopicAuthorizedOperations: v >= 8 }, 2));
    if (v >= 1) out.push(encodeRequest(metadataApi, v, { topics: null, allowAutoTopicCreation: v < 4, includeClusterAuthorizedOperations: false, includeTopicAuthorizedOperations: false }, 3));
  }
  return out;
}

function makeFrame(random: () => number, templates: Buffer[]): Buffer {
  const int = (n: number) => Math.floor(random() * n);
  const roll = random();
  if (roll < 0.02) {
    // A size prefix that cannot be served: negative or beyond socket.request.max.bytes.
    const prefix = Buffer.alloc(4);
    prefix.writeInt32BE(random() < 0.5 ? -1 - int(1 << 30) : 0x7fffffff - int(1 << 20));
    return prefix;
  }
  if (roll < 0.2) {
    const body = Buffer.alloc(int(80));
    for (let i = 0; i < body.length; i++) body[i] = int(256);
    return sizePrefixed(body);
  }
  let body = Buffer.from(templates[int(templates.length)]!);
  switch (int(6)) {
    case 0: // flip bytes
      for (let n = 1 + int(4); n > 0; n--) body[int(body.length)] = int(256);
      break;
    case 1: // flip bytes after the fixed header only
      for (let n = 1 + int(3); n > 0; n--) body[8 + int(body.length - 8)] = int(256);
      break;
    case 2: // truncate
      body = body.subarray(0, int(body.length));
      break;
    case 3: // append junk
      body = Buffer.concat([body, Buffer.from(Array.from({ length: 1 + int(16) }, () => int(256)))]);
      break;
    case 4: // any version
      body.writeInt16BE(int(40) - 5, 2);
      break;
    default: // an api key no handler has, or a negative one
      body.writeInt16BE(random() < 0.5 ? 1000 + int(30000) : -1 - int(32767), 0);
  }
  return sizePrefixed(body);
}

test(`${FRAMES} random and mutated frames leave the broker up and another client unaffected`, { timeout: 600_000 }, async () => {
  const random = seededRng(SEED);
  const templates = validRequests();
  const broker = await startTestBroker({}, {
    topics: new MemoryTopicCatalog([{ name: 'orders', id: 'b2-lGxk1Sr2W9nZ3Xb7y8g', partitionCount: 2, internal: false }]),
  });
  const kafka = new Kafka({ clientId: 'bystander', brokers: [`127.0.0.1:${broker.port}`], logLevel: logLevel.NOTHING, retry: { retries: 0 } });
  const admin = kafka.admin();
  const clients: RawClient[] = [];
  let sent = 0;
  let answered = 0;
  let closed = 0;
  // A few fuzzing connections side by side keep the broker busy while each waits for its answer.
  const fuzz = async (worker: number): Promise<void> => {
    let client = await RawClient.connect(broker.port);
    clients[worker] = client;
    while (sent < FRAMES) {
      sent++;
      client.sendRaw(makeFrame(random, templates));
      const outcome = await Promise.race([client.read().then(() => 'answered' as const, () => 'closed' as const), client.whenClosed.then(() => 'closed' as const)]);
      if (outcome === 'answered') {
        answered++;
      } else {
        closed++;
        client = await RawClient.connect(broker.port);
        clients[worker] = client;
      }
    }
  };
  try {
    await admin.connect();
    // The bystander asks for metadata every few thousand frames, on its own connection, while fuzzing goes on.
    const bystander = async (): Promise<void> => {
      for (let checks = 0; sent < FRAMES; checks++) {
        const { topics } = await admin.fetchTopicMetadata({ topics: ['orders'] });
        assert.equal(topics[0]!.partitions.length, 2, `bystander check ${checks}, after ${sent} frames`);
        const next = sent + CHECK_EVERY;
        while (sent < next && sent < FRAMES) await new Promise((resolve) => setTimeout(resolve, 5));
      }
    };
    await Promise.all([...Array.from({ length: WORKERS }, (_, w) => fuzz(w)), bystander()]);
    if (process.env["GREGOR_FUZZ_VERBOSE"]) console.log({ answered, closed });
    const cluster = await admin.describeCluster();
    assert.equal(cluster.clusterId, broker.clusterId);
    assert.ok(answered > 0 && closed > 0, `both outcomes exercised (${answered} answered, ${closed} closed)`);
  } finally {
    await Promise.all(clients.map((c) => c.close()));
    await admin.disconnect();
    await broker.close();
  }
});
