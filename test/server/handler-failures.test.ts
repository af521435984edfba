// A handler that throws gets Kafka's error response for its request, a log line with the stack, and
// leaves its own connection and every other one working; only acks=0 Produce closes its connection.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pino } from 'pino';
import { ErrorCode } from '../../src/protocol/error-codes.js';
import { errorResponses } from '../../src/protocol/error-responses/index.js';
import { apiVersionsApi } from '../../src/protocol/generated/api-versions.js';
import { createTopicsApi, type CreateTopicsRequest, type CreateTopicsResponse } from '../../src/protocol/generated/create-topics.js';
import { metadataApi, type MetadataRequest, type MetadataResponse } from '../../src/protocol/generated/metadata.js';
import { produceApi, type ProduceRequest, type ProduceResponse } from '../../src/protocol/generated/produce.js';
import { ZERO_UUID } from '../../src/protocol/io/reader.js';
import { defineHandler, type Handler } from '../../src/server/handler.js';
import { handlers as registry } from '../../src/server/handlers/index.js';
import { metadataHandler } from '../../src/server/handlers/03-metadata.js';
import { StorageError } from '../../src/storage/errors.js';
import { RawClient } from './raw-client.js';
import { encodeRequest, roundTrip, startTestBroker } from './broker-harness.js';

const API_VERSIONS_V3 = { clientSoftwareName: 'test', clientSoftwareVersion: '1' };

function metadataRequest(...names: string[]): MetadataRequest {
  return {
    topics: names.map((name) => ({ name, topicId: ZERO_UUID })),
    allowAutoTopicCreation: true, includeClusterAuthorizedOperations: false, includeTopicAuthorizedOperations: false,
  };
}

function produceRequest(acks: number): ProduceRequest {
  return { transactionalId: null, acks, timeoutMs: 1000, topicData: [{ topicId: ZERO_UUID, name: 'orders', partitionData: [{ index: 0, records: null }, { index: 3, records: null }] }] };
}

/** A broker whose given handlers replace the registry's, logging into `lines`. */
async function brokerWith(replaced: Handler[], lines: string[]) {
  const logger = pino({ level: 'warn' }, { write: (line: string) => void lines.push(line) });
  const keys = new Set(replaced.map((h) => h.api.apiKey));
  return startTestBroker({}, { logger, handlers: [...registry.filter((h) => !keys.has(h.api.apiKey)), ...replaced] });
}

test('every registered API has an error response', () => {
  const missing = registry.filter((h) => !errorResponses.has(h.api.apiKey)).map((h) => h.api.name);
  assert.deepEqual(missing, []);
});

test('a throwing Metadata handler: UNKNOWN_SERVER_ERROR on every topic, the stack logged, the connection kept', async () => {
  const throwing = defineHandler<MetadataRequest, MetadataResponse>({
    api: metadataApi, minVersion: metadataHandler.minVersion, maxVersion: metadataHandler.maxVersion,
    handle: () => {
      throw new TypeError('metadata handler bug');
    },
  });
  const lines: string[] = [];
  const broker = await brokerWith([throwing], lines);
  const bystander = await RawClient.connect(broker.port);
  const client = await RawClient.connect(broker.port);
  try {
    for (const version of [1, 9, 12]) {
      const response = await roundTrip(client, metadataApi, version, metadataRequest('a', 'b'));
      assert.deepEqual(response.topics.map((t) => [t.name, t.errorCode, t.partitions.length]), [
        ['a', ErrorCode.UNKNOWN_SERVER_ERROR, 0], ['b', ErrorCode.UNKNOWN_SERVER_ERROR, 0],
      ], `v${version}`);
    }
    assert.equal((await roundTrip(client, apiVersionsApi, 3, API_VERSIONS_V3)).errorCode, ErrorCode.NONE, 'the same connection still serves');
    assert.equal((await roundTrip(bystander, apiVersionsApi, 3, API_VERSIONS_V3)).errorCode, ErrorCode.NONE, 'another connection is unaffected');
    assert.equal(lines.length, 3);
    const entry = JSON.parse(lines[0]!) as { level: number; api: string; version: number; clientId: string; errorCode: number; err: { stack: string } };
    assert.equal(entry.level, 50);
    assert.equal(entry.api, 'Metadata');
    assert.equal(entry.version, 1);
    assert.equal(entry.clientId, 'test-client');
    assert.equal(entry.errorCode, ErrorCode.UNKNOWN_SERVER_ERROR);
    assert.match(entry.err.stack, /TypeError: metadata handler bug\n\s+at /);
  } finally {
    await client.close();
    await bystander.close();
    await broker.close();
  }
});

