// SASL on a SASL_PLAINTEXT listener, driven by a raw client: the state machine and each error, exactly as Kafka 4.3.1's
// reference broker answered the same scenarios (test/server/sasl-scenarios.ts) when configured the same way:
// sasl.enabled.mechanisms=PLAIN,SCRAM-SHA-512,SCRAM-SHA-256, PLAIN user alice/alice-secret from the listener's JAAS
// config, SCRAM-SHA-512 credential for alice (8192 iterations) made with AlterUserScramCredentials.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes, pbkdf2Sync } from 'node:crypto';
import { startTestBroker, roundTrip } from './broker-harness.js';
import { RawClient } from './raw-client.js';
import { runScenarios } from './sasl-scenarios.js';
import { alterUserScramCredentialsApi } from '../../src/protocol/generated/alter-user-scram-credentials.js';

let broker: Awaited<ReturnType<typeof startTestBroker>>;
let saslPort: number;

export const SASL_SETTINGS: Record<string, string> = {
  listeners: 'PLAINTEXT://127.0.0.1:0,SASL_PLAINTEXT://127.0.0.1:0',
  'sasl.enabled.mechanisms': 'PLAIN,SCRAM-SHA-512,SCRAM-SHA-256',
  'listener.name.sasl_plaintext.plain.sasl.jaas.config': 'org.apache.kafka.common.security.plain.PlainLoginModule required user_alice="alice-secret";',
};

before(async () => {
  broker = await startTestBroker(SASL_SETTINGS);
  saslPort = broker.addresses[1]!.port;
  const client = await RawClient.connect(broker.port);
  const salt = randomBytes(16);
  const response = await roundTrip(client, alterUserScramCredentialsApi, 0, {
    deletions: [],
    upsertions: [{ name: 'alice', mechanism: 2, iterations: 8192, salt, saltedPassword: pbkdf2Sync('alice-secret', salt, 8192, 64, 'sha512') }],
  });
  assert.deepEqual(response.results, [{ user: 'alice', errorCode: 0, errorMessage: null }]);
  await client.close();
});
after(async () => {
  await broker?.close();
});

test('every SASL scenario gets what Kafka 4.3.1 answered', async () => {
  assert.deepEqual(await runScenarios(saslPort), {
  "a request before the handshake": ["closed"],
  "ApiVersions, then a request before the handshake": ["ApiVersions error 0", "closed"],
  "ApiVersions twice": ["ApiVersions error 0", "closed"],
  "a mechanism not enabled": ["SaslHandshake error 33 mechanisms PLAIN,SCRAM-SHA-512,SCRAM-SHA-256", "closed"],
  "a request other than SaslAuthenticate after the handshake": ["SaslHandshake error 0 mechanisms PLAIN,SCRAM-SHA-512,SCRAM-SHA-256", "Metadata topics probe-topic:34", "closed"],
  "PLAIN, wrong password": ["SaslHandshake error 0 mechanisms PLAIN,SCRAM-SHA-512,SCRAM-SHA-256", "SaslAuthenticate error 58 message Authentication failed: Invalid username or password lifetime 0", "closed"],
  "PLAIN, unknown user": ["SaslHandshake error 0 mechanisms PLAIN,SCRAM-SHA-512,SCRAM-SHA-256", "SaslAuthenticate error 58 message Authentication failed: Invalid username or password lifetime 0"],
  "PLAIN, empty password": ["SaslHandshake error 0 mechanisms PLAIN,SCRAM-SHA-512,SCRAM-SHA-256", "SaslAuthenticate error 58 message Authentication failed: password not specified lifetime 0"],
  "PLAIN, another authorization id": ["SaslHandshake error 0 mechanisms PLAIN,SCRAM-SHA-512,SCRAM-SHA-256", "SaslAuthenticate error 58 message Authentication failed: Client requested an authorization id that is different from username lifetime 0"],
  "PLAIN, then requests, SaslHandshake and SaslAuthenticate again": ["ApiVersions error 0", "SaslHandshake error 0 mechanisms PLAIN,SCRAM-SHA-512,SCRAM-SHA-256", "SaslAuthenticate error 0 message  lifetime 0", "Metadata topics probe-topic:3", "SaslHandshake error 34 mechanisms ", "SaslAuthenticate error 34 message SaslAuthenticate request received after successful authentication lifetime 0", "ApiVersions error 0"],
  "PLAIN with SaslAuthenticate v0 and v1": ["SaslHandshake error 0 mechanisms PLAIN,SCRAM-SHA-512,SCRAM-SHA-256", "SaslAuthenticate error 0 message  lifetime -", "Metadata topics probe-topic:3"],
  "PLAIN with a v0 handshake and a raw token": ["SaslHandshake error 0 mechanisms PLAIN,SCRAM-SHA-512,SCRAM-SHA-256", "raw 0 bytes", "Metadata topics probe-topic:3"],
  "PLAIN with a v0 handshake and a wrong raw token": ["SaslHandshake error 0 mechanisms PLAIN,SCRAM-SHA-512,SCRAM-SHA-256", "closed"],
  "SCRAM-SHA-512": ["SaslHandshake error 0 mechanisms PLAIN,SCRAM-SHA-512,SCRAM-SHA-256", "SaslAuthenticate error 0 message  lifetime 0", "SaslAuthenticate error 0 message  lifetime 0", "server signature", "Metadata topics probe-topic:3"],
  "SCRAM-SHA-512, wrong password": ["SaslHandshake error 0 mechanisms PLAIN,SCRAM-SHA-512,SCRAM-SHA-256", "SaslAuthenticate error 0 message  lifetime 0", "SaslAuthenticate error 58 message Authentication failed during authentication due to invalid credentials with SASL mechanism SCRAM-SHA-512 lifetime 0"],
  "SCRAM-SHA-512, the client nonce repeated in the final message (librdkafka 2.0.x)": ["SaslHandshake error 0 mechanisms PLAIN,SCRAM-SHA-512,SCRAM-SHA-256", "SaslAuthenticate error 0 message  lifetime 0", "SaslAuthenticate error 58 message Authentication failed during authentication due to invalid credentials with SASL mechanism SCRAM-SHA-512 lifetime 0"],
  "SCRAM-SHA-512, unknown user": ["SaslHandshake error 0 mechanisms PLAIN,SCRAM-SHA-512,SCRAM-SHA-256", "SaslAuthenticate error 58 message Authentication failed during authentication due to invalid credentials with SASL mechanism SCRAM-SHA-512 lifetime 0"],
  "SCRAM-SHA-256 without a credential for it": ["SaslHandshake error 0 mechanisms PLAIN,SCRAM-SHA-512,SCRAM-SHA-256", "SaslAuthenticate error 58 message Authentication failed during authentication due to invalid credentials with SASL mechanism SCRAM-SHA-256 lifetime 0"],
  "SCRAM-SHA-512 with tokenauth and no delegation tokens": ["SaslHandshake error 0 mechanisms PLAIN,SCRAM-SHA-512,SCRAM-SHA-256", "SaslAuthenticate error 58 message Authentication failed during authentication due to invalid credentials with SASL mechanism SCRAM-SHA-512 lifetime 0"],
  "SCRAM-SHA-512, a malformed first message": ["SaslHandshake error 0 mechanisms PLAIN,SCRAM-SHA-512,SCRAM-SHA-256", "SaslAuthenticate error 58 message Authentication failed during authentication due to invalid credentials with SASL mechanism SCRAM-SHA-512 lifetime 0"],
});
});
