// The connection layer on its own, with a tiny test dispatcher standing in for the router:
// request = int32 id + int8 command; response = the id, padded to the requested size.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server, type Socket } from 'node:net';
import { pino } from 'pino';
import { CloseConnection, Connection, type ConnectionLimits, type Dispatch, type ResponseBytes } from '../../src/server/connection.js';
import { RequestBudget } from '../../src/server/request-budget.js';
import { RawClient, sizePrefixed, turns, until } from './raw-client.js';

const FAST = 0;
const SLOW = 1;
const NONE = 2;
const BAD = 3;

interface Harness {
  server: Server;
  port: number;
  sockets: Socket[];
  connections: Connection[];
  dispatched: number[];
  /** Resolvers of SLOW requests, by id. */
  slow: Map<number, () => void>;
  close(): Promise<void>;
}

function request(id: number, command: number, responseBytes = 4): Buffer {
  const body = Buffer.alloc(9);
  body.writeInt32BE(id, 0);
  body.writeInt8(command, 4);
  body.writeInt32BE(responseBytes, 5);
  return body;
}

const open: Harness[] = [];
// A failed assertion must not leave a server holding the test process open.
after(async () => {
  for (const h of open) await h.close();
});

async function harness(limits: Partial<ConnectionLimits> = {}, writeHighWaterMark = 16 * 1024): Promise<Harness> {
  const h: Harness = {
    server: undefined as unknown as Server,
    port: 0,
    sockets: [],
    connections: [],
    dispatched: [],
    slow: new Map(),
    close: async () => {
      for (const s of h.sockets) s.destroy();
      if (h.server.listening) await new Promise<void>((resolve) => h.server.close(() => resolve()));
    },
  };
  const respond = (id: number, size: number): ResponseBytes => {
    const body = Buffer.alloc(size);
    body.writeInt32BE(id, 0);
    return [sizePrefixed(body)];
  };
  const dispatch: Dispatch = (frame) => {
    const id = frame.readInt32BE(0);
    const command = frame.readInt8(4);
    const size = frame.readInt32BE(5);
    h.dispatched.push(id);
    switch (command) {
      case FAST:
        return respond(id, size);
      case SLOW:
        return new Promise((resolve) => h.slow.set(id, () => resolve(respond(id, size))));
      case NONE:
        return null;
      default:
        throw new CloseConnection(`bad command ${command}`);
    }
  };
  const full: ConnectionLimits = { maxRequestBytes: 1024, maxInFlight: 100, maxInFlightBytes: 1 << 20, idleMs: 0, ...limits };
  h.server = createServer({ highWaterMark: writeHighWaterMark }, (socket) => {
    h.sockets.push(socket);
    const info = { id: h.connections.length, listenerName: 'TEST', principal: 'User:ANONYMOUS', securityProtocol: 'PLAINTEXT', tokenAuthenticated: false, remote: 'test', clientId: null, clientSoftwareName: null, clientSoftwareVersion: null };
    h.connections.push(new Connection(socket, info, dispatch, full, pino({ level: 'silent' })));
  });
  await new Promise<void>((resolve) => h.server.listen(0, '127.0.0.1', () => resolve()));
  const address = h.server.address();
  h.port = typeof address === 'object' && address !== null ? address.port : 0;
  open.push(h);
  return h;
}

async function readIds(client: RawClient, n: number): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < n; i++) ids.push((await client.read()).readInt32BE(0));
  return ids;
}

test('pipelined responses are written in request order; a slow handler ahead of fast ones holds them back', async () => {
  const h = await harness();
  const client = await RawClient.connect(h.port);
  client.sendRaw(Buffer.concat([request(1, SLOW), request(2, FAST), request(3, NONE), request(4, FAST)].map(sizePrefixed)));
  await until(() => h.dispatched.length === 4, 'all four dispatched');
  await turns(20);
  assert.equal(client.received, 0, 'nothing is written while the first response is pending');
  h.slow.get(1)!();
  assert.deepEqual(await readIds(client, 3), [1, 2, 4], 'in order, and the no-response request does not stall it');
  await client.close();
  await h.close();
});

test('a request with no response completes at once and later responses still flow', async () => {
  const h = await harness();
  const client = await RawClient.connect(h.port);
  for (let i = 0; i < 10; i++) client.send(request(i, i % 2 === 0 ? NONE : FAST));
  assert.deepEqual(await readIds(client, 5), [1, 3, 5, 7, 9]);
  await client.close();
  await h.close();
});

