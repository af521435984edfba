// Client quotas enforced (Kafka 4.3.1's ClientQuotaManager, ClientRequestQuotaManager, ControllerMutationQuotaManager)
// over a raw socket, with windows of 2 × 1 s so that a first measurement spans exactly one second: the throttle
// times asserted are what Kafka's formula gives for the bytes the test sent (checked against Kafka 4.3.1's reference
// broker with the same requests). Muting is asserted as a lower bound only: a request sent right after a throttled
// response is not answered before the throttle time has passed since the throttled request was sent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ErrorCode } from '../../src/protocol/error-codes.js';
import { alterClientQuotasApi } from '../../src/protocol/generated/alter-client-quotas.js';
import { apiVersionsApi } from '../../src/protocol/generated/api-versions.js';
import { createTopicsApi } from '../../src/protocol/generated/create-topics.js';
import { createPartitionsApi } from '../../src/protocol/generated/create-partitions.js';
import { deleteTopicsApi } from '../../src/protocol/generated/delete-topics.js';
import { fetchApi } from '../../src/protocol/generated/fetch.js';
import { metadataApi } from '../../src/protocol/generated/metadata.js';
import { produceApi, type ProduceRequest } from '../../src/protocol/generated/produce.js';
import { ZERO_UUID } from '../../src/protocol/uuid.js';
import { batch, fetchRequest } from '../broker/data-harness.js';
import { decodeResponse, encodeRequest, roundTrip, startTestBroker } from './broker-harness.js';
import { RawClient } from './raw-client.js';
import { plainToken, SaslProbe } from './sasl-probe.js';

const WINDOWS = { 'quota.window.num': '2', 'quota.window.size.seconds': '1', 'controller.quota.window.num': '2', 'controller.quota.window.size.seconds': '1' };

type Entity = [string, string | null][];

async function setQuota(client: RawClient, entity: Entity, key: string, value: number): Promise<void> {
  const { entries } = await roundTrip(client, alterClientQuotasApi, 1, {
    entries: [{ entity: entity.map(([entityType, entityName]) => ({ entityType, entityName })), ops: [{ key, value, remove: false }] }],
    validateOnly: false,
  });
  assert.deepEqual(entries.map((e) => e.errorCode), [ErrorCode.NONE]);
}

async function withBroker(run: (client: RawClient, broker: Awaited<ReturnType<typeof startTestBroker>>) => Promise<void>): Promise<void> {
  const broker = await startTestBroker({ 'node.id': '1', ...WINDOWS });
  const client = await RawClient.connect(broker.port);
  try {
    await run(client, broker);
  } finally {
    await client.close();
    await broker.close();
  }
}

let correlation = 1000;

/** Sends a request and returns the raw response frame with the decoded response. */
async function exchange<Req, Res>(client: RawClient, api: Parameters<typeof encodeRequest<Req>>[0] & { decodeResponse: unknown }, version: number, request: Req) {
  const frame = encodeRequest(api, version, request, correlation++);
  client.send(frame);
  const reply = await client.read();
  return { requestBytes: frame.length, reply, response: decodeResponse(api as never, version, reply).response as Res };
}

function produceRequest(topic: string, records: Buffer): ProduceRequest {
  return { transactionalId: null, acks: -1, timeoutMs: 30_000, topicData: [{ topicId: ZERO_UUID, name: topic, partitionData: [{ index: 0, records }] }] };
}

const API_VERSIONS_V3 = { clientSoftwareName: 'test', clientSoftwareVersion: '1' };
const kib = (n: number) => Buffer.alloc(n * 1024, 'x');

