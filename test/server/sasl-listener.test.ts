// SASL listener settings and what they do: per-listener mechanisms (listener.name.<l>.sasl.enabled.mechanisms over
// sasl.enabled.mechanisms), PLAIN users from the listener's JAAS config, start-up refusals in one line without the
// config's values, the authenticated principal, failures logged at INFO with no secret, and SaslHandshake/
// SaslAuthenticate on a PLAINTEXT listener answered ILLEGAL_SASL_STATE as Kafka 4.3.1 answers them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import pino from 'pino';
import { Kafka, logLevel } from 'kafkajs';
import { roundTrip, startTestBroker } from './broker-harness.js';
import { plainToken, SaslProbe } from './sasl-probe.js';
import { describeConfigsApi } from '../../src/protocol/generated/describe-configs.js';
import { RawClient } from './raw-client.js';

const JAAS = 'org.apache.kafka.common.security.plain.PlainLoginModule required user_alice="alice-secret";';

test('each SASL listener offers its own mechanisms', async () => {
  const broker = await startTestBroker({
    listeners: 'PLAINTEXT://127.0.0.1:0,A://127.0.0.1:0,B://127.0.0.1:0',
    'listener.security.protocol.map': 'PLAINTEXT:PLAINTEXT,A:SASL_PLAINTEXT,B:SASL_PLAINTEXT',
    'sasl.enabled.mechanisms': 'PLAIN',
    'listener.name.a.plain.sasl.jaas.config': JAAS,
    'listener.name.b.sasl.enabled.mechanisms': 'SCRAM-SHA-512,SCRAM-SHA-256',
  });
  try {
    const offered = async (port: number) => {
      const probe = await SaslProbe.connect(port);
      const answer = await probe.handshake('GSSAPI');
      await probe.close();
      return answer;
    };
    assert.equal(await offered(broker.addresses[1]!.port), 'SaslHandshake error 33 mechanisms PLAIN');
    assert.equal(await offered(broker.addresses[2]!.port), 'SaslHandshake error 33 mechanisms SCRAM-SHA-512,SCRAM-SHA-256');
  } finally {
    await broker.close();
  }
});

test('a failed authentication is logged at INFO with its reason, never a password; success names the principal', async () => {
  const lines: string[] = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => void lines.push(line) });
  const broker = await startTestBroker({
    listeners: 'SASL_PLAINTEXT://127.0.0.1:0', 'sasl.enabled.mechanisms': 'PLAIN', 'listener.name.sasl_plaintext.plain.sasl.jaas.config': JAAS,
  }, { logger });
  try {
    const wrong = await SaslProbe.connect(broker.port);
    await wrong.handshake('PLAIN');
    await wrong.authenticate(plainToken('alice', 'not-the-password'));
    await wrong.client.whenClosed;
    const right = await SaslProbe.connect(broker.port);
    await right.handshake('PLAIN');
    await right.authenticate(plainToken('alice', 'alice-secret'));
    assert.equal(await right.metadata(), 'Metadata topics probe-topic:3');
    await right.close();
  } finally {
    await broker.close();
  }
  const records = lines.map((line) => JSON.parse(line) as { level: number; msg: string; principal?: string });
  const failed = records.filter((r) => r.msg.startsWith('Failed authentication'));
  assert.equal(failed.length, 1);
  assert.equal(failed[0]!.level, 30);
  assert.match(failed[0]!.msg, /^Failed authentication with 127\.0\.0\.1:\d+ \(Authentication failed: Invalid username or password\)$/);
  assert.deepEqual(records.filter((r) => r.msg === 'SASL authentication complete').map((r) => r.principal), ['User:alice']);
  assert.ok(lines.every((line) => !line.includes('alice-secret') && !line.includes('not-the-password')), 'no password is logged');
});

test('a SASL listener gregor cannot serve as configured stops the start in one line without the values', async () => {
  const start = (settings: Record<string, string>) => startTestBroker({ listeners: 'SASL_PLAINTEXT://127.0.0.1:0', ...settings });
  await assert.rejects(start({}), { message: 'sasl.enabled.mechanisms: GSSAPI is not served by gregor on listener SASL_PLAINTEXT (PLAIN, SCRAM-SHA-256, SCRAM-SHA-512, OAUTHBEARER are)' });
  await assert.rejects(start({ 'sasl.enabled.mechanisms': 'PLAIN' }),
    /^Error: listener\.name\.sasl_plaintext\.plain\.sasl\.jaas\.config is not set: PLAIN on listener SASL_PLAINTEXT takes its users from it/);
  await assert.rejects(start({ 'sasl.enabled.mechanisms': 'PLAIN', 'listener.name.sasl_plaintext.plain.sasl.jaas.config': 'org.apache.kafka.common.security.plain.PlainLoginModule required user_alice="s3cret"' }),
    { message: 'listener.name.sasl_plaintext.plain.sasl.jaas.config: JAAS config entry not terminated by semi-colon' });
  await assert.rejects(start({ 'listener.name.sasl_plaintext.sasl.enabled.mechanisms': 'SCRAM-SHA-1' }),
    { message: 'listener.name.sasl_plaintext.sasl.enabled.mechanisms: SCRAM-SHA-1 is not served by gregor on listener SASL_PLAINTEXT (PLAIN, SCRAM-SHA-256, SCRAM-SHA-512, OAUTHBEARER are)' });
});

