// A client that pipelines fetches and never reads its responses (issue 24): the broker stops reading from it
// once its responses reach the bound, a neighbour is still served, and closing it releases everything,
// including a long poll it left waiting.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ErrorCode } from '../../src/protocol/error-codes.js';
import { fetchApi } from '../../src/protocol/generated/fetch.js';
import { MemoryLogStore } from '../../src/storage/memory/memory-store.js';
import { batch, fetch, fetchRequest, produce } from '../broker/data-harness.js';
import { encodeRequest, startTestBroker } from './broker-harness.js';
import { RawClient, sizePrefixed, turns, until } from './raw-client.js';

const KiB = 1024;
const MiB = 1024 * KiB;
const HIGH_WATER_MARK = 64 * KiB;

async function brokerWithData(partitionBytes: number) {
  const store = new MemoryLogStore({ nodeId: 1 });
  const broker = await startTestBroker({ 'node.id': '1' }, { store, writeHighWaterMark: HIGH_WATER_MARK });
  await store.createTopic('data', 1);
  const producer = await RawClient.connect(broker.port);
  for (let written = 0; written < partitionBytes; written += 64 * KiB) {
    const response = await produce(producer, 'data', 0, batch([{ value: Buffer.alloc(64 * KiB, 7) }]));
    assert.equal(response.responses[0]!.partitionResponses[0]!.errorCode, ErrorCode.NONE);
  }
  await producer.close();
  return broker;
}

/** Sends `count` fetches of 1 MiB each and reads none of the answers, until the broker holds them. */
async function pipelineUnread(broker: Awaited<ReturnType<typeof brokerWithData>>, client: RawClient, count: number): Promise<void> {
  client.socket.pause();
  const request = fetchRequest([{ topic: 'data', maxBytes: MiB }], { maxBytes: MiB });
  client.sendRaw(Buffer.concat(Array.from({ length: count }, (_, i) => sizePrefixed(encodeRequest(fetchApi, 12, request, i)))));
  await until(() => broker.stats().maxQueuedResponseBytes > HIGH_WATER_MARK && broker.stats().requestsInProgress === 0, 'responses queued, nothing in progress');
}

test('a client that pipelines fetches and never reads: the broker stops reading at the bound, serves a neighbour, and lets go when it leaves', async () => {
  // Each fetch answers 1 MiB; 200 of them unbounded would be 200 MiB held for one client.
  const broker = await brokerWithData(2 * MiB);
  const greedy = await RawClient.connect(broker.port);
  try {
    await pipelineUnread(broker, greedy, 200);
    await turns(200);
    const held = broker.stats();
    // At most the high-water mark plus one response (1 MiB of records and its headers) waits for this client.
    assert.ok(held.maxQueuedResponseBytes <= HIGH_WATER_MARK + MiB + 4 * KiB, `${held.maxQueuedResponseBytes} bytes queued for one client`);
    assert.equal(held.requestsInProgress, 0, 'the broker has stopped taking its requests');

    const neighbour = await RawClient.connect(broker.port);
    const served = await fetch(neighbour, fetchRequest([{ topic: 'data', maxBytes: 64 * KiB }]));
    assert.equal(served.responses[0]!.partitions[0]!.errorCode, ErrorCode.NONE);
    assert.ok((served.responses[0]!.partitions[0]!.records as Buffer).length > 0);

    await greedy.close();
    await until(() => broker.stats().connections === 1, 'the greedy connection is gone');
    assert.deepEqual(broker.stats(), { connections: 1, waitingConnections: 0, requestsInProgress: 0, maxQueuedResponseBytes: 0 });
    await neighbour.close();
  } finally {
    await greedy.close();
    await broker.close();
  }
});

test('the broker closes while a client that never reads holds unsent responses', async () => {
  const broker = await brokerWithData(2 * MiB);
  const greedy = await RawClient.connect(broker.port);
  try {
    await pipelineUnread(broker, greedy, 20);
    const ended = new Promise<void>((resolve) => greedy.socket.once('close', () => resolve()));
    // Before, close() waited for the client to take its responses: forever.
    await broker.close();
    greedy.socket.resume();
    await ended;
  } finally {
    await greedy.close();
  }
});

test('pipelined fetches are all answered, in order, once the client reads', async () => {
  const broker = await brokerWithData(256 * KiB);
  try {
    const client = await RawClient.connect(broker.port);
    client.socket.pause();
    const request = fetchRequest([{ topic: 'data', maxBytes: 256 * KiB }], { maxBytes: 256 * KiB });
    client.sendRaw(Buffer.concat(Array.from({ length: 50 }, (_, i) => sizePrefixed(encodeRequest(fetchApi, 12, request, i)))));
    await until(() => broker.stats().maxQueuedResponseBytes > HIGH_WATER_MARK, 'responses queued');
    client.socket.resume();
    for (let i = 0; i < 50; i++) assert.equal((await client.read()).readInt32BE(0), i);
    await client.close();
  } finally {
    await broker.close();
  }
});

test('a long poll is cancelled when its client goes away', async () => {
  const broker = await brokerWithData(64 * KiB);
  const client = await RawClient.connect(broker.port);
  try {
    // min_bytes far above what the partition holds, and max_wait_ms of an hour: the request waits.
    client.send(encodeRequest(fetchApi, 12, fetchRequest([{ topic: 'data' }], { maxWaitMs: 3_600_000, minBytes: 100 * MiB }), 1));
    await until(() => broker.stats().requestsInProgress === 1, 'the fetch is waiting');
    await turns(50);
    assert.equal(broker.stats().requestsInProgress, 1);
    await client.close();
    await until(() => broker.stats().requestsInProgress === 0, 'the long poll ends with its connection');
    assert.equal(broker.stats().connections, 0);
  } finally {
    await client.close();
    await broker.close();
  }
});
