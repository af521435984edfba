// Start-up that fails part-way undoes what it opened: listeners already bound and the store are closed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:net';
import { resolveBrokerConfig } from '../../src/config/index.js';
import { startBroker } from '../../src/server/broker.js';
import { MemoryLogStore } from '../../src/storage/memory/memory-store.js';

/** A memory store that counts its close() calls. */
class CountingStore extends MemoryLogStore {
  closes = 0;
  override async close(): Promise<void> {
    this.closes++;
    await super.close();
  }
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve((server.address() as { port: number }).port));
  });
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

test('a listener that cannot bind fails start-up, closing the listener already bound and the store', async () => {
  const blocker = createServer();
  const busyPort = await listen(blocker, 0);
  const probe = createServer();
  const freePort = await listen(probe, 0);
  await close(probe);
  const store = new CountingStore({ nodeId: 1 });
  try {
    const config = resolveBrokerConfig({
      listeners: `PLAINTEXT://127.0.0.1:${freePort},SECOND://127.0.0.1:${busyPort}`,
      'listener.security.protocol.map': 'PLAINTEXT:PLAINTEXT,SECOND:PLAINTEXT',
    });
    await assert.rejects(startBroker(config, { store }), /EADDRINUSE/);
    assert.equal(store.closes, 1, 'the store is closed once');
    const again = createServer();
    assert.equal(await listen(again, freePort), freePort, 'the first listener released its port');
    await close(again);
  } finally {
    await close(blocker);
  }
});
