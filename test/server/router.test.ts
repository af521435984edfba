// The router through a real broker: what closes a connection, what does not, and response order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pino } from 'pino';
import { ErrorCode } from '../../src/protocol/error-codes.js';
import { apiVersionsApi } from '../../src/protocol/generated/api-versions.js';
import { metadataApi, type MetadataRequest, type MetadataResponse } from '../../src/protocol/generated/metadata.js';
import { ZERO_UUID } from '../../src/protocol/io/reader.js';
import { defineHandler, NO_RESPONSE } from '../../src/server/handler.js';
import { apiVersionsHandler } from '../../src/server/handlers/18-api-versions.js';
import { metadataHandler } from '../../src/server/handlers/03-metadata.js';
import { RawClient, sizePrefixed } from './raw-client.js';
import { decodeResponse, encodeRequest, roundTrip, startTestBroker } from './broker-harness.js';

const API_VERSIONS_V0 = { clientSoftwareName: '', clientSoftwareVersion: '' };

async function expectClosed(port: number, bytes: Buffer, what: string, otherPort = port): Promise<void> {
  const bystander = await RawClient.connect(otherPort);
  const client = await RawClient.connect(port);
  client.sendRaw(bytes);
  await client.whenClosed;
  assert.equal(client.received, 0, `${what}: no response`);
  const response = await roundTrip(bystander, apiVersionsApi, 3, { clientSoftwareName: 'bystander', clientSoftwareVersion: '1' });
  assert.equal(response.errorCode, ErrorCode.NONE, `${what}: another connection is unaffected`);
  await bystander.close();
}

test('bad requests close their own connection only', async () => {
  const broker = await startTestBroker();
  try {
    const metadataV12 = encodeRequest(metadataApi, 12, { topics: null, allowAutoTopicCreation: true, includeClusterAuthorizedOperations: false, includeTopicAuthorizedOperations: false }, 1);
    const withVersion = (version: number) => {
      const copy = Buffer.from(metadataV12);
      copy.writeInt16BE(version, 2);
      return copy;
    };
    const unknownKey = Buffer.from(metadataV12);
    unknownKey.writeInt16BE(999, 0);
    const cases: [string, Buffer][] = [
      ['garbage', sizePrefixed(Buffer.from('this is not a kafka request at all'))],
      ['a zero-length frame', sizePrefixed(Buffer.alloc(0))],
      ['a frame shorter than a header', sizePrefixed(Buffer.from([0, 3, 0]))],
      ['an unknown api key', sizePrefixed(unknownKey)],
      ['a negative api key', sizePrefixed(Buffer.from('ffff000000000001ffff', 'hex'))],
      ['a version above the range', sizePrefixed(withVersion(14))],
      ['a negative version', sizePrefixed(withVersion(-1))],
      ['a truncated body', sizePrefixed(metadataV12.subarray(0, metadataV12.length - 3))],
      ['a negative size', Buffer.from([0xff, 0xff, 0xff, 0xf0])],
      ['a size above socket.request.max.bytes', Buffer.from([0x06, 0x40, 0x00, 0x01])],
    ];
    for (const [what, bytes] of cases) await expectClosed(broker.port, bytes, what);
  } finally {
    await broker.close();
  }
});

test('a 0x7fffffff size prefix closes the connection without the broker allocating for it', async () => {
  const broker = await startTestBroker();
  try {
    const before = process.memoryUsage().arrayBuffers;
    for (let i = 0; i < 20; i++) {
      const client = await RawClient.connect(broker.port);
      client.sendRaw(Buffer.concat([Buffer.from([0x7f, 0xff, 0xff, 0xff]), Buffer.alloc(64 * 1024, 1)]));
      await client.whenClosed;
    }
    const grown = process.memoryUsage().arrayBuffers - before;
    assert.ok(grown < 64 * 1024 * 1024, `array buffers grew by ${grown} bytes`);
  } finally {
    await broker.close();
  }
});

