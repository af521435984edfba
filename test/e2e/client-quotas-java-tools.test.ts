// Kafka 4.3.1's kafka-configs sets, removes and describes client quotas (users, clients, ips, defaults,
// user+client-id) on gregor; every line expected is what it printed against Kafka 4.3.1's reference broker
// for the same commands in the same order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runJavaTool, runJavaToolOk, sharedToolsBroker } from './java-tools.js';

const tools = sharedToolsBroker();

const configs = (...args: string[]) => runJavaToolOk('kafka-configs', ['--bootstrap-server', tools.bootstrap, ...args]);
const configsRun = (...args: string[]) => runJavaTool('kafka-configs', ['--bootstrap-server', tools.bootstrap, ...args]);
/** The stdout lines, without the trailing empty one. */
const lines = (stdout: string) => stdout.split('\n').filter((line) => line !== '');

test('kafka-configs --alter --add-config/--delete-config of quotas, then --describe, print what Kafka prints', { timeout: 600_000 }, async () => {
  const alter = (...args: string[]) => configs('--alter', ...args);
  assert.equal(await alter('--entity-type', 'users', '--entity-name', 'alice', '--add-config', 'producer_byte_rate=1024,consumer_byte_rate=2048,request_percentage=50'),
    'Completed updating config for user alice.\n');
  assert.equal(await alter('--entity-type', 'users', '--entity-name', 'alice', '--entity-type', 'clients', '--entity-name', 'app1', '--add-config', 'producer_byte_rate=100'),
    'Completed updating config for user alice.\n');
  assert.equal(await alter('--entity-type', 'clients', '--entity-default', '--add-config', 'consumer_byte_rate=999'),
    'Completed updating default config for clients in the cluster.\n');
  assert.equal(await alter('--entity-type', 'users', '--entity-default', '--entity-type', 'clients', '--entity-default', '--add-config', 'producer_byte_rate=77'),
    'Completed updating default config for users in the cluster.\n');
  assert.equal(await alter('--entity-type', 'ips', '--entity-name', '10.0.0.1', '--add-config', 'connection_creation_rate=5'),
    'Completed updating config for ip 10.0.0.1.\n');
  assert.equal(await alter('--entity-type', 'ips', '--entity-default', '--add-config', 'connection_creation_rate=9'),
    'Completed updating default config for ips in the cluster.\n');
  assert.equal(await alter('--entity-type', 'users', '--entity-name', 'alice', '--delete-config', 'consumer_byte_rate'),
    'Completed updating config for user alice.\n');

  const describe = async (...args: string[]) => lines(await configs('--describe', ...args));
  assert.deepEqual(await describe('--entity-type', 'users', '--entity-default'), []);
  assert.deepEqual(await describe('--entity-type', 'clients'), ['Quota configs for the default client-id are consumer_byte_rate=999.0']);
  assert.deepEqual(await describe('--entity-type', 'clients', '--entity-default'), ['Quota configs for the default client-id are consumer_byte_rate=999.0']);
  assert.deepEqual(await describe('--entity-type', 'users', '--entity-type', 'clients'), [
    "Quota configs for user-principal 'alice', client-id 'app1' are producer_byte_rate=100.0",
    'Quota configs for the default user-principal, the default client-id are producer_byte_rate=77.0',
  ]);
  assert.deepEqual(await describe('--entity-type', 'users', '--entity-name', 'alice', '--entity-type', 'clients'),
    ["Quota configs for user-principal 'alice', client-id 'app1' are producer_byte_rate=100.0"]);
  assert.deepEqual(await describe('--entity-type', 'users', '--entity-default', '--entity-type', 'clients', '--entity-default'),
    ['Quota configs for the default user-principal, the default client-id are producer_byte_rate=77.0']);
  assert.deepEqual(await describe('--entity-type', 'ips'), [
    "Quota configs for ip '10.0.0.1' are connection_creation_rate=5.0",
    'Quota configs for the default ip are connection_creation_rate=9.0',
  ]);
  assert.deepEqual(await describe('--entity-type', 'ips', '--entity-default'), ['Quota configs for the default ip are connection_creation_rate=9.0']);
  assert.deepEqual(await describe('--entity-type', 'ips', '--entity-name', '10.0.0.1'), ["Quota configs for ip '10.0.0.1' are connection_creation_rate=5.0"]);

  // Describing users by name (or all users) also asks for their SCRAM credentials (DescribeUserScramCredentials):
  // alice has none, so Kafka prints the quotas alone and exits 0.
  const alice = await configsRun('--describe', '--entity-type', 'users', '--entity-name', 'alice');
  assert.deepEqual(lines(alice.stdout), ["Quota configs for user-principal 'alice' are request_percentage=50.0, producer_byte_rate=1024.0"]);
  assert.equal(alice.code, 0);
});

test('kafka-configs: quota values and entities the broker refuses, with Kafka\'s messages', { timeout: 600_000 }, async () => {
  const refused = async (message: string, ...args: string[]) => {
    const run = await configsRun('--alter', ...args);
    assert.equal(run.code, 1, args.join(' '));
    assert.ok((run.stdout + run.stderr).includes(`org.apache.kafka.common.errors.InvalidRequestException: ${message}`), `${args.join(' ')}: ${run.stdout}${run.stderr}`);
  };
  await refused('producer_byte_rate cannot be a fractional value.', '--entity-type', 'users', '--entity-name', 'bob', '--add-config', 'producer_byte_rate=1.5');
  await refused('Quota producer_byte_rate must be greater than 0', '--entity-type', 'users', '--entity-name', 'bob', '--add-config', 'producer_byte_rate=-5');
  assert.deepEqual(lines(await configs('--describe', '--entity-type', 'users', '--entity-default')), []);
});
