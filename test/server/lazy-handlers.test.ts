// APIs registered as lazy lines are loaded on their first request: every line loads the handler it
// advertises, a first request is answered as any other (and is not overtaken by a request pipelined
// behind it), and a handler that fails to load gets the request's error response, not a crash.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pino } from 'pino';
import { ErrorCode } from '../../src/protocol/error-codes.js';
import { createTopicsApi, type CreateTopicsRequest, type CreateTopicsResponse } from '../../src/protocol/generated/create-topics.js';
import { metadataApi, type MetadataRequest, type MetadataResponse } from '../../src/protocol/generated/metadata.js';
import { ZERO_UUID } from '../../src/protocol/io/reader.js';
import { defineHandler, isLazy, lazyHandler, type Handler, type RegisteredApi } from '../../src/server/handler.js';
import { handlers as registry } from '../../src/server/handlers/index.js';
import { createTopicsHandler } from '../../src/server/handlers/19-create-topics.js';
import { deleteTopicsHandler } from '../../src/server/handlers/20-delete-topics.js';
import { metadataHandler } from '../../src/server/handlers/03-metadata.js';
import { checkLoaded } from '../../src/server/router.js';
import { RawClient, sizePrefixed } from './raw-client.js';
import { decodeResponse, encodeRequest, roundTrip, startTestBroker } from './broker-harness.js';

function createTopicsRequest(...names: string[]): CreateTopicsRequest {
  return {
    topics: names.map((name) => ({ name, numPartitions: 1, replicationFactor: 1, assignments: [], configs: [] })),
    timeoutMs: 5000,
    validateOnly: false,
  };
}

function metadataRequest(...names: string[]): MetadataRequest {
  return {
    topics: names.map((name) => ({ name, topicId: ZERO_UUID })),
    allowAutoTopicCreation: false, includeClusterAuthorizedOperations: false, includeTopicAuthorizedOperations: false,
  };
}

/** The registry with the CreateTopics line replaced, logging into `lines`. */
async function brokerWith(replaced: RegisteredApi[], lines: string[] = []) {
  const logger = pino({ level: 'warn' }, { write: (line: string) => void lines.push(line) });
  const keys = new Set(replaced.map((h) => h.api.apiKey));
  return startTestBroker({}, { logger, handlers: [...registry.filter((h) => !keys.has(h.api.apiKey)), ...replaced] });
}

test('every lazy line loads the handler of the API and versions it advertises', async () => {
  const lazy = registry.filter(isLazy);
  assert.ok(lazy.length >= 30, `${lazy.length} lazy lines`);
  for (const line of lazy) {
    const handler = checkLoaded(line, await line.load());
    assert.equal(handler.api.apiKey, line.api.apiKey, line.api.name);
  }
});

test('a loaded handler that is not the registered API or versions is refused', async () => {
  const line = lazyHandler(19, 'CreateTopics', 2, 7, async () => createTopicsHandler);
  assert.equal(checkLoaded(line, await line.load()), createTopicsHandler);
  assert.throws(() => checkLoaded(line, deleteTopicsHandler), /advertises CreateTopics \(key 19\) v2-v7, but its module serves DeleteTopics/);
  assert.throws(() => checkLoaded(lazyHandler(19, 'CreateTopics', 2, 6, async () => createTopicsHandler), createTopicsHandler), /v2-v6/);
});

test('the first request of a lazy API is answered, and a request pipelined behind it waits for it', async () => {
  const order: string[] = [];
  let loads = 0;
  const recordingCreate = defineHandler<CreateTopicsRequest, CreateTopicsResponse>({
    ...(createTopicsHandler as unknown as Handler<CreateTopicsRequest, CreateTopicsResponse>),
    handle(ctx, request, version) {
      order.push('create');
      return (createTopicsHandler as unknown as Handler<CreateTopicsRequest, CreateTopicsResponse>).handle(ctx, request, version);
    },
  });
  const recordingMetadata = defineHandler<MetadataRequest, MetadataResponse>({
    ...(metadataHandler as unknown as Handler<MetadataRequest, MetadataResponse>),
    handle(ctx, request, version) {
      order.push('metadata');
      return (metadataHandler as unknown as Handler<MetadataRequest, MetadataResponse>).handle(ctx, request, version);
    },
  });
  const line = lazyHandler(19, 'CreateTopics', 2, 7, async () => {
    loads++;
    return recordingCreate;
  });
  const broker = await brokerWith([line, recordingMetadata]);
  const client = await RawClient.connect(broker.port);
  try {
    // One write: both requests are dispatched in the same read, the Metadata one while CreateTopics loads.
    client.sendRaw(Buffer.concat([
      sizePrefixed(encodeRequest(createTopicsApi, 7, createTopicsRequest('lazy-first'), 1)),
      sizePrefixed(encodeRequest(metadataApi, 12, metadataRequest('lazy-first'), 2)),
    ]));
    const created = decodeResponse(createTopicsApi, 7, await client.read());
    const metadata = decodeResponse(metadataApi, 12, await client.read());
    assert.deepEqual(order, ['create', 'metadata']);
    assert.equal(created.correlationId, 1);
    assert.deepEqual(created.response.topics.map((t) => [t.name, t.errorCode]), [['lazy-first', ErrorCode.NONE]]);
    assert.equal(metadata.correlationId, 2);

    // Loaded once: the next request is served by the kept handler.
    const again = await roundTrip(client, createTopicsApi, 7, createTopicsRequest('lazy-second'));
    assert.deepEqual(again.topics.map((t) => [t.name, t.errorCode]), [['lazy-second', ErrorCode.NONE]]);
    assert.equal(loads, 1);
  } finally {
    await client.close();
    await broker.close();
  }
});

test('a handler that fails to load: the error response, a log line, the connection kept, and the next request tries again', async () => {
  let attempts = 0;
  const line = lazyHandler(19, 'CreateTopics', 2, 7, async () => {
    attempts++;
    if (attempts === 1) throw new Error('chunk missing');
    return attempts === 2 ? deleteTopicsHandler : createTopicsHandler;
  });
  const lines: string[] = [];
  const broker = await brokerWith([line], lines);
  const client = await RawClient.connect(broker.port);
  try {
    for (const attempt of [1, 2]) {
      const failed = await roundTrip(client, createTopicsApi, 7, createTopicsRequest('never'));
      assert.deepEqual(failed.topics.map((t) => [t.name, t.errorCode]), [['never', ErrorCode.UNKNOWN_SERVER_ERROR]], `attempt ${attempt}`);
    }
    assert.ok(lines.some((l) => l.includes('chunk missing') && l.includes('CreateTopics')), 'the load failure is logged');
    assert.ok(lines.some((l) => l.includes('but its module serves DeleteTopics')), 'the mismatch is logged');

    const served = await roundTrip(client, createTopicsApi, 7, createTopicsRequest('third-time'));
    assert.deepEqual(served.topics.map((t) => [t.name, t.errorCode]), [['third-time', ErrorCode.NONE]]);
    const metadata = await roundTrip(client, metadataApi, 12, metadataRequest('never', 'third-time'));
    assert.deepEqual(metadata.topics.map((t) => [t.name, t.errorCode]), [
      ['never', ErrorCode.UNKNOWN_TOPIC_OR_PARTITION], ['third-time', ErrorCode.NONE],
    ]);
  } finally {
    await client.close();
    await broker.close();
  }
});