test('pipelined requests are answered in order even when an earlier handler is slower', async () => {
  let releaseSlow!: () => void;
  const slowGate = new Promise<void>((resolve) => (releaseSlow = resolve));
  const order: string[] = [];
  // Metadata whose handler waits for the gate when asked for the topic "slow".
  const gatedMetadata = defineHandler<MetadataRequest, MetadataResponse>({
    api: metadataApi,
    minVersion: metadataHandler.minVersion,
    maxVersion: metadataHandler.maxVersion,
    async handle(ctx, request, version) {
      const slow = request.topics?.some((t) => t.name === 'slow') ?? false;
      order.push(slow ? 'slow started' : 'fast started');
      if (slow) await slowGate;
      return (await metadataHandler.handle(ctx, request, version)) as MetadataResponse;
    },
  });
  const broker = await startTestBroker({}, { handlers: [gatedMetadata, apiVersionsHandler] });
  const client = await RawClient.connect(broker.port);
  try {
    const metadata = (topic: string, id: number) =>
      sizePrefixed(encodeRequest(metadataApi, 12, { topics: [{ name: topic, topicId: ZERO_UUID }], allowAutoTopicCreation: false, includeClusterAuthorizedOperations: false, includeTopicAuthorizedOperations: false }, id));
    client.sendRaw(Buffer.concat([
      metadata('slow', 1),
      sizePrefixed(encodeRequest(apiVersionsApi, 0, API_VERSIONS_V0, 2)),
      metadata('fast', 3),
    ]));
    const first = client.read();
    while (order.length < 2) await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(order, ['slow started', 'fast started'], 'handlers start in arrival order');
    releaseSlow();
    const ids = [
      decodeResponse(metadataApi, 12, await first).correlationId,
      decodeResponse(apiVersionsApi, 0, await client.read()).correlationId,
      decodeResponse(metadataApi, 12, await client.read()).correlationId,
    ];
    assert.deepEqual(ids, [1, 2, 3]);
  } finally {
    await client.close();
    await broker.close();
  }
});

test('a handler returning NO_RESPONSE writes nothing and does not hold back the next response', async () => {
  const silentMetadata = defineHandler<MetadataRequest, MetadataResponse>({
    api: metadataApi,
    minVersion: 0,
    maxVersion: 12,
    handle: () => NO_RESPONSE,
  });
  const broker = await startTestBroker({}, { handlers: [silentMetadata, apiVersionsHandler] });
  const client = await RawClient.connect(broker.port);
  try {
    client.send(encodeRequest(metadataApi, 1, { topics: null, allowAutoTopicCreation: true, includeClusterAuthorizedOperations: false, includeTopicAuthorizedOperations: false }, 1));
    client.send(encodeRequest(apiVersionsApi, 0, API_VERSIONS_V0, 2));
    assert.equal(decodeResponse(apiVersionsApi, 0, await client.read()).correlationId, 2);
  } finally {
    await client.close();
    await broker.close();
  }
});

test('the registry refuses an api registered twice or a range beyond the codec', async () => {
  await assert.rejects(startTestBroker({}, { handlers: [apiVersionsHandler, apiVersionsHandler] }), /registered twice/);
  const tooWide = defineHandler({ ...metadataHandler, maxVersion: 14 } as typeof metadataHandler);
  await assert.rejects(startTestBroker({}, { handlers: [tooWide] }), /outside the codec/);
});

test('close() stops accepting and closes open connections', async () => {
  const broker = await startTestBroker();
  const client = await RawClient.connect(broker.port);
  await roundTrip(client, apiVersionsApi, 0, API_VERSIONS_V0);
  await broker.close();
  await client.whenClosed;
  await assert.rejects(RawClient.connect(broker.port));
});

test('closing after a bad request logs one warning naming the client', async () => {
  const lines: string[] = [];
  const logger = pino({ level: 'warn' }, { write: (line: string) => void lines.push(line) });
  const broker = await startTestBroker({}, { logger });
  try {
    const client = await RawClient.connect(broker.port);
    const { localAddress: address, localPort: port } = client.socket;
    const unknownKey = encodeRequest(apiVersionsApi, 0, API_VERSIONS_V0, 1, 'my-client');
    unknownKey.writeInt16BE(999, 0);
    client.send(unknownKey);
    await client.whenClosed;
    assert.equal(lines.length, 1);
    const entry = JSON.parse(lines[0]!) as { level: number; client: string; reason: string };
    assert.equal(entry.level, 40);
    assert.match(entry.client, new RegExp(`^${String(address).replace(/\./g, '\\.')}:${port} `));
    assert.match(entry.reason, /unknown api key 999 .*"my-client"/);
  } finally {
    await broker.close();
  }
});