test('on a PLAINTEXT listener SaslHandshake and SaslAuthenticate get ILLEGAL_SASL_STATE, as from Kafka 4.3.1', async () => {
  const broker = await startTestBroker();
  try {
    const probe = await SaslProbe.connect(broker.port);
    assert.deepEqual([
      await probe.handshake('PLAIN'), await probe.authenticate(plainToken('alice', 'alice-secret')),
      await probe.handshake('PLAIN', 0), await probe.authenticate(Buffer.alloc(0), 0), await probe.metadata(),
    ], [
      'SaslHandshake error 34 mechanisms ',
      'SaslAuthenticate error 34 message SaslAuthenticate request received after successful authentication lifetime 0',
      'SaslHandshake error 34 mechanisms ',
      'SaslAuthenticate error 34 message SaslAuthenticate request received after successful authentication lifetime -',
      'Metadata topics probe-topic:3',
    ]);
    await probe.close();
  } finally {
    await broker.close();
  }
});

test('DescribeConfigs lists per-listener settings as Kafka 4.3.1 does: a JAAS config sensitive and null', async () => {
  const broker = await startTestBroker({
    listeners: 'PLAINTEXT://127.0.0.1:0,SASL_PLAINTEXT://127.0.0.1:0', 'node.id': '1', 'sasl.enabled.mechanisms': 'PLAIN',
    'listener.name.sasl_plaintext.plain.sasl.jaas.config': JAAS,
    'listener.name.sasl_plaintext.sasl.enabled.mechanisms': 'PLAIN',
  });
  try {
    const client = await RawClient.connect(broker.port);
    const response = await roundTrip(client, describeConfigsApi, 4, {
      resources: [{ resourceType: 4, resourceName: '1', configurationKeys: null }], includeSynonyms: true, includeDocumentation: true,
    });
    await client.close();
    const described = response.results[0]!.configs.filter((e) => e.name.startsWith('listener.name.'));
    assert.deepEqual(described, [
      { name: 'listener.name.sasl_plaintext.plain.sasl.jaas.config', value: null, readOnly: true, configSource: 4, isSensitive: true,
        synonyms: [{ name: 'listener.name.sasl_plaintext.plain.sasl.jaas.config', value: null, source: 4 }], configType: 9, documentation: null },
      { name: 'listener.name.sasl_plaintext.sasl.enabled.mechanisms', value: 'PLAIN', readOnly: true, configSource: 4, isSensitive: false,
        synonyms: [{ name: 'listener.name.sasl_plaintext.sasl.enabled.mechanisms', value: 'PLAIN', source: 4 },
          { name: 'sasl.enabled.mechanisms', value: 'PLAIN', source: 4 }, { name: 'sasl.enabled.mechanisms', value: 'GSSAPI', source: 5 }],
        configType: 7, documentation: null },
    ]);
  } finally {
    await broker.close();
  }
});

test('before authentication a frame over sasl.server.max.receive.size closes the connection, as Kafka 4.3.1 does; after it, larger requests pass', async () => {
  const broker = await startTestBroker({
    listeners: 'SASL_PLAINTEXT://127.0.0.1:0', 'sasl.enabled.mechanisms': 'PLAIN', 'listener.name.sasl_plaintext.plain.sasl.jaas.config': JAAS,
  });
  try {
    const probe = await SaslProbe.connect(broker.port);
    const size = Buffer.alloc(4);
    size.writeInt32BE(600_000);
    probe.client.sendRaw(Buffer.concat([size, Buffer.alloc(1000)]));
    await probe.client.whenClosed;

    const kafka = new Kafka({ brokers: [`127.0.0.1:${broker.port}`], sasl: { mechanism: 'plain', username: 'alice', password: 'alice-secret' }, logLevel: logLevel.NOTHING });
    const producer = kafka.producer();
    await producer.connect();
    const [sent] = await producer.send({ topic: 'big', messages: [{ value: Buffer.alloc(700_000, 1) }] });
    assert.equal(sent!.errorCode, 0);
    await producer.disconnect();
  } finally {
    await broker.close();
  }
});