test('producer_byte_rate: throttle_time_ms is Kafka\'s (rate - bound) / bound × window, and the connection is muted for it', async () => {
  await withBroker(async (client) => {
    await roundTrip(client, createTopicsApi, 7, { topics: [{ name: 't', numPartitions: 1, replicationFactor: 1, assignments: [], configs: [] }], timeoutMs: 5000, validateOnly: false });
    // On PLAINTEXT the user is ANONYMOUS: <default user, default client-id> applies to this client.
    await setQuota(client, [['user', null], ['client-id', null]], 'producer_byte_rate', 1000);
    const sentAt = performance.now();
    const first = await exchange<ProduceRequest, { throttleTimeMs: number; responses: { partitionResponses: { errorCode: number }[] }[] }>(
      client, produceApi, 9, produceRequest('t', batch([{ value: kib(2) }])));
    assert.equal(first.response.responses[0]!.partitionResponses[0]!.errorCode, ErrorCode.NONE, 'a throttled produce is still appended');
    // One request measured over one window: (bytes / 1 s - 1000) / 1000 × 1000 ms.
    assert.equal(first.response.throttleTimeMs, first.requestBytes - 1000);
    const next = await roundTrip(client, apiVersionsApi, 3, API_VERSIONS_V3);
    const answeredAfter = performance.now() - sentAt;
    assert.equal(next.throttleTimeMs, 0, 'no request quota applies');
    assert.ok(answeredAfter >= first.response.throttleTimeMs - 1, `answered ${answeredAfter} ms after the throttled request, muted for ${first.response.throttleTimeMs}`);
  });
});

test('a quota for a more specific entity wins: <user ANONYMOUS> over <default user, default client-id>, live', async () => {
  await withBroker(async (client) => {
    await roundTrip(client, createTopicsApi, 7, { topics: [{ name: 't', numPartitions: 1, replicationFactor: 1, assignments: [], configs: [] }], timeoutMs: 5000, validateOnly: false });
    await setQuota(client, [['user', null], ['client-id', null]], 'producer_byte_rate', 1000);
    await setQuota(client, [['user', 'ANONYMOUS']], 'producer_byte_rate', 1_000_000);
    const within = await exchange<ProduceRequest, { throttleTimeMs: number }>(client, produceApi, 9, produceRequest('t', batch([{ value: kib(2) }])));
    assert.equal(within.response.throttleTimeMs, 0);
    // Kafka's order: <user, client-id> first; this client's id is test-client.
    await setQuota(client, [['user', 'ANONYMOUS'], ['client-id', 'test-client']], 'producer_byte_rate', 2000);
    const over = await exchange<ProduceRequest, { throttleTimeMs: number }>(client, produceApi, 9, produceRequest('t', batch([{ value: kib(2) }])));
    // The <user, client-id> rate is a new one: measured over one window again.
    assert.equal(over.response.throttleTimeMs, Math.round((over.requestBytes - 2000) / 2000 * 1000));
  });
});

type Fetched = { throttleTimeMs: number; errorCode: number; sessionId: number; responses: { partitions: { records: Buffer | null }[] }[] };

async function produceTen(client: RawClient): Promise<void> {
  await roundTrip(client, createTopicsApi, 7, { topics: [{ name: 't', numPartitions: 1, replicationFactor: 1, assignments: [], configs: [] }], timeoutMs: 5000, validateOnly: false });
  for (let i = 0; i < 10; i++) await roundTrip(client, produceApi, 9, produceRequest('t', batch([{ value: Buffer.alloc(300, i) }])));
}

test('consumer_byte_rate: over the rate a fetch is answered empty, with no session, throttled', async () => {
  await withBroker(async (client) => {
    await produceTen(client);
    await setQuota(client, [['client-id', 'test-client']], 'consumer_byte_rate', 5000);
    const first = await exchange<ReturnType<typeof fetchRequest>, Fetched>(client, fetchApi, 12, fetchRequest([{ topic: 't' }]));
    assert.equal(first.response.throttleTimeMs, 0);
    assert.equal(first.response.responses[0]!.partitions[0]!.records!.length, 10 * 370, 'all ten batches');
    // FetchResponse.sizeOf: 4 + the body (the frame less its v1 header: correlation id and an empty tag buffer).
    const size = 4 + first.reply.length - 5;
    const second = await exchange<ReturnType<typeof fetchRequest>, Fetched>(client, fetchApi, 12, fetchRequest([{ topic: 't' }]));
    assert.deepEqual([second.response.errorCode, second.response.sessionId, second.response.responses], [ErrorCode.NONE, 0, []]);
    // Both responses over a window of 1 s plus the time between them (w): 2 × size / 5000 × 1000 - w ms.
    assert.ok(second.response.throttleTimeMs > 0 && second.response.throttleTimeMs <= Math.round((2 * size) / 5 - 1000), String(second.response.throttleTimeMs));
  });
});

