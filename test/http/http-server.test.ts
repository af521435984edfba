// The HTTP listener: bound with the broker (port 0 resolved), health and readiness, JSON errors, closed by close().
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestBroker } from '../server/broker-harness.js';
import { startHttpServer } from '../../src/http/http-server.js';
import { silentLog } from '../../src/log.js';
import { systemScheduler } from '../../src/storage/scheduler.js';

function urlOf(address: { host: string; port: number }, path: string): string {
  return `http://${address.host}:${address.port}${path}`;
}

async function getJson(url: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(url);
  return { status: response.status, body: await response.json() };
}

test('startBroker with gregor.http.listeners binds the HTTP listener; /healthz and /readyz answer 200 once started', async () => {
  const broker = await startTestBroker({ 'gregor.http.listeners': 'http://127.0.0.1:0' });
  try {
    assert.equal(broker.httpAddresses.length, 1);
    const address = broker.httpAddresses[0]!;
    assert.equal(address.host, '127.0.0.1');
    assert.notEqual(address.port, 0);
    assert.deepEqual(await getJson(urlOf(address, '/healthz')), { status: 200, body: { status: 'up' } });
    assert.deepEqual(await getJson(urlOf(address, '/readyz')), {
      status: 200, body: { status: 'ready', checks: { logsLoaded: true, coordinatorsLoaded: true, listenersBound: true } },
    });
  } finally {
    await broker.close();
  }
  await assert.rejects(fetch(urlOf(broker.httpAddresses[0]!, '/healthz')));
});

test('BrokerOptions.http takes the place of gregor.http.listeners; none is served by default', async () => {
  const plain = await startTestBroker();
  assert.deepEqual(plain.httpAddresses, []);
  await plain.close();
  const broker = await startTestBroker({ 'gregor.http.listeners': 'http://127.0.0.1:1' }, { http: 'http://127.0.0.1:0,http://127.0.0.1:0' });
  try {
    assert.equal(broker.httpAddresses.length, 2);
    for (const address of broker.httpAddresses) assert.equal((await fetch(urlOf(address, '/healthz'))).status, 200);
  } finally {
    await broker.close();
  }
});

test('an unknown path, an unsupported method and an unparsable body get a one-line JSON error', async () => {
  const broker = await startTestBroker({ 'gregor.http.listeners': 'http://127.0.0.1:0' });
  try {
    const address = broker.httpAddresses[0]!;
    assert.deepEqual(await getJson(urlOf(address, '/nope?x=1')), { status: 404, body: { error: 'no such resource: GET /nope?x=1' } });
    const post = await fetch(urlOf(address, '/healthz'), { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
    assert.deepEqual({ status: post.status, body: await post.json() }, { status: 404, body: { error: 'no such resource: POST /healthz' } });
    assert.deepEqual(await getJson(urlOf(address, '/%')), { status: 400, body: { error: "'/%' is not a valid url component" } });
    const tooLarge = await fetch(urlOf(address, '/readyz'), { method: 'POST', body: Buffer.alloc(2_000_000, 'a'), headers: { 'content-type': 'application/json' } });
    assert.deepEqual({ status: tooLarge.status, body: await tooLarge.json() }, { status: 413, body: { error: 'Request body is too large' } });
    const bad = await fetch(urlOf(address, '/healthz'), { method: 'POST', body: '{', headers: { 'content-type': 'application/json' } });
    assert.deepEqual({ status: bad.status, body: await bad.json() },
      { status: 400, body: { error: "Body is not valid JSON but content-type is set to 'application/json'" } });
  } finally {
    await broker.close();
  }
});

test('before start-up is complete /readyz answers 503 naming what is not done, /healthz 200, other routes 503', async () => {
  const progress = { logsLoaded: true, coordinatorsLoaded: false, listenersBound: false, closing: false };
  const http = await startHttpServer({ listeners: [{ host: '127.0.0.1', port: 0 }], log: silentLog(), scheduler: systemScheduler, startedAt: 0, progress });
  try {
    const address = http.addresses[0]!;
    // The app is built on the first request: requests arriving together all wait for that one build.
    const first = await Promise.all(Array.from({ length: 5 }, () => getJson(urlOf(address, '/readyz'))));
    assert.deepEqual(new Set(first.map((answer) => JSON.stringify(answer))).size, 1);
    assert.deepEqual(await getJson(urlOf(address, '/readyz')), {
      status: 503, body: { status: 'starting', checks: { logsLoaded: true, coordinatorsLoaded: false, listenersBound: false } },
    });
    assert.equal((await fetch(urlOf(address, '/healthz'))).status, 200);
    assert.equal((await fetch(urlOf(address, '/metrics'))).status, 200);
    assert.deepEqual(await getJson(urlOf(address, '/nope')), { status: 503, body: { error: 'the broker is still starting (see /readyz)' } });
    progress.coordinatorsLoaded = true;
    progress.listenersBound = true;
    progress.closing = true;
    assert.deepEqual(await getJson(urlOf(address, '/readyz')), {
      status: 503, body: { status: 'stopping', checks: { logsLoaded: true, coordinatorsLoaded: true, listenersBound: true } },
    });
  } finally {
    await http.close();
  }
});

test('an HTTP listener that cannot be bound stops start-up with a one-line error', async () => {
  const first = await startTestBroker({ 'gregor.http.listeners': 'http://127.0.0.1:0' });
  try {
    const taken = first.httpAddresses[0]!.port;
    await assert.rejects(startTestBroker({ 'gregor.http.listeners': `http://127.0.0.1:${taken}` }),
      { message: `cannot bind the HTTP listener 127.0.0.1:${taken}: listen EADDRINUSE: address already in use 127.0.0.1:${taken}` });
  } finally {
    await first.close();
  }
});
