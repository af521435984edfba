// max.connections, max.connections.per.ip and its overrides, as Kafka 4.3.1's ConnectionQuotas enforces them
// (seen on the reference broker): over an address's limit the connection is accepted and closed at once,
// before any request is read, with an INFO line; at max.connections the new connection waits, connected and
// unanswered, until one closes. Both are dynamic broker configs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import kafkajs from 'kafkajs';
import { pino } from 'pino';
import { ConfigError, resolveBrokerConfig } from '../../src/config/index.js';
import { apiVersionsApi, createApiVersionsRequest } from '../../src/protocol/generated/api-versions.js';
import { encodeRequest, startTestBroker } from './broker-harness.js';
import { RawClient, until } from './raw-client.js';

const { ConfigResourceTypes, Kafka, logLevel } = kafkajs;

/** Connects from `localAddress` and sends ApiVersions. */
async function connectFrom(port: number, localAddress = '127.0.0.1'): Promise<RawClient> {
  const client = await RawClient.connect(port, '127.0.0.1', localAddress);
  client.send(encodeRequest(apiVersionsApi, 3, { ...createApiVersionsRequest(), clientSoftwareName: 'test', clientSoftwareVersion: '1' }, 1));
  return client;
}

/** Served: the ApiVersions response arrives. Refused: closed with nothing written. */
async function outcome(client: RawClient): Promise<'served' | 'refused'> {
  try {
    await client.read();
    return 'served';
  } catch {
    assert.equal(client.received, 0);
    return 'refused';
  }
}

function capturingLog() {
  const lines: { level: number; msg: string }[] = [];
  const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as { level: number; msg: string }) });
  return { log, lines };
}

test('max.connections.per.ip: the connection over the limit is closed at once, and logged at INFO', async () => {
  const { log, lines } = capturingLog();
  const broker = await startTestBroker({ 'max.connections.per.ip': '3' }, { logger: log });
  const clients: RawClient[] = [];
  try {
    for (let i = 0; i < 3; i++) clients.push(await connectFrom(broker.port));
    for (const client of clients) assert.equal(await outcome(client), 'served');
    const fourth = await connectFrom(broker.port);
    clients.push(fourth);
    assert.equal(await outcome(fourth), 'refused');
    const rejected = lines.filter((l) => l.msg.startsWith('Rejected connection'));
    assert.deepEqual(rejected.map((l) => [l.level, l.msg]), [[30, 'Rejected connection from 127.0.0.1, address already has the configured maximum of 3 connections.']]);
    // A slot freed is a slot again.
    await clients[0]!.close();
    const again = await connectFrom(broker.port);
    clients.push(again);
    assert.equal(await outcome(again), 'served');
    assert.equal(broker.stats().connections, 3);
  } finally {
    for (const client of clients) await client.close();
    await broker.close();
  }
});

test('max.connections.per.ip.overrides: host:count pairs override the limit per address', async () => {
  const broker = await startTestBroker({ 'max.connections.per.ip': '1', 'max.connections.per.ip.overrides': '127.0.0.2:2 , localhost:0' });
  const clients: RawClient[] = [];
  const attempt = async (from: string) => {
    const client = await connectFrom(broker.port, from);
    clients.push(client);
    return outcome(client);
  };
  try {
    // localhost resolves to 127.0.0.1 (as Kafka's InetAddress.getByName): no connection from it at all.
    assert.equal(await attempt('127.0.0.1'), 'refused');
    assert.deepEqual([await attempt('127.0.0.2'), await attempt('127.0.0.2'), await attempt('127.0.0.2')], ['served', 'served', 'refused']);
    assert.deepEqual([await attempt('127.0.0.3'), await attempt('127.0.0.3')], ['served', 'refused']);
  } finally {
    for (const client of clients) await client.close();
    await broker.close();
  }
});

test('max.connections: a connection over the limit waits, unanswered, until one closes', async () => {
  const broker = await startTestBroker({ 'max.connections': '2' });
  const clients: RawClient[] = [];
  try {
    for (let i = 0; i < 2; i++) clients.push(await connectFrom(broker.port));
    for (const client of clients) assert.equal(await outcome(client), 'served');
    const third = await connectFrom(broker.port);
    clients.push(third);
    await until(() => broker.stats().waitingConnections === 1, 'the third waits');
    assert.equal(third.received, 0);
    assert.equal(third.closed, false);
    await clients[0]!.close();
    assert.equal(await outcome(third), 'served');
    assert.deepEqual([broker.stats().connections, broker.stats().waitingConnections], [2, 0]);
  } finally {
    for (const client of clients) await client.close();
    await broker.close();
  }
});

test('the limits are dynamic broker configs: kafkajs sets and removes an override, and new connections follow it', async () => {
  const { log, lines } = capturingLog();
  const broker = await startTestBroker({}, { logger: log });
  const kafka = new Kafka({ clientId: 'quotas', brokers: [`127.0.0.1:${broker.port}`], logLevel: logLevel.NOTHING, retry: { retries: 0 } });
  const admin = kafka.admin();
  await admin.connect();
  const clients: RawClient[] = [];
  const attempt = async () => {
    const client = await connectFrom(broker.port, '127.0.0.2');
    clients.push(client);
    return outcome(client);
  };
  try {
    const alter = (value: string) =>
      admin.alterConfigs({ validateOnly: false, resources: [{ type: ConfigResourceTypes.BROKER, name: '1', configEntries: [{ name: 'max.connections.per.ip.overrides', value }] }] });
    await alter('127.0.0.2:1');
    assert.deepEqual([await attempt(), await attempt()], ['served', 'refused']);
    assert.ok(lines.some((l) => l.level === 30 && l.msg === 'Updating maxConnectionsPerIpOverrides: 127.0.0.2=1'));
    await alter('127.0.0.2:2');
    assert.deepEqual([await attempt(), await attempt()], ['served', 'refused']);
    // A value Kafka cannot parse is refused, and the limit stays.
    await assert.rejects(alter('127.0.0.2'), (err: { type?: string }) => err.type === 'INVALID_REQUEST');
    assert.equal(await attempt(), 'refused');
  } finally {
    for (const client of clients) await client.close();
    await admin.disconnect();
    await broker.close();
  }
});

test('the limits are checked at start-up as Kafka checks them', () => {
  assert.throws(() => resolveBrokerConfig({ 'max.connections.per.ip': '0' }), (err: unknown) =>
    err instanceof ConfigError && err.message === 'max.connections.per.ip can be set to zero only if max.connections.per.ip.overrides property is set.');
  assert.throws(() => resolveBrokerConfig({ 'max.connections.per.ip.overrides': 'host/1:2' }), /contains invalid addresses : host\/1/);
  assert.throws(() => resolveBrokerConfig({ 'max.connections.per.ip.overrides': '127.0.0.1:x' }), /"127.0.0.1:x" is not host:count/);
  assert.equal(resolveBrokerConfig({ 'max.connections.per.ip': '0', 'max.connections.per.ip.overrides': '::1:5' })['max.connections.per.ip'], 0);
});