test('consumer_byte_rate: a fetch reads no more than the quota lets through in samples - 1 windows', async () => {
  await withBroker(async (client) => {
    await produceTen(client);
    await setQuota(client, [['client-id', 'test-client']], 'consumer_byte_rate', 2000);
    // The read is bounded by 2000 B/s × (2 - 1) windows × 1 s, not by the request's 50 MiB: 2000 bytes exactly, as
    // Kafka's LogSegment.read cuts them (5 whole batches of 370 and 150 bytes of the sixth). With the response's own
    // bytes that is over 2000 B/s in the window, so, as KafkaApis does for a throttled fetch, the answer is empty.
    const { response } = await exchange<ReturnType<typeof fetchRequest>, Fetched>(client, fetchApi, 12, fetchRequest([{ topic: 't' }]));
    assert.deepEqual([response.errorCode, response.responses], [ErrorCode.NONE, []]);
    assert.ok(response.throttleTimeMs > 0, String(response.throttleTimeMs));
    // A quota the whole log fits in with room to spare answers it whole: the bound, not the batches, cut the first.
    await setQuota(client, [['client-id', 'test-client']], 'consumer_byte_rate', 1_000_000);
    await new Promise((resolve) => setTimeout(resolve, response.throttleTimeMs));
    const { response: whole } = await exchange<ReturnType<typeof fetchRequest>, Fetched>(client, fetchApi, 12, fetchRequest([{ topic: 't' }]));
    assert.equal(whole.responses[0]!.partitions[0]!.records!.length, 10 * 370);
  });
});

test('request_percentage: every API with throttle_time_ms carries it, bounded by one quota window', async () => {
  await withBroker(async (client) => {
    await setQuota(client, [['user', 'ANONYMOUS']], 'request_percentage', 1e-9);
    const versions = await roundTrip(client, apiVersionsApi, 3, API_VERSIONS_V3);
    assert.equal(versions.throttleTimeMs, 1000, 'ClientRequestQuotaManager bounds a throttle to quota.window.size.seconds');
    const metadata = await roundTrip(client, metadataApi, 12, { topics: [], allowAutoTopicCreation: false, includeTopicAuthorizedOperations: false, includeClusterAuthorizedOperations: false });
    assert.equal(metadata.throttleTimeMs, 1000);
  });
});