test('reading pauses at the in-flight cap and resumes as responses are written', async () => {
  const h = await harness({ maxInFlight: 3 });
  const client = await RawClient.connect(h.port);
  client.sendRaw(Buffer.concat(Array.from({ length: 10 }, (_, i) => sizePrefixed(request(i, SLOW)))));
  await until(() => h.dispatched.length === 3, 'three dispatched');
  await turns(50);
  assert.equal(h.dispatched.length, 3, 'no fourth request is taken while three are in flight');
  assert.equal(h.sockets[0]!.isPaused(), true);
  h.slow.get(0)!();
  await until(() => h.dispatched.length === 4, 'a fourth dispatched after one completes');
  for (let i = 1; i < 10; i++) {
    await until(() => h.slow.has(i), `request ${i} dispatched`);
    h.slow.get(i)!();
  }
  assert.deepEqual(await readIds(client, 10), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  await client.close();
  await h.close();
});

test('reading pauses at the in-flight byte cap; a frame larger than the cap is still taken alone', async () => {
  // Each request frame here is 9 bytes: 18 in flight is under a cap of 20, 27 is over it.
  const h = await harness({ maxInFlightBytes: 20 });
  const client = await RawClient.connect(h.port);
  client.sendRaw(Buffer.concat(Array.from({ length: 6 }, (_, i) => sizePrefixed(request(i, SLOW)))));
  await until(() => h.dispatched.length === 3, 'three dispatched');
  await turns(50);
  assert.equal(h.dispatched.length, 3, 'no fourth request is taken with 27 bytes in flight');
  assert.equal(h.sockets[0]!.isPaused(), true);
  for (let i = 0; i < 6; i++) {
    await until(() => h.slow.has(i), `request ${i} dispatched`);
    h.slow.get(i)!();
  }
  assert.deepEqual(await readIds(client, 6), [0, 1, 2, 3, 4, 5]);
  await client.close();

  const tiny = await harness({ maxInFlightBytes: 4 });
  const one = await RawClient.connect(tiny.port);
  one.sendRaw(Buffer.concat([sizePrefixed(request(0, SLOW)), sizePrefixed(request(1, FAST))]));
  await until(() => tiny.dispatched.length === 1, 'the first dispatched');
  await turns(50);
  assert.deepEqual(tiny.dispatched, [0], 'one at a time when a single frame is over the cap');
  tiny.slow.get(0)!();
  assert.deepEqual(await readIds(one, 2), [0, 1]);
  await one.close();
  await tiny.close();
  await h.close();
});

test('a client that never reads: the server stops reading above the write high-water mark, and resumes on drain', async () => {
  const h = await harness({ maxInFlight: 1000 }, 64 * 1024);
  const client = await RawClient.connect(h.port);
  client.socket.pause();
  const total = 400;
  const responseBytes = 256 * 1024; // 100 MiB in all: far more than the kernel buffers hold
  client.sendRaw(Buffer.concat(Array.from({ length: total }, (_, i) => sizePrefixed(request(i, FAST, responseBytes)))));
  const server = () => h.sockets[0];
  await until(() => server() !== undefined && server()!.isPaused() && server()!.writableLength > 0 && h.dispatched.length > 0, 'server paused with unsent bytes');
  await turns(50);
  const taken = h.dispatched.length;
  assert.ok(taken < total, `the server stopped taking requests (${taken} of ${total})`);
  assert.equal(server()!.isPaused(), true);
  client.socket.resume();
  const ids = await readIds(client, total);
  assert.deepEqual(ids, Array.from({ length: total }, (_, i) => i));
  await client.close();
  await h.close();
});

test('responses done behind a slow one count toward the bound: reading stops until they are written', async () => {
  const h = await harness({}, 16 * 1024);
  const client = await RawClient.connect(h.port);
  const frames = [sizePrefixed(request(0, SLOW))];
  for (let i = 1; i <= 20; i++) frames.push(sizePrefixed(request(i, FAST, 8 * 1024)));
  client.sendRaw(Buffer.concat(frames));
  await until(() => h.dispatched.length === 3, 'the slow one and two 8 KiB responses');
  await turns(50);
  assert.equal(h.dispatched.length, 3, 'no more is taken with 16 KiB of responses held');
  assert.equal(h.connections[0]!.queuedResponseBytes, 2 * (8 * 1024 + 4));
  h.slow.get(0)!();
  assert.deepEqual(await readIds(client, 21), Array.from({ length: 21 }, (_, i) => i));
  await client.close();
  await h.close();
});

test('queued.max.requests: at the broker-wide bound connections wait, woken in arrival order; an idle one may take one', async () => {
  const requests = new RequestBudget(3);
  const h = await harness({ requests });
  const first = await RawClient.connect(h.port);
  first.sendRaw(Buffer.concat([0, 1, 2, 3, 4].map((i) => sizePrefixed(request(i, SLOW)))));
  await until(() => h.dispatched.length === 3, 'three taken');
  await turns(50);
  assert.deepEqual(h.dispatched, [0, 1, 2]);
  const second = await RawClient.connect(h.port);
  second.sendRaw(Buffer.concat([10, 11].map((i) => sizePrefixed(request(i, SLOW)))));
  await until(() => h.dispatched.length === 4, 'the idle connection takes its first');
  await turns(50);
  assert.deepEqual(h.dispatched, [0, 1, 2, 10], 'but not a second one');
  assert.equal(requests.requestsInProgress, 4);
  h.slow.get(0)!();
  await turns(50);
  assert.deepEqual(h.dispatched, [0, 1, 2, 10], 'still at the bound');
  h.slow.get(1)!();
  await until(() => h.dispatched.length === 5, 'one more taken');
  await turns(50);
  assert.deepEqual(h.dispatched, [0, 1, 2, 10, 3], 'the connection that waited first');
  for (const id of [2, 10, 3]) h.slow.get(id)!();
  await until(() => h.dispatched.length === 7, 'the rest taken');
  for (const id of [4, 11]) h.slow.get(id)!();
  assert.deepEqual(await readIds(first, 5), [0, 1, 2, 3, 4]);
  assert.deepEqual(await readIds(second, 2), [10, 11]);
  assert.equal(requests.requestsInProgress, 0);
  await first.close();
  await second.close();
  await h.close();
});

test('a bad request closes that connection only', async () => {
  const h = await harness();
  const bad = await RawClient.connect(h.port);
  const good = await RawClient.connect(h.port);
  bad.send(request(1, BAD));
  await bad.whenClosed;
  good.send(request(2, FAST));
  assert.deepEqual(await readIds(good, 1), [2]);
  await good.close();
  await h.close();
});

test('an oversize or negative size prefix closes the connection', async () => {
  const h = await harness({ maxRequestBytes: 100 });
  for (const prefix of [[0, 0, 0, 101], [0x7f, 0xff, 0xff, 0xff], [0xff, 0xff, 0xff, 0xff]]) {
    const client = await RawClient.connect(h.port);
    client.sendRaw(Buffer.from(prefix));
    await client.whenClosed;
    assert.equal(client.received, 0);
  }
  await h.close();
});

test('an idle connection is closed after connections.max.idle.ms', async () => {
  const h = await harness({ idleMs: 30 });
  const client = await RawClient.connect(h.port);
  client.send(request(1, FAST));
  assert.deepEqual(await readIds(client, 1), [1]);
  await client.whenClosed;
  await h.close();
});

test('a connection waiting on a slow request is not idle', async () => {
  const h = await harness({ idleMs: 20 });
  const client = await RawClient.connect(h.port);
  client.send(request(1, SLOW));
  await until(() => h.slow.has(1), 'dispatched');
  await new Promise((resolve) => setTimeout(resolve, 100));
  assert.equal(client.closed, false);
  h.slow.get(1)!();
  assert.deepEqual(await readIds(client, 1), [1]);
  await client.whenClosed;
  await h.close();
});

test('close() answers requests in flight, then ends the connection', async () => {
  const h = await harness();
  const client = await RawClient.connect(h.port);
  client.send(request(1, SLOW));
  await until(() => h.slow.has(1), 'dispatched');
  const closed = h.connections[0]!.close();
  client.send(request(2, FAST));
  h.slow.get(1)!();
  await closed;
  assert.deepEqual(await readIds(client, 1), [1]);
  await client.whenClosed;
  assert.equal(client.received, 0, 'the request sent after close() is not answered');
  await h.close();
});
