// Re-authentication (KIP-368) on a SASL_PLAINTEXT listener with connections.max.reauth.ms=2000: the session lifetime
// in SaslAuthenticate v1+, re-authentication keeping user and mechanism, a session that ended closes the connection,
// at most one re-authentication a second; exactly what Kafka 4.3.1's reference broker answered, configured the same way.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestBroker } from './broker-harness.js';
import { REAUTH_MS, runReauthScenarios } from './sasl-reauth-scenarios.js';

let broker: Awaited<ReturnType<typeof startTestBroker>>;

before(async () => {
  broker = await startTestBroker({
    listeners: 'PLAINTEXT://127.0.0.1:0,SASL_PLAINTEXT://127.0.0.1:0',
    'sasl.enabled.mechanisms': 'PLAIN,SCRAM-SHA-512,SCRAM-SHA-256',
    'listener.name.sasl_plaintext.plain.sasl.jaas.config':
      'org.apache.kafka.common.security.plain.PlainLoginModule required user_alice="alice-secret" user_bob="bob-secret";',
    'connections.max.reauth.ms': String(REAUTH_MS),
  });
});
after(async () => {
  await broker?.close();
});

test('re-authentication scenarios get what Kafka 4.3.1 answered', { timeout: 60_000 }, async () => {
  assert.deepEqual(await runReauthScenarios(broker.addresses[1]!.port), {
    "the session lifetime, then re-authentication as the same user": ["SaslHandshake error 0 mechanisms PLAIN,SCRAM-SHA-512,SCRAM-SHA-256", "SaslAuthenticate error 0 message  lifetime 2000", "Metadata topics probe-topic:3", "SaslHandshake error 0 mechanisms PLAIN,SCRAM-SHA-512,SCRAM-SHA-256", "SaslAuthenticate error 0 message  lifetime 2000", "Metadata topics probe-topic:3"],
    "SaslAuthenticate v0 learns no lifetime; the session still ends": ["SaslHandshake error 0 mechanisms PLAIN,SCRAM-SHA-512,SCRAM-SHA-256", "SaslAuthenticate error 0 message  lifetime -", "Metadata topics probe-topic:3"],
    "re-authentication as another user": ["SaslHandshake error 0 mechanisms PLAIN,SCRAM-SHA-512,SCRAM-SHA-256", "SaslAuthenticate error 0 message  lifetime 2000", "SaslHandshake error 0 mechanisms PLAIN,SCRAM-SHA-512,SCRAM-SHA-256", "SaslAuthenticate error 58 message Cannot change principals during re-authentication from User.alice: User.bob lifetime 0", "closed"],
    "re-authentication with another mechanism": ["SaslHandshake error 0 mechanisms PLAIN,SCRAM-SHA-512,SCRAM-SHA-256", "SaslAuthenticate error 0 message  lifetime 2000", "SaslHandshake error 0 mechanisms PLAIN,SCRAM-SHA-512,SCRAM-SHA-256", "closed", "closed"],
    "a request after the session ended": ["SaslHandshake error 0 mechanisms PLAIN,SCRAM-SHA-512,SCRAM-SHA-256", "SaslAuthenticate error 0 message  lifetime 2000", "closed"],
    "re-authentication twice within a second": ["SaslHandshake error 0 mechanisms PLAIN,SCRAM-SHA-512,SCRAM-SHA-256", "SaslAuthenticate error 0 message  lifetime 2000", "SaslHandshake error 0 mechanisms PLAIN,SCRAM-SHA-512,SCRAM-SHA-256", "SaslAuthenticate error 0 message  lifetime 2000", "SaslHandshake error 34 mechanisms ", "SaslAuthenticate error 34 message SaslAuthenticate request received after successful authentication lifetime 0", "Metadata topics probe-topic:3"],
  });
});