test('controller_mutation_rate: CreateTopics v6+, DeleteTopics v5+, CreatePartitions v3+ are refused with THROTTLING_QUOTA_EXCEEDED once the bucket is empty; older versions are throttled', async () => {
  await withBroker(async (client, broker) => {
    // 0.1 partition a second, a burst of 2 windows × 1 s × 0.1: after 5 partitions the bucket is 4.8 below zero,
    // 48 s from refilling. Each throttled connection is muted, so every request after the first has its own.
    await setQuota(client, [['client-id', null]], 'controller_mutation_rate', 0.1);
    const connection = async () => RawClient.connect(broker.port);
    const create = async (name: string, partitions: number, version: number) =>
      roundTrip(await connection(), createTopicsApi, version, { topics: [{ name, numPartitions: partitions, replicationFactor: 1, assignments: [], configs: [] }], timeoutMs: 5000, validateOnly: false });
    const first = await create('a', 5, 7);
    // A strict quota takes what the bucket holds and throttles only what it refuses.
    assert.deepEqual([first.topics[0]!.errorCode, first.throttleTimeMs], [ErrorCode.NONE, 0]);
    const refused = await create('b', 1, 7);
    // Kafka's CreateTopics result leaves the default message out.
    assert.deepEqual([refused.topics[0]!.errorCode, refused.topics[0]!.errorMessage], [ErrorCode.THROTTLING_QUOTA_EXCEEDED, null]);
    assert.ok(refused.throttleTimeMs > 40_000 && refused.throttleTimeMs <= 48_000, String(refused.throttleTimeMs));
    // Below v6 the topic is created and the client throttled.
    const permissive = await create('c', 1, 5);
    assert.equal(permissive.topics[0]!.errorCode, ErrorCode.NONE);
    assert.ok(permissive.throttleTimeMs > 50_000 && permissive.throttleTimeMs <= 58_000, String(permissive.throttleTimeMs));
    const deleted = await roundTrip(await connection(), deleteTopicsApi, 6, { topics: [{ name: 'a', topicId: ZERO_UUID }], topicNames: [], timeoutMs: 5000 });
    assert.deepEqual(deleted.responses.map((r) => [r.name, r.errorCode, r.errorMessage]), [['a', ErrorCode.THROTTLING_QUOTA_EXCEEDED, null]]);
    assert.ok(deleted.throttleTimeMs > 50_000, String(deleted.throttleTimeMs));
    const grown = await roundTrip(await connection(), createPartitionsApi, 3, { topics: [{ name: 'c', count: 2, assignments: null }], timeoutMs: 5000, validateOnly: false });
    assert.deepEqual(grown.results.map((r) => [r.name, r.errorCode, r.errorMessage]), [['c', ErrorCode.THROTTLING_QUOTA_EXCEEDED, null]]);
    assert.ok(grown.throttleTimeMs > 50_000, String(grown.throttleTimeMs));
  });
});

test('quotas stored before a restart are enforced after it', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'gregor-quota-'));
  try {
    const settings = { 'node.id': '1', 'log.dirs': dir, 'gregor.log.engine': 'file', ...WINDOWS };
    const first = await startTestBroker(settings);
    const client = await RawClient.connect(first.port);
    await setQuota(client, [['user', null]], 'request_percentage', 1e-9);
    await client.close();
    await first.close();
    const again = await startTestBroker(settings);
    const next = await RawClient.connect(again.port);
    try {
      assert.equal((await roundTrip(next, apiVersionsApi, 3, API_VERSIONS_V3)).throttleTimeMs, 1000);
    } finally {
      await next.close();
      await again.close();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('on a SASL listener the quota user is the authenticated one', async () => {
  const jaas = 'org.apache.kafka.common.security.plain.PlainLoginModule required user_alice="a-secret" user_bob="b-secret";';
  const broker = await startTestBroker({
    listeners: 'SASL_PLAINTEXT://127.0.0.1:0', 'sasl.enabled.mechanisms': 'PLAIN', 'listener.name.sasl_plaintext.plain.sasl.jaas.config': jaas, ...WINDOWS,
  });
  const login = async (user: string, password: string) => {
    const probe = await SaslProbe.connect(broker.port);
    await probe.handshake('PLAIN');
    assert.match(await probe.authenticate(plainToken(user, password)), /^SaslAuthenticate error 0 /);
    return probe.client;
  };
  const alice = await login('alice', 'a-secret');
  const bob = await login('bob', 'b-secret');
  try {
    await setQuota(alice, [['user', 'alice']], 'request_percentage', 1e-9);
    assert.equal((await roundTrip(alice, apiVersionsApi, 3, API_VERSIONS_V3)).throttleTimeMs, 1000);
    assert.equal((await roundTrip(bob, apiVersionsApi, 3, API_VERSIONS_V3)).throttleTimeMs, 0);
  } finally {
    await alice.close();
    await bob.close();
    await broker.close();
  }
});
