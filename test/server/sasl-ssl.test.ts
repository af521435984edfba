// SASL over TLS (SASL_SSL): the TLS listener and the SASL authenticator together, with kafkajs as the client.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Kafka, logLevel } from 'kafkajs';
import { resolveBrokerConfig, startBroker } from '../../src/index.js';
import { makeTestCa, STORE_PASSWORD } from '../security/tls/test-ca.js';

const ca = makeTestCa();
after(() => ca.remove());

test('SASL_SSL: PLAIN over TLS produces; a wrong password gets Kafka\'s PLAIN failure', async () => {
  const broker = await startBroker(resolveBrokerConfig({
    listeners: 'SASL_SSL://127.0.0.1:0',
    'sasl.enabled.mechanisms': 'PLAIN',
    'listener.name.sasl_ssl.plain.sasl.jaas.config': 'org.apache.kafka.common.security.plain.PlainLoginModule required user_alice="alice-secret";',
    'ssl.keystore.type': 'PKCS12', 'ssl.keystore.location': ca.serverP12, 'ssl.keystore.password': STORE_PASSWORD,
  }));
  try {
    const { port } = broker.addresses[0]!;
    const client = (password: string, retries: number) => new Kafka({
      brokers: [`localhost:${port}`], ssl: { ca: [readFileSync(ca.caCert)] }, sasl: { mechanism: 'plain', username: 'alice', password },
      logLevel: logLevel.NOTHING, retry: { retries },
    });
    const producer = client('alice-secret', 5).producer();
    await producer.connect();
    const [sent] = await producer.send({ topic: 't', messages: [{ value: 'x' }] });
    assert.deepEqual([sent!.errorCode, sent!.baseOffset], [0, '0']);
    await producer.disconnect();
    const refused = client('wrong', 0).producer();
    await assert.rejects(refused.connect(), /Authentication failed: Invalid username or password/);
  } finally {
    await broker.close();
  }
});