test('a rejected CreateTopics handler answers each topic with the code the error carries, and its message', async () => {
  const failing = defineHandler<CreateTopicsRequest, CreateTopicsResponse>({
    api: createTopicsApi, minVersion: 2, maxVersion: 7,
    handle: async () => {
      await Promise.resolve();
      throw new StorageError('KAFKA_STORAGE_ERROR', 'disk on fire');
    },
  });
  const lines: string[] = [];
  const broker = await brokerWith([failing], lines);
  const client = await RawClient.connect(broker.port);
  try {
    const topic = (name: string) => ({ name, numPartitions: 1, replicationFactor: 1, assignments: [], configs: [] });
    const response = await roundTrip(client, createTopicsApi, 7, { topics: [topic('x'), topic('y')], timeoutMs: 1000, validateOnly: false });
    assert.deepEqual(response.topics.map((t) => [t.name, t.errorCode, t.errorMessage]), [
      ['x', ErrorCode.KAFKA_STORAGE_ERROR, 'disk on fire'], ['y', ErrorCode.KAFKA_STORAGE_ERROR, 'disk on fire'],
    ]);
  } finally {
    await client.close();
    await broker.close();
  }
});

test('a response the version cannot carry is a handler failure too', async () => {
  // cluster_authorized_operations exists only in Metadata v8-v10: setting it in v1 cannot be encoded.
  const badResponse = defineHandler<MetadataRequest, MetadataResponse>({
    api: metadataApi, minVersion: 0, maxVersion: 12,
    handle: async (ctx, request, version) => ({ ...(await metadataHandler.handle(ctx, request, version) as MetadataResponse), clusterAuthorizedOperations: 0 }),
  });
  const lines: string[] = [];
  const broker = await brokerWith([badResponse], lines);
  const client = await RawClient.connect(broker.port);
  try {
    const response = await roundTrip(client, metadataApi, 1, metadataRequest('t'));
    assert.deepEqual(response.topics.map((t) => [t.name, t.errorCode]), [['t', ErrorCode.UNKNOWN_SERVER_ERROR]]);
    // v9 can carry the field; the topic exists now (v1 auto-creates it before the failed encoding).
    assert.equal((await roundTrip(client, metadataApi, 9, metadataRequest('t'))).topics[0]!.errorCode, ErrorCode.NONE);
    assert.equal(lines.length, 1);
  } finally {
    await client.close();
    await broker.close();
  }
});

test('a throwing Produce handler: acks=1 gets every partition failed; acks=0 has no answer, so its connection closes', async () => {
  const throwing = defineHandler<ProduceRequest, ProduceResponse>({
    api: produceApi, minVersion: 3, maxVersion: 11,
    handle: () => {
      throw new Error('produce handler bug');
    },
  });
  const lines: string[] = [];
  const broker = await brokerWith([throwing], lines);
  const client = await RawClient.connect(broker.port);
  try {
    const response = await roundTrip(client, produceApi, 9, produceRequest(1));
    assert.deepEqual(response.responses.map((t) => [t.name, t.partitionResponses.map((p) => [p.index, p.errorCode, p.errorMessage, p.baseOffset])]), [
      ['orders', [[0, ErrorCode.UNKNOWN_SERVER_ERROR, null, -1n], [3, ErrorCode.UNKNOWN_SERVER_ERROR, null, -1n]]],
    ]);
    client.send(encodeRequest(produceApi, 9, produceRequest(0), 99));
    await client.whenClosed;
    const bystander = await RawClient.connect(broker.port);
    assert.equal((await roundTrip(bystander, apiVersionsApi, 3, API_VERSIONS_V3)).errorCode, ErrorCode.NONE);
    await bystander.close();
  } finally {
    await client.close();
    await broker.close();
  }
});
