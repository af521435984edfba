// OAUTHBEARER with kafkajs, the Java client and confluent-kafka against gregor (test/e2e/oauthbearer-client-scenarios.ts):
// each sees what it saw against Kafka 4.3.1's reference broker configured the same way.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveBrokerConfig } from '../../src/config/index.js';
import { startBroker, type Broker } from '../../src/server/broker.js';
import { installJavaTools } from './java-tools.js';
import { OAUTH_JAAS, installClients, observeClients } from './oauthbearer-client-scenarios.js';

const dir = mkdtempSync(join(tmpdir(), 'gregor-oauth-clients-'));
let broker: Broker;

before(async () => {
  installJavaTools();
  await installClients();
  broker = await startBroker(resolveBrokerConfig({
    listeners: 'PLAINTEXT://127.0.0.1:0,SASL_PLAINTEXT://127.0.0.1:0',
    'sasl.enabled.mechanisms': 'OAUTHBEARER',
    'listener.name.sasl_plaintext.oauthbearer.sasl.jaas.config': OAUTH_JAAS,
  }));
});
after(async () => {
  await broker?.close();
  rmSync(dir, { recursive: true, force: true });
});

test('kafkajs, the Java client and confluent-kafka over OAUTHBEARER see what they saw against Kafka 4.3.1', { timeout: 300_000 }, async () => {
  assert.deepEqual(await observeClients(`127.0.0.1:${broker.addresses[1]!.port}`, dir), {
    "kafkajs, a valid token": "read over OAUTHBEARER",
    "kafkajs, an expired token": "KafkaJSConnectionClosedError: Closed connection",
    "Java, a token with the scope": "exit 0: ",
    "Java, a token without it": "exit 1: Error while executing topic command : {\"status\":\"insufficient_scope\", \"scope\":\"[kafka]\"}",
    "confluent-kafka, a token with the scope": "delivered |",
    "confluent-kafka, a token without it": "not delivered | sasl_plaintext://<bootstrap>/bootstrap: SASL authentication error: {\"status\":\"insufficient_scope\", \"scope\":\"[kafka]\"} (in state AUTH_REQ)",
  });
});
