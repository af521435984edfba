// The wire workloads against a real gregor broker in this process (memory engine).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { freePort } from '../../compat-tests/lib/ports.js';
import { startTestBroker } from '../../test/server/broker-harness.js';
import { cpuSeconds, rssBytes, startedAtSinceBoot, statFields, uptimeSeconds } from '../compare/proc.js';
import { apiVersionsOk, manyProducers, openIdleConnections, timeMetadata } from '../compare/wire.js';
import { createTopics } from '../compare/admin.js';

let broker: Awaited<ReturnType<typeof startTestBroker>>;
before(async () => {
  broker = await startTestBroker({ 'num.partitions': '1' });
});
after(async () => {
  await broker.close();
});

test('ApiVersions probe: true from a broker, false where nothing listens', async () => {
  assert.equal(await apiVersionsOk(broker.port), true);
  assert.equal(await apiVersionsOk(await freePort()), false);
});

test('Metadata timing counts every partition the answer lists', async () => {
  await createTopics(`127.0.0.1:${broker.port}`, [{ name: 'meta-a', partitions: 3 }, { name: 'meta-b', partitions: 5 }]);
  const result = await timeMetadata(broker.port, 3);
  assert.ok(result.partitions >= 8, `${result.partitions} partitions`);
  assert.ok(result.medianMs >= 0 && result.bytes > 0);
});

test('idle connections stay open until closed', async () => {
  const connections = await openIdleConnections(broker.port, 150);
  assert.equal(await apiVersionsOk(broker.port), true);
  await connections.close();
});

test('many producers: every request acknowledged; an unknown partition fails the run', async () => {
  await createTopics(`127.0.0.1:${broker.port}`, [{ name: 'many', partitions: 4 }]);
  const result = await manyProducers(broker.port, 'many', 4, 20, 2, 5, 100);
  assert.ok(result.mbPerSecond > 0 && result.p99Ms >= result.p50Ms);
  await assert.rejects(manyProducers(broker.port, 'many', 9, 9, 1, 1, 10), /error code/);
});

test('/proc readers: stat fields after a command name with spaces and parentheses', () => {
  const fields = statFields('1234 (my (odd) name) S 1 1234 1234 0 -1 4194560 100 0 0 0 250 50 0 0 20 0 1 0 777 0 0');
  assert.equal(fields[0], 'S');
  assert.equal(fields[11], '250');
  assert.equal(fields[12], '50');
  assert.equal(fields[19], '777');
  assert.ok(rssBytes(process.pid) > 1024 * 1024);
  assert.ok(cpuSeconds(process.pid) >= 0);
  assert.ok(startedAtSinceBoot(process.pid) <= uptimeSeconds());
});
